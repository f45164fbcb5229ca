import { Server as HttpServer, ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import { createSecureServer, Http2ServerRequest, type Http2SecureServer, type Http2ServerResponse } from 'node:http2';
import { createServer, type Server as HttpsServer, type ServerOptions } from 'node:https';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Errors, StatusError } from '@kube/apimachinery';
import { ApiRequest, type RequestHandler } from './filters/api-request';
import { closeHttp2Sessions, http2ServerOptions, manageHttp2Sessions, type Http2ServingOptions } from './http2.serving';
import { writeStatus } from './response.writer';

/** A secure server: HTTP/1.1 only, or HTTP/2 and HTTP/1.1 by ALPN on one port. */
export type SecureServer = HttpsServer | Http2SecureServer;

/** Where and how long a server waits for its clients (kube's secure serving: apiserver/pkg/server/secure_serving.go). */
export interface ServingOptions {
  bindAddress: string;
  port: number;
  /**
   * The request timeout (kube's --request-timeout, default 60 s): also the deadline for a request's head and
   * body to arrive, so a client that trickles its body cannot hold a connection (0: no deadline).
   */
  requestTimeoutMs?: number;
  /** How long a request's head may take to arrive, and the TLS handshake before it (kube's ReadHeaderTimeout: 32 s). */
  readHeaderTimeoutMs?: number;
  /** HTTP/2 beside HTTP/1.1 (ALPN), with kube's stream limit; absent or disabled: HTTP/1.1 only. */
  http2?: Http2ServingOptions;
}

/** kube's ReadHeaderTimeout ("just shy of requestTimeoutUpperBound"). */
export const DEFAULT_READ_HEADER_TIMEOUT_MS = 32_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** kube's MaxHeaderBytes (Node's own default is 16 KiB: kube accepts larger tokens and impersonation headers). */
const MAX_HEADER_BYTES = 1 << 20;
/**
 * Requests served on one keep-alive connection before the server asks the client to reconnect (Connection:
 * close on the last): bounds what one connection holds and, like kube's --goaway-chance, lets a client
 * behind a load balancer move to another replica now and then. Far above what costs a handshake worth noticing.
 */
const MAX_REQUESTS_PER_CONNECTION = 10_000;
/**
 * Request body a connection may still skip after its response was written (Go's maxPostHandlerReadBytes): more
 * than this left unread (a 401 to a `Content-Length: 10^12` upload) and the connection is closed instead of
 * read to the end.
 */
const MAX_UNREAD_BODY_BYTES = 256 * 1024;
/** How long a connection we close after answering still takes (and drops) what the client sends (Go's rstAvoidanceDelay). */
const LINGER_MS = 500;

/** The body of `req` a response would leave unread, if it is over the limit (or of unknown length): close then. */
function bodyLeftTooLarge(req: IncomingMessage): boolean {
  if (req.complete) return false;
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) > MAX_UNREAD_BODY_BYTES;
}

/**
 * Answers with `Connection: close` when the request's body is still arriving and more of it is left than the
 * connection may skip: Node would otherwise read (and drop) all of it, however long, to keep the connection.
 * Decided when the head is written, as Go's server does; Node closes the connection once the response ends.
 */
class BoundedDrainResponse extends ServerResponse {
  override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(statusCode: number, statusMessage?: string, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(statusCode: number, reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[], headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this {
    if (this.shouldKeepAlive && bodyLeftTooLarge(this.req)) this.shouldKeepAlive = false;
    return super.writeHead(statusCode, reason as string, headers);
  }
}

/** The response under way on a connection, if any (Node keeps it on the socket). */
function inFlight(socket: Duplex): ServerResponse | undefined {
  return (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage ?? undefined;
}

/**
 * Starts an HTTPS server that asks for client certificates (verified against `ca`, checked by the
 * authenticator so a bad one gets a 401 Status rather than a TLS error), with kube's serving limits: a request's
 * head within `readHeaderTimeoutMs` (the TLS handshake too), head and body within `requestTimeoutMs`, heads up to
 * 1 MiB; responses are never timed out at the HTTP layer (watches stay open). Resolves with the bound port.
 */
export async function listenHttps(
  tls: { certPem: string; keyPem: string; ca: string[] },
  serving: ServingOptions & { http2?: undefined },
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  extra?: ServerOptions,
): Promise<{ server: HttpsServer; port: number }>;
export async function listenHttps(
  tls: { certPem: string; keyPem: string; ca: string[] },
  serving: ServingOptions,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  extra?: ServerOptions,
): Promise<{ server: SecureServer; port: number }>;
export async function listenHttps(
  tls: { certPem: string; keyPem: string; ca: string[] },
  serving: ServingOptions,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  extra: ServerOptions = {},
): Promise<{ server: SecureServer; port: number }> {
  const requestTimeout = serving.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const readHeaderTimeout = serving.readHeaderTimeoutMs ?? DEFAULT_READ_HEADER_TIMEOUT_MS;
  // Node checks both deadlines on a timer, not per connection: often enough that they hold within an eighth.
  const shortest = requestTimeout > 0 ? Math.min(requestTimeout, readHeaderTimeout) : readHeaderTimeout;
  const http1 = {
    keepAliveTimeout: 65_000,
    // Node wants the head's deadline within the whole request's.
    headersTimeout: requestTimeout > 0 ? Math.min(readHeaderTimeout, requestTimeout) : readHeaderTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.min(Math.max(Math.floor(shortest / 8), 100), 4000),
    maxHeaderSize: MAX_HEADER_BYTES,
  };
  const tlsOptions = { cert: tls.certPem, key: tls.keyPem, ca: tls.ca, requestCert: true, rejectUnauthorized: false, handshakeTimeout: readHeaderTimeout };
  let server: SecureServer;
  if (serving.http2?.enabled) {
    // HTTP/2 requests come as the compatibility API's request/response, which offer what the handlers use of
    // IncomingMessage/ServerResponse (headers, url, method, socket, writeHead/setHeader/write/end, 'close', 'drain').
    const h2 = createSecureServer({ ...tlsOptions, ...http2ServerOptions(serving.http2), Http1ServerResponse: BoundedDrainResponse, ...extra }, handler as unknown as (req: Http2ServerRequest, res: Http2ServerResponse) => void);
    // Node's HTTP/1.1 connection handling reads its limits off the server (http.Server sets them from its options).
    Object.assign(h2, http1, { requireHostHeader: true, rejectNonStandardBodyWrites: false, maxRequestsPerSocket: MAX_REQUESTS_PER_CONNECTION });
    manageHttp2Sessions(h2, serving.http2);
    server = h2;
  } else {
    const h1 = createServer({ ...tlsOptions, ...http1, ServerResponse: BoundedDrainResponse, ...extra }, handler);
    h1.maxRequestsPerSocket = MAX_REQUESTS_PER_CONNECTION;
    server = h1;
  }
  // Node hands CONNECT to a 'connect' listener and drops the connection without one; kube answers 405 (over
  // HTTP/2 the listener gets the stream's request and response).
  server.on('connect', (req: IncomingMessage | Http2ServerRequest, socket: Duplex | Http2ServerResponse) => {
    if (req instanceof Http2ServerRequest) writeStatus(socket as unknown as ServerResponse, new StatusError(405, 'MethodNotAllowed', RAW_STATUS[405].message));
    else endWithStatus(socket as Duplex, 405);
  });
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    const res = inFlight(socket);
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' && res && !res.headersSent) {
      // The head arrived, the body did not in time, and the handler is still waiting for it: kube's 504.
      res.shouldKeepAlive = false;
      writeStatus(res, Errors.timeout());
      return;
    }
    // A head (or TLS handshake) that did not arrive in time closes without a word, as Go's server does; so do a
    // reset connection and anything once a response has started (a Status now would corrupt it). Only what
    // Node's HTTP parser refused gets an answer.
    if (!err.code?.startsWith('HPE_') || !socket.writable || res?.headersSent) return void socket.destroy();
    // What Node's HTTP parser rejects still gets a Status: a method Go would parse (any token) → 405, else 400/431.
    endWithStatus(socket, err.code === 'HPE_INVALID_METHOD' ? 405 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(serving.port, serving.bindAddress, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}

const RAW_STATUS: Record<number, { text: string; reason: string; message: string }> = {
  400: { text: 'Bad Request', reason: 'BadRequest', message: 'the server rejected our request for an unknown reason' },
  405: { text: 'Method Not Allowed', reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' },
  431: { text: 'Request Header Fields Too Large', reason: 'RequestHeaderFieldsTooLarge', message: 'the request header fields are too large' },
};

/** Answers a connection Node would otherwise drop with a metav1.Status (kube's generic texts), then closes it. */
function endWithStatus(socket: Duplex, code: 400 | 405 | 431): void {
  const { text, reason, message } = RAW_STATUS[code];
  const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details: {}, code });
  socket.on('error', () => socket.destroy());
  socket.end(`HTTP/1.1 ${code} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** Connections a server handed over to an upgrade (Node no longer tracks them): closed with the server. */
const upgradedSockets = new WeakMap<NetServer, Set<Socket>>();

/** Stops accepting, closes idle keep-alive connections at once and everything else (watches, upgrades) after 2 s. */
export function closeGracefully(server: SecureServer): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    // An HTTP/2 server's HTTP/1.1 connections are tracked as an http.Server tracks them.
    HttpServer.prototype.closeIdleConnections.call(server);
    if (!(server instanceof HttpServer)) closeHttp2Sessions(server, 2000);
    setTimeout(() => {
      HttpServer.prototype.closeAllConnections.call(server);
      for (const socket of upgradedSockets.get(server) ?? []) socket.destroy();
    }, 2000).unref();
  });
}

/**
 * Ends a connection we answered on and will not read again: our answer is sent, what the client still sends is
 * read and dropped for a moment (so the close is not a reset that could lose the answer), then it is closed.
 */
function lingeringClose(socket: Socket): void {
  socket.end();
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * Passes upgrade requests (exec, attach, port-forward) through the same handler chain as every other request.
 * They have no ServerResponse of their own: one is made on their socket, so a refusal (401, 403, 404…) is an
 * ordinary Status answer, after which the connection is closed, none of its other bytes read; a handler that
 * accepts the upgrade takes the socket over (ApiRequest.upgrade) and resolves with 101. The client's bytes stay
 * unread in the socket meanwhile (Node leaves an upgraded socket paused).
 */
export function serveUpgrades(server: NetServer, chain: RequestHandler): void {
  const upgraded = new Set<Socket>();
  upgradedSockets.set(server, upgraded);
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    // Node no longer listens for this socket's errors: a reset must not become an uncaught exception.
    socket.on('error', () => socket.destroy());
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.on('finish', () => lingeringClose(socket));
    const gaveUp = (): void => void socket.destroy();
    void chain(new ApiRequest(req, res, { socket, head })).then((code) => {
      // Neither upgraded nor answering (a handler that gave up without a word): nothing more will come.
      if (code !== 101 && !res.headersSent) gaveUp();
    }, gaveUp);
  });
}
