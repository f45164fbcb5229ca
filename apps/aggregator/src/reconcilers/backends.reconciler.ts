import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { GenericApiServer, HealthChecks } from '@kube/apiserver';
import type { KubeObject } from '@kube/apimachinery';
import { Controller, SharedInformerFactory } from '@kube/client';
import { LeaderElection } from '@kube/storage';
import { RegistrationRegistry, type GroupVersionPriority, type RegistrationSnapshot } from '@kube/registration';
import { AGGREGATOR_CONFIG } from '../aggregator.tokens';
import type { AggregatorConfig } from '../aggregator.config';
import { AggregatorEvents, type RemoteTarget } from '../aggregator.events';
import { DiscoveryMerger } from '../discovery/discovery.merger';
import { FrontDoor } from '../front-door.server';
import { OpenApiMerger } from '../openapi/openapi.merger';
import type { BackendTarget } from '../proxy/backend.target';
import { RoutingTable } from '../routing/routing.table';
import { AutoRegistration, apiServiceName, type DesiredGroupVersion } from './autoregistration.reconciler';

const REFRESH_INTERVAL_MS = 60_000;
const OPENAPI_QUIET_MS = 250;
const OPENAPI_MAX_DELAY_MS = 2_000;
const REGISTRATION_TTL_MS = 15_000;
/** Groups of the built-in backends; every other group a backend serves comes from a CRD. */
const BUILT_IN_SERVICES = new Set(['core-api']);
/** The keys of this controller's queue: discovery of every backend, of one backend (`backend/<name>`), OpenAPI merged as a whole. */
const DISCOVERY = 'discovery';
const BACKEND = 'backend/';
const OPENAPI = 'openapi';
/**
 * How long a discovery request waits for a group/version whose CRD was just established to appear (read your
 * writes for `kubectl apply` of a CRD and then its resources); nothing else waits for refreshes.
 */
const PENDING_DEADLINE_MS = 3_000;

/**
 * Keeps the front door in step with the local backends: fetches their discovery and OpenAPI (at start, every
 * minute and when told something changed), updates the routing table, and lets autoregistration reconcile the
 * APIService objects. A backend that fails keeps its last documents, marked Stale. One queue: a refresh asked
 * for while one runs runs once more after it, never twice at once. A CRD or remote APIService change re-fetches
 * only the backend it concerns, and the front door serves the last merged documents meanwhile (as kube's
 * discovery manager does), except to a request about a group/version just established (discoveryReady).
 */
@Injectable()
export class BackendsController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BackendsController');
  private timer?: NodeJS.Timeout;
  private readonly configured: Map<string, BackendTarget>;
  private announced = new Map<string, BackendTarget>();
  private remote = new Map<string, RemoteTarget>();
  private readonly controller = new Controller({
    name: 'BackendsController',
    reconcile: (key) => (key === OPENAPI ? this.mergeOpenApi() : this.refreshOnce(key.startsWith(BACKEND) ? new Set([key.slice(BACKEND.length)]) : undefined)),
  });
  /** Established CRDs' group/versions ("<group>/<version>") not in discovery yet, with the time to stop waiting for them. */
  private readonly pending = new Map<string, number>();
  /** Resolved (and replaced) after each refresh. */
  private refreshed = deferred();
  private firstRefresh?: Promise<void>;

  constructor(
    @Inject(AGGREGATOR_CONFIG) config: AggregatorConfig,
    @Inject(GenericApiServer) private readonly local: GenericApiServer,
    @Inject(FrontDoor) private readonly frontDoor: FrontDoor,
    @Inject(DiscoveryMerger) private readonly discovery: DiscoveryMerger,
    @Inject(OpenApiMerger) private readonly openapi: OpenApiMerger,
    @Inject(RoutingTable) private readonly routes: RoutingTable,
    @Inject(AutoRegistration) private readonly autoregistration: AutoRegistration,
    @Inject(LeaderElection) private readonly election: LeaderElection,
    @Inject(SharedInformerFactory) private readonly informers: SharedInformerFactory,
    @Inject(HealthChecks) private readonly health: HealthChecks,
    @Inject(AggregatorEvents) events: AggregatorEvents,
    /** From RegistrationModule, when NATS is configured. */
    @Optional() @Inject(RegistrationRegistry) private readonly registry?: RegistrationRegistry,
  ) {
    events.subscribe('remoteTargetsChanged', (remote) => {
      const changed = [...remote].filter(([name, r]) => !sameRemote(this.remote.get(name), r)).map(([name]) => name);
      const removed = [...this.remote.keys()].some((name) => !remote.has(name));
      this.remote = new Map(remote);
      if (removed && !changed.length) void this.refresh();
      for (const name of changed) this.controller.enqueue(BACKEND + name);
    });
    this.configured = new Map(config.backends.map((b) => [b.name, { name: b.name, url: new URL(b.url), caPem: b.caPem }]));
    if (this.registry) {
      this.registry.onChange((snapshot) => {
        this.announced = announcedTargets(snapshot);
        this.announcedPriorities = new Map([...snapshot].map(([key, gv]) => [key, { groupPriorityMinimum: gv.groupPriorityMinimum, versionPriority: gv.versionPriority }]));
        void this.refresh();
      });
    }
    // CRDs live in the same etcd: following them (as kube's CRD-registration controller does with an informer)
    // refreshes discovery the moment a CRD is established or removed, NATS or not.
    informers.informerFor({ group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' }).addEventHandler({
      add: (crd) => this.crdChanged(crd),
      update: (_, crd) => this.crdChanged(crd),
      delete: () => this.refreshCrdBackend(),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.routes.setLocal(this.local.resources.map((d) => `${d.group}/${d.version}`));
    this.frontDoor.onUnknownGroupVersion = () => this.refresh();
    this.frontDoor.refreshInFlight = () => this.refreshesSettled();
    this.frontDoor.discoveryReady = (group) => this.discoveryReady(group);
    this.frontDoor.openapiInFlight = () => this.flushOpenApi();
    this.election.onLeadershipChange((leader) => {
      if (leader) void this.refresh();
    });
    this.health.add('autoregister-completion', () => this.checkAutoregistration(), ['readyz', 'healthz']);
    const registry = this.registry;
    if (registry) {
      // Without NATS the aggregator still serves from etcd and its configured backends; it is blind (and so
      // unready) only when NATS was its one way to learn where the backends are.
      this.health.add('nats', () => {
        if (!registry.isConnected && this.configured.size === 0) throw new Error('not connected to NATS, and no backends are configured (KUBE_AGGREGATOR_BACKENDS)');
      }, ['readyz']);
    }
    this.registry?.start().catch((err: Error) => this.logger.warn(`NATS registry failed: ${err.message}`));
    this.informers.start();
    void this.controller.run();
    this.firstRefresh = this.refresh();
    await this.firstRefresh;
    this.timer = setInterval(() => void this.refresh(), REFRESH_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    if (this.openapiDue) clearTimeout(this.openapiDue.timer);
    void this.registry?.close();
    await this.controller.shutDown();
  }

  /** Re-reads every backend now; resolves when a refresh that started after the call is done (never rejects). */
  refresh(): Promise<void> {
    return this.controller.sync(DISCOVERY).catch(() => undefined);
  }

  /** Services announced over NATS win over the configured addresses of the same name. */
  private get targets(): Map<string, BackendTarget> {
    return new Map([...this.configured, ...this.announced]);
  }

  private crdChanged(crd: KubeObject): void {
    this.routeEstablished(crd);
    this.refreshCrdBackend();
  }

  /** CRDs change one backend's discovery: the one serving apiextensions.k8s.io (all of them while none is known). */
  private refreshCrdBackend(): void {
    const owner = this.crdBackend();
    if (owner) this.controller.enqueue(BACKEND + owner);
    else void this.refresh();
  }

  private crdBackend(): string | undefined {
    return this.discovery.groupVersions.get('apiextensions.k8s.io/v1')?.backend;
  }

  /** The refreshes queued or under way (a request for an unknown group/version waits for them before a 404). */
  private refreshesSettled(): Promise<void> {
    const owner = this.crdBackend();
    return Promise.all([this.controller.settled(DISCOVERY), owner ? this.controller.settled(BACKEND + owner) : undefined]).then(() => undefined);
  }

  /**
   * What a discovery request waits for: the first refresh, and then only the group/versions just established
   * (of the group asked about, or any for /api and /apis) until they appear, at most PENDING_DEADLINE_MS after
   * their CRD was seen; undefined (serve now) otherwise.
   */
  private discoveryReady(group?: string): Promise<void> | undefined {
    if (!this.frontDoor.routesSynced) return this.firstRefresh;
    const now = Date.now();
    let until = 0;
    for (const [gv, deadline] of this.pending) {
      if (deadline <= now || this.discovery.groupVersions.has(gv)) this.pending.delete(gv);
      else if (group === undefined || gv.startsWith(`${group}/`)) until = Math.max(until, deadline);
    }
    return until ? this.untilDiscovered(group, until) : undefined;
  }

  private async untilDiscovered(group: string | undefined, until: number): Promise<void> {
    const waiting = [...this.pending.keys()].filter((gv) => group === undefined || gv.startsWith(`${group}/`));
    while (Date.now() < until && waiting.some((gv) => !this.discovery.groupVersions.has(gv))) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.refreshed.promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, until - Date.now())))]);
      clearTimeout(timer);
    }
  }

  /**
   * An established CRD is routed to whichever backend serves CRDs at once, as kube's CRD-registration
   * controller registers it from the informer: its first custom resource need not wait for a discovery
   * round trip to a backend that is busy installing it. The refresh that follows confirms (or drops) it.
   */
  private routeEstablished(crd: KubeObject): void {
    const spec = crd.spec as { group?: string; versions?: Array<{ name: string; served?: boolean }> } | undefined;
    const conditions = ((crd.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []);
    if (!spec?.group || !conditions.some((c) => c.type === 'Established' && c.status === 'True')) return;
    const owner = this.crdBackend();
    if (!owner) return;
    for (const v of spec.versions ?? []) {
      if (!v.served) continue;
      const gv = `${spec.group}/${v.name}`;
      this.routes.addOwner(gv, owner);
      if (!this.discovery.groupVersions.has(gv)) this.pending.set(gv, Date.now() + PENDING_DEADLINE_MS);
    }
  }

  /** Re-fetches the named backends (all when none are named), then routes, APIServices and OpenAPI follow. */
  private async refreshOnce(names?: ReadonlySet<string>): Promise<void> {
    try {
      await this.refreshBackends(names);
    } finally {
      const done = this.refreshed;
      this.refreshed = deferred();
      done.resolve();
    }
  }

  private async refreshBackends(names?: ReadonlySet<string>): Promise<void> {
    const all = new Map<string, BackendTarget>([...this.targets, ...[...this.remote].map(([n, r]) => [n, r.target] as const)]);
    await this.discovery.refresh(all, new Map([...this.remote].map(([n, r]) => [n, r.groupVersion])), names);
    const apiServices = (await this.local.handler('apiregistration.k8s.io', 'apiservices').list(undefined, { resourceVersion: '0' })).items;
    // Remote APIServices stay listed while unavailable (kube does, namespace deletion relies on it); local ones
    // are listed exactly while their backend serves them.
    const remoteSpecs = apiServices.map((a) => a.spec as { group?: string; version: string; service?: unknown }).filter((spec) => spec.service);
    this.discovery.setDeclared(remoteSpecs.map((spec) => ({ group: spec.group ?? '', version: spec.version })));
    const owners = new Map<string, string>();
    const desired: DesiredGroupVersion[] = [];
    for (const [key, o] of this.discovery.groupVersions) {
      if (this.remote.has(o.backend)) continue;
      if (o.backend === 'aggregator') {
        desired.push({ group: o.group, version: o.version, managed: 'onstart' });
        continue;
      }
      owners.set(key, o.backend);
      const builtIn = BUILT_IN_SERVICES.has(o.backend) || o.group === 'apiextensions.k8s.io';
      desired.push({ group: o.group, version: o.version, managed: builtIn ? 'onstart' : 'true', priority: this.announcedPriorities.get(apiServiceName(o.group, o.version)) });
    }
    this.routes.setBackends(owners, all);
    this.frontDoor.routesSynced = true;
    // Routes and discovery are live now; OpenAPI (slower: merging and protobuf encoding) follows on its own.
    this.scheduleOpenApi(all);
    this.autoregistration.setDesired(desired, this.discovery.complete && this.configuredOrAnnouncedLongEnough());
    this.builtInNames = desired.filter((d) => d.managed === 'onstart').map((d) => apiServiceName(d.group, d.version));
  }

  private readonly startedAt = Date.now();
  /** Priorities announced over NATS, by APIService name. */
  private announcedPriorities = new Map<string, GroupVersionPriority>();
  private builtInNames: string[] = [];
  private lastProbeRefresh = 0;

  /** kube's autoregister-completion check: every built-in APIService exists and is Available. */
  private async checkAutoregistration(): Promise<void> {
    if (!this.builtInNames.length) throw new Error('backend discovery not complete yet');
    // kube's check waits for every built-in group/version, which its in-process servers always have. Here they
    // come from the configured backends: one that never answered discovery (core-api still starting) would leave
    // its groups unrouted (404) behind a ready front door.
    const discovered = new Set([...this.discovery.groupVersions.values()].map((o) => o.backend));
    const undiscovered = [...this.configured.keys()].filter((name) => !discovered.has(name));
    if (undiscovered.length) {
      // Look again now rather than at the next interval (a minute): at most once a second, however often probed.
      if (Date.now() - this.lastProbeRefresh >= 1000) {
        this.lastProbeRefresh = Date.now();
        void this.refresh();
      }
      throw new Error(`backends not discovered yet: [${undiscovered.join(' ')}]`);
    }
    const items = (await this.local.handler('apiregistration.k8s.io', 'apiservices').list(undefined, { resourceVersion: '0' })).items;
    const available = new Set(
      items.filter((o) => ((o.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []).some((c) => c.type === 'Available' && c.status === 'True')).map((o) => o.metadata.name),
    );
    const missing = this.builtInNames.filter((n) => !available.has(n));
    if (missing.length) throw new Error(`missing APIService: [${missing.join(' ')}]`);
  }

  /**
   * Static backends are known at once; backends learnt only from NATS are complete once every announcer had a
   * heartbeat interval to be heard (one registration TTL after start).
   */
  private configuredOrAnnouncedLongEnough(): boolean {
    return this.configured.size > 0 || Date.now() - this.startedAt > REGISTRATION_TTL_MS;
  }

  /** The latest backend set the next OpenAPI merge uses. */
  private openapiTargets?: Map<string, BackendTarget>;
  private openapiDue?: { targets: Map<string, BackendTarget>; timer: NodeJS.Timeout; since: number };

  /**
   * Refreshing the OpenAPI v3 index reads every backend's (v2 is merged only when asked for): after a change
   * it waits for OPENAPI_QUIET_MS without further changes (at most OPENAPI_MAX_DELAY_MS), so a burst of CRDs
   * costs one refresh and a new CRD's first requests are not held behind it. A client asking for /openapi
   * meanwhile starts it at once (flushOpenApi).
   */
  private scheduleOpenApi(targets: Map<string, BackendTarget>): void {
    const since = this.openapiDue?.since ?? Date.now();
    if (this.openapiDue) clearTimeout(this.openapiDue.timer);
    const delay = Math.min(OPENAPI_QUIET_MS, Math.max(0, since + OPENAPI_MAX_DELAY_MS - Date.now()));
    const timer = setTimeout(() => void this.flushOpenApi(), delay);
    timer.unref();
    this.openapiDue = { targets, timer, since };
  }

  /** Starts a scheduled merge now; returns the merge under way (and one queued behind it), if any. */
  private flushOpenApi(): Promise<void> | undefined {
    const due = this.openapiDue;
    if (due) {
      clearTimeout(due.timer);
      this.openapiDue = undefined;
      this.openapiTargets = due.targets;
      this.controller.enqueue(OPENAPI);
    }
    return this.controller.queue.has(OPENAPI) ? this.controller.settled(OPENAPI) : undefined;
  }

  private async mergeOpenApi(): Promise<void> {
    if (this.openapiTargets) await this.openapi.refresh(this.openapiTargets);
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Same address, CA and group/version: nothing to re-fetch. */
function sameRemote(a: RemoteTarget | undefined, b: RemoteTarget): boolean {
  return !!a && a.groupVersion === b.groupVersion && a.target.url.href === b.target.url.href && a.target.caPem === b.target.caPem;
}

/** One target per announced service, carrying every live instance of it. */
function announcedTargets(snapshot: RegistrationSnapshot): Map<string, BackendTarget> {
  const instances = new Map<string, Map<string, BackendTarget>>();
  for (const gv of snapshot.values()) {
    for (const e of gv.endpoints) {
      const byEndpoint = instances.get(e.service) ?? new Map<string, BackendTarget>();
      instances.set(e.service, byEndpoint);
      if (!byEndpoint.has(e.endpoint)) byEndpoint.set(e.endpoint, { name: e.service, url: new URL(e.endpoint), caPem: e.caBundle ? Buffer.from(e.caBundle, 'base64').toString('utf8') : undefined });
    }
  }
  // The first instance (sorted, so every replica agrees) answers discovery; requests rotate over all of them.
  const targets = new Map<string, BackendTarget>();
  for (const [service, byEndpoint] of instances) {
    const all = [...byEndpoint.values()];
    targets.set(service, { ...all[0], instances: all });
  }
  return targets;
}
