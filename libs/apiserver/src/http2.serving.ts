import { Http2ServerRequest, Http2ServerResponse, type Http2Session, type Http2SecureServer, type IncomingHttpHeaders, type SecureServerOptions, type ServerHttp2Stream } from 'node:http2';
import type { OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

/**
 * HTTP/2 at a server's port, beside HTTP/1.1 (ALPN `h2` and `http/1.1`, as kube's secure serving offers them).
 * kube-apiserver has no switch to stop serving h2 (only clients can refuse it); `enabled: false` is ours
 * (KUBE_HTTP2=false), for a client or load balancer that mishandles h2.
 */
export interface Http2ServingOptions {
  enabled: boolean;
  /**
   * kube's --http2-max-streams-per-connection: the SETTINGS_MAX_CONCURRENT_STREAMS the server announces. 0 takes
   * kube's own default, 100 ("match http2.initialMaxConcurrentStreams used by clients": a client can then have at
   * most a few hundred streams refused before its connection is closed).
   */
  maxStreamsPerConnection: number;
}

/** kube's default when --http2-max-streams-per-connection is 0 (apiserver/pkg/server/secure_serving.go). */
export const DEFAULT_HTTP2_MAX_STREAMS = 100;
/**
 * kube's per-stream receive buffer and read frame size ("at least 99% of serialized resources in surveyed
 * clusters were smaller than 256kb"): most request bodies arrive in one frame, one window; the connection's
 * window is this times the streams allowed.
 */
const RESOURCE_BODY_99_PERCENTILE = 256 * 1024;
/** kube's MaxHeaderBytes, as for HTTP/1.1 (Node's own HTTP/2 header list limit is 64 KiB). */
const MAX_HEADER_LIST_BYTES = 1 << 20;
/** kube's IdleTimeout: a connection with no stream open that long is closed with a GOAWAY (watches keep it busy). */
const IDLE_TIMEOUT_MS = 90_000;

/**
 * What a server behind the aggregator serves (kube's RecommendedOptions for aggregated servers: 1000 streams per
 * connection, "whose client is typically a proxy multiplexing many operations ... into one HTTP/2 connection").
 */
export const BACKEND_HTTP2: Readonly<Http2ServingOptions> = { enabled: true, maxStreamsPerConnection: 1000 };

/**
 * KUBE_HTTP2 (default true) and KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION (kube's --http2-max-streams-per-connection,
 * default `defaultMaxStreams`: 0 at the front door, 1000 behind it).
 */
export function http2ServingFromEnv(env: NodeJS.ProcessEnv = process.env, defaultMaxStreams = 0): Http2ServingOptions {
  const enabled = (env.KUBE_HTTP2 ?? 'true').toLowerCase();
  if (enabled !== 'true' && enabled !== 'false') throw new Error(`KUBE_HTTP2 must be true or false, not ${JSON.stringify(env.KUBE_HTTP2)}`);
  const raw = env.KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION ?? String(defaultMaxStreams);
  const streams = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(streams) || streams > 0xffffffff) {
    throw new Error(`KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION must be a whole number of streams, not ${JSON.stringify(raw)}`);
  }
  return { enabled: enabled === 'true', maxStreamsPerConnection: streams };
}

/** The streams a connection may open at once, as kube sizes them. */
export function effectiveMaxStreams(options: Http2ServingOptions): number {
  return options.maxStreamsPerConnection > 0 ? options.maxStreamsPerConnection : DEFAULT_HTTP2_MAX_STREAMS;
}

/** The node:http2 server options of kube's HTTP/2 serving (on top of the TLS ones). */
export function http2ServerOptions(options: Http2ServingOptions): SecureServerOptions {
  const streams = effectiveMaxStreams(options);
  return {
    allowHTTP1: true,
    settings: { maxConcurrentStreams: streams, initialWindowSize: RESOURCE_BODY_99_PERCENTILE, maxFrameSize: RESOURCE_BODY_99_PERCENTILE, maxHeaderListSize: MAX_HEADER_LIST_BYTES },
    // nghttp2's own buffers for all streams of a session, in MB (Node's default, 10, would refuse streams long before the limit).
    maxSessionMemory: Math.max(10, Math.ceil((streams * RESOURCE_BODY_99_PERCENTILE) / (1 << 20))),
    Http2ServerRequest: Http2Request,
    // (Node's typings make the response class generic in its request class; ours serves any.)
    Http2ServerResponse: Http2Response as unknown as typeof Http2ServerResponse,
  };
}

/**
 * Fields RFC 9113 8.2.2 forbids in HTTP/2 (node:http2 throws on all but Connection): handlers and the proxy
 * written for HTTP/1.1 may set them (a watch's Transfer-Encoding, a shutdown's Connection: close), so they are
 * dropped here, as Go's server drops them.
 */
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/**
 * A request over HTTP/2 as the handler chain reads an HTTP/1.1 one: `socket` is the connection's (one per
 * session, so what is cached per connection, e.g. the client certificate's identity, is found again), `host`
 * is the :authority, and a body of unknown length (no Content-Length, the stream not ended with the headers)
 * reads as `Transfer-Encoding: chunked`, which is what HTTP/1.1 code takes for "a body, length unknown".
 */
export class Http2Request extends Http2ServerRequest {
  constructor(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, options: object | undefined, rawHeaders: string[]) {
    super(stream, headers, options as never, rawHeaders);
    if (headers.host === undefined && headers[':authority'] !== undefined) headers.host = headers[':authority'];
    if (headers['content-length'] === undefined && !stream.endAfterHeaders) headers['transfer-encoding'] = 'chunked';
  }
}

// `socket` is an accessor of Node's request class (its typings call it a field, which a subclass cannot override).
const streamSocket = Object.getOwnPropertyDescriptor(Http2ServerRequest.prototype, 'socket')?.get;
Object.defineProperty(Http2Request.prototype, 'socket', {
  configurable: true,
  get(this: Http2Request): Socket | undefined {
    // The session's socket stand-in is made once per connection; the stream's one per request.
    return (this.stream.session?.socket as Socket | undefined) ?? (streamSocket?.call(this) as Socket | undefined);
  },
});

/** Drops the connection-specific fields of `headers`, copying only when one is there. */
function withoutConnectionSpecific(headers: OutgoingHttpHeaders): { headers: OutgoingHttpHeaders; close: boolean } {
  let out: OutgoingHttpHeaders | undefined;
  let close = false;
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (!CONNECTION_SPECIFIC.has(lower)) continue;
    if (lower === 'connection' && String(headers[name]).toLowerCase() === 'close') close = true;
    out ??= { ...headers };
    delete out[name];
  }
  return { headers: out ?? headers, close };
}

/**
 * A response over HTTP/2 that takes what HTTP/1.1 handlers write: connection-specific fields are dropped, and
 * `Connection: close` (kube's shutdown answer, WithRetryAfter) closes the connection gracefully with a GOAWAY,
 * as Go's HTTP/2 server does, so the client moves to another instance.
 */
export class Http2Response extends Http2ServerResponse {
  override setHeader(name: string, value: number | string | readonly string[]): void {
    const lower = name.toLowerCase();
    if (CONNECTION_SPECIFIC.has(lower)) {
      if (lower === 'connection' && String(value).toLowerCase() === 'close') this.closeSessionAfter();
      return;
    }
    super.setHeader(name, value);
  }

  override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(statusCode: number, statusMessage: string, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(statusCode: number, messageOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[], maybeHeaders?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this {
    // HTTP/2 has no reason phrase (Node warns once per process when given one).
    const headers = typeof messageOrHeaders === 'string' ? maybeHeaders : messageOrHeaders;
    if (headers === undefined || Array.isArray(headers)) return super.writeHead(statusCode, headers as OutgoingHttpHeaders | undefined);
    const cleaned = withoutConnectionSpecific(headers as OutgoingHttpHeaders);
    if (cleaned.close) this.closeSessionAfter();
    return super.writeHead(statusCode, cleaned.headers);
  }

  private closeSessionAfter(): void {
    const session = this.stream.session;
    // close(): GOAWAY now, no new streams; the open ones (this response included) finish first.
    if (session && !session.closed && !session.destroyed) this.once('finish', () => session.close());
  }
}

/** Sessions of each HTTP/2 server, for a graceful close. */
const sessionsOf = new WeakMap<Http2SecureServer, Set<Http2Session>>();

/**
 * Per-connection setup kube's server does: the connection's receive window sized for every stream allowed,
 * kube's idle timeout (no stream open for 90 s: GOAWAY), and the session tracked for closeHttp2Sessions.
 */
export function manageHttp2Sessions(server: Http2SecureServer, options: Http2ServingOptions): void {
  const sessions = new Set<Http2Session>();
  sessionsOf.set(server, sessions);
  const window = effectiveMaxStreams(options) * RESOURCE_BODY_99_PERCENTILE;
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    // A reset connection or a protocol error: Node would otherwise report it as unhandled.
    session.on('error', () => session.destroy());
    session.once('connect', () => {
      try {
        session.setLocalWindowSize(window);
      } catch {
        // Gone before its settings were exchanged.
      }
    });
    let open = 0;
    const idle = setTimeout(() => {
      if (open === 0 && !session.closed) session.close();
    }, IDLE_TIMEOUT_MS).unref();
    session.once('close', () => clearTimeout(idle));
    session.on('stream', (stream: ServerHttp2Stream) => {
      open++;
      stream.once('close', () => {
        if (--open === 0) idle.refresh();
      });
    });
  });
}

/** Graceful end of every HTTP/2 connection: GOAWAY at once (open streams finish), destroyed after `graceMs`. */
export function closeHttp2Sessions(server: Http2SecureServer, graceMs: number): void {
  const sessions = sessionsOf.get(server);
  if (!sessions) return;
  for (const session of sessions) if (!session.closed) session.close();
  setTimeout(() => {
    for (const session of sessions) session.destroy();
  }, graceMs).unref();
}
