import { Agent } from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import { BackendH2Pool } from './backend.h2-pool';
import { BackendPool, endpointOf } from './backend.pool';
import { DROPPED_RESPONSE_HEADERS } from './backend.proxy';

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
  /** An instance that refused a connection: skipped until then (ms since the epoch). */
  downUntil?: number;
}

/** The aggregator's client certificate for the backends' front-proxy (requestheader) authentication. */
export interface ProxyClientCertificate {
  certPem: string;
  keyPem: string;
}

/** How many backend endpoints keep a pool: past that the least recently used pool is retired. */
export const MAX_BACKEND_POOLS = 128;

interface Pool {
  /** The proxy's connections: our own lean HTTP/1.1 client (backend.pool.ts). */
  proxy: BackendPool;
  /** The proxy's HTTP/2 sessions for watches (KUBE_PROXY_HTTP2), made on the first watch. */
  h2?: BackendH2Pool;
  /** Node keep-alive agent for the aggregator's own requests (discovery, OpenAPI, availability checks). */
  agent: Agent;
  lastUsed: number;
}

/**
 * Keep-alive connection pools, one per backend endpoint and trust setting; created once, reused by every request.
 * The TLS context (CA, client certificate and key) is parsed once per pool, not per connection.
 * Bounded: endpoints come and go (APIServices deleted, CA bundles rotated), so past `maxPools` the least recently
 * used pool is retired — its idle connections closed, its busy ones (a watch) closed when they finish.
 */
export class BackendAgents {
  private readonly pools = new Map<string, Pool>();
  /** Per target object (routing table entries live long): skips building the key on every request. */
  private readonly byTarget = new WeakMap<BackendTarget, Pool>();
  private uses = 0;
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly client: ProxyClientCertificate,
    private readonly maxPools = MAX_BACKEND_POOLS,
    /** KUBE_PROXY_HTTP2: watches go to the backends over HTTP/2 (false: every request over HTTP/1.1). */
    private readonly http2 = false,
  ) {}

  get size(): number {
    return this.pools.size;
  }

  /** The proxy's keep-alive connections to `t`. */
  poolFor(t: BackendTarget): BackendPool {
    return this.poolOf(t).proxy;
  }

  /** The proxy's HTTP/2 sessions to `t` (for watches), unless HTTP/2 to the backends is off. */
  h2PoolFor(t: BackendTarget): BackendH2Pool | undefined {
    if (!this.http2) return undefined;
    const pool = this.poolOf(t);
    if (!pool.h2) {
      const { host, servername, port, secureContext, rejectUnauthorized } = pool.proxy.options;
      pool.h2 = new BackendH2Pool({ host, servername, port, secureContext, rejectUnauthorized });
    }
    return pool.h2;
  }

  /** A Node agent to `t`, for the aggregator's own requests. */
  agentFor(t: BackendTarget): Agent {
    return this.poolOf(t).agent;
  }

  /** `t` failed its availability check: cut the proxied exchanges (watches) under way to it. */
  abortConnections(t: BackendTarget, reason: string): void {
    const pool = this.pools.get(poolKey(t));
    pool?.proxy.abortBusy(new Error(reason));
    pool?.h2?.abort(new Error(reason));
  }

  private poolOf(t: BackendTarget): Pool {
    let pool = this.byTarget.get(t);
    if (!pool || pool.lastUsed < 0) {
      const key = poolKey(t);
      pool = this.pools.get(key);
      if (!pool) {
        if (this.pools.size >= this.maxPools) this.retireLeastRecentlyUsed();
        pool = this.createPool(t);
        this.pools.set(key, pool);
      }
      this.byTarget.set(t, pool);
    }
    pool.lastUsed = ++this.uses;
    return pool;
  }

  private createPool(t: BackendTarget): Pool {
    const secureContext: SecureContext = createSecureContext({ cert: this.client.certPem, key: this.client.keyPem, ca: t.caPem });
    const rejectUnauthorized = !t.insecureSkipTLSVerify;
    if (!this.sweeper) {
      this.sweeper = setInterval(() => this.pools.forEach((p) => p.proxy.sweep()), 10_000);
      this.sweeper.unref();
    }
    return {
      proxy: new BackendPool({ ...endpointOf(t.url.hostname, t.serverName), port: Number(t.url.port || 443), secureContext, rejectUnauthorized, maxIdle: 64, droppedResponseHeaders: DROPPED_RESPONSE_HEADERS }),
      agent: new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 64, secureContext, rejectUnauthorized, servername: t.serverName }),
      lastUsed: 0,
    };
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
    const pool = this.pools.get(oldestKey) as Pool;
    this.pools.delete(oldestKey);
    // Marks it retired for targets that still point at it (byTarget): they look the key up again.
    pool.lastUsed = -1;
    pool.proxy.destroy();
    pool.h2?.retire();
    retire(pool.agent);
  }

  destroy(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.pools.forEach((p) => {
      p.proxy.destroy();
      p.h2?.destroy();
      p.agent.destroy();
    });
    this.pools.clear();
  }
}

function poolKey(t: BackendTarget): string {
  return `${t.url.host}|${t.serverName ?? ''}|${t.insecureSkipTLSVerify ? 'insecure' : (t.caPem ?? 'system')}`;
}

/** Stops pooling: idle sockets close now, busy ones when their exchange ends (a non-keep-alive agent drops them). */
function retire(agent: Agent): void {
  (agent as Agent & { keepAlive: boolean }).keepAlive = false;
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}
