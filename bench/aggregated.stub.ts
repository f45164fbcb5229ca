import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/** A minimal aggregated API server for the benchmark: discovery of bench.example.com/v1 and nothing else. */
export async function startStubAggregatedServer(certPem: string, keyPem: string): Promise<{ port: number; close(): void }> {
  const server: Server = createServer({ cert: certPem, key: keyPem }, (req, res) => {
    if ((req.url ?? '').startsWith('/apis/bench.example.com/v1')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'bench.example.com/v1', resources: [] }));
      return;
    }
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end('{}');
  });
  // Every TCP connection, including ones still in the TLS handshake (closeAllConnections misses those, and a
  // keep-alive connection that survives keeps discovery checks passing): close() must act like a killed process.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}
