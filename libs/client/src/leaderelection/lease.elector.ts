import { Logger } from '@nestjs/common';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { resourcePath, type RestClient } from '../rest/rest.client';

const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', namespaced: true };

/** client-go's LeaderElectionConfig (tools/leaderelection) with a LeaseLock. */
export interface LeaderElectionOptions {
  namespace: string;
  name: string;
  /** holderIdentity: kube uses `<hostname>_<uuid>`. */
  identity: string;
  /** kube-controller-manager's defaults: 15 s, 10 s, 2 s. */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Called once the lease is ours; runs while we lead. */
  onStartedLeading(): void | Promise<void>;
  /** Called when the lease is lost (or released on stop); whatever onStartedLeading started must stop. */
  onStoppedLeading(): void | Promise<void>;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

type Lease = KubeObject & { spec?: LeaseSpec };

/** metav1.MicroTime's format. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/**
 * client-go's LeaderElector on a coordination.k8s.io/v1 Lease: acquire when the lease is free or its holder has
 * not renewed for leaseDuration (measured on our clock, from when we last saw the record change), renew every
 * retryPeriod, and give up leadership when no renewal succeeded for renewDeadline. After losing the lease it
 * stands as a candidate again; `stop()` releases a held lease so another candidate takes over at once.
 */
export class LeaderElector {
  private readonly logger = new Logger('LeaderElection');
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private observed?: { spec: string; at: number; lease: Lease };
  private leading = false;
  private stopped = false;
  private wake?: () => void;
  private loop?: Promise<void>;

  constructor(
    private readonly client: RestClient,
    private readonly options: LeaderElectionOptions,
  ) {
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** Starts standing for election (idempotent). */
  run(): void {
    this.loop ??= this.campaign();
  }

  /** Stops campaigning; a held lease is released (after onStoppedLeading). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  private async campaign(): Promise<void> {
    while (!this.stopped) {
      if (!(await this.tryAcquireOrRenew())) {
        await this.sleep(this.retryPeriodMs * (1 + Math.random() * 1.2));
        continue;
      }
      this.leading = true;
      this.logger.log(`${this.options.identity} acquired lease ${this.options.namespace}/${this.options.name}`);
      try {
        await this.options.onStartedLeading();
      } catch (err) {
        this.logger.error(`starting to lead failed: ${(err as Error).message}`);
      }
      await this.renewLoop();
      this.leading = false;
      try {
        await this.options.onStoppedLeading();
      } finally {
        if (this.stopped) await this.release();
        else this.logger.warn(`${this.options.identity} lost lease ${this.options.namespace}/${this.options.name}`);
      }
    }
  }

  /** Renews every retryPeriod; returns when stopped or when no renewal succeeded within renewDeadline. */
  private async renewLoop(): Promise<void> {
    let lastRenew = Date.now();
    while (!this.stopped) {
      await this.sleep(this.retryPeriodMs);
      if (this.stopped) return;
      if (await this.tryAcquireOrRenew()) lastRenew = Date.now();
      else if (Date.now() - lastRenew >= this.renewDeadlineMs || (this.observed && this.observed.lease.spec?.holderIdentity !== this.options.identity)) return;
    }
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = Date.now();
    const path = resourcePath(LEASES, this.options.namespace, this.options.name);
    const desired = (old?: LeaseSpec): LeaseSpec => {
      const ours = old?.holderIdentity === this.options.identity;
      return {
        holderIdentity: this.options.identity,
        leaseDurationSeconds: Math.round(this.leaseDurationMs / 1000),
        acquireTime: ours && old?.acquireTime ? old.acquireTime : microTime(now),
        renewTime: microTime(now),
        leaseTransitions: ours ? (old?.leaseTransitions ?? 0) : (old?.leaseTransitions ?? -1) + 1,
      };
    };
    let lease: Lease;
    try {
      lease = await this.client.get<Lease>(path);
    } catch (err) {
      if (!(isStatusError(err) && err.code === 404)) return this.failed('get', err);
      try {
        const created = await this.client.request<Lease>('POST', resourcePath(LEASES, this.options.namespace), {
          body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.options.name, namespace: this.options.namespace }, spec: { ...desired(), leaseTransitions: 0 } },
        });
        this.observe(created, now);
        return true;
      } catch (e) {
        return this.failed('create', e);
      }
    }
    const spec = lease.spec ?? {};
    const key = JSON.stringify(spec);
    if (this.observed?.spec !== key) this.observe(lease, now);
    const holder = spec.holderIdentity;
    const expiresAt = (this.observed?.at ?? now) + (spec.leaseDurationSeconds ?? 0) * 1000;
    if (holder && holder !== this.options.identity && expiresAt > now) return false;
    try {
      const updated = await this.client.request<Lease>('PUT', path, { body: { ...lease, spec: desired(spec) } });
      this.observe(updated, now);
      return true;
    } catch (err) {
      return this.failed('update', err);
    }
  }

  /** client-go's release: an empty holder with a 1 s lease, so the next candidate need not wait. */
  private async release(): Promise<void> {
    const lease = this.observed?.lease;
    if (!lease || lease.spec?.holderIdentity !== this.options.identity) return;
    const now = microTime(Date.now());
    try {
      await this.client.request('PUT', resourcePath(LEASES, this.options.namespace, this.options.name), {
        body: { ...lease, spec: { leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: lease.spec?.leaseTransitions ?? 0 } },
      });
    } catch (err) {
      this.logger.warn(`releasing the lease failed: ${(err as Error).message}`);
    }
  }

  private observe(lease: Lease, at: number): void {
    this.observed = { spec: JSON.stringify(lease.spec ?? {}), at, lease };
  }

  private failed(what: string, err: unknown): false {
    if (!(isStatusError(err) && err.code === 409)) this.logger.warn(`${what} lease ${this.options.namespace}/${this.options.name}: ${(err as Error).message}`);
    return false;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => (clearTimeout(timer), resolve());
    });
  }
}
