/**
 * A TCP relay between one process and a server (e.g. a replica and etcd) whose answers can be held back: while
 * held, nothing the server sends reaches the client (the bytes wait in the relay, TCP's flow control does the
 * rest), while the client's requests still go out. A replica's etcd watch then falls behind etcd for as long as
 * the test wants, with the replica itself running and serving — a real stall, not a mock, and no root needed
 * (test/support/netns.fault.ts drops or delays whole links, with root).
 */
import { createServer, type Server, type Socket, connect } from 'node:net';

export interface TcpRelay {
  /** `http://127.0.0.1:<port>`: the address to give the client instead of the server's. */
  readonly endpoint: string;
  /** Holds back everything the server sends from now on. */
  hold(): void;
  /** Delivers what was held back, and the rest as it comes. */
  release(): void;
  /** Drops every connection open now (what was held back is lost, as in a network cut); new ones are relayed. */
  reset(): void;
  close(): Promise<void>;
}

/** Relays 127.0.0.1:<free port> to `target` (`http://host:port`, the scheme is kept in `endpoint`). */
export async function startTcpRelay(target: string): Promise<TcpRelay> {
  const url = new URL(target);
  /** Each connection: the server's side → the client's. */
  const pairs = new Map<Socket, Socket>();
  let held = false;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(url.port), url.hostname);
    pairs.set(upstream, client);
    client.pipe(upstream);
    if (held) upstream.pause();
    else upstream.pipe(client);
    const drop = (): void => {
      pairs.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    endpoint: `${url.protocol}//127.0.0.1:${port}`,
    hold() {
      held = true;
      // pipe() resumes a paused source when its destination drains: unpipe so nothing flows until release.
      for (const [upstream, client] of pairs) {
        upstream.unpipe(client);
        upstream.pause();
      }
    },
    release() {
      held = false;
      for (const [upstream, client] of pairs) upstream.pipe(client);
    },
    reset() {
      for (const [upstream, client] of [...pairs]) (upstream.destroy(), client.destroy());
      pairs.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [upstream, client] of pairs) (upstream.destroy(), client.destroy());
        server.close(() => resolve());
      }),
  };
}
