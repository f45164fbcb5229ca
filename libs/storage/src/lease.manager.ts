import type { EtcdClient } from './etcd.client';

const REUSE_WINDOW_SECONDS = 60;

/**
 * Hands out etcd leases for objects with a TTL (events). Like kube's lease manager it reuses one lease for
 * every request within a minute, granting it a minute longer than asked so no object expires early.
 */
export class LeaseManager {
  private current?: { id: string; ttl: number; grantedAt: number };

  constructor(private readonly client: EtcdClient) {}

  async leaseFor(ttlSeconds: number): Promise<string> {
    const now = Date.now();
    const c = this.current;
    if (c && now - c.grantedAt < REUSE_WINDOW_SECONDS * 1000 && c.ttl - (now - c.grantedAt) / 1000 >= ttlSeconds) return c.id;
    const ttl = ttlSeconds + REUSE_WINDOW_SECONDS;
    const id = await this.client.grantLease(ttl);
    this.current = { id, ttl, grantedAt: now };
    return id;
  }
}
