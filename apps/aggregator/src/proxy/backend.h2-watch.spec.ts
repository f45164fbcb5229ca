import { once } from 'node:events';
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createSecureServer, type Http2SecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isStatusError } from '@kube/apimachinery';
import { createCertificateAuthority, issueCertificate, type IssuedCertificate } from '@kube/pki';
import { proxyRequest } from './backend.proxy';
import { BackendAgents, type BackendTarget } from './backend.target';
import { until } from './backend.testing';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let caPem = '';
let serving: IssuedCertificate;
let agents: BackendAgents;
let client: IssuedCertificate;
const servers: Array<HttpServer | HttpsServer | Http2SecureServer> = [];

beforeAll(async () => {
  const ca = await createCertificateAuthority({ commonName: 'h2-watch-spec-ca' });
  caPem = ca.certPem;
  serving = await issueCertificate(ca, { commonName: 'backend', ipAddresses: ['127.0.0.1'], usage: 'server' });
  client = await issueCertificate(ca, { commonName: 'front-proxy-client', usage: 'client' });
});

beforeEach(() => {
  agents = new BackendAgents({ certPem: client.certPem, keyPem: client.keyPem }, undefined, true);
});

afterEach(async () => {
  // An h2 server closes once its sessions do: the pool's go first.
  agents.destroy();
  for (const s of servers.splice(0)) {
    (s as HttpServer).closeAllConnections?.();
    await new Promise((r) => s.close(r));
  }
});


/** A backend serving h2 and HTTP/1.1 (as core-api does), or HTTP/1.1 only. */
async function backend(handler: Handler, http2 = true): Promise<BackendTarget> {
  const server = http2
    ? createSecureServer({ cert: serving.certPem, key: serving.keyPem, allowHTTP1: true, settings: { maxConcurrentStreams: 1000 } }, handler as unknown as (req: Http2ServerRequest, res: Http2ServerResponse) => void)
    : createHttpsServer({ cert: serving.certPem, key: serving.keyPem }, handler);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { name: 'spec-backend', url: new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}`), caPem };
}

/** The front: every request proxied as a watch; outcomes are what proxyRequest settled with. */
async function front(target: BackendTarget): Promise<{ port: number; outcomes: Array<number | string> }> {
  const outcomes: Array<number | string> = [];
  const server = createHttpServer((req, res) => {
    proxyRequest(req, res, target, { name: 'alice', groups: ['devs', 'ops'] }, agents, undefined, true).then(
      (code) => outcomes.push(code),
      (err: unknown) => {
        outcomes.push(isStatusError(err) ? `${err.status.code} ${err.status.message}` : String(err));
        if (!res.headersSent) res.writeHead(isStatusError(err) ? err.status.code : 500).end();
      },
    );
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, outcomes };
}

/** A watch at the front: its status, headers, and the body as it arrives. */
function watch(port: number): Promise<{ res: IncomingMessage; body: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/v1/configmaps?watch=true' }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      const ended = new Promise<void>((r) => res.once('close', () => r()));
      res.on('error', () => undefined);
      resolve({ res, body: () => body, ended });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('proxyRequest of a watch over the backend\'s HTTP/2 pool', () => {
  it('relays the watch over h2, events framed as chunks to an HTTP/1.1 client, identity in the fields', async () => {
    const seen: Array<{ version: string; authority?: string; user?: string; groups?: string }> = [];
    let backendRes: Http2ServerResponse | undefined;
    const target = await backend((req, res) => {
      seen.push({ version: req.httpVersion, authority: req.headers[':authority'] as string | undefined, user: req.headers['x-remote-user'] as string, groups: String(req.headers['x-remote-group']) });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Audit-Id': 'backend-id' });
      res.write('{"type":"ADDED"}\n');
      backendRes = res as unknown as Http2ServerResponse;
    });
    const { port } = await front(target);
    const w = await watch(port);
    expect(w.res.statusCode).toBe(200);
    expect(w.res.headers['transfer-encoding']).toBe('chunked');
    expect(w.res.headers['audit-id']).toBeUndefined();
    await until(() => w.body() === '{"type":"ADDED"}\n');
    backendRes?.write('{"type":"MODIFIED"}\n');
    await until(() => w.body().endsWith('{"type":"MODIFIED"}\n'));
    backendRes?.end();
    await w.ended;
    expect(seen).toEqual([{ version: '2.0', authority: target.url.host, user: 'alice', groups: 'devs, ops' }]);
  });

  it('resets the backend stream when the client goes away (the backend\'s watch ends)', async () => {
    let backendClosed = false;
    const target = await backend((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED"}\n');
      res.on('close', () => (backendClosed = true));
    });
    const { port, outcomes } = await front(target);
    const w = await watch(port);
    await until(() => w.body().length > 0);
    w.res.destroy();
    await until(() => backendClosed);
    await until(() => outcomes.length === 1);
    expect(agents.h2PoolFor(target)?.streamCount).toBe(0);
  });

  it('cuts the client\'s response when the backend stream fails mid-watch', async () => {
    const target = await backend((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED"}\n');
      setTimeout(() => (res as unknown as Http2ServerResponse).stream.close(2), 50);
    });
    const { port } = await front(target);
    const w = await watch(port);
    await w.ended;
    expect(w.res.complete).toBe(false);
  });

  it('passes a sized answer (an error Status) as it came', async () => {
    const target = await backend((_req, res) => {
      res.writeHead(410, { 'Content-Type': 'application/json', 'Content-Length': '17' });
      res.end('{"kind":"Status"}');
    });
    const { port, outcomes } = await front(target);
    const w = await watch(port);
    await w.ended;
    expect(w.res.statusCode).toBe(410);
    expect(w.body()).toBe('{"kind":"Status"}');
    await until(() => outcomes.length === 1);
    expect(outcomes).toEqual([410]);
  });

  it('refuses a backend redirect (502), as the HTTP/1.1 path does', async () => {
    const target = await backend((_req, res) => {
      res.writeHead(302, { Location: 'https://elsewhere.example/' });
      res.end();
    });
    const { port, outcomes } = await front(target);
    const w = await watch(port);
    await w.ended;
    expect(w.res.statusCode).toBe(502);
    expect(outcomes).toEqual(['502 the backend attempted to redirect this request, which is not permitted']);
  });

  it('falls back to HTTP/1.1 for a backend that does not speak h2', async () => {
    const versions: string[] = [];
    const target = await backend((req, res) => {
      versions.push(req.httpVersion);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"type":"ADDED"}\n');
    }, false);
    const { port } = await front(target);
    for (let i = 0; i < 2; i++) {
      const w = await watch(port);
      await w.ended;
      expect(w.body()).toBe('{"type":"ADDED"}\n');
    }
    expect(versions).toEqual(['1.1', '1.1']);
  });

  it('answers 503 when the backend cannot be reached', async () => {
    const target = await backend(() => undefined);
    await new Promise((r) => servers.splice(0)[0].close(r));
    const { port, outcomes } = await front(target);
    const w = await watch(port);
    await w.ended;
    expect(w.res.statusCode).toBe(503);
    expect(String(outcomes[0])).toMatch(/^503 error trying to reach service: .*ECONNREFUSED/);
  });
});
