import { connect, createServer, type Server } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it). */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port;
}

/** Several distinct free ports: all are held open together so the OS cannot hand out the same one twice. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, listenOnAnyPort));
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function listenOnAnyPort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** True when something already accepts connections on 127.0.0.1:port. */
export function portAnswers(port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: timeoutMs });
    const done = (answers: boolean): void => {
      socket.destroy();
      resolve(answers);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/**
 * Throws (with the same wording the servers use, so callers can retry on it) when a port is already taken:
 * otherwise a readiness probe could be answered by whatever holds the port instead of our new process.
 */
export async function assertPortsFree(name: string, ports: readonly number[]): Promise<void> {
  for (const port of ports) {
    if (await portAnswers(port)) throw new Error(`${name}: 127.0.0.1:${port}: address already in use`);
  }
}
