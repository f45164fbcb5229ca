import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { Controller, ItemExponentialFailureRateLimiter, resourcePath, withVerbs, type DiscoveredResource, type ReconcileResult } from '@kube/client';
import type { ControllerContext, ManagedController } from '../controller.context';

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces', namespaced: false };
const FINALIZER = 'kubernetes';
/** kube requeues after estimate/2+1 seconds; content with finalizers estimates 1 s (we look again sooner, 1 s). */
const CONTENT_REMAINING_RETRY_MS = 1000;

interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

type Namespace = KubeObject & { spec?: { finalizers?: string[] }; status?: { phase?: string; conditions?: NamespaceCondition[] } };

/** pkg/controller/namespace/deletion/status_condition_utils.go: the conditions the deleter maintains, with their "ok" variants. */
const CONDITION_TYPES = ['NamespaceDeletionDiscoveryFailure', 'NamespaceDeletionGroupVersionParsingFailure', 'NamespaceDeletionContentFailure', 'NamespaceContentRemaining', 'NamespaceFinalizersRemaining'] as const;
type ConditionType = (typeof CONDITION_TYPES)[number];
const OK: Record<ConditionType, { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  NamespaceDeletionGroupVersionParsingFailure: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  NamespaceDeletionContentFailure: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
};

/** What deleting the content of one namespace found: failures, and what remains per resource and per finalizer. */
interface DeletionTotals {
  errors: string[];
  remainingByResource: Map<string, number>;
  remainingByFinalizer: Map<string, number>;
}

const CONCURRENT_NAMESPACE_SYNCS = 10;

/**
 * kube's namespace controller (pkg/controller/namespace): when a namespace is terminating, delete its content in
 * every namespaced resource discovery lists (built-ins, custom resources, aggregated APIs), report progress in
 * the namespace's conditions, and once nothing is left remove the `kubernetes` finalizer through /finalize.
 */
export class NamespaceController implements ManagedController {
  readonly name = 'namespace-controller';
  readonly controller: Controller;

  constructor(private readonly ctx: ControllerContext) {
    const namespaces = ctx.informers.informerFor({ group: '', resource: 'namespaces' });
    // kube's --concurrent-namespace-syncs default: a namespace's deletion waits mostly on round trips, not CPU.
    this.controller = new Controller({ name: 'NamespaceController', reconcile: (name) => this.sync(name), rateLimiter: new ItemExponentialFailureRateLimiter(5, 5000), waitFor: [namespaces], workers: CONCURRENT_NAMESPACE_SYNCS });
    const enqueue = (ns: KubeObject): void => {
      if (ns.metadata.deletionTimestamp) this.controller.enqueue(ns.metadata.name as string);
    };
    namespaces.addEventHandler({ add: enqueue, update: (_, ns) => enqueue(ns) }, 5 * 60_000);
  }

  start(): Promise<void> {
    return this.controller.run();
  }

  stop(): Promise<void> {
    return this.controller.shutDown();
  }

  /** kube's namespacedResourcesDeleter.Delete. */
  private async sync(name: string): Promise<ReconcileResult | void> {
    const client = this.ctx.client;
    let ns: Namespace;
    try {
      ns = await client.get<Namespace>(resourcePath(NAMESPACES, undefined, name));
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return;
      throw err;
    }
    if (!ns.metadata.deletionTimestamp) return;
    if (!(ns.spec?.finalizers ?? []).includes(FINALIZER)) return;
    const conditions = new Map<ConditionType, NamespaceCondition>();
    const totals: DeletionTotals = { errors: [], remainingByResource: new Map(), remainingByFinalizer: new Map() };
    let resources: DiscoveredResource[] = [];
    try {
      const snapshot = await this.ctx.discovery.refresh();
      resources = withVerbs(snapshot.preferred, 'delete').filter((r) => r.namespaced && !r.resource.includes('/'));
      if (snapshot.failed.length) {
        conditions.set('NamespaceDeletionDiscoveryFailure', failure('NamespaceDeletionDiscoveryFailure', 'DiscoveryFailed', `Discovery failed for some groups, ${snapshot.failed.length} failing: unable to retrieve the complete list of server APIs: ${snapshot.failed.map((gv) => `${gv}: stale GroupVersion discovery: ${gv}`).join(', ')}`));
      }
    } catch (err) {
      conditions.set('NamespaceDeletionDiscoveryFailure', failure('NamespaceDeletionDiscoveryFailure', 'DiscoveryFailed', (err as Error).message));
    }
    await Promise.all(resources.map((r) => this.deleteAll(r, name, totals)));
    if (totals.remainingByResource.size) {
      const parts = [...totals.remainingByResource].map(([gr, n]) => `${gr} has ${n} resource instances`).sort();
      conditions.set('NamespaceContentRemaining', failure('NamespaceContentRemaining', 'SomeResourcesRemain', `Some resources are remaining: ${parts.join(', ')}`));
    }
    if (totals.remainingByFinalizer.size) {
      const parts = [...totals.remainingByFinalizer].map(([f, n]) => `${f} in ${n} resource instances`).sort();
      conditions.set('NamespaceFinalizersRemaining', failure('NamespaceFinalizersRemaining', 'SomeFinalizersRemain', `Some content in the namespace has finalizers remaining: ${parts.join(', ')}`));
    }
    if (totals.errors.length) {
      const msgs = [...totals.errors].sort();
      conditions.set('NamespaceDeletionContentFailure', failure('NamespaceDeletionContentFailure', 'ContentDeletionFailed', `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`));
    }
    await this.updateConditions(ns, conditions);
    if (totals.errors.length || conditions.has('NamespaceDeletionDiscoveryFailure')) throw new Error(`namespace ${name}: content deletion incomplete: ${totals.errors.join('; ') || 'discovery failed'}`);
    if (totals.remainingByResource.size) return { requeueAfterMs: CONTENT_REMAINING_RETRY_MS };
    await this.finalize(name);
  }

  /** kube's deleteAllContentForGroupVersionResource: deletecollection where served, else list + delete each; then count what remains. */
  private async deleteAll(r: DiscoveredResource, namespace: string, totals: DeletionTotals): Promise<void> {
    const client = this.ctx.client;
    const path = resourcePath(r, namespace);
    const gr = `${r.resource}.${r.group}`;
    try {
      if (r.verbs.includes('deletecollection')) {
        await client.request('DELETE', path, { body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' } });
      } else {
        const { items } = await client.list(path);
        for (const item of items) {
          if (item.metadata.deletionTimestamp) continue;
          await client.request('DELETE', resourcePath(r, namespace, item.metadata.name), { body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' } }).catch(ignoreNotFound);
        }
      }
      const { items } = await client.list(path);
      if (!items.length) return;
      totals.remainingByResource.set(gr, items.length);
      for (const item of items) for (const f of item.metadata.finalizers ?? []) totals.remainingByFinalizer.set(f, (totals.remainingByFinalizer.get(f) ?? 0) + 1);
    } catch (err) {
      if (isStatusError(err) && (err.code === 404 || err.code === 405)) return;
      totals.errors.push(`${gr}: ${(err as Error).message}`);
    }
  }

  /** kube's updateConditions: every maintained condition present, its "ok" variant when nothing failed; written only on change. */
  private async updateConditions(ns: Namespace, fresh: Map<ConditionType, NamespaceCondition>): Promise<void> {
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const conditions = [...(ns.status?.conditions ?? [])];
    let changed = false;
    for (const type of CONDITION_TYPES) {
      const next = fresh.get(type) ?? { type, status: 'False' as const, ...OK[type] };
      const i = conditions.findIndex((c) => c.type === type);
      if (i < 0) {
        conditions.push({ ...next, lastTransitionTime: now });
        changed = true;
      } else {
        const old = conditions[i];
        if (old.status === next.status && old.reason === next.reason && old.message === next.message) continue;
        conditions[i] = { ...next, lastTransitionTime: old.status !== next.status ? now : old.lastTransitionTime };
        changed = true;
      }
    }
    if (!changed) return;
    await this.ctx.client
      .request('PUT', resourcePath(NAMESPACES, undefined, ns.metadata.name, 'status'), { body: { ...ns, status: { ...ns.status, conditions } } })
      .catch((err: unknown) => {
        if (!(isStatusError(err) && (err.code === 409 || err.code === 404))) throw err;
      });
  }

  /** Removes our finalizer through /finalize (retrying on conflict with the latest object). */
  private async finalize(name: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      let ns: Namespace;
      try {
        ns = await this.ctx.client.get<Namespace>(resourcePath(NAMESPACES, undefined, name));
      } catch (err) {
        if (isStatusError(err) && err.code === 404) return;
        throw err;
      }
      const finalizers = (ns.spec?.finalizers ?? []).filter((f) => f !== FINALIZER);
      try {
        await this.ctx.client.request('PUT', resourcePath(NAMESPACES, undefined, name, 'finalize'), { body: { ...ns, spec: { ...ns.spec, finalizers } } });
        return;
      } catch (err) {
        if (isStatusError(err) && err.code === 404) return;
        if (!(isStatusError(err) && err.code === 409)) throw err;
      }
    }
    throw new Error(`namespace ${name}: finalize kept conflicting`);
  }
}

function failure(type: ConditionType, reason: string, message: string): NamespaceCondition {
  return { type, status: 'True', reason, message };
}

function ignoreNotFound(err: unknown): void {
  if (!(isStatusError(err) && err.code === 404)) throw err;
}
