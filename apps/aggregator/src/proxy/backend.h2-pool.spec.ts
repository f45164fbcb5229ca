import { once } from 'node:events';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { constants, createSecureServer, type ClientHttp2Stream, type Http2SecureServer, type Http2Session, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createSecureContext } from 'node:tls';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueCertificate, type IssuedCertificate } from '@kube/pki';
import { BackendH2Pool, proxyHttp2FromEnv } from './backend.h2-pool';
import { until } from './backend.testing';

let caPem = '';
let serving: IssuedCertificate;
let client: IssuedCertificate;
const servers: Array<HttpsServer | Http2SecureServer> = [];
const pools: BackendH2Pool[] = [];

beforeAll(async () => {
  const ca = await createCertificateAuthority({ commonName: 'h2-pool-spec-ca' });
  caPem = ca.certPem;
  serving = await issueCertificate(ca, { commonName: 'backend', ipAddresses: ['127.0.0.1'], usage: 'server' });
  client = await issueCertificate(ca, { commonName: 'front-proxy-client', usage: 'client' });
});

afterEach(async () => {
  for (const p of pools.splice(0)) p.destroy();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** An h2 backend (HTTP/1.1 too) announcing `maxStreams`; its streams stay open until the test ends them. */
async function h2Backend(maxStreams: number): Promise<{ server: Http2SecureServer; port: number; streams: ServerHttp2Stream[]; sessions: Http2Session[] }> {
  const streams: ServerHttp2Stream[] = [];
  const sessions: Http2Session[] = [];
  const server = createSecureServer({ cert: serving.certPem, key: serving.keyPem, allowHTTP1: true, settings: { maxConcurrentStreams: maxStreams } });
  server.on('session', (s: Http2Session) => {
    sessions.push(s);
    s.on('error', () => undefined);
  });
  server.on('stream', (stream: ServerHttp2Stream) => {
    streams.push(stream);
    stream.on('error', () => undefined);
    stream.respond({ ':status': 200, 'content-type': 'application/json' });
    stream.write('{"type":"ADDED"}\n');
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, streams, sessions };
}

function pool(port: number): BackendH2Pool {
  const p = new BackendH2Pool({ host: '127.0.0.1', port, secureContext: createSecureContext({ ca: caPem, cert: client.certPem, key: client.keyPem }), rejectUnauthorized: true });
  pools.push(p);
  return p;
}

function open(p: BackendH2Pool, path = '/watch'): Promise<ClientHttp2Stream | undefined> {
  return new Promise((resolve, reject) => {
    p.request({ ':method': 'GET', ':path': path }, (err, stream) => {
      if (err) return reject(err);
      stream?.on('error', () => undefined);
      resolve(stream);
    });
  });
}

describe('BackendH2Pool (the proxy\'s HTTP/2 sessions for watches)', () => {
  it('puts streams on one session up to the backend\'s advertised limit, then opens another', async () => {
    const backend = await h2Backend(3);
    const p = pool(backend.port);
    // The first stream learns the limit (SETTINGS arrive with the session).
    await open(p);
    await until(() => backend.streams.length === 1);
    for (let i = 0; i < 4; i++) await open(p);
    await until(() => backend.streams.length === 5);
    expect(backend.sessions).toHaveLength(2);
    expect(p.sessionCount).toBe(2);
    expect(p.streamCount).toBe(5);
  });

  it('frees a stream\'s slot when it closes (a reset from our side reaches the backend)', async () => {
    const backend = await h2Backend(2);
    const p = pool(backend.port);
    const a = await open(p);
    await open(p);
    await until(() => backend.streams.length === 2);
    const reset = once(backend.streams[0], 'close');
    a?.close(constants.NGHTTP2_CANCEL);
    await reset;
    expect(backend.streams[0].rstCode).toBe(constants.NGHTTP2_CANCEL);
    await until(() => p.streamCount === 1);
    await open(p);
    await until(() => backend.streams.length === 3);
    expect(backend.sessions).toHaveLength(1);
  });

  it('takes no new stream on a session that got a GOAWAY; its open streams go on', async () => {
    const backend = await h2Backend(100);
    const p = pool(backend.port);
    const first = await open(p);
    await until(() => backend.sessions.length === 1 && backend.streams.length === 1);
    backend.sessions[0].goaway(constants.NGHTTP2_NO_ERROR, backend.streams[0].id);
    await until(() => p.sessionCount === 0);
    expect(first?.closed).toBe(false);
    await open(p);
    await until(() => backend.streams.length === 2);
    expect(backend.sessions).toHaveLength(2);
    // The first stream still carries data on its old session.
    let got = '';
    first?.on('data', (d: Buffer) => (got += d.toString()));
    backend.streams[0].write('{"type":"MODIFIED"}\n');
    await until(() => got.includes('MODIFIED'));
  });

  it('drops a session that fails, failing its streams, and opens a fresh one next time', async () => {
    const backend = await h2Backend(100);
    const p = pool(backend.port);
    const stream = await open(p);
    await until(() => backend.sessions.length === 1);
    const closed = new Promise((r) => stream?.once('close', r));
    backend.sessions[0].destroy();
    await closed;
    await until(() => p.sessionCount === 0 && p.streamCount === 0);
    await open(p);
    await until(() => backend.sessions.length === 2);
  });

  it('answers a connection failure with the error, nothing sent', async () => {
    const backend = await h2Backend(100);
    const port = backend.port;
    await new Promise((r) => backend.server.close(r));
    servers.splice(0);
    await expect(open(pool(port))).rejects.toThrow(/ECONNREFUSED/);
  });

  it('falls back to HTTP/1.1 (no stream) for a backend whose ALPN answer is http/1.1, and remembers it', async () => {
    const server = createHttpsServer({ cert: serving.certPem, key: serving.keyPem }, (_req, res) => res.end('h1'));
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const p = pool((server.address() as AddressInfo).port);
    expect(await open(p)).toBeUndefined();
    expect(p.http1Only).toBe(true);
    expect(p.sessionCount).toBe(0);
    expect(await open(p)).toBeUndefined();
  });

  it('KUBE_PROXY_HTTP2: opt-in (false by default), true turns it on, anything else refused', () => {
    expect(proxyHttp2FromEnv({})).toBe(false);
    expect(proxyHttp2FromEnv({ KUBE_PROXY_HTTP2: 'true' })).toBe(true);
    expect(proxyHttp2FromEnv({ KUBE_PROXY_HTTP2: 'false' })).toBe(false);
    expect(() => proxyHttp2FromEnv({ KUBE_PROXY_HTTP2: 'no' })).toThrow(/KUBE_PROXY_HTTP2 must be true or false/);
  });
});
