import type { Lease } from 'etcd3';
import type { EtcdClient } from './etcd.client';

export interface LeaderElectionOptions {
  /** etcd key held by the leader, e.g. /registry/leader-election/aggregator-autoregistration. */
  key: string;
  /** Who holds it (written as the value, for operators). */
  identity: string;
  ttlSeconds?: number;
}

/**
 * Leader election on an etcd lease: the leader holds `key` bound to a lease it keeps alive; if it dies the
 * lease expires and the key disappears, and another candidate's create-only write succeeds. Only the leader
 * writes shared state (APIServices), every replica still serves.
 */
export class LeaderElection {
  private lease?: Lease;
  private leader = false;
  private stopped = false;
  private timer?: NodeJS.Timeout;
  private readonly listeners = new Set<(leader: boolean) => void>();

  constructor(
    private readonly client: EtcdClient,
    private readonly options: LeaderElectionOptions,
  ) {}

  /** Called whenever this candidate gains or loses leadership. */
  onLeadershipChange(fn: (leader: boolean) => void): void {
    this.listeners.add(fn);
  }

  get isLeader(): boolean {
    return this.leader;
  }

  start(): void {
    void this.campaign();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.setLeader(false);
    await this.lease?.revoke().catch(() => undefined);
  }

  private get ttl(): number {
    return this.options.ttlSeconds ?? 15;
  }

  private async campaign(): Promise<void> {
    if (this.stopped) return;
    try {
      if (!this.lease || this.lease.revoked()) {
        this.lease = this.client.raw.lease(this.ttl, { autoKeepAlive: true });
        this.lease.on('lost', () => {
          this.setLeader(false);
          this.lease = undefined;
        });
      }
      const id = await this.lease.grant();
      const key = Buffer.from(this.options.key);
      const res = await this.client.txn(
        {
          compare: [{ key, target: 'Create', result: 'Equal', create_revision: 0 }],
          success: [{ request_put: { key, value: Buffer.from(this.options.identity), lease: id } }],
          failure: [{ request_range: { key } }],
        },
        'leader-election',
        'campaign',
      );
      // Holding the key already (our own lease) also counts, e.g. after a transient error.
      const holder = res.succeeded ? id : res.responses[0]?.response_range?.kvs[0]?.lease;
      this.setLeader(holder === id);
    } catch {
      this.setLeader(false);
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.campaign(), (this.ttl * 1000) / 3);
  }

  private setLeader(leader: boolean): void {
    if (leader === this.leader) return;
    this.leader = leader;
    this.listeners.forEach((fn) => fn(leader));
  }
}
