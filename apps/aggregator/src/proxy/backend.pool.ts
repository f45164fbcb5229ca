import { isIP } from 'node:net';
import { connect, type SecureContext, type TLSSocket } from 'node:tls';
import { ResponseParser, type ResponseHandler, type ResponseHead } from './http1.response';

/** Whoever uses a connection for one request: told of the response, and of a failure. */
export interface Exchange extends ResponseHandler {
  /**
   * The connection failed before the response ended. `retryable`: it was a reused keep-alive connection and
   * nothing of a response had arrived (the server may have closed it as idle just as the request went out).
   */
  onError(err: Error, retryable: boolean): void;
}

export interface BackendPoolOptions {
  host: string;
  port: number;
  /** TLS server name (SNI and the name the certificate must carry); undefined for an IP address. */
  servername?: string;
  secureContext: SecureContext;
  rejectUnauthorized: boolean;
  /** Idle connections kept (most recently used first); more are closed. */
  maxIdle?: number;
  /** Response fields the parser keeps out of `head.headers` (still interpreted: framing, connection). */
  droppedResponseHeaders?: ReadonlySet<string>;
}

/** How long an idle connection is kept when the server does not say (Go's http.Transport default). */
const DEFAULT_IDLE_MS = 90_000;

/** One TLS connection to a backend carrying one request at a time (HTTP/1.1, keep-alive). */
export class BackendConnection implements ResponseHandler {
  readonly parser: ResponseParser;
  private exchange?: Exchange;
  private onConnect?: (err: Error | undefined, conn: BackendConnection) => void;
  /** Served a request before: a failure before any response byte may be the server closing it as idle. */
  reused = false;
  /** The request (head and body) is written completely; only then may the connection carry another one. */
  requestDone = false;
  idleSince = 0;
  idleMs = DEFAULT_IDLE_MS;
  closed = false;

  constructor(
    readonly socket: TLSSocket,
    private readonly pool: BackendPool,
    onConnect: (err: Error | undefined, conn: BackendConnection) => void,
  ) {
    this.parser = new ResponseParser(pool.options.droppedResponseHeaders);
    this.onConnect = onConnect;
    socket.once('secureConnect', () => {
      // tls.connect does not pass noDelay/keepAlive on to the TCP socket: set them here (no Nagle delay on
      // request heads; TCP keep-alive notices a backend host that vanished under a quiet watch).
      socket.setNoDelay(true);
      socket.setKeepAlive(true, 30_000);
      const cb = this.onConnect;
      this.onConnect = undefined;
      cb?.(undefined, this);
    });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('end', () => this.onServerEnd());
    socket.on('error', (err: Error) => this.fail(err));
    socket.on('close', () => this.fail(new Error('the backend closed the connection')));
  }

  /** Sends a request head (and the body, if any, through write()) and routes the response to `exchange`. */
  begin(exchange: Exchange, head: string, headRequest: boolean, bodyFollows: boolean): void {
    this.exchange = exchange;
    this.requestDone = !bodyFollows;
    this.parser.reset(this, headRequest);
    this.socket.write(head, 'latin1');
  }

  write(data: Buffer | string): boolean {
    return this.socket.write(data);
  }

  /** Closes the connection without telling the exchange (it is the one giving up). */
  close(): void {
    this.exchange = undefined;
    this.onConnect = undefined;
    if (this.closed) return;
    this.closed = true;
    this.pool.forget(this);
    this.socket.destroy();
  }

  /** Fails the exchange under way with `err` and closes the connection. */
  abort(err: Error): void {
    this.fail(err);
  }

  onHead(head: ResponseHead): void {
    if (head.keepAliveTimeout !== undefined) this.idleMs = head.keepAliveTimeout * 1000 - 1000;
    this.exchange?.onHead(head);
  }

  onBody(chunk: Buffer): void {
    this.exchange?.onBody(chunk);
  }

  onEnd(reusable: boolean): void {
    const exchange = this.exchange;
    this.exchange = undefined;
    if (reusable && this.requestDone && this.idleMs > 0) this.pool.release(this);
    else this.close();
    exchange?.onEnd(reusable);
  }

  private onData(chunk: Buffer): void {
    if (!this.exchange) {
      // Nothing was asked: a server speaking out of turn is out of step with us.
      this.close();
      return;
    }
    try {
      this.parser.execute(chunk);
    } catch (err) {
      this.fail(err as Error);
    }
  }

  /** The server ended the connection: the end of a close-delimited body, else a failure. */
  private onServerEnd(): void {
    if (this.exchange && this.parser.endsWithClose) {
      try {
        this.parser.finish();
      } catch (err) {
        this.fail(err as Error);
      }
      return;
    }
    this.fail(new Error('the backend closed the connection'));
  }

  private fail(err: Error): void {
    const exchange = this.exchange;
    const onConnect = this.onConnect;
    const retryable = this.reused && this.parser.received === 0;
    this.close();
    if (onConnect) {
      // A handshake that failed may have tried a session the backend no longer knows: start afresh next time.
      this.pool.forgetSession();
      onConnect(err, this);
    } else exchange?.onError(err, retryable);
  }
}

/**
 * Keep-alive connections to one backend endpoint: the most recently used idle connection serves the next
 * request (LIFO), so a steady load keeps a few connections hot; connections idle longer than the server keeps
 * them (its Keep-Alive: timeout, else 90 s) are dropped rather than reused.
 */
export class BackendPool {
  private readonly idle: BackendConnection[] = [];
  /** Connections carrying an exchange (watches included), so they can be cut when the backend is gone. */
  private readonly busy = new Set<BackendConnection>();
  private readonly maxIdle: number;
  private session?: Buffer;
  /** Retired (its endpoint left the bounded set of pools): connections close as their exchange ends. */
  private retired = false;

  constructor(readonly options: BackendPoolOptions) {
    this.maxIdle = options.maxIdle ?? 64;
  }

  /** A connection: an idle one unless `fresh`, else a new one once its TLS handshake is done. */
  acquire(fresh: boolean, cb: (err: Error | undefined, conn: BackendConnection) => void): void {
    if (!fresh) {
      const now = Date.now();
      for (let conn = this.idle.pop(); conn; conn = this.idle.pop()) {
        if (!conn.closed && !conn.socket.destroyed && now - conn.idleSince < conn.idleMs) {
          this.busy.add(conn);
          cb(undefined, conn);
          return;
        }
        conn.close();
      }
    }
    const { host, port, servername, secureContext, rejectUnauthorized } = this.options;
    // The last TLS session the backend gave us resumes the next handshake (as Node's https.Agent does): a burst
    // of new connections (many watches at once) costs the backend far less than full handshakes.
    const socket = connect({ host, port, servername, secureContext, rejectUnauthorized, session: this.session });
    socket.on('session', (session: Buffer) => {
      this.session = session;
    });
    // Idle pooled connections must not keep the process alive (requests in flight hold their client's socket).
    socket.unref();
    new BackendConnection(socket, this, (err, conn) => {
      if (!err) this.busy.add(conn);
      cb(err, conn);
    });
  }

  release(conn: BackendConnection): void {
    this.busy.delete(conn);
    if (conn.closed) return;
    conn.reused = true;
    conn.idleSince = Date.now();
    if (this.retired || this.idle.length >= this.maxIdle) conn.close();
    else this.idle.push(conn);
  }

  forgetSession(): void {
    this.session = undefined;
  }

  forget(conn: BackendConnection): void {
    this.busy.delete(conn);
    const i = this.idle.lastIndexOf(conn);
    if (i >= 0) this.idle.splice(i, 1);
  }

  /** Closes connections idle for longer than the server keeps them. */
  sweep(now = Date.now()): void {
    for (const conn of [...this.idle]) if (now - conn.idleSince >= conn.idleMs) conn.close();
  }

  get idleCount(): number {
    return this.idle.length;
  }

  /**
   * The backend is unreachable (its availability check failed): every exchange under way fails now, so a
   * proxied watch ends and its client relists, instead of waiting on a dead TCP connection until the kernel
   * gives up (kube's aggregator gets the same from its HTTP/2 health check).
   */
  abortBusy(err: Error): void {
    for (const conn of [...this.busy]) conn.abort(err);
    for (const conn of [...this.idle]) conn.close();
  }

  get busyCount(): number {
    return this.busy.size;
  }

  /** Closes the idle connections now and every busy one when its exchange ends. */
  destroy(): void {
    this.retired = true;
    for (const conn of [...this.idle]) conn.close();
  }
}

/** host/servername for a URL's hostname: brackets off an IPv6 literal; no server name for an IP address. */
export function endpointOf(hostname: string, serverName: string | undefined): { host: string; servername?: string } {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return { host, servername: serverName ?? (isIP(host) ? undefined : host) };
}
