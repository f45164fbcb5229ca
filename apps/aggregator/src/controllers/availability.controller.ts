import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Gauge, Counter, register } from 'prom-client';
import { isStatusError, stableStringify, type KubeObject } from '@kube/apimachinery';
import { GenericApiServer, nowTimestamp, resolveServiceEndpoint, type RequestContext, type ServiceReference } from '@kube/apiserver';
import { LeaderElection, Storage, type StorageInterface, type StorageEvent, type WatchChannel } from '@kube/storage';
import { backendGet } from '../proxy/backend.get';
import { BackendAgents, type BackendTarget } from '../proxy/backend.target';
import { RoutingTable } from '../routing/routing.table';
import { FrontDoor } from '../front-door.server';

// kube re-checks every 30 s; we check every 3 s so a dead or revived backend is noticed within 5 s.
const RESYNC_MS = 3000;
const RETRY_UNAVAILABLE_MS = 500;
const CHECK_TIMEOUT_MS = 5000;
const FOLLOWED_STORES = 3;

interface APIServiceSpec {
  group?: string;
  version: string;
  service?: ServiceReference;
  caBundle?: string;
  insecureSkipTLSVerify?: boolean;
}

interface Verdict {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  target?: BackendTarget;
}

const unavailable = (register.getSingleMetric('aggregator_unavailable_apiservice') as Gauge<string> | undefined) ?? new Gauge({ name: 'aggregator_unavailable_apiservice', help: 'Gauge of APIServices which are marked as unavailable broken down by APIService name.', labelNames: ['name'] });
const unavailableTotal =
  (register.getSingleMetric('aggregator_unavailable_apiservice_total') as Counter<string> | undefined) ??
  new Counter({ name: 'aggregator_unavailable_apiservice_total', help: 'Counter of APIServices which are marked as unavailable broken down by APIService name and reason.', labelNames: ['name', 'reason'] });

function ctx(): RequestContext {
  return { user: { name: 'system:kube-aggregator', groups: ['system:masters'] }, dryRun: false, warnings: [] };
}

/**
 * kube's availability controller for APIServices with spec.service: Service → port → ready endpoints →
 * discovery check of /apis/<g>/<v>; the verdict goes into status (only when it changes), into the routing
 * table (requests to an unavailable group/version get 503) and into the metrics. Re-checked on every
 * APIService, Service or Endpoints change and every 30 s.
 */
@Injectable()
export class AvailabilityController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AvailabilityController');
  private readonly services: StorageInterface;
  private readonly endpoints: StorageInterface;
  private readonly channels: Array<WatchChannel<StorageEvent>> = [];
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private checking?: Promise<void>;
  private again = false;
  /** Called when the set of remote backends changed (discovery is re-fetched). */
  onTargetsChanged?: (targets: ReadonlyMap<string, { target: BackendTarget; groupVersion: string }>) => void;
  private lastTargets = '';
  /** Stores whose watch is established (APIServices, Services, Endpoints). */
  private readonly watching = new Set<StorageInterface>();
  private checkedOnce = false;
  private gaugeNames = new Set<string>();
  private retry?: NodeJS.Timeout;

  constructor(
    @Inject(GenericApiServer) private readonly local: GenericApiServer,
    @Inject(Storage) storage: Storage,
    @Inject(RoutingTable) private readonly routes: RoutingTable,
    @Inject(BackendAgents) private readonly agents: BackendAgents,
    @Inject(LeaderElection) private readonly election: LeaderElection,
    @Inject(FrontDoor) frontDoor: FrontDoor,
  ) {
    // kube's informer-sync check: APIServices, Services and Endpoints are watched and checked once.
    frontDoor.health.add('informer-sync', () => {
      if (this.watching.size < FOLLOWED_STORES || !this.checkedOnce) throw new Error('APIService, Service and Endpoints informers not synced yet');
    }, ['readyz']);
    election.onLeadershipChange((leader) => {
      if (leader) void this.trigger();
    });
    this.services = storage.resource({ group: '', resource: 'services' }, 'services');
    this.endpoints = storage.resource({ group: '', resource: 'endpoints' }, 'endpoints');
  }

  onApplicationBootstrap(): void {
    for (const store of [this.local.handler('apiregistration.k8s.io', 'apiservices').store, this.services, this.endpoints]) void this.follow(store);
    this.timer = setInterval(() => this.trigger(), RESYNC_MS);
    this.timer.unref();
    this.trigger();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearInterval(this.timer);
    if (this.retry) clearTimeout(this.retry);
    this.channels.forEach((c) => c.close());
  }

  /** Checks every APIService now (coalesced). */
  trigger(): Promise<void> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.checking = this.checkAll()
      .then(() => {
        this.checkedOnce = true;
      })
      .catch((err: Error) => this.logger.warn(`availability check failed: ${err.message}`))
      .finally(() => {
        this.checking = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          void this.trigger();
        }
      });
    return this.checking;
  }

  private async follow(store: StorageInterface): Promise<void> {
    while (!this.stopped) {
      try {
        const ch = await store.watch(undefined, undefined);
        this.channels.push(ch);
        this.watching.add(store);
        for await (const ev of ch) if (ev.type !== 'BOOKMARK' && ev.key) this.trigger();
      } catch {
        // re-watch below
      }
      this.watching.delete(store);
      if (!this.stopped) await new Promise((r) => setTimeout(r, 500));
    }
  }

  private async checkAll(): Promise<void> {
    const handler = this.local.handler('apiregistration.k8s.io', 'apiservices');
    const list = (await handler.list(undefined, { resourceVersion: '0' })).items;
    const targets = new Map<string, { target: BackendTarget; groupVersion: string }>();
    let anyUnavailable = false;
    await Promise.all(
      list.map(async (svc) => {
        const spec = svc.spec as APIServiceSpec;
        const gv = `${spec.group ?? ''}/${spec.version}`;
        if (!spec.service) {
          // Local APIServices are always available (reason Local), and counted as such, as in kube.
          this.routes.setRemote(gv, undefined);
          unavailable.set({ name: svc.metadata.name as string }, 0);
          return;
        }
        const verdict = await this.guardedCheck(svc.metadata.name as string, spec);
        this.routes.setRemote(gv, verdict.status === 'True' && verdict.target ? { kind: 'proxy', target: verdict.target } : { kind: 'unavailable', message: `service unavailable: ${verdict.message}` });
        if (verdict.target) targets.set(svc.metadata.name as string, { target: verdict.target, groupVersion: gv });
        unavailable.set({ name: svc.metadata.name as string }, verdict.status === 'True' ? 0 : 1);
        if (verdict.status !== 'True') anyUnavailable = true;
        await this.writeStatus(svc, verdict);
      }),
    );
    // A server that restarts re-registers the same objects (no change, no event): look again soon rather than
    // at the next resync, as kube requeues a failed check with backoff.
    if (anyUnavailable && !this.stopped && !this.retry) {
      this.retry = setTimeout(() => {
        this.retry = undefined;
        void this.trigger();
      }, RETRY_UNAVAILABLE_MS);
      this.retry.unref();
    }
    // A deleted APIService leaves the gauge (kube's ForgetAPIService).
    const names = new Set(list.map((svc) => svc.metadata.name as string));
    for (const name of this.gaugeNames) if (!names.has(name)) unavailable.remove({ name });
    this.gaugeNames = names;
    const key = stableStringify([...targets].map(([n, t]) => [n, t.target.url.href, t.groupVersion]));
    if (key !== this.lastTargets) {
      this.lastTargets = key;
      this.onTargetsChanged?.(targets);
    }
  }

  /** kube's 6 s guard around the 5 s discovery check: one stuck check must never stall every other one. */
  private guardedCheck(name: string, spec: APIServiceSpec): Promise<Verdict> {
    let timer: NodeJS.Timeout | undefined;
    const guard = new Promise<Verdict>((resolve) => {
      timer = setTimeout(() => resolve({ status: 'False', reason: 'FailedDiscoveryCheck', message: `discovery check of ${name} did not finish within ${CHECK_TIMEOUT_MS + 1000} ms` }), CHECK_TIMEOUT_MS + 1000);
    });
    return Promise.race([this.check(name, spec), guard]).finally(() => clearTimeout(timer));
  }

  private async check(name: string, spec: APIServiceSpec): Promise<Verdict> {
    const ref = spec.service as ServiceReference;
    const endpoint = await resolveServiceEndpoint({ services: this.services, endpoints: this.endpoints }, ref);
    if (!endpoint.resolved) return { status: 'False', reason: endpoint.reason, message: endpoint.message };
    const target: BackendTarget = {
      name,
      url: new URL(`https://${endpoint.address}`),
      caPem: spec.caBundle ? Buffer.from(spec.caBundle, 'base64').toString('utf8') : undefined,
      insecureSkipTLSVerify: spec.insecureSkipTLSVerify,
      serverName: `${ref.name}.${ref.namespace}.svc`,
    };
    const path = spec.group ? `/apis/${spec.group}/${spec.version}` : `/api/${spec.version}`;
    try {
      const res = await backendGet(target, this.agents, path, 'application/json', { timeoutMs: CHECK_TIMEOUT_MS });
      if (res.status < 200 || res.status >= 300) return { status: 'False', reason: 'FailedDiscoveryCheck', message: `failing or missing response from ${target.url.origin}${path}: bad status from ${target.url.origin}${path}: ${res.status}`, target };
      return { status: 'True', reason: 'Passed', message: 'all checks passed', target };
    } catch (err) {
      return { status: 'False', reason: 'FailedDiscoveryCheck', message: `failing or missing response from ${target.url.origin}${path}: ${(err as Error).message}`, target };
    }
  }

  private async writeStatus(svc: KubeObject, v: Verdict): Promise<void> {
    if (!this.election.isLeader) return;
    const conditions = ((svc.status as { conditions?: Array<Record<string, string>> } | undefined)?.conditions ?? []).filter((c) => c.type !== 'Available');
    const old = ((svc.status as { conditions?: Array<Record<string, string>> } | undefined)?.conditions ?? []).find((c) => c.type === 'Available');
    if (old && old.status === v.status && old.reason === v.reason && old.message === v.message) return;
    if (v.status !== 'True') unavailableTotal.inc({ name: svc.metadata.name as string, reason: v.reason });
    const next = { type: 'Available', status: v.status, reason: v.reason, message: v.message, lastTransitionTime: old && old.status === v.status ? old.lastTransitionTime : nowTimestamp() };
    try {
      await this.local.handler('apiregistration.k8s.io', 'apiservices').update(ctx(), undefined, svc.metadata.name as string, { ...svc, status: { conditions: [...conditions, next] } } as never, { dryRun: false, fieldValidation: 'Ignore' }, 'status');
    } catch (err) {
      if (!(isStatusError(err) && (err.code === 409 || err.code === 404))) throw err;
      this.again = true;
    }
  }
}
