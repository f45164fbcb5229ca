import { readFileSync } from 'node:fs';
import { Agent, createServer as createHttpsServer, request } from 'node:https';
import { connect, constants, createSecureServer, type ClientHttp2Session, type IncomingHttpHeaders as H2Headers } from 'node:http2';
import { Agent as HttpAgent, createServer as createHttpServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { proxyRequest } from '../apps/aggregator/src/proxy/backend.proxy';
import { BackendAgents, type BackendTarget } from '../apps/aggregator/src/proxy/backend.target';

/**
 * The processes of bench/transport.bench.ts, one role each (argv[2]):
 *  - `backend-h1 <cert> <key> <ca> <body>`: node:https answering one fixed JSON document (HTTP/1.1 only);
 *  - `backend-h2 <cert> <key> <ca> <body>`: the same on http2.createSecureServer({ allowHTTP1 }) (h2 by ALPN);
 *  - `proxy-h1 <cert> <key> <ca> <backendPort> <clientCert> <clientKey>`: a minimal reverse proxy, keep-alive agent;
 *  - `proxy-h2 …` the same, one multiplexed HTTP/2 session to the backend (node:http2 client);
 *  - `proxy-undici …` the same on Node's bundled undici Agent (dispatch API; the undici package is not installed);
 *  - `proxy-pool …` the aggregator's proxyRequest (apps/aggregator/src/proxy: its own HTTP/1.1 pool);
 *  - `backend-uds <socket> <body>` / `proxy-uds … <socket> …`: plain HTTP/1.1 on a Unix domain socket (no TLS on the second hop).
 * Each prints its port on its first line.
 */
const [role, certFile, keyFile, caFile, arg4, clientCertFile, clientKeyFile] = process.argv.slice(2);
const tls = role === 'backend-uds' ? { cert: Buffer.alloc(0), key: Buffer.alloc(0), ca: Buffer.alloc(0), requestCert: true, rejectUnauthorized: false } : { cert: readFileSync(certFile), key: readFileSync(keyFile), ca: readFileSync(caFile), requestCert: true, rejectUnauthorized: false };

function serveBody(_req: unknown, res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
}
const body = role === 'backend-h1' || role === 'backend-h2' ? readFileSync(arg4) : Buffer.alloc(0);

function h1Proxy(port: number): (req: IncomingMessage, res: ServerResponse) => void {
  const agent = new Agent({ keepAlive: true, maxSockets: 64, ca: tls.ca, cert: readFileSync(clientCertFile), key: readFileSync(clientKeyFile) });
  return (req, res) => {
    const upstream = request({ agent, host: '127.0.0.1', port, method: req.method, path: req.url, headers: { accept: req.headers.accept ?? '*/*', 'x-remote-user': 'admin' } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  };
}

/** HTTP/1.1 without TLS over a Unix domain socket (what a co-located backend could be reached by). */
function udsProxy(socketPath: string): (req: IncomingMessage, res: ServerResponse) => void {
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  return (req, res) => {
    const upstream = httpRequest({ agent, socketPath, method: req.method, path: req.url, headers: { accept: req.headers.accept ?? '*/*', 'x-remote-user': 'admin' } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  };
}

function h2Proxy(port: number): (req: IncomingMessage, res: ServerResponse) => void {
  let session: ClientHttp2Session | undefined;
  const sessionFor = (): ClientHttp2Session => {
    if (session && !session.closed && !session.destroyed) return session;
    session = connect(`https://127.0.0.1:${port}`, { ca: tls.ca, cert: readFileSync(clientCertFile), key: readFileSync(clientKeyFile), peerMaxConcurrentStreams: 1000 });
    session.on('error', () => (session = undefined));
    return session;
  };
  return (req, res) => {
    const stream = sessionFor().request({ [constants.HTTP2_HEADER_METHOD]: req.method, [constants.HTTP2_HEADER_PATH]: req.url, accept: req.headers.accept ?? '*/*', 'x-remote-user': 'admin' }, { endStream: req.method === 'GET' });
    stream.on('response', (h: H2Headers) => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(h)) if (k[0] !== ':' && v !== undefined) out[k] = v as string | string[];
      res.writeHead(Number(h[constants.HTTP2_HEADER_STATUS]), out);
      stream.pipe(res);
    });
    stream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    if (req.method !== 'GET') req.pipe(stream);
  };
}

/** The aggregator's own proxyRequest (its HTTP/1.1 pool, identity headers included). */
function poolProxy(port: number): (req: IncomingMessage, res: ServerResponse) => void {
  const agents = new BackendAgents({ certPem: readFileSync(clientCertFile, 'utf8'), keyPem: readFileSync(clientKeyFile, 'utf8') });
  const target: BackendTarget = { name: 'backend', url: new URL(`https://127.0.0.1:${port}`), caPem: tls.ca.toString() };
  const user = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };
  return (req, res) => void proxyRequest(req, res, target, user, agents).catch(() => res.writeHead(502).end());
}

/** Node's bundled undici (not an installed package): its Agent, reached through the global dispatcher fetch sets up. */
async function undiciProxy(port: number): Promise<(req: IncomingMessage, res: ServerResponse) => void> {
  await fetch('data:,x');
  const Undici = (globalThis as Record<symbol, { constructor: new (o: object) => UndiciAgent }>)[Symbol.for('undici.globalDispatcher.1')].constructor;
  const agent = new Undici({ connect: { ca: tls.ca, cert: readFileSync(clientCertFile), key: readFileSync(clientKeyFile), rejectUnauthorized: true }, keepAliveTimeout: 60_000, pipelining: 1 });
  const origin = `https://127.0.0.1:${port}`;
  return (req, res) => {
    agent.dispatch(
      { origin, path: req.url ?? '/', method: req.method ?? 'GET', headers: { accept: req.headers.accept ?? '*/*', 'x-remote-user': 'admin' } },
      {
        onConnect: () => undefined,
        onHeaders: (status: number, raw: Buffer[]) => {
          const out: Record<string, string> = {};
          for (let i = 0; i < raw.length; i += 2) out[raw[i].toString('latin1').toLowerCase()] = raw[i + 1].toString('latin1');
          res.writeHead(status, out);
          return true;
        },
        onData: (chunk: Buffer) => res.write(chunk),
        onComplete: () => res.end(),
        onError: () => (res.headersSent ? res.destroy() : res.writeHead(502).end()),
      },
    );
  };
}
interface UndiciAgent {
  dispatch(opts: object, handler: object): boolean;
}

async function main(): Promise<void> {
if (role === 'backend-uds') {
  // argv: backend-uds <socket path> <body>: plain HTTP on a Unix domain socket; prints 0.
  const uds = createHttpServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': udsBody.length });
    res.end(udsBody);
  });
  const udsBody = readFileSync(keyFile);
  await new Promise<void>((r) => uds.listen(certFile, () => r()));
  process.stdout.write('0\n');
  return;
}
const server =
  role === 'backend-h1'
    ? createHttpsServer(tls, serveBody)
    : role === 'backend-h2'
      ? createSecureServer({ ...tls, allowHTTP1: true }, serveBody as never)
      : role === 'proxy-undici'
        ? createHttpsServer(tls, await undiciProxy(Number(arg4)))
        : role === 'proxy-uds'
          ? createHttpsServer(tls, udsProxy(arg4))
        : role === 'proxy-pool'
          ? createHttpsServer(tls, poolProxy(Number(arg4)))
          : createHttpsServer(tls, (role === 'proxy-h2' ? h2Proxy : h1Proxy)(Number(arg4)));
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
}
void main();
process.on('SIGTERM', () => process.exit(0));
