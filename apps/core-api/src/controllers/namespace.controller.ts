import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { GenericApiServer } from '@kube/apiserver';
import type { WatchChannel, StorageEvent } from '@kube/storage';
import { SYSTEM_WRITE, systemContext } from './system.context';

const RETRY_MS = 1000;
const FINALIZER = 'kubernetes';

/**
 * kube's namespace controller: when a namespace is terminating, delete everything in it, and once nothing is
 * left remove the `kubernetes` finalizer through /finalize, which completes the namespace's deletion.
 */
@Injectable()
export class NamespaceController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('NamespaceController');
  private readonly queue = new Set<string>();
  private readonly retries = new Map<string, NodeJS.Timeout>();
  private channel?: WatchChannel<StorageEvent>;
  private stopped = false;
  private draining = false;

  constructor(@Inject(GenericApiServer) private readonly server: GenericApiServer) {}

  onApplicationBootstrap(): void {
    void this.watchLoop();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.channel?.close();
    this.retries.forEach((t) => clearTimeout(t));
  }

  private async watchLoop(): Promise<void> {
    const namespaces = this.server.handler('', 'namespaces');
    while (!this.stopped) {
      try {
        this.channel = await namespaces.store.watch(undefined, undefined);
        for await (const ev of this.channel) {
          if (ev.type !== 'DELETED' && ev.type !== 'BOOKMARK' && ev.object.metadata.deletionTimestamp) this.enqueue(ev.object.metadata.name as string);
        }
      } catch (err) {
        if (!this.stopped) this.logger.warn(`namespace watch failed: ${(err as Error).message}`);
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }

  private enqueue(name: string): void {
    this.queue.add(name);
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.size && !this.stopped) {
        const name = this.queue.values().next().value as string;
        this.queue.delete(name);
        const done = await this.sync(name).catch((err: Error) => {
          this.logger.warn(`namespace ${name}: ${err.message}`);
          return false;
        });
        if (!done) this.retryLater(name);
      }
    } finally {
      this.draining = false;
    }
  }

  private retryLater(name: string): void {
    if (this.retries.has(name) || this.stopped) return;
    this.retries.set(
      name,
      setTimeout(() => {
        this.retries.delete(name);
        this.enqueue(name);
      }, RETRY_MS),
    );
  }

  /** One pass; true when the namespace is finished (or gone). */
  private async sync(name: string): Promise<boolean> {
    const namespaces = this.server.handler('', 'namespaces');
    const ns = await namespaces.store.tryGet(undefined, name);
    if (!ns || !ns.metadata.deletionTimestamp) return true;
    const remaining = await this.deleteContent(name);
    if (remaining > 0) return false;
    await this.finalize(ns);
    return true;
  }

  /** Deletes every namespaced object in the namespace; returns how many still exist (finalizers pending). */
  private async deleteContent(namespace: string): Promise<number> {
    let remaining = 0;
    for (const def of this.server.resources) {
      if (!def.namespaced) continue;
      const handler = this.server.handler(def.group, def.plural);
      const deleted = await handler.deleteCollection(systemContext(), namespace, {}, { propagationPolicy: 'Background' }, false);
      remaining += deleted.items.filter((o) => o.metadata.finalizers?.length).length;
    }
    return remaining;
  }

  private async finalize(ns: KubeObject): Promise<void> {
    const spec = (ns.spec ?? {}) as { finalizers?: string[] };
    const finalizers = (spec.finalizers ?? []).filter((f) => f !== FINALIZER);
    try {
      await this.server.handler('', 'namespaces').update(systemContext(), undefined, ns.metadata.name as string, { ...ns, spec: { ...spec, finalizers } } as never, SYSTEM_WRITE, 'finalize');
    } catch (err) {
      if (!(isStatusError(err) && err.code === 404)) throw err;
    }
  }
}
