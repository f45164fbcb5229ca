import { Logger } from '@nestjs/common';
import type { GroupResource } from '@kube/apimachinery';
import { discoverResources, type DiscoveredResource, type DiscoverySnapshot, type RestClient } from '@kube/client';

/** kube-controller-manager rediscovers every 30 s (the GC's --garbage-collector resync); CRD and APIService changes trigger it sooner. */
export const REDISCOVERY_PERIOD_MS = 30_000;

const grKey = (gr: GroupResource): string => `${gr.resource}.${gr.group}`;

/**
 * The controller-manager's view of what the API serves (kube's discovery client + RESTMapper): the preferred
 * version of every resource, every version's kind → resource mapping, refreshed on demand; listeners hear about
 * every refresh.
 */
export class ResourceDiscovery {
  private readonly logger = new Logger('ResourceDiscovery');
  private snapshot: DiscoverySnapshot = { preferred: [], all: [], failed: [] };
  private byGroupResource = new Map<string, DiscoveredResource>();
  private byKind = new Map<string, DiscoveredResource>();
  private readonly listeners: Array<(snapshot: DiscoverySnapshot) => void> = [];
  private inFlight?: Promise<DiscoverySnapshot>;
  private timer?: NodeJS.Timeout;
  private debounce?: NodeJS.Timeout;

  constructor(private readonly client: RestClient) {}

  get current(): DiscoverySnapshot {
    return this.snapshot;
  }

  /** Reads discovery again (one pass at a time: callers during a pass share it). */
  refresh(): Promise<DiscoverySnapshot> {
    this.inFlight ??= discoverResources(this.client)
      .then((snapshot) => {
        this.install(snapshot);
        return snapshot;
      })
      .finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** A refresh soon (coalescing bursts of CRD/APIService events). */
  refreshSoon(delayMs = 500): void {
    if (this.debounce) return;
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      this.refresh().catch((err: unknown) => this.logger.warn(`discovery failed: ${(err as Error).message}`));
    }, delayMs);
  }

  /** Periodic rediscovery until `stop()`. */
  start(periodMs = REDISCOVERY_PERIOD_MS): void {
    this.timer ??= setInterval(() => this.refreshSoon(0), periodMs);
  }

  stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.debounce);
    this.timer = this.debounce = undefined;
  }

  onChange(listener: (snapshot: DiscoverySnapshot) => void): void {
    this.listeners.push(listener);
  }

  /** The preferred version of a group/resource. */
  resourceFor(gr: GroupResource): DiscoveredResource | undefined {
    return this.byGroupResource.get(grKey(gr));
  }

  /** The resource serving `kind` in `apiVersion` (kube's RESTMapper.RESTMapping). */
  mappingFor(apiVersion: string, kind: string): DiscoveredResource | undefined {
    return this.byKind.get(`${apiVersion}/${kind}`);
  }

  private install(snapshot: DiscoverySnapshot): void {
    this.snapshot = snapshot;
    this.byGroupResource = new Map(snapshot.preferred.map((r) => [grKey(r), r]));
    this.byKind = new Map();
    for (const r of snapshot.all) {
      if (r.resource.includes('/') || !r.kind) continue;
      const key = `${r.group ? `${r.group}/` : ''}${r.version}/${r.kind}`;
      if (!this.byKind.has(key)) this.byKind.set(key, r);
    }
    for (const listener of this.listeners) listener(snapshot);
  }
}
