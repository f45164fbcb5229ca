import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A minimal aggregated API server for the benchmark, for any group/version an APIService sends it: legacy
 * discovery (/apis, /apis/<group>/<version> with one resource, `things`) and a GET of any thing.
 */
export async function startStubAggregatedServer(certPem: string, keyPem: string): Promise<{ port: number; close(): void }> {
  const server: Server = createServer({ cert: certPem, key: keyPem }, (req, res) => {
    const url = req.url ?? '';
    const [, group, version, ...rest] = (url.split('?')[0] ?? '').split('/').filter(Boolean);
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    // A 200 that is not aggregated discovery: the aggregator falls back to each group/version's legacy document.
    if (url === '/apis' || url.startsWith('/apis?')) return json(200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
    if (!url.startsWith('/apis/') || !group || !version) return json(404, {});
    const groupVersion = `${group}/${version}`;
    if (rest.length === 0) return json(200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: [{ name: 'things', singularName: 'thing', namespaced: true, kind: 'Thing', verbs: ['get'] }] });
    const name = rest[rest.length - 1];
    return json(200, { kind: 'Thing', apiVersion: groupVersion, metadata: { name, namespace: 'default', resourceVersion: '1' } });
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
