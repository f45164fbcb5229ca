import { ServerResponse, type IncomingMessage } from 'node:http';
import { createServer, type Server, type ServerOptions } from 'node:https';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiRequest, type RequestHandler } from './filters/api-request';

/**
 * Starts an HTTPS server that asks for client certificates (verified against `ca`, checked by the
 * authenticator so a bad one gets a 401 Status rather than a TLS error) and never times requests out at the
 * HTTP layer: watches stay open. Resolves with the bound port.
 */
export async function listenHttps(
  tls: { certPem: string; keyPem: string; ca: string[] },
  address: { bindAddress: string; port: number },
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  extra: ServerOptions = {},
): Promise<{ server: Server; port: number }> {
  const server = createServer({ cert: tls.certPem, key: tls.keyPem, ca: tls.ca, requestCert: true, rejectUnauthorized: false, keepAliveTimeout: 65_000, ...extra }, handler);
  server.headersTimeout = 70_000;
  server.requestTimeout = 0;
  // Node hands CONNECT to a 'connect' listener and drops the connection without one; kube answers 405.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => endWithStatus(socket, 405));
  // What Node's HTTP parser rejects still gets a Status: a method Go would parse (any token) → 405, else 400/431.
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    if (!socket.writable) return void socket.destroy();
    endWithStatus(socket, err.code === 'HPE_INVALID_METHOD' ? 405 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.bindAddress, () => resolve());
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

/** Stops accepting, closes idle keep-alive connections at once and everything else (watches) after 2 s. */
export function closeGracefully(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2000).unref();
  });
}

/**
 * Passes upgrade requests (exec, attach, port-forward) through the same handler chain as every other request.
 * They have no ServerResponse of their own: one is made on their socket, so a refusal (401, 403, 404…) is an
 * ordinary Status answer, after which the connection is closed; a handler that accepts the upgrade takes the
 * socket over (ApiRequest.upgrade).
 */
export function serveUpgrades(server: NetServer, chain: RequestHandler): void {
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.on('finish', () => socket.end());
    void chain(new ApiRequest(req, res, { socket, head }));
  });
}
