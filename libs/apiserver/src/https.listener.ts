import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';

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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.bindAddress, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/** Stops accepting, closes idle keep-alive connections at once and everything else (watches) after 2 s. */
export function closeGracefully(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2000).unref();
  });
}
