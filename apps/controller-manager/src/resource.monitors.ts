import { withVerbs, type DiscoveredResource, type DiscoverySnapshot, type ResourceEventHandler, type SharedIndexInformer } from '@kube/client';
import type { GroupResource } from '@kube/apimachinery';
import type { ControllerContext } from './controller.context';

/** One watched resource: its current discovery entry (the version may change) and its shared informer. */
export interface ResourceMonitor {
  resource: DiscoveredResource;
  informer: SharedIndexInformer;
}

export interface ResourceMonitorsOptions {
  /** The verbs a resource must serve to be watched (kube's GC: list, watch, delete; quota: also create). */
  verbs: readonly string[];
  /** Further filter (ignored resources). */
  include?(resource: DiscoveredResource): boolean;
  /** The handler added to the informer of every newly watched resource. */
  handler(monitor: ResourceMonitor): ResourceEventHandler;
  /**
   * A resource is no longer served (its CRD or APIService went): called before its informer stops, with the
   * objects still in its cache. Its last deletions may never reach the informer (the watch ends with the resource,
   * and a relist answers 404), so whoever keeps state per object forgets them here.
   */
  removed?(monitor: ResourceMonitor): void;
}

const grKey = (gr: GroupResource): string => `${gr.resource}.${gr.group}`;

/**
 * What kube's garbage collector and quota controller each call their monitors: a shared informer on every
 * resource discovery lists with some verbs, kept in step with rediscovery (custom resources and aggregated APIs
 * appear and go; CRD and APIService changes trigger a rediscovery at once).
 */
export class ResourceMonitors {
  private readonly monitors = new Map<string, ResourceMonitor>();
  private stopped = false;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly options: ResourceMonitorsOptions,
  ) {
    ctx.discovery.onChange((snapshot) => this.sync(snapshot));
    for (const gr of [{ group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' }, { group: 'apiregistration.k8s.io', resource: 'apiservices' }]) {
      if (!ctx.discovery.resourceFor(gr)) continue;
      ctx.informers.informerFor(gr).addEventHandler({ add: () => ctx.discovery.refreshSoon(), update: (a, b) => a.metadata.resourceVersion !== b.metadata.resourceVersion && ctx.discovery.refreshSoon(), delete: () => ctx.discovery.refreshSoon() });
    }
    this.sync(ctx.discovery.current);
  }

  get(gr: GroupResource): ResourceMonitor | undefined {
    return this.monitors.get(grKey(gr));
  }

  stop(): void {
    this.stopped = true;
  }

  /** Resolves once every monitor synced, or after `timeoutMs` (a dead aggregated server must not stop the controller). */
  async synced(timeoutMs: number): Promise<void> {
    await within(Promise.all([...this.monitors.values()].map((m) => m.informer.waitForSync())), timeoutMs);
  }

  /** Whether one monitor's informer has synced, waiting up to `timeoutMs` for it. */
  monitorSynced(monitor: ResourceMonitor, timeoutMs: number): Promise<boolean> {
    return monitor.informer.hasSynced() ? Promise.resolve(true) : within(monitor.informer.waitForSync(), timeoutMs);
  }

  /** Informers for what is served now; informers for what is no longer served are dropped. */
  private sync(snapshot: DiscoverySnapshot): void {
    if (this.stopped) return;
    const wanted = new Map<string, DiscoveredResource>();
    for (const r of withVerbs(snapshot.preferred, ...this.options.verbs)) {
      if (!r.resource.includes('/') && (this.options.include?.(r) ?? true)) wanted.set(grKey(r), r);
    }
    for (const [key, m] of this.monitors) {
      if (wanted.has(key)) continue;
      this.monitors.delete(key);
      this.options.removed?.(m);
      this.ctx.informers.remove(m.resource);
    }
    let added = false;
    for (const [key, r] of wanted) {
      const existing = this.monitors.get(key);
      if (existing) {
        existing.resource = r;
        continue;
      }
      const monitor: ResourceMonitor = { resource: r, informer: this.ctx.informers.informerFor(r) };
      this.monitors.set(key, monitor);
      monitor.informer.addEventHandler(this.options.handler(monitor));
      added = true;
    }
    if (added) this.ctx.informers.start();
  }
}

/** True when `done` settles within `timeoutMs`, false otherwise. */
async function within(done: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return await Promise.race([done.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
