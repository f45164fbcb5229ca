import { Agent } from 'node:https';

/** Where a group/version is served: one HTTPS endpoint and how to trust it. */
export interface BackendTarget {
  /** For logs and Status messages: "core-api", "default/wardle-server". */
  name: string;
  url: URL;
  /** PEM bundle to verify the backend; undefined = the system roots (unless insecure). */
  caPem?: string;
  insecureSkipTLSVerify?: boolean;
  /** TLS server name to verify, e.g. "<service>.<namespace>.svc". */
  serverName?: string;
  /** Every live instance of the service (NATS announcements): requests are spread over them. */
  instances?: BackendTarget[];
}

/** The aggregator's client certificate for the backends' front-proxy (requestheader) authentication. */
export interface ProxyClientCertificate {
  certPem: string;
  keyPem: string;
}

/** How many backend endpoints keep a pool: past that the least recently used pool is retired. */
export const MAX_BACKEND_POOLS = 128;

interface Pool {
  agent: Agent;
  lastUsed: number;
}

/**
 * Keep-alive connection pools, one per backend endpoint and trust setting; created once, reused by every request.
 * Bounded: endpoints come and go (APIServices deleted, CA bundles rotated), so past `maxPools` the least recently
 * used pool is retired — its idle connections closed, its busy ones (a watch) closed when they finish.
 */
export class BackendAgents {
  private readonly pools = new Map<string, Pool>();
  private uses = 0;

  constructor(
    private readonly client: ProxyClientCertificate,
    private readonly maxPools = MAX_BACKEND_POOLS,
  ) {}

  get size(): number {
    return this.pools.size;
  }

  agentFor(t: BackendTarget): Agent {
    const key = `${t.url.host}|${t.serverName ?? ''}|${t.insecureSkipTLSVerify ? 'insecure' : (t.caPem ?? 'system')}`;
    let pool = this.pools.get(key);
    if (!pool) {
      if (this.pools.size >= this.maxPools) this.retireLeastRecentlyUsed();
      pool = {
        agent: new Agent({
          keepAlive: true,
          maxSockets: Infinity,
          maxFreeSockets: 64,
          cert: this.client.certPem,
          key: this.client.keyPem,
          ca: t.caPem,
          rejectUnauthorized: !t.insecureSkipTLSVerify,
          servername: t.serverName,
        }),
        lastUsed: 0,
      };
      this.pools.set(key, pool);
    }
    pool.lastUsed = ++this.uses;
    return pool.agent;
  }

  private retireLeastRecentlyUsed(): void {
    let oldestKey: string | undefined;
    let oldest = Infinity;
    for (const [key, pool] of this.pools) {
      if (pool.lastUsed < oldest) {
        oldest = pool.lastUsed;
        oldestKey = key;
      }
    }
    if (oldestKey === undefined) return;
    const { agent } = this.pools.get(oldestKey) as Pool;
    this.pools.delete(oldestKey);
    retire(agent);
  }

  destroy(): void {
    this.pools.forEach((p) => p.agent.destroy());
    this.pools.clear();
  }
}

/** Stops pooling: idle sockets close now, busy ones when their exchange ends (a non-keep-alive agent drops them). */
function retire(agent: Agent): void {
  (agent as Agent & { keepAlive: boolean }).keepAlive = false;
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}
