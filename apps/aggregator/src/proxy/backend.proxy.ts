import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { Errors, StatusError } from '@kube/apimachinery';
import { chunkedSocket, type UpgradeConnection, type UserInfo } from '@kube/apiserver';
import type { BackendConnection, BackendPool, Exchange } from './backend.pool';
import { failoverInstance } from './backend.instances';
import { h2RequestHeaders, proxyWatchOverHttp2 } from './backend.h2-watch';
import type { BackendAgents, BackendTarget } from './backend.target';
import { ResponseParser, type ResponseHandler, type ResponseHead } from './http1.response';

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
    // HTTP/2's pseudo-header fields (:method, :path, :authority, :scheme) are the request line, not headers.
    if (v === undefined || k.charCodeAt(0) === 58 || DROPPED_REQUEST_HEADERS.has(k) || k.startsWith('x-remote-') || k.startsWith('impersonate-')) continue;
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

/** An exchange's outcome, reported once: the status written, or the Status error for the front door to write. */
abstract class SettlesOnce {
  protected settled = false;

  constructor(
    private readonly resolve: (status: number) => void,
    private readonly reject: (err: unknown) => void,
  ) {}

  protected done(status: number): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(status);
  }

  protected fail(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(err);
  }
}

/**
 * One proxied request: the head (and body) to a pooled backend connection, the response streamed back as it
 * arrives. Settles once: with the status written, or rejected with the Status error for the front door to
 * write when nothing was written yet.
 */
class ProxyExchange extends SettlesOnce implements Exchange {
  private conn?: BackendConnection;
  private status = 0;
  private responded = false;
  private retried = false;
  private bodyStarted = false;
  /** The backend socket is paused until the client's response drains (backpressure). */
  private backendPaused = false;
  /** The client's HTTP/1.1 socket, when the backend's chunked body goes to it as it came (a watch: no re-framing). */
  private relay?: Socket;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private pool: BackendPool,
    private readonly head: string,
    private readonly framing: BodyFraming,
    resolve: (status: number) => void,
    reject: (err: unknown) => void,
    private readonly failover?: { service: BackendTarget; target: BackendTarget; agents: BackendAgents },
  ) {
    super(resolve, reject);
  }

  start(fresh: boolean): void {
    try {
      this.pool.acquire(fresh, (err, conn) => {
        if (err) this.onConnectError(err);
        else this.send(conn);
      });
    } catch (err) {
      this.onError(err as Error, false);
    }
  }

  /**
   * No connection, so nothing was sent: another instance of a replicated service may take the request, whatever its
   * verb (its head keeps the first instance's Host: the servers behind the front door do not route on it).
   */
  private onConnectError(err: Error): void {
    const f = this.failover;
    const next = f && !this.settled ? failoverInstance(f.service, f.target) : undefined;
    if (!f || !next) return this.onError(err, false);
    f.target = next;
    this.pool = f.agents.poolFor(next);
    this.start(true);
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
    if (head.streamed) {
      res.flushHeaders();
      // Chunked in, chunked out: the backend's chunks pass to the client's socket as they came, one write per read.
      const socket = chunkedSocket(res);
      if (socket && this.conn?.parser.relayChunks()) this.relay = socket;
    }
  }

  onBody(chunk: Buffer): void {
    if (this.settled) return;
    const relay = this.relay;
    let more: boolean;
    if (!relay) more = this.res.write(chunk);
    // Once the response ended, its socket may carry the client's next response.
    else if (this.res.writableEnded || relay.destroyed) return;
    else more = relay.write(chunk);
    if (!more && !this.backendPaused) {
      const socket = this.conn?.socket;
      if (!socket) return;
      this.backendPaused = true;
      socket.pause();
      (relay ?? this.res).once('drain', () => this.resumeBackend());
    }
  }

  /** Undoes this exchange's backpressure pause, once: after its end the connection may already serve another. */
  private resumeBackend(): void {
    if (!this.backendPaused) return;
    this.backendPaused = false;
    this.conn?.socket.resume();
  }

  onEnd(): void {
    if (this.settled) return;
    // The last chunk may have filled the client's buffer and paused the backend socket; the response is whole, and
    // the connection goes back to the pool: it must read again, or the next response on it never arrives.
    this.resumeBackend();
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

}

/**
 * Proxies one request to a backend over a pooled keep-alive connection, streaming both bodies without
 * buffering (watch events pass as they come, with no timeout; a slow client pauses the backend's stream). A
 * backend redirect is refused (502, CVE-2022-3172); 304 passes. A connection failure rejects with a 503 Status
 * error for the caller to write.
 */
export function proxyRequest(req: IncomingMessage, res: ServerResponse, target: BackendTarget, user: UserInfo, agents: BackendAgents, service?: BackendTarget, watch = false): Promise<number> {
  // A watch goes over HTTP/2 (streams multiplexed on a few connections, as kube's aggregator proxies); the rest
  // stays on the HTTP/1.1 pool, where a GET costs less.
  const h2 = watch && req.method === 'GET' && bodyFraming(req) === 'none' ? agents.h2PoolFor(target) : undefined;
  if (h2 && !h2.http1Only) {
    const headers = h2RequestHeaders(req, backendHeaders(req, user, target));
    return proxyWatchOverHttp2(req, res, h2, headers, DROPPED_RESPONSE_HEADERS, target, agents, service, (t) => proxyRequest(req, res, t, user, agents, service));
  }
  return new Promise<number>((resolve, reject) => {
    const framing = bodyFraming(req);
    const failover = service ? { service, target, agents } : undefined;
    const exchange = new ProxyExchange(req, res, agents.poolFor(target), requestHead(req, backendHeaders(req, user, target), framing), framing, resolve, reject, failover);
    res.on('close', () => exchange.onClientClose());
    exchange.start(false);
  });
}

/** The longest response head read from a backend before it answered the upgrade (as the ordinary path's parser). */
const MAX_UPGRADE_HEAD_BYTES = 256 * 1024;
const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})(?: |\r|$)/;

/**
 * One upgrade request (kube's UpgradeAwareHandler.tryUpgrade): a dedicated backend connection gets the request
 * head alone; the backend's answer decides what happens next. 101: relayed, and only then do the client's
 * bytes (those it sent early first) flow to the backend, and the backend's back, until either side closes.
 * Anything else: relayed as the ordinary path relays a response (a redirect refused), and both connections
 * closed, so no client byte ever reaches the backend (CVE-2018-1002105: a backend that did not upgrade would
 * parse them as further requests from the front proxy, identity headers and all).
 */
class UpgradeExchange extends SettlesOnce implements ResponseHandler {
  private backend?: TLSSocket;
  private pending?: Buffer;
  private parser?: ResponseParser;
  private status = 0;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly client: Socket,
    private readonly clientHead: Buffer,
    resolve: (status: number) => void,
    reject: (err: unknown) => void,
    private readonly failover?: { service: BackendTarget; target: BackendTarget; agents: BackendAgents },
  ) {
    super(resolve, reject);
    // The client went away, or someone else answered (the timeout) and its connection closed: the backend goes too.
    res.on('close', () => {
      this.backend?.destroy();
      this.done(this.res.statusCode);
    });
  }

  /** Until the backend's answer is decided: what its connection reports goes to the exchange. */
  private readonly onBackendData = (chunk: Buffer): void => this.onData(chunk);
  private readonly onBackendEnd = (): void => this.backendEnded();
  private readonly onBackendClose = (): void => this.onBackendError(new Error('the backend closed the connection'));

  start(pool: BackendPool, head: string): void {
    const { host, port, servername, secureContext, rejectUnauthorized } = pool.options;
    const backend = (this.backend = tlsConnect({ host, port, servername, secureContext, rejectUnauthorized }));
    let connected = false;
    backend.once('secureConnect', () => {
      connected = true;
      backend.setNoDelay(true);
      backend.write(head, 'latin1');
    });
    backend.on('data', this.onBackendData);
    backend.on('end', this.onBackendEnd);
    backend.on('close', this.onBackendClose);
    backend.on('error', (err: Error) => (connected ? this.onBackendError(err) : this.onConnectError(backend, head, err)));
  }

  /**
   * No connection (the head is written only once TLS is up), so nothing was sent: another instance of a replicated
   * service may take the upgrade, as the ordinary path's requests do (the head keeps the first instance's Host).
   */
  private onConnectError(backend: TLSSocket, head: string, err: Error): void {
    const f = this.failover;
    const next = f && !this.settled ? failoverInstance(f.service, f.target) : undefined;
    if (!f || !next) return this.onBackendError(err);
    backend.removeAllListeners();
    backend.on('error', () => undefined);
    backend.destroy();
    f.target = next;
    this.start(f.agents.poolFor(next), head);
  }

  /** Bytes from the backend before its answer was decided: the response head, maybe more behind it. */
  private onData(chunk: Buffer): void {
    if (this.parser) return this.parse(chunk);
    let data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    for (;;) {
      const end = data.indexOf('\r\n\r\n', 0, 'latin1');
      if (end < 0) {
        if (data.length > MAX_UPGRADE_HEAD_BYTES) return this.onBackendError(new Error('response header too long'));
        this.pending = data;
        return;
      }
      const status = STATUS_LINE.exec(data.toString('latin1', 0, Math.min(end, 64)));
      if (!status) return this.onBackendError(new Error('malformed status line'));
      const code = Number(status[1]);
      if (code === 101) return this.upgrade(data);
      if (code >= 200) break;
      // An interim answer (100 Continue, 103 Early Hints): the real one follows.
      data = data.subarray(end + 4);
    }
    this.parser = new ResponseParser(DROPPED_RESPONSE_HEADERS);
    this.parser.reset(this, this.req.method === 'HEAD');
    this.parse(data);
  }

  private parse(chunk: Buffer): void {
    try {
      this.parser?.execute(chunk);
    } catch (err) {
      this.onBackendError(err as Error);
    }
  }

  /** 101: the backend switched protocols. Its answer goes to the client, then both directions are joined. */
  private upgrade(received: Buffer): void {
    const { client, res } = this;
    const backend = this.backend as TLSSocket;
    if (this.settled || res.headersSent || res.writableEnded || client.destroyed) {
      // Too late: the timeout answered already, or the client is gone.
      backend.destroy();
      return;
    }
    this.status = 101;
    backend.off('data', this.onBackendData);
    backend.off('end', this.onBackendEnd);
    backend.off('close', this.onBackendClose);
    // Either side closing closes the other (the client's close reaches the backend through res 'close').
    backend.on('close', () => client.destroy());
    client.write(received);
    if (this.clientHead.length) backend.write(this.clientHead);
    backend.pipe(client);
    client.pipe(backend);
    this.done(101);
  }

  onHead(head: ResponseHead): void {
    const res = this.res;
    this.status = head.status;
    if (head.status >= 300 && head.status < 400 && head.status !== 304 && head.headers.location !== undefined) {
      this.backend?.destroy();
      return this.fail(new StatusError(502, 'InternalError', 'the backend attempted to redirect this request, which is not permitted'));
    }
    if (this.settled || res.headersSent || res.writableEnded || res.destroyed) {
      this.backend?.destroy();
      return this.done(res.statusCode);
    }
    try {
      res.writeHead(head.status, head.headers);
    } catch (err) {
      this.backend?.destroy();
      return this.fail(new StatusError(502, 'InternalError', `invalid response from the backend: ${(err as Error).message}`));
    }
    if (head.streamed) res.flushHeaders();
  }

  onBody(chunk: Buffer): void {
    if (this.settled) return;
    if (!this.res.write(chunk)) {
      const backend = this.backend as TLSSocket;
      backend.pause();
      this.res.once('drain', () => backend.resume());
    }
  }

  /** The backend's whole non-101 answer is relayed: the client's connection ends with it (serveUpgrades). */
  onEnd(): void {
    if (this.settled) return;
    this.done(this.status);
    this.res.end();
    this.backend?.destroy();
  }

  private backendEnded(): void {
    if (this.parser?.endsWithClose) {
      try {
        this.parser.finish();
      } catch (err) {
        this.onBackendError(err as Error);
      }
      return;
    }
    this.onBackendError(new Error('the backend closed the connection'));
  }

  private onBackendError(err: Error): void {
    this.backend?.destroy();
    if (this.settled) return;
    if (!this.res.headersSent) return this.fail(Errors.serviceUnavailable(`error trying to reach service: ${err.message}`));
    // Cut mid-response: cut the client's too.
    this.res.destroy();
    this.done(this.status);
  }

}

/**
 * Proxies an upgrade request (exec/attach/port-forward over SPDY or WebSocket) that passed the whole handler
 * chain. Resolves with 101 once both directions are joined, or with the status of the backend's relayed answer;
 * rejects with the Status error for the front door to write when nothing was written yet (unreachable backend,
 * redirect). Such a request has no body of its own in Node (every byte after its head is the client's stream),
 * so one that declares a body is refused: those bytes could only be forwarded before the backend's answer.
 */
export function proxyUpgrade(req: IncomingMessage, res: ServerResponse, upgrade: UpgradeConnection, target: BackendTarget, user: UserInfo, agents: BackendAgents, service?: BackendTarget): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    if (bodyFraming(req) !== 'none') return reject(Errors.badRequest('an upgrade request cannot have a body'));
    const failover = service ? { service, target, agents } : undefined;
    const exchange = new UpgradeExchange(req, res, upgrade.socket, upgrade.head, resolve, reject, failover);
    exchange.start(agents.poolFor(target), requestHead(req, backendHeaders(req, user, target, true), 'none'));
  });
}
