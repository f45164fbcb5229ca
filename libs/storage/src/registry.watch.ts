import type { EtcdClient } from './etcd.client';
import { REGISTRY_ROOT } from './keys';
import { RevisionWatcher, type RawWatchEvent } from './revision.watcher';

export interface RegistrySubscriber {
  readonly prefix: string;
  /** Events under the subscriber's prefix, in revision order. */
  apply(events: RawWatchEvent[], revision: number): void;
  /** The shared watch lost its place (compaction): re-list from scratch. */
  resync(): void;
}

/**
 * One etcd watch on all of /registry/ per client, fanned out to the per-resource watch caches. Because every
 * object we store lives under /registry/, the position of this watch follows etcd's global revision, which is
 * what lets a consistent read prove a cache fresh: fetch etcd's current revision, wait until this watch has
 * delivered it.
 *
 * A server confined by etcd's RBAC to a prefix of its own (an aggregated server: `/registry/<group>/`) watches
 * that prefix only. Writes elsewhere move etcd's revision without reaching this watch, so its position proves
 * nothing about a later revision (`followsEveryRevision` false): its caches then leave consistent reads to etcd.
 */
export class RegistryWatch {
  private watcher?: RevisionWatcher;
  private starting?: Promise<void>;
  private readonly subscribers = new Set<RegistrySubscriber>();
  private waiters: Array<{ revision: number; resolve: () => void }> = [];
  private stopped = false;

  constructor(
    private readonly client: EtcdClient,
    readonly prefix: string = REGISTRY_ROOT,
  ) {}

  /** Whether this watch sees every revision of the keys we store (it watches all of /registry/). */
  get followsEveryRevision(): boolean {
    return this.prefix === REGISTRY_ROOT;
  }

  /** Last revision whose events have all been dispatched. */
  get revision(): number {
    return this.watcher?.revision ?? 0;
  }

  start(): Promise<void> {
    this.starting ??= this.open();
    return this.starting;
  }

  subscribe(s: RegistrySubscriber): void {
    this.subscribers.add(s);
  }

  /** How many watch caches follow the registry watch (each gets every event batch filtered by its prefix). */
  get subscriberCount(): number {
    return this.subscribers.size;
  }

  unsubscribe(s: RegistrySubscriber): void {
    this.subscribers.delete(s);
  }

  /** Resolves once every event up to `revision` has been dispatched; false on timeout. */
  waitFor(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.revision >= revision) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      const waiter = { revision, resolve: () => (clearTimeout(timer), resolve(true)) };
      this.waiters.push(waiter);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.watcher?.stop();
  }

  private async open(): Promise<void> {
    const current = await this.client.currentRevision();
    this.watch(current + 1);
  }

  private watch(from: number): void {
    this.watcher = new RevisionWatcher(this.client, this.prefix, from, {
      onEvents: (events) => this.dispatch(events),
      onProgress: () => this.release(),
      onError: () => void this.recover(),
    });
    this.watcher.start();
  }

  private dispatch(events: RawWatchEvent[]): void {
    const revision = events[events.length - 1].modRevision;
    for (const s of this.subscribers) {
      const mine = events.filter((e) => e.key.startsWith(s.prefix));
      s.apply(mine, revision);
    }
    this.release();
  }

  private release(): void {
    const rev = this.revision;
    const ready = this.waiters.filter((w) => w.revision <= rev);
    if (!ready.length) return;
    this.waiters = this.waiters.filter((w) => w.revision > rev);
    ready.forEach((w) => w.resolve());
  }

  /** Compaction (or a cancelled watch): restart at the current revision and make every cache re-list. */
  private async recover(): Promise<void> {
    if (this.stopped) return;
    for (;;) {
      try {
        const current = await this.client.currentRevision();
        this.watch(current + 1);
        this.subscribers.forEach((s) => s.resync());
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 500));
        if (this.stopped) return;
      }
    }
  }
}
