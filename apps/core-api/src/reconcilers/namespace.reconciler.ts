import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { Controller, ItemExponentialFailureRateLimiter, SharedInformerFactory, type ReconcileResult } from '@kube/client';
import { GenericApiServer, HealthChecks } from '@kube/apiserver';
import { SYSTEM_WRITE, systemContext } from './system.context';

/** Content left (objects with finalizers): look again after this long. */
const RETRY_MS = 1000;
const FINALIZER = 'kubernetes';

/**
 * kube's namespace controller: when a namespace is terminating, delete everything in it, and once nothing is
 * left remove the `kubernetes` finalizer through /finalize, which completes the namespace's deletion.
 * Driven by the namespaces informer; failures retry with backoff (5 ms doubling, at most RETRY_MS).
 */
@Injectable()
export class NamespaceController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly controller: Controller;

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(SharedInformerFactory) private readonly informers: SharedInformerFactory,
    @Inject(HealthChecks) private readonly health: HealthChecks,
  ) {
    const namespaces = informers.informerFor({ group: '', resource: 'namespaces' });
    this.controller = new Controller({ name: 'NamespaceController', reconcile: (name) => this.sync(name), rateLimiter: new ItemExponentialFailureRateLimiter(5, RETRY_MS), waitFor: [namespaces] });
    const enqueue = (ns: KubeObject): void => {
      if (ns.metadata.deletionTimestamp) this.controller.enqueue(ns.metadata.name as string);
    };
    namespaces.addEventHandler({ add: enqueue, update: (_, ns) => enqueue(ns) });
  }

  onApplicationBootstrap(): void {
    this.informers.start();
    void this.health.addPostStartHook('start-namespace-controller', () => this.controller.run());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.controller.shutDown();
  }

  /** One pass: empty the namespace, then finalize it; look again while content with finalizers remains. */
  private async sync(name: string): Promise<ReconcileResult | void> {
    // Read through storage, not the informer: /finalize must see the latest spec.finalizers.
    const ns = await this.server.handler('', 'namespaces').store.tryGet(undefined, name);
    if (!ns || !ns.metadata.deletionTimestamp) return;
    const remaining = await this.deleteContent(name);
    if (remaining > 0) return { requeueAfterMs: RETRY_MS };
    await this.finalize(ns);
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
