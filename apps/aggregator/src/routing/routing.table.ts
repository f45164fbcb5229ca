import { isDown } from '../proxy/backend.instances';
import type { BackendTarget } from '../proxy/backend.target';

/** A proxied route's `service`: the target with every instance, for a request to fail over to another one. */
export type Route = { kind: 'local' } | { kind: 'proxy'; target: BackendTarget; service?: BackendTarget } | { kind: 'unavailable'; message: string };

/**
 * group/version → where requests go, consulted once per request (a map lookup). Local backends (core-api,
 * extensions) come from their discovery; APIServices with spec.service are set by the availability controller.
 */
export class RoutingTable {
  private localGroups = new Set<string>();
  private backendOf = new Map<string, string>();
  private targets = new Map<string, BackendTarget>();
  private remote = new Map<string, Route>();
  /** Requests for a group/version not routed yet, waiting for an established CRD's route (routed()). */
  private readonly waiting = new Map<string, Set<() => void>>();

  /** The aggregator's own group/versions (apiregistration.k8s.io/v1). */
  setLocal(groupVersions: Iterable<string>): void {
    this.localGroups = new Set(groupVersions);
  }

  /** Group/versions served by the local backends, and those backends' targets. */
  setBackends(owners: ReadonlyMap<string, string>, targets: ReadonlyMap<string, BackendTarget>): void {
    this.backendOf = new Map(owners);
    this.targets = new Map(targets);
    for (const key of owners.keys()) this.wake(key);
  }

  /** One more group/version of a local backend, ahead of its next discovery refresh (an established CRD). */
  addOwner(groupVersion: string, backend: string): void {
    if (!this.backendOf.has(groupVersion)) this.backendOf.set(groupVersion, backend);
    this.wake(groupVersion);
  }

  /**
   * Resolves once group/version gets a backend route (an established CRD seen by the informer, or a discovery
   * refresh) or once `until` settles, whichever comes first: a request for a brand-new CRD goes on as soon as
   * its route exists, without waiting for the rest of a discovery refresh.
   */
  routed(group: string, version: string, until: Promise<unknown>): Promise<void> {
    const key = `${group}/${version}`;
    return new Promise((resolve) => {
      const waiters = this.waiting.get(key) ?? new Set<() => void>();
      this.waiting.set(key, waiters);
      const done = (): void => {
        waiters.delete(done);
        if (!waiters.size && this.waiting.get(key) === waiters) this.waiting.delete(key);
        resolve();
      };
      waiters.add(done);
      until.then(done, done);
    });
  }

  private wake(groupVersion: string): void {
    const waiters = this.waiting.get(groupVersion);
    if (waiters) for (const w of [...waiters]) w();
  }

  setRemote(groupVersion: string, route: Route | undefined): void {
    if (route) this.remote.set(groupVersion, route);
    else this.remote.delete(groupVersion);
  }

  lookup(group: string, version: string): Route | undefined {
    const key = `${group}/${version}`;
    if (this.localGroups.has(key)) return { kind: 'local' };
    const remote = this.remote.get(key);
    if (remote) return remote.kind === 'proxy' && remote.target.instances && remote.target.instances.length > 1 ? { kind: 'proxy', target: this.pick(remote.target.instances), service: remote.target } : remote;
    const backend = this.backendOf.get(key);
    const target = backend ? this.targets.get(backend) : undefined;
    if (!target) return undefined;
    return target.instances && target.instances.length > 1 ? { kind: 'proxy', target: this.pick(target.instances), service: target } : { kind: 'proxy', target };
  }

  /** Each service's round-robin position, by its instance list (one shared cursor would pin services that alternate). */
  private readonly cursors = new WeakMap<readonly BackendTarget[], number>();

  /**
   * Round robin over a service's live instances (each request, watches included, may land on another one),
   * past those marked down (all down: the next one anyway, it may be back).
   */
  private pick(all: readonly BackendTarget[]): BackendTarget {
    const now = Date.now();
    let next = this.cursors.get(all) ?? -1;
    for (let i = 0; i < all.length; i++) {
      next = (next + 1) % all.length;
      if (!isDown(all[next], now)) break;
    }
    this.cursors.set(all, next);
    return all[next];
  }

  /** Any live target, for requests that are not about a group/version (none today). */
  backend(name: string): BackendTarget | undefined {
    return this.targets.get(name);
  }
}
