import { connect, type ClientHttp2Session, type ClientHttp2Stream, type OutgoingHttpHeaders } from 'node:http2';
import { connect as tlsConnect, type SecureContext, type TLSSocket } from 'node:tls';

export interface BackendH2PoolOptions {
  host: string;
  port: number;
  /** TLS server name (SNI and the name the certificate must carry); undefined for an IP address. */
  servername?: string;
  secureContext: SecureContext;
  rejectUnauthorized: boolean;
}

/** Streams assumed allowed on a session until the backend's SETTINGS say (kube's default, and HTTP/2's advice). */
const ASSUMED_MAX_STREAMS = 100;
/** A backend that chose HTTP/1.1 by ALPN is asked again after this long (it may be upgraded meanwhile). */
const HTTP1_ONLY_RECHECK_MS = 60_000;
/**
 * Receive windows, as Go's HTTP/2 transport (kube's aggregator) sizes them in spirit: a stream may run ahead of a
 * slow watcher by 256 KiB (kube's per-stream server window), and the connection never throttles one stream for
 * another's sake (a window per stream allowed, up to kube's 1000).
 */
const STREAM_WINDOW = 256 * 1024;
const SESSION_WINDOW = 1000 * STREAM_WINDOW;

/**
 * What `request` hands back: a stream; `undefined` when the backend does not speak h2 (the caller takes the
 * HTTP/1.1 path); or the error that made the session fail before the request went out (nothing was sent).
 */
export type H2StreamCallback = (err: Error | undefined, stream: ClientHttp2Stream | undefined) => void;

/** One HTTP/2 connection to a backend, with the streams it carries counted against the backend's limit. */
class PooledSession {
  active = 0;
  /** ALPN chose h2 and the backend's SETTINGS arrived (its stream limit is known): requests go out at once. */
  ready = false;
  /** The backend's SETTINGS_MAX_CONCURRENT_STREAMS (HTTP/2: unlimited until it says). */
  maxStreams = ASSUMED_MAX_STREAMS;
  /** GOAWAY received, failed or closed: takes no new stream. */
  draining = false;
  waiters: Array<{ headers: OutgoingHttpHeaders; cb: H2StreamCallback }> = [];

  constructor(readonly session: ClientHttp2Session) {}

  get hasRoom(): boolean {
    return !this.draining && this.active < this.maxStreams;
  }
}

/**
 * HTTP/2 sessions to one backend endpoint for the proxy's watches (kube's aggregator proxies over HTTP/2 for this):
 * 1,000 watches become streams on one or a few TLS connections, so the backend writes an event to a handful of
 * sockets, not 1,000. A stream goes to the first session with room under the backend's advertised
 * SETTINGS_MAX_CONCURRENT_STREAMS; a new session is opened when none has. A session leaves the pool on GOAWAY
 * (its open streams finish), on error or close. A backend whose ALPN answer is HTTP/1.1 is remembered as such for
 * a minute: `request` then answers `undefined` and the caller uses its HTTP/1.1 pool.
 */
export class BackendH2Pool {
  /** Sessions that take new streams. */
  private readonly sessions: PooledSession[] = [];
  /** Every session not yet closed, draining ones too (a GOAWAY'd session may still carry watches). */
  private readonly live = new Set<PooledSession>();
  private http1OnlyUntil = 0;
  private retired = false;

  constructor(readonly options: BackendH2PoolOptions) {}

  /** Sessions open (or opening), for tests and figures. */
  get sessionCount(): number {
    return this.sessions.length;
  }

  /** Streams open over all sessions. */
  get streamCount(): number {
    let n = 0;
    for (const s of this.sessions) n += s.active;
    return n;
  }

  /** The backend answered ALPN with HTTP/1.1 lately: its requests take the HTTP/1.1 pool. */
  get http1Only(): boolean {
    return this.http1OnlyUntil > Date.now();
  }

  /** Opens a stream for a request without a body (`headers` with the pseudo-header fields). */
  request(headers: OutgoingHttpHeaders, cb: H2StreamCallback): void {
    if (this.retired || this.http1Only) return cb(undefined, undefined);
    let pooled = this.sessions.find((s) => s.hasRoom);
    if (!pooled) pooled = this.open();
    pooled.active++;
    if (pooled.ready) this.send(pooled, headers, cb);
    else pooled.waiters.push({ headers, cb });
  }

  /** Every session ends now, failing its streams (the backend is unreachable: watches end, clients re-watch). */
  abort(err: Error): void {
    this.sessions.splice(0);
    for (const s of [...this.live]) {
      s.draining = true;
      s.session.destroy(err);
    }
  }

  /** No new streams; sessions close once their streams end (the endpoint left the bounded set of pools). */
  retire(): void {
    this.retired = true;
    this.sessions.splice(0);
    for (const s of this.live) {
      s.draining = true;
      s.session.close();
    }
  }

  destroy(): void {
    this.retired = true;
    this.sessions.splice(0);
    for (const s of [...this.live]) {
      s.draining = true;
      s.session.destroy();
    }
  }

  private open(): PooledSession {
    const { host, port, servername, secureContext, rejectUnauthorized } = this.options;
    let socket: TLSSocket | undefined;
    const session = connect(`https://${host.includes(':') ? `[${host}]` : host}:${port}`, {
      // Both protocols offered: a backend serving HTTP/1.1 only completes the handshake, and we learn it from ALPN.
      createConnection: () => (socket = tlsConnect({ host, port, servername, secureContext, rejectUnauthorized, ALPNProtocols: ['h2', 'http/1.1'] })),
      settings: { enablePush: false, initialWindowSize: STREAM_WINDOW },
      // nghttp2's buffers for all the session's streams, in MB (Node's default, 10, refuses streams well before 1000).
      maxSessionMemory: Math.ceil(SESSION_WINDOW / (1 << 20)),
    });
    const pooled = new PooledSession(session);
    this.sessions.push(pooled);
    this.live.add(pooled);
    // Pooled sessions must not keep the process alive (a proxied request holds its client's socket).
    session.unref();
    socket?.once('secureConnect', () => {
      // tls.connect does not pass these on to TCP: no Nagle delay on heads; keep-alive notices a vanished host.
      socket?.setNoDelay(true);
      socket?.setKeepAlive(true, 30_000);
      if (socket?.alpnProtocol !== 'h2') this.notHttp2(pooled);
    });
    session.once('connect', () => {
      if (pooled.draining) return;
      try {
        session.setLocalWindowSize(SESSION_WINDOW);
      } catch {
        // Gone before its settings were exchanged: its close follows.
      }
    });
    // Requests wait for the backend's SETTINGS (its first frame): a stream past its limit would wait in nghttp2's
    // queue until another ends, which for watches may be never.
    session.on('remoteSettings', (settings) => {
      pooled.maxStreams = settings.maxConcurrentStreams ?? 0xffffffff;
      if (pooled.ready || pooled.draining) return;
      pooled.ready = true;
      const waiters = pooled.waiters.splice(0);
      pooled.active -= waiters.length;
      for (const w of waiters) {
        if (pooled.hasRoom) {
          pooled.active++;
          this.send(pooled, w.headers, w.cb);
        } else this.request(w.headers, w.cb);
      }
    });
    // A GOAWAY: no new streams here (Node closes the session once its open streams end).
    session.once('goaway', () => this.drop(pooled));
    session.on('error', (err: Error) => this.fail(pooled, err));
    session.once('close', () => {
      this.live.delete(pooled);
      this.fail(pooled, new Error('the backend closed the connection'));
    });
    return pooled;
  }

  private send(pooled: PooledSession, headers: OutgoingHttpHeaders, cb: H2StreamCallback): void {
    let stream: ClientHttp2Stream;
    try {
      stream = pooled.session.request(headers, { endStream: true });
    } catch (err) {
      pooled.active--;
      return cb(err as Error, undefined);
    }
    stream.once('close', () => {
      pooled.active--;
    });
    cb(undefined, stream);
  }

  /** ALPN chose HTTP/1.1: this session and the requests waiting on it go the HTTP/1.1 way. */
  private notHttp2(pooled: PooledSession): void {
    this.http1OnlyUntil = Date.now() + HTTP1_ONLY_RECHECK_MS;
    this.drop(pooled);
    const waiters = pooled.waiters.splice(0);
    pooled.active -= waiters.length;
    pooled.session.destroy();
    for (const w of waiters) w.cb(undefined, undefined);
  }

  private drop(pooled: PooledSession): void {
    pooled.draining = true;
    const i = this.sessions.indexOf(pooled);
    if (i >= 0) this.sessions.splice(i, 1);
  }

  /** The session failed (or closed) before some requests went out: they fail with `err`, nothing of them sent. */
  private fail(pooled: PooledSession, err: Error): void {
    this.drop(pooled);
    const waiters = pooled.waiters.splice(0);
    pooled.active -= waiters.length;
    for (const w of waiters) w.cb(err, undefined);
    if (!pooled.session.destroyed) pooled.session.destroy();
  }
}

/**
 * KUBE_PROXY_HTTP2 (default false for now: opt-in until its e2e is steady): the proxy's watches go to the backends
 * over HTTP/2, as kube's aggregator proxies (kube's switch is the other way round: DISABLE_HTTP2).
 */
export function proxyHttp2FromEnv(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = (env.KUBE_PROXY_HTTP2 ?? 'false').toLowerCase();
  if (value !== 'true' && value !== 'false') throw new Error(`KUBE_PROXY_HTTP2 must be true or false, not ${JSON.stringify(env.KUBE_PROXY_HTTP2)}`);
  return value === 'true';
}
