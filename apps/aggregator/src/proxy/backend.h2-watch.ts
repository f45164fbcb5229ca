import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { constants, type ClientHttp2Stream, type IncomingHttpHeaders } from 'node:http2';
import type { Socket } from 'node:net';
import { Errors, StatusError } from '@kube/apimachinery';
import { chunkedSocket } from '@kube/apiserver';
import type { BackendH2Pool } from './backend.h2-pool';
import { failoverInstance } from './backend.instances';
import type { BackendAgents, BackendTarget } from './backend.target';

/** Fields HTTP/2 forbids (RFC 9113 8.2.2; node:http2 throws on them): never sent on a backend stream. */
const H2_FORBIDDEN_REQUEST = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'http2-settings', 'te']);

/** The backend's request fields (backendHeaders' flat list) as an h2 header block: Host becomes :authority. */
export function h2RequestHeaders(req: IncomingMessage, flat: string[]): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = { ':method': 'GET', ':scheme': 'https', ':path': req.url ?? '/' };
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i];
    const value = flat[i + 1];
    if (name === 'host') {
      out[':authority'] = value;
      continue;
    }
    if (H2_FORBIDDEN_REQUEST.has(name)) continue;
    const prior = out[name];
    if (prior === undefined) out[name] = value;
    else if (Array.isArray(prior)) prior.push(value);
    else out[name] = [String(prior), value];
  }
  return out;
}

/** A chunk of the chunked transfer coding in one Buffer (one socket write per event per watcher). */
function framed(data: Buffer): Buffer {
  const size = data.length.toString(16);
  const out = Buffer.allocUnsafe(size.length + data.length + 4);
  out.write(size, 0, 'latin1');
  out[size.length] = 0x0d;
  out[size.length + 1] = 0x0a;
  data.copy(out, size.length + 2);
  out[out.length - 2] = 0x0d;
  out[out.length - 1] = 0x0a;
  return out;
}

/**
 * One watch proxied on an HTTP/2 stream to the backend: the response head passes as the HTTP/1.1 path passes it
 * (a redirect refused, hop-by-hop and Audit-Id fields dropped), the body's bytes go to the client as they come
 * (re-chunked in one write for an HTTP/1.1 client, written to an h2 client's stream), with backpressure. The
 * client going away resets the backend stream (the backend's watch ends); the backend's stream failing after the
 * head cuts the client's response (the client re-watches), as the HTTP/1.1 path does.
 */
class H2WatchExchange {
  private settled = false;
  private stream?: ClientHttp2Stream;
  private status = 0;
  private responded = false;
  private retried = false;
  private relay?: Socket;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly headers: OutgoingHttpHeaders,
    private readonly droppedResponseHeaders: ReadonlySet<string>,
    private readonly resolve: (status: number) => void,
    private readonly reject: (err: unknown) => void,
    /** Takes the request over on the HTTP/1.1 path (the backend does not speak h2, or the target changed to one that does not). */
    private readonly http1: (target: BackendTarget) => void,
    private target: BackendTarget,
    private readonly agents: BackendAgents,
    private readonly service?: BackendTarget,
  ) {}

  start(pool: BackendH2Pool): void {
    pool.request(this.headers, (err, stream) => {
      if (err) return this.onConnectError(err);
      if (!stream) {
        // HTTP/1.1 only: the other path settles this request.
        this.settled = true;
        return this.http1(this.target);
      }
      this.attach(stream);
    });
  }

  /** Nothing was sent: another instance of a replicated service may take the watch. */
  private onConnectError(err: Error): void {
    if (this.settled) return;
    const next = this.service ? failoverInstance(this.service, this.target) : undefined;
    if (!next) return this.fail(Errors.serviceUnavailable(`error trying to reach service: ${err.message}`));
    this.target = next;
    const pool = this.agents.h2PoolFor(next);
    if (pool) return this.start(pool);
    this.settled = true;
    this.http1(next);
  }

  private attach(stream: ClientHttp2Stream): void {
    if (this.settled) {
      // The client went away while the session was being made.
      stream.close(constants.NGHTTP2_CANCEL);
      return;
    }
    this.stream = stream;
    // A stream given up for a retry may still report: only the current one speaks for the exchange.
    const current = (): boolean => this.stream === stream;
    stream.once('response', (h: IncomingHttpHeaders) => current() && this.onResponse(h));
    stream.on('data', (chunk: Buffer) => current() && this.onData(chunk));
    stream.once('end', () => current() && this.onEnd());
    stream.on('error', (err: Error) => current() && this.onStreamError(err));
    stream.once('close', () => current() && this.onStreamError(new Error(`the backend closed the stream (code ${stream.rstCode ?? 0})`)));
  }

  private onResponse(h: IncomingHttpHeaders): void {
    const res = this.res;
    const status = Number(h[':status']);
    this.responded = true;
    this.status = status;
    if (status >= 300 && status < 400 && status !== 304 && h.location !== undefined) {
      this.stream?.close(constants.NGHTTP2_CANCEL);
      return this.fail(new StatusError(502, 'InternalError', 'the backend attempted to redirect this request, which is not permitted'));
    }
    if (res.headersSent || res.writableEnded || res.destroyed) {
      this.stream?.close(constants.NGHTTP2_CANCEL);
      return this.done(res.statusCode);
    }
    const headers: OutgoingHttpHeaders = {};
    for (const name in h) {
      if (name.charCodeAt(0) === 58 || this.droppedResponseHeaders.has(name)) continue;
      headers[name] = h[name];
    }
    try {
      res.writeHead(status, headers);
    } catch (err) {
      this.stream?.close(constants.NGHTTP2_CANCEL);
      return this.fail(new StatusError(502, 'InternalError', `invalid response from the backend: ${(err as Error).message}`));
    }
    if (h['content-length'] === undefined) {
      // A stream (the watch itself, not a sized error Status): headers out now; an HTTP/1.1 client's chunks are framed here.
      res.flushHeaders();
      this.relay = chunkedSocket(res);
    }
  }

  private onData(chunk: Buffer): void {
    if (this.settled || chunk.length === 0) return;
    const relay = this.relay;
    let more: boolean;
    if (!relay) more = this.res.write(chunk);
    else if (this.res.writableEnded || relay.destroyed) return;
    else more = relay.write(framed(chunk));
    if (!more) {
      const stream = this.stream as ClientHttp2Stream;
      // A slow client: the backend stream stops being read (its h2 window stops the backend's writes).
      stream.pause();
      (relay ?? this.res).once('drain', () => stream.resume());
    }
  }

  private onEnd(): void {
    if (this.settled) return;
    this.done(this.status);
    this.res.end();
  }

  private onStreamError(err: Error): void {
    if (this.settled) return;
    if (!this.responded) {
      // Refused before the backend saw it (a GOAWAY's later streams, REFUSED_STREAM): once more on a fresh session.
      const code = this.stream?.rstCode;
      if (!this.retried && (code === constants.NGHTTP2_REFUSED_STREAM || (err as Error & { code?: string }).code === 'ERR_HTTP2_GOAWAY_SESSION')) {
        this.retried = true;
        this.stream = undefined;
        const pool = this.agents.h2PoolFor(this.target);
        if (pool) return this.start(pool);
      }
      return this.fail(Errors.serviceUnavailable(`error trying to reach service: ${err.message}`));
    }
    // Cut mid-response: cut the client's too (a watch ends, the client re-watches).
    this.res.destroy();
    this.done(this.status);
  }

  /** The client went away (or the response ended without us): the backend's stream is reset, its watch ends. */
  onClientClose(): void {
    if (this.settled) return;
    this.stream?.close(constants.NGHTTP2_CANCEL);
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
 * Proxies a watch (a GET without a body) over the backend's HTTP/2 pool; `http1` takes it over when the backend
 * does not speak h2. Resolves and rejects as proxyRequest does.
 */
export function proxyWatchOverHttp2(
  req: IncomingMessage,
  res: ServerResponse,
  pool: BackendH2Pool,
  headers: OutgoingHttpHeaders,
  droppedResponseHeaders: ReadonlySet<string>,
  target: BackendTarget,
  agents: BackendAgents,
  service: BackendTarget | undefined,
  http1: (target: BackendTarget) => Promise<number>,
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const exchange = new H2WatchExchange(req, res, headers, droppedResponseHeaders, resolve, reject, (t) => void http1(t).then(resolve, reject), target, agents, service);
    res.on('close', () => exchange.onClientClose());
    exchange.start(pool);
  });
}
