import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isStatusError } from '@kube/apimachinery';
import { ensurePki } from '@kube/pki';
import { tempDir } from '@kube/testing';
import { proxyRequest } from './backend.proxy';
import { BackendAgents, type BackendTarget } from './backend.target';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A request to the front (plain HTTP here: the front door's TLS is not what is under test). */
function send(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string | string[]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    for (const part of Array.isArray(body) ? body : body !== undefined ? [body] : []) req.write(part);
    req.end();
  });
}

describe('proxyRequest (the lean HTTP/1.1 client to the backends)', () => {
  let pki: Awaited<ReturnType<typeof ensurePki>>;
  let backend: HttpsServer;
  let front: HttpServer;
  let frontPort = 0;
  let target: BackendTarget;
  let agents: BackendAgents;
  let handler: Handler;
  const connections: Socket[] = [];
  const seen: IncomingMessage[] = [];

  beforeAll(async () => {
    pki = await ensurePki(join(tempDir('backend-proxy'), 'pki'));
    backend = createHttpsServer({ cert: readFileSync(pki.apiserverCert), key: readFileSync(pki.apiserverKey), keepAliveTimeout: 60_000 }, (req, res) => {
      seen.push(req);
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => (body += d));
      req.on('end', () => handler(req, res, body));
    });
    backend.on('secureConnection', (s: Socket) => connections.push(s));
    await new Promise<void>((r) => backend.listen(0, '127.0.0.1', () => r()));
    target = { name: 'test', url: new URL(`https://127.0.0.1:${(backend.address() as AddressInfo).port}`), caPem: readFileSync(pki.caCert, 'utf8') };
    agents = new BackendAgents({ certPem: readFileSync(pki.frontProxyClientCert, 'utf8'), keyPem: readFileSync(pki.frontProxyClientKey, 'utf8') });
    front = createHttpServer((req, res) => {
      res.setHeader('Audit-Id', 'front-id');
      proxyRequest(req, res, target, { name: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { 'scopes.example/a b': ['x', 'y'] } }, agents).catch((err: unknown) => {
        const code = isStatusError(err) ? err.code : 500;
        if (!res.headersSent) res.writeHead(code, { 'Content-Type': 'text/plain' });
        res.end(err instanceof Error ? err.message : String(err));
      });
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', () => r()));
    frontPort = (front.address() as AddressInfo).port;
  });

  afterAll(async () => {
    agents?.destroy();
    front?.closeAllConnections();
    backend?.closeAllConnections();
    await Promise.all([new Promise((r) => front?.close(r)), new Promise((r) => backend?.close(r))]);
  });

  beforeEach(() => {
    seen.length = 0;
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Audit-Id': 'backend-id' });
      res.end('{"ok":true}');
    };
  });

  it('forwards the identity and X-Forwarded-*, strips credentials and client-sent identity, answers the backend response', async () => {
    const r = await send(frontPort, 'GET', '/api/v1/namespaces?limit=1', { Authorization: 'Bearer secret', 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:masters', 'Impersonate-User': 'bob', Accept: 'application/json', 'X-Forwarded-For': '10.0.0.1' });
    expect(r).toMatchObject({ status: 200, body: '{"ok":true}' });
    expect(r.headers['audit-id']).toBe('front-id');
    expect(r.headers['content-type']).toBe('application/json');
    const h = seen[0].headers;
    expect(seen[0].url).toBe('/api/v1/namespaces?limit=1');
    expect(h.authorization).toBeUndefined();
    expect(h['impersonate-user']).toBeUndefined();
    expect(h['x-remote-user']).toBe('alice');
    expect(h['x-remote-uid']).toBe('u-1');
    expect(seen[0].rawHeaders.filter((_, i, all) => i % 2 === 0 && all[i].toLowerCase() === 'x-remote-group').length).toBe(2);
    expect(h['x-remote-group']).toBe('devs, system:authenticated');
    // Names are case-insensitive (Node lower-cases them): %2F arrives as %2f.
    expect(h['x-remote-extra-scopes.example%2fa%20b']).toBe('x, y');
    expect(h.accept).toBe('application/json');
    expect(h.host).toBe(target.url.host);
    expect(h['x-forwarded-for']).toBe('10.0.0.1, 127.0.0.1');
    expect(h['x-forwarded-proto']).toBe('https');
    expect(h['x-forwarded-uri']).toBe('/api/v1/namespaces?limit=1');
  });

  it('keeps one backend connection for sequential requests', async () => {
    const before = connections.length;
    for (let i = 0; i < 5; i++) expect((await send(frontPort, 'GET', '/api/v1/x')).status).toBe(200);
    expect(connections.length - before).toBeLessThanOrEqual(1);
  });

  it('goes through its own pool, not a Node agent (no silent fall-back to node:https)', async () => {
    const pool = agents.poolFor(target);
    const agent = agents.agentFor(target);
    const sockets = (): number => Object.values(agent.sockets).flat().length + Object.values(agent.freeSockets).flat().length;
    expect((await send(frontPort, 'GET', '/api/v1/x')).status).toBe(200);
    // The connection that served the request is back in the proxy's pool; the Node agent never opened one.
    expect(pool.idleCount).toBeGreaterThanOrEqual(1);
    expect(sockets()).toBe(0);
    // Node's client would send Connection: keep-alive; ours leaves it to HTTP/1.1's default.
    expect(seen[0].rawHeaders.map((h) => h.toLowerCase())).not.toContain('connection');
  });

  it('streams a chunked response as it comes (a watch), and stops the backend request when the client goes', async () => {
    let second!: () => void;
    let backendClosed!: () => void;
    const closed = new Promise<void>((r) => (backendClosed = r));
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED"}\n');
      second = () => res.write('{"type":"MODIFIED"}\n');
      res.on('close', () => backendClosed());
    };
    const events: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: frontPort, path: '/api/v1/configmaps?watch=true' }, (res) => {
        expect(res.headers['content-length']).toBeUndefined();
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          events.push(d);
          if (events.length === 1) second();
          else {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', (err) => (events.length < 2 ? reject(err) : undefined));
      req.end();
    });
    expect(events).toEqual(['{"type":"ADDED"}\n', '{"type":"MODIFIED"}\n']);
    await closed;
  });

  it('relays a chunked stream to an HTTP/1.1 client as it came, ends it cleanly, and the client’s connection serves the next request', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED"}\n');
      res.write('x'.repeat(70_000));
      setTimeout(() => res.end('{"type":"MODIFIED","ü":1}\n'), 20);
    };
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    const get = (): Promise<{ body: string; complete: boolean; socket: Socket }> =>
      new Promise((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: frontPort, path: '/api/v1/configmaps?watch=true', agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => resolve({ body: Buffer.concat(chunks).toString(), complete: res.complete, socket: res.socket }));
        });
        req.on('error', reject);
        req.end();
      });
    const first = await get();
    expect(first.complete).toBe(true);
    expect(first.body).toBe(`{"type":"ADDED"}\n${'x'.repeat(70_000)}{"type":"MODIFIED","ü":1}\n`);
    const second = await get();
    expect(second.body).toBe(first.body);
    // The same client connection: the relayed body ended exactly where its last chunk did.
    expect(second.socket).toBe(first.socket);
    agent.destroy();
  });

  it('ends a proxied watch when its backend is declared unreachable (abortConnections), and keeps others', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED"}\n');
    };
    const ended = await new Promise<{ events: string[]; complete: boolean }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: frontPort, path: '/api/v1/configmaps?watch=true' }, (res) => {
        const events: string[] = [];
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          events.push(d);
          // The stream is up and proxied: the availability check now finds the backend gone.
          if (events.length === 1) agents.abortConnections(target, 'service unavailable: test');
        });
        res.on('end', () => resolve({ events, complete: res.complete }));
        res.on('error', () => resolve({ events, complete: false }));
        res.on('aborted', () => resolve({ events, complete: false }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(ended.events[0]).toBe('{"type":"ADDED"}\n');
    // Cut, not ended cleanly: the client sees a broken stream and relists.
    expect(ended.complete).toBe(false);
    expect(agents.poolFor(target).busyCount).toBe(0);
    // A pool to another endpoint is not touched, and the same backend still serves new requests.
    handler = (_req, res) => res.end('{}');
    expect((await send(frontPort, 'GET', '/api/v1/configmaps')).status).toBe(200);
  });

  it('forwards request bodies, sized and chunked', async () => {
    handler = (req, res, body) => {
      res.writeHead(201, { 'Content-Type': 'text/plain' });
      res.end(`${req.headers['content-length'] ?? '-'} ${req.headers['transfer-encoding'] ?? '-'} ${body}`);
    };
    expect(await send(frontPort, 'POST', '/api/v1/x', { 'Content-Type': 'application/json', 'Content-Length': '9' }, '{"a":"b"}')).toMatchObject({ status: 201, body: '9 - {"a":"b"}' });
    expect(await send(frontPort, 'PUT', '/api/v1/x', { 'Transfer-Encoding': 'chunked' }, ['{"a":', '"b"}'])).toMatchObject({ status: 201, body: '- chunked {"a":"b"}' });
  });

  it('refuses a redirect with 502 and passes 304 and HEAD', async () => {
    handler = (_req, res) => {
      res.writeHead(302, { Location: 'https://example.invalid/' });
      res.end();
    };
    const r = await send(frontPort, 'GET', '/api/v1/x');
    expect(r.status).toBe(502);
    expect(r.body).toContain('redirect');
    handler = (_req, res) => {
      res.writeHead(304, { ETag: '"1"' });
      res.end();
    };
    expect((await send(frontPort, 'GET', '/api/v1/x', { 'If-None-Match': '"1"' })).status).toBe(304);
    handler = (req, res) => {
      res.writeHead(200, { 'Content-Length': '11', 'Content-Type': 'application/json' });
      res.end(req.method === 'HEAD' ? undefined : '{"ok":true}');
    };
    const head = await send(frontPort, 'HEAD', '/api/v1/x');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('11');
    expect(await send(frontPort, 'GET', '/api/v1/x')).toMatchObject({ status: 200, body: '{"ok":true}' });
  });

  it('retries a GET (never a POST) once when the backend closes a reused connection instead of answering', async () => {
    // A backend that answers the first request of a connection and drops the connection at the second, as a
    // server closing an idle connection just as a request goes out does.
    const raw = createTlsServer({ cert: readFileSync(pki.apiserverCert), key: readFileSync(pki.apiserverKey) }, (socket) => {
      let requests = 0;
      socket.on('data', (d: Buffer) => {
        if (!d.includes('\r\n\r\n')) return;
        if (++requests > 1) return void socket.destroy();
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok');
      });
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', () => r()));
    const saved = target;
    target = { ...target, url: new URL(`https://127.0.0.1:${(raw.address() as AddressInfo).port}`) };
    try {
      expect(await send(frontPort, 'GET', '/api/v1/x')).toMatchObject({ status: 200, body: 'ok' });
      expect(await send(frontPort, 'GET', '/api/v1/x')).toMatchObject({ status: 200, body: 'ok' });
      expect((await send(frontPort, 'POST', '/api/v1/x', { 'Content-Length': '2' }, '{}')).status).toBe(503);
    } finally {
      target = saved;
      await new Promise((r) => raw.close(r));
    }
  });

  it('answers 503 when the backend cannot be reached', async () => {
    const saved = target;
    target = { ...target, url: new URL('https://127.0.0.1:1') };
    try {
      const r = await send(frontPort, 'GET', '/api/v1/x');
      expect(r.status).toBe(503);
      expect(r.body).toContain('error trying to reach service');
    } finally {
      target = saved;
    }
  });
});
