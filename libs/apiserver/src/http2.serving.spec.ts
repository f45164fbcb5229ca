import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueCertificate, type CertificateAuthority, type IssuedCertificate } from '@kube/pki';
import { http2ServingFromEnv } from './http2.serving';
import { closeGracefully, listenHttps, type SecureServer } from './https.listener';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function h2(session: ClientHttp2Session, headers: Record<string, string>, body?: string | Buffer, endAfterHeaders = body === undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers, { endStream: endAfterHeaders });
    if (body !== undefined) stream.end(body);
    let status = 0;
    let got: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => ((status = Number(h[':status'])), (got = h)));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve({ status, headers: got, body: Buffer.concat(chunks).toString() }));
    stream.on('error', reject);
  });
}

describe('http2ServingFromEnv', () => {
  it("defaults to h2 on with kube's stream limit (0: kube's own default)", () => {
    expect(http2ServingFromEnv({})).toEqual({ enabled: true, maxStreamsPerConnection: 0 });
    expect(http2ServingFromEnv({ KUBE_HTTP2: 'false', KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION: '1000' })).toEqual({ enabled: false, maxStreamsPerConnection: 1000 });
  });

  it('refuses values kube would not parse', () => {
    expect(() => http2ServingFromEnv({ KUBE_HTTP2: 'yes' })).toThrow(/KUBE_HTTP2 must be true or false/);
    expect(() => http2ServingFromEnv({ KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION: '-1' })).toThrow(/KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION/);
    expect(() => http2ServingFromEnv({ KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION: 'many' })).toThrow(/KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION/);
  });
});

describe('listenHttps with HTTP/2', () => {
  let ca: CertificateAuthority;
  let serving: IssuedCertificate;
  let client: IssuedCertificate;
  let server: SecureServer;
  let port: number;
  const seen: Array<{ httpVersion: string; host?: string; te?: string; body: string; peer?: string }> = [];

  beforeAll(async () => {
    ca = await createCertificateAuthority({ commonName: 'h2-test-ca' });
    serving = await issueCertificate(ca, { commonName: 'localhost', ipAddresses: ['127.0.0.1'], usage: 'server' });
    client = await issueCertificate(ca, { commonName: 'alice', usage: 'client' });
    ({ server, port } = await listenHttps({ certPem: serving.certPem, keyPem: serving.keyPem, ca: [ca.certPem] }, { bindAddress: '127.0.0.1', port: 0, http2: { enabled: true, maxStreamsPerConnection: 3 } }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const peer = (req.socket as TLSSocket).getPeerCertificate?.().subject?.CN;
        seen.push({ httpVersion: req.httpVersion, host: req.headers.host, te: req.headers['transfer-encoding'], body: Buffer.concat(chunks).toString(), peer: typeof peer === 'string' ? peer : undefined });
        // What HTTP/1.1 handlers write (a watch's Transfer-Encoding, a shutdown's Connection: close) must not break h2.
        const close = req.url === '/close';
        // kube's WithRetryAfter during shutdown sets it this way.
        if (req.url === '/close-set') res.setHeader('Connection', 'close');
        if (req.httpVersion === '2.0') res.setHeader('Upgrade', 'h2c');
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked', ...(req.httpVersion === '2.0' ? { 'Keep-Alive': 'timeout=5' } : {}), ...(close ? { Connection: 'close' } : {}) });
        res.end(`${req.httpVersion} ${req.method} ${req.url}`);
      });
    }));
  });

  afterAll(async () => {
    await closeGracefully(server);
  });

  function session(): Promise<ClientHttp2Session> {
    const s = connect(`https://127.0.0.1:${port}`, { ca: ca.certPem, cert: client.certPem, key: client.keyPem });
    return new Promise((resolve, reject) => s.once('remoteSettings', () => resolve(s)).once('error', reject));
  }

  it('offers h2 by ALPN, with the stream limit in its SETTINGS, and serves HTTP/2 requests through the handler', async () => {
    const s = await session();
    expect((s.socket as TLSSocket).alpnProtocol).toBe('h2');
    expect(s.remoteSettings.maxConcurrentStreams).toBe(3);
    const r = await h2(s, { ':path': '/x?y=1' });
    // Connection-specific fields the handler set were dropped (Node's client would refuse the response otherwise).
    expect(r).toMatchObject({ status: 200, body: '2.0 GET /x?y=1' });
    for (const name of ['transfer-encoding', 'keep-alive', 'connection', 'upgrade']) expect(r.headers[name]).toBeUndefined();
    expect(seen.at(-1)).toMatchObject({ httpVersion: '2.0', host: `127.0.0.1:${port}`, te: undefined, peer: 'alice' });
    s.close();
  });

  it('reads a body of unknown length (no Content-Length) as HTTP/1.1 code reads a chunked one', async () => {
    const s = await session();
    const big = Buffer.alloc(600 * 1024, 'a');
    expect((await h2(s, { ':method': 'POST', ':path': '/upload' }, big)).status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ te: 'chunked' });
    expect(seen.at(-1)?.body.length).toBe(big.length);
    expect((await h2(s, { ':method': 'POST', ':path': '/upload', 'content-length': '5' }, 'hello')).status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ te: undefined, body: 'hello' });
    s.close();
  });

  it.each(['/close', '/close-set'])('answers Connection: close (%s) with a GOAWAY after the response, as Go does', async (path) => {
    const s = await session();
    const goaway = new Promise<number>((resolve) => s.once('goaway', (code: number) => resolve(code)));
    const r = await h2(s, { ':path': path });
    expect(r.status).toBe(200);
    expect(r.headers.connection).toBeUndefined();
    expect(await goaway).toBe(constants.NGHTTP2_NO_ERROR);
    s.close();
  });

  it('answers CONNECT over h2 with a 405 Status', async () => {
    const s = await session();
    const r = await h2(s, { ':method': 'CONNECT', ':authority': 'example.com:443' }, undefined, false);
    expect(r.status).toBe(405);
    expect(JSON.parse(r.body)).toMatchObject({ kind: 'Status', code: 405, reason: 'MethodNotAllowed' });
    s.destroy();
  });

  it('still serves HTTP/1.1 to clients that do not offer h2', async () => {
    const r = await new Promise<Answer>((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port, path: '/old', ca: ca.certPem, cert: client.certPem, key: client.keyPem }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as IncomingHttpHeaders, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(r).toMatchObject({ status: 200, body: '1.1 GET /old' });
    expect(seen.at(-1)).toMatchObject({ httpVersion: '1.1', peer: 'alice' });
  });
});

describe('listenHttps with HTTP/2 off (KUBE_HTTP2=false)', () => {
  it('offers http/1.1 alone by ALPN', async () => {
    const ca = await createCertificateAuthority({ commonName: 'h2-off-ca' });
    const serving = await issueCertificate(ca, { commonName: 'localhost', ipAddresses: ['127.0.0.1'], usage: 'server' });
    const { server, port } = await listenHttps({ certPem: serving.certPem, keyPem: serving.keyPem, ca: [ca.certPem] }, { bindAddress: '127.0.0.1', port: 0, http2: { enabled: false, maxStreamsPerConnection: 0 } }, (_req, res) => res.end('ok'));
    try {
      const socket = tlsConnect({ host: '127.0.0.1', port, ca: ca.certPem, ALPNProtocols: ['h2', 'http/1.1'] });
      await new Promise<void>((resolve, reject) => socket.once('secureConnect', () => resolve()).once('error', reject));
      expect(socket.alpnProtocol).toBe('http/1.1');
      socket.destroy();
    } finally {
      await closeGracefully(server);
    }
  });
});
