/** A NATS connection that never gives up, with callbacks for the transitions registration cares about. */
import { connect, Events, type NatsConnection } from 'nats';

export interface NatsConnectionOptions {
  /** nats://host:port, or several for a cluster. */
  readonly servers: string | readonly string[];
  /** Connection name shown by the server's monitoring (connz). */
  readonly name: string;
  /** Pause between reconnect attempts (default 500 ms; the client adds jitter). */
  readonly reconnectTimeWaitMs?: number;
}

export interface ConnectionEvents {
  onDisconnect(): void;
  onReconnect(): void;
}

const DEFAULT_RECONNECT_TIME_WAIT_MS = 500;

/**
 * Connects with reconnect forever, also on the first attempt (waitOnFirstConnect): a service may start before
 * nats-server does, and registration must never be the reason a service dies.
 */
export async function connectForever(opts: NatsConnectionOptions): Promise<NatsConnection> {
  return connect({
    servers: typeof opts.servers === 'string' ? opts.servers : [...opts.servers],
    name: opts.name,
    maxReconnectAttempts: -1,
    waitOnFirstConnect: true,
    reconnectTimeWait: opts.reconnectTimeWaitMs ?? DEFAULT_RECONNECT_TIME_WAIT_MS,
  });
}

/**
 * Feeds status changes to `events` in the background. Not awaitable on purpose: the client's status iterator
 * never ends, not even after close(), so awaiting it would hang; it is collected with the closed connection.
 */
export function followStatus(nc: NatsConnection, events: ConnectionEvents): void {
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === Events.Disconnect) events.onDisconnect();
      else if (status.type === Events.Reconnect) events.onReconnect();
    }
  })();
}
