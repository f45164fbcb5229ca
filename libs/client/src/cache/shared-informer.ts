import { Logger } from '@nestjs/common';
import type { KubeObject } from '@kube/apimachinery';
import { Indexer, metaNamespaceKey, type IndexFunc, type Lister } from './indexer';
import type { ListerWatcher, WatchEvent } from './lister-watcher';
import { Reflector, type BackoffOptions } from './reflector';

/** client-go's ResourceEventHandlerFuncs. Called synchronously: handlers should only enqueue keys. */
export interface ResourceEventHandler {
  add?(obj: KubeObject): void;
  update?(oldObj: KubeObject, newObj: KubeObject): void;
  delete?(obj: KubeObject): void;
}

interface Registration {
  handler: ResourceEventHandler;
  timer?: NodeJS.Timeout;
}

/**
 * client-go's SharedIndexInformer: one reflector feeding one indexed cache, and any number of event handlers.
 * A handler may ask for a resync period: every period it gets `update(obj, obj)` for every cached object, so a
 * level-driven controller re-checks what no event would tell it about.
 */
export class SharedIndexInformer {
  private readonly logger: Logger;
  private readonly indexer = new Indexer();
  private readonly registrations: Registration[] = [];
  private readonly reflector: Reflector;
  private synced = false;
  private syncWaiters: Array<() => void> = [];
  private running?: Promise<void>;

  constructor(
    readonly name: string,
    lw: ListerWatcher,
    backoff?: BackoffOptions,
  ) {
    this.logger = new Logger(`Informer ${name}`);
    this.reflector = new Reflector(name, lw, { replace: (items) => this.replace(items), apply: (ev) => this.apply(ev) }, backoff);
  }

  /** The informer's cache (read-only by contract: objects are shared, never mutate them). */
  get lister(): Lister {
    return this.indexer;
  }

  addIndexers(indexers: Record<string, IndexFunc>): void {
    this.indexer.addIndexers(indexers);
  }

  /** Adds a handler; one added after the first sync is told about every cached object at once. */
  addEventHandler(handler: ResourceEventHandler, resyncPeriodMs?: number): void {
    const reg: Registration = { handler };
    if (resyncPeriodMs && resyncPeriodMs > 0) {
      reg.timer = setInterval(() => this.resync(reg), resyncPeriodMs);
      reg.timer.unref();
    }
    this.registrations.push(reg);
    if (this.synced) for (const obj of this.indexer.list()) this.call(reg, 'add', obj);
  }

  /** True once the first list is in the cache and every handler was told about it. */
  hasSynced(): boolean {
    return this.synced;
  }

  waitForSync(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  get lastSyncResourceVersion(): string {
    return this.reflector.resourceVersion;
  }

  /** Starts list+watch (idempotent). */
  run(): void {
    this.running ??= this.reflector.run();
  }

  stop(): void {
    this.reflector.stop();
    for (const reg of this.registrations) clearInterval(reg.timer);
  }

  private replace(items: KubeObject[]): void {
    const seen = new Set<string>();
    for (const obj of items) {
      seen.add(metaNamespaceKey(obj));
      this.upsert(obj);
    }
    // Deleted while we were not watching: the last state we knew (client-go's DeletedFinalStateUnknown).
    for (const key of this.indexer.keys()) {
      if (seen.has(key)) continue;
      const old = this.indexer.delete(key) as KubeObject;
      this.notify('delete', old);
    }
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
  }

  private apply(ev: WatchEvent): void {
    if (ev.type === 'DELETED') {
      const old = this.indexer.delete(metaNamespaceKey(ev.object));
      this.notify('delete', old ? { ...old, metadata: { ...old.metadata, resourceVersion: ev.object.metadata.resourceVersion } } : ev.object);
      return;
    }
    this.upsert(ev.object);
  }

  private upsert(obj: KubeObject): void {
    const old = this.indexer.set(obj);
    if (old) this.notify('update', obj, old);
    else this.notify('add', obj);
  }

  private resync(reg: Registration): void {
    if (!this.synced) return;
    for (const obj of this.indexer.list()) this.call(reg, 'update', obj, obj);
  }

  private notify(kind: keyof ResourceEventHandler, obj: KubeObject, old?: KubeObject): void {
    for (const reg of this.registrations) this.call(reg, kind, obj, old);
  }

  private call(reg: Registration, kind: keyof ResourceEventHandler, obj: KubeObject, old?: KubeObject): void {
    try {
      if (kind === 'update') reg.handler.update?.(old as KubeObject, obj);
      else reg.handler[kind]?.(obj);
    } catch (err) {
      // One handler's bug must not stop the reflector or the other handlers.
      this.logger.error(`${kind} handler failed: ${(err as Error).message}`);
    }
  }
}
