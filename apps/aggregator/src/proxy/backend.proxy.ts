import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Errors, StatusError } from '@kube/apimachinery';
import type { UserInfo } from '@kube/apiserver';
import type { BackendConnection, BackendPool, Exchange } from './backend.pool';
import type { BackendAgents, BackendTarget, ProxyClientCertificate } from './backend.target';
import type { ResponseHead } from './http1.response';

/**
 * Hop-by-hop headers (RFC 9110), credentials, and the headers the proxy itself sets: never forwarded as the
 * client sent them. Expect too: the front door answered 100-continue itself and the body follows anyway.
 */
const DROPPED_REQUEST_HEADERS = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'authorization', 'host', 'expect', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-uri']);
/** Hop-by-hop response headers, and Audit-Id: the front door answers with its own (the same id, given to the backend). */
export const DROPPED_RESPONSE_HEADERS: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'audit-id']);
/** What Node's own header validation refuses: a value that could end the header line early. */
const INVALID_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

function checked(value: string): string {
  if (INVALID_HEADER_VALUE.test(value)) throw Errors.internal(new Error('invalid character in an identity header value'));
  return value;
}

/**
 * The headers a backend sees, as a flat [name, value, name, value, …] list: the client's, minus credentials,
 * impersonation and any client-sent X-Remote-*, plus Host, the authenticated identity (kube's
 * SetAuthProxyHeaders) and X-Forwarded-*. The client's own values passed Node's parser; identity values are
 * checked here.
 */
export function backendHeaders(req: IncomingMessage, user: UserInfo, target: BackendTarget, upgrade = false): string[] {
  const out: string[] = ['host', target.url.host];
  const headers = req.headers;
  for (const k in headers) {
    const v = headers[k];
    if (v === undefined || DROPPED_REQUEST_HEADERS.has(k) || k.startsWith('x-remote-') || k.startsWith('impersonate-')) continue;
    if (typeof v === 'string') out.push(k, v);
    else for (const one of v) out.push(k, one);
  }
  if (upgrade) {
    out.push('connection', 'Upgrade');
    if (headers.upgrade) out.push('upgrade', headers.upgrade);
  }
  out.push('x-remote-user', checked(user.name));
  if (user.uid) out.push('x-remote-uid', checked(user.uid));
  for (const g of user.groups) out.push('x-remote-group', checked(g));
  if (user.extra) for (const key in user.extra) for (const value of user.extra[key]) out.push(`x-remote-extra-${encodeURIComponent(key)}`, checked(value));
  const remote = req.socket.remoteAddress ?? '';
  const prior = headers['x-forwarded-for'];
  out.push('x-forwarded-for', prior ? `${String(prior)}, ${remote}` : remote, 'x-forwarded-host', headers.host ?? '', 'x-forwarded-proto', 'https', 'x-forwarded-uri', req.url ?? '/');
  return out;
}

type BodyFraming = 'none' | 'length' | 'chunked';

/** How the client's request body is framed (RFC 9112 6.3): chunked, a Content-Length above 0, or none. */
function bodyFraming(req: IncomingMessage): BodyFraming {
  if (req.headers['transfer-encoding'] !== undefined) return 'chunked';
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0' ? 'length' : 'none';
}

/** The request head for the backend, written in one piece (latin1, as Node writes header strings). */
function requestHead(req: IncomingMessage, headers: string[], framing: BodyFraming): string {
  let head = `${req.method} ${req.url} HTTP/1.1\r\n`;
  for (let i = 0; i < headers.length; i += 2) {
    // A chunked body is re-chunked by us: its Content-Length (if a client sent both) is not passed on.
    if (framing === 'chunked' && headers[i] === 'content-length') continue;
    head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  }
  if (framing === 'chunked') head += 'transfer-encoding: chunked\r\n';
  return `${head}\r\n`;
}

const REPLAYABLE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * One proxied request: the head (and body) to a pooled backend connection, the response streamed back as it
 * arrives. Settles once: with the status written, or rejected with the Status error for the front door to
 * write when nothing was written yet.
 */
class ProxyExchange implements Exchange {
  private conn?: BackendConnection;
  private status = 0;
  private responded = false;
  private settled = false;
  private retried = false;
  private bodyStarted = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly pool: BackendPool,
    private readonly head: string,
    private readonly framing: BodyFraming,
    private readonly resolve: (status: number) => void,
    private readonly reject: (err: unknown) => void,
  ) {}

  start(fresh: boolean): void {
    try {
      this.pool.acquire(fresh, (err, conn) => {
        if (err) this.onError(err, false);
        else this.send(conn);
      });
    } catch (err) {
      this.onError(err as Error, false);
    }
  }

  private send(conn: BackendConnection): void {
    if (this.settled) {
      // The client went away while the connection was being made: keep it for the next request.
      this.pool.release(conn);
      return;
    }
    this.conn = conn;
    conn.begin(this, this.head, this.req.method === 'HEAD', this.framing !== 'none');
    if (this.framing !== 'none') this.sendBody(conn);
  }

  /** Streams the client's body (re-chunked when it came chunked), pausing the client while the backend lags. */
  private sendBody(conn: BackendConnection): void {
    this.bodyStarted = true;
    const chunked = this.framing === 'chunked';
    const req = this.req;
    const resume = (): void => {
      conn.socket.off('drain', resume);
      conn.socket.off('close', resume);
      req.resume();
    };
    req.on('data', (chunk: Buffer) => {
      // The exchange ended early (an answer before the whole body, a failure): the rest is read and dropped.
      if (chunk.length === 0 || conn.closed) return;
      const ok = chunked ? (conn.write(`${chunk.length.toString(16)}\r\n`), conn.write(chunk), conn.write('\r\n')) : conn.write(chunk);
      if (!ok) {
        req.pause();
        conn.socket.on('drain', resume);
        conn.socket.on('close', resume);
      }
    });
    req.on('end', () => {
      if (chunked) conn.write('0\r\n\r\n');
      conn.requestDone = true;
    });
  }

  onHead(head: ResponseHead): void {
    this.responded = true;
    this.status = head.status;
    const res = this.res;
    if (head.status >= 300 && head.status < 400 && head.status !== 304 && head.headers.location !== undefined) {
      this.conn?.close();
      this.fail(new StatusError(502, 'InternalError', 'the backend attempted to redirect this request, which is not permitted'));
      return;
    }
    if (res.headersSent || res.writableEnded || res.destroyed) {
      // Too late: a timeout answered already, or the client is gone.
      this.conn?.close();
      this.done(res.statusCode);
      return;
    }
    try {
      res.writeHead(head.status, head.headers);
    } catch (err) {
      // A field Node refuses to write (a value with control characters): nothing was sent yet.
      this.conn?.close();
      this.fail(new StatusError(502, 'InternalError', `invalid response from the backend: ${(err as Error).message}`));
      return;
    }
    // Streams (watches: no Content-Length) get their headers at once; sized answers send headers and body
    // together, saving a TLS record per request.
    if (head.streamed) res.flushHeaders();
  }

  onBody(chunk: Buffer): void {
    if (this.settled) return;
    if (!this.res.write(chunk)) {
      const socket = this.conn?.socket;
      if (!socket) return;
      socket.pause();
      this.res.once('drain', () => socket.resume());
    }
  }

  onEnd(): void {
    if (this.settled) return;
    // Settled first, so the response's own close never cancels a finished exchange.
    this.done(this.status);
    this.res.end();
  }

  onError(err: Error, retryable: boolean): void {
    if (this.settled) return;
    if (!this.responded) {
      // A reused keep-alive connection the server closed just as the request went out: once more on a new one.
      if (retryable && !this.retried && !this.bodyStarted && REPLAYABLE_METHODS.has(this.req.method ?? '')) {
        this.retried = true;
        this.conn = undefined;
        this.start(true);
        return;
      }
      this.fail(Errors.serviceUnavailable(`error trying to reach service: ${err.message}`));
      return;
    }
    // Cut mid-response: cut the client's response too (a watch ends, the client re-watches).
    this.res.destroy();
    this.done(this.status);
  }

  /** The response ended without us (timeout, client gone): stop the backend request too (ends watches on both sides). */
  onClientClose(): void {
    if (this.settled) return;
    this.conn?.close();
    this.done(this.res.statusCode);
  }

  private done(status: number): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(status);
  }

  private fail(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(err);
  }
}

/**
 * Proxies one request to a backend over a pooled keep-alive connection, streaming both bodies without
 * buffering (watch events pass as they come, with no timeout; a slow client pauses the backend's stream). A
 * backend redirect is refused (502, CVE-2022-3172); 304 passes. A connection failure rejects with a 503 Status
 * error for the caller to write.
 */
export function proxyRequest(req: IncomingMessage, res: ServerResponse, target: BackendTarget, user: UserInfo, agents: BackendAgents): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const framing = bodyFraming(req);
    const exchange = new ProxyExchange(req, res, agents.poolFor(target), requestHead(req, backendHeaders(req, user, target), framing), framing, resolve, reject);
    res.on('close', () => exchange.onClientClose());
    exchange.start(false);
  });
}

/**
 * Upgrade requests (exec/attach/port-forward over SPDY or WebSocket): a dedicated TLS connection per request,
 * head forwarded with the identity headers, then bytes piped both ways. A non-101 answer is relayed and both
 * sockets are closed, so a connection that failed to upgrade is never reused (CVE-2018-1002105).
 */
export function proxyUpgrade(req: IncomingMessage, client: Socket, head: Buffer, target: BackendTarget, user: UserInfo, cert: ProxyClientCertificate): void {
  const backend = tlsConnect({
    host: target.url.hostname,
    port: Number(target.url.port || 443),
    servername: target.serverName ?? (target.url.hostname.match(/^[\d.]+$/) ? undefined : target.url.hostname),
    cert: cert.certPem,
    key: cert.keyPem,
    ca: target.caPem,
    rejectUnauthorized: !target.insecureSkipTLSVerify,
  });
  const fail = (): void => {
    client.destroy();
    backend.destroy();
  };
  backend.once('error', () => {
    client.end('HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n' + JSON.stringify(Errors.serviceUnavailable('error trying to reach service').status));
    backend.destroy();
  });
  client.once('error', fail);
  backend.once('secureConnect', () => {
    const headers = backendHeaders(req, user, target, true);
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (let i = 0; i < headers.length; i += 2) lines.push(`${headers[i]}: ${headers[i + 1]}`);
    backend.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length) backend.write(head);
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      backend.off('data', onData);
      const statusLine = buffered.subarray(0, buffered.indexOf('\r\n')).toString();
      client.write(buffered);
      if (!/^HTTP\/1\.[01] 101/.test(statusLine)) {
        client.end();
        backend.destroy();
        return;
      }
      backend.pipe(client);
      client.pipe(backend);
    };
    backend.on('data', onData);
  });
  client.once('close', () => backend.destroy());
  backend.once('close', () => client.destroy());
}
