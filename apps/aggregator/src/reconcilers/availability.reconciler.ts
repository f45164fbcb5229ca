import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Gauge, Counter, register } from 'prom-client';
import { isStatusError, stableStringify, type KubeObject } from '@kube/apimachinery';
import { GenericApiServer, HealthChecks, nowTimestamp, resolveServiceEndpoint, type ObjectReader, type RequestContext, type ServiceReference } from '@kube/apiserver';
import { Controller, SharedInformerFactory, metaNamespaceKey, type Lister, type ReconcileResult, type SharedIndexInformer } from '@kube/client';
import { AggregatorEvents, type RemoteTarget } from '../aggregator.events';
import { backendGet } from '../proxy/backend.get';
import { BackendAgents, type BackendTarget } from '../proxy/backend.target';
import { RoutingTable } from '../routing/routing.table';

// kube re-checks every 30 s; we check every 3 s so a dead or revived backend is noticed within 5 s.
const RESYNC_MS = 3000;
const RETRY_UNAVAILABLE_MS = 500;
const CHECK_TIMEOUT_MS = 5000;
const WORKERS = 5;
/** Index of APIServices by the Service (`namespace/name`) their spec.service names. */
const BY_SERVICE = 'service';

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
  /** The check could not reach the backend at all (no answer, not a bad status). */
  unreachable?: boolean;
}

const unavailable = (register.getSingleMetric('aggregator_unavailable_apiservice') as Gauge<string> | undefined) ?? new Gauge({ name: 'aggregator_unavailable_apiservice', help: 'Gauge of APIServices which are marked as unavailable broken down by APIService name.', labelNames: ['name'] });
const unavailableTotal =
  (register.getSingleMetric('aggregator_unavailable_apiservice_total') as Counter<string> | undefined) ??
  new Counter({ name: 'aggregator_unavailable_apiservice_total', help: 'Counter of APIServices which are marked as unavailable broken down by APIService name and reason.', labelNames: ['name', 'reason'] });

function ctx(): RequestContext {
  return { user: { name: 'system:kube-aggregator', groups: ['system:masters'] }, dryRun: false, warnings: [] };
}

/** An informer's cache read as storage is (namespace + name), for the Service resolver. */
function reader(lister: Lister): ObjectReader {
  return { tryGet: async (namespace, name) => lister.get(namespace ? `${namespace}/${name}` : name) };
}

/**
 * kube's availability controller for APIServices with spec.service: Service → port → ready endpoints →
 * discovery check of /apis/<g>/<v>; the verdict goes into status (only when it changes, by every replica, as
 * in kube), into the routing table (requests to an unavailable group/version get 503) and into the metrics.
 * A queue of APIService names fed by the APIService, Service and Endpoints informers; every APIService is
 * re-checked every RESYNC_MS, an unavailable one after RETRY_UNAVAILABLE_MS. Changes of the reachable remote
 * backends are published on the AggregatorEvents bus.
 */
@Injectable()
export class AvailabilityController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly controller: Controller;
  private readonly apiServices: SharedIndexInformer;
  private readonly services: SharedIndexInformer;
  private readonly endpoints: SharedIndexInformer;
  private readonly targets = new Map<string, RemoteTarget>();
  /** The group/version each APIService routed, to drop its route when it is deleted. */
  private readonly routed = new Map<string, string>();
  private lastTargets = '';

  constructor(
    @Inject(RoutingTable) private readonly routes: RoutingTable,
    @Inject(BackendAgents) private readonly agents: BackendAgents,
    @Inject(GenericApiServer) private readonly local: GenericApiServer,
    @Inject(SharedInformerFactory) private readonly informers: SharedInformerFactory,
    @Inject(HealthChecks) private readonly health: HealthChecks,
    @Inject(AggregatorEvents) private readonly events: AggregatorEvents,
  ) {
    this.apiServices = informers.informerFor({ group: 'apiregistration.k8s.io', resource: 'apiservices' });
    this.services = informers.informerFor({ group: '', resource: 'services' });
    this.endpoints = informers.informerFor({ group: '', resource: 'endpoints' });
    this.apiServices.addIndexers({
      [BY_SERVICE]: (o) => {
        const ref = (o.spec as APIServiceSpec | undefined)?.service;
        return ref ? [`${ref.namespace}/${ref.name}`] : [];
      },
    });
    this.controller = new Controller({ name: 'AvailabilityController', workers: WORKERS, reconcile: (name) => this.sync(name), waitFor: [this.apiServices, this.services, this.endpoints] });
    const enqueue = (o: KubeObject): void => this.controller.enqueue(o.metadata.name as string);
    this.apiServices.addEventHandler({ add: enqueue, update: (_, o) => enqueue(o), delete: enqueue }, RESYNC_MS);
    // A Service or its Endpoints changed: re-check the APIServices that point at it.
    const byService = (o: KubeObject): void => this.apiServices.lister.byIndex(BY_SERVICE, metaNamespaceKey(o)).forEach(enqueue);
    for (const informer of [this.services, this.endpoints]) informer.addEventHandler({ add: byService, update: (_, o) => byService(o), delete: byService });
  }

  onApplicationBootstrap(): void {
    this.informers.start();
    void this.health.addPostStartHook('apiservice-status-available-controller', () => this.controller.run());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.controller.shutDown();
  }

  private async sync(name: string): Promise<ReconcileResult | void> {
    const svc = this.apiServices.lister.get(name);
    if (!svc) {
      // Deleted: its route and its gauge go (kube's ForgetAPIService).
      const gv = this.routed.get(name);
      if (gv) this.routes.setRemote(gv, undefined);
      this.routed.delete(name);
      unavailable.remove({ name });
      this.setTarget(name, undefined);
      return;
    }
    const spec = svc.spec as APIServiceSpec;
    const gv = `${spec.group ?? ''}/${spec.version}`;
    this.routed.set(name, gv);
    if (!spec.service) {
      // Local APIServices are always available (reason Local), and counted as such, as in kube.
      this.routes.setRemote(gv, undefined);
      unavailable.set({ name }, 0);
      this.setTarget(name, undefined);
      return;
    }
    const verdict = await this.guardedCheck(name, spec);
    // An unreachable backend: end the watches proxied to it now (their clients relist) rather than leave them
    // on a dead connection until TCP gives up.
    if (verdict.unreachable && verdict.target) this.agents.abortConnections(verdict.target, `service unavailable: ${verdict.message}`);
    this.routes.setRemote(gv, verdict.status === 'True' && verdict.target ? { kind: 'proxy', target: verdict.target } : { kind: 'unavailable', message: `service unavailable: ${verdict.message}` });
    this.setTarget(name, verdict.target ? { target: verdict.target, groupVersion: gv } : undefined);
    unavailable.set({ name }, verdict.status === 'True' ? 0 : 1);
    if (!(await this.writeStatus(svc, verdict))) return { requeue: true };
    // A server that restarts re-registers the same objects (no change, no event): look again soon rather than
    // at the next resync, as kube requeues a failed check.
    if (verdict.status !== 'True') return { requeueAfterMs: RETRY_UNAVAILABLE_MS };
  }

  /** Publishes the reachable remote backends when they changed. */
  private setTarget(name: string, target: RemoteTarget | undefined): void {
    if (target) this.targets.set(name, target);
    else this.targets.delete(name);
    const key = stableStringify([...this.targets].sort(([a], [b]) => a.localeCompare(b)).map(([n, t]) => [n, t.target.url.href, t.groupVersion, t.target.instances?.map((i) => i.url.href)]));
    if (key === this.lastTargets) return;
    this.lastTargets = key;
    this.events.publish('remoteTargetsChanged', new Map(this.targets));
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
    const endpoint = await resolveServiceEndpoint({ services: reader(this.services.lister), endpoints: reader(this.endpoints.lister) }, ref);
    if (!endpoint.resolved) return { status: 'False', reason: endpoint.reason, message: endpoint.message };
    const instances: BackendTarget[] = endpoint.addresses.map((address) => ({
      name,
      url: new URL(`https://${address}`),
      caPem: spec.caBundle ? Buffer.from(spec.caBundle, 'base64').toString('utf8') : undefined,
      insecureSkipTLSVerify: spec.insecureSkipTLSVerify,
      serverName: `${ref.name}.${ref.namespace}.svc`,
    }));
    // Several addresses (replicas): requests are spread over all of them, and the check passes if one answers.
    let verdict: Verdict | undefined;
    for (const instance of instances) {
      verdict = await this.checkOne(instance, spec, instances.length > 1 ? { ...instances[0], instances } : instance);
      if (verdict.status === 'True') break;
    }
    return verdict as Verdict;
  }

  private async checkOne(instance: BackendTarget, spec: APIServiceSpec, target: BackendTarget): Promise<Verdict> {
    const path = spec.group ? `/apis/${spec.group}/${spec.version}` : `/api/${spec.version}`;
    try {
      const res = await backendGet(instance, this.agents, path, 'application/json', { timeoutMs: CHECK_TIMEOUT_MS });
      if (res.status < 200 || res.status >= 300) return { status: 'False', reason: 'FailedDiscoveryCheck', message: `failing or missing response from ${instance.url.origin}${path}: bad status from ${instance.url.origin}${path}: ${res.status}`, target };
      return { status: 'True', reason: 'Passed', message: 'all checks passed', target };
    } catch (err) {
      return { status: 'False', reason: 'FailedDiscoveryCheck', message: `failing or missing response from ${instance.url.origin}${path}: ${(err as Error).message}`, target, unreachable: true };
    }
  }

  /**
   * Writes the Available condition when it changed; false on a conflict (the object moved on: check again).
   * Every replica writes, leader or not, as kube's availability controller does: a replica started after a
   * crash must correct an `Available=True` left by the previous run at once, not after the old lease expires.
   * Replicas that agree write once (the second finds the condition unchanged).
   */
  private async writeStatus(svc: KubeObject, v: Verdict): Promise<boolean> {
    const conditions = ((svc.status as { conditions?: Array<Record<string, string>> } | undefined)?.conditions ?? []).filter((c) => c.type !== 'Available');
    const old = ((svc.status as { conditions?: Array<Record<string, string>> } | undefined)?.conditions ?? []).find((c) => c.type === 'Available');
    if (old && old.status === v.status && old.reason === v.reason && old.message === v.message) return true;
    if (v.status !== 'True') unavailableTotal.inc({ name: svc.metadata.name as string, reason: v.reason });
    const next = { type: 'Available', status: v.status, reason: v.reason, message: v.message, lastTransitionTime: old && old.status === v.status ? old.lastTransitionTime : nowTimestamp() };
    try {
      await this.local.handler('apiregistration.k8s.io', 'apiservices').update(ctx(), undefined, svc.metadata.name as string, { ...svc, status: { conditions: [...conditions, next] } } as never, { dryRun: false, fieldValidation: 'Ignore' }, 'status');
    } catch (err) {
      if (!(isStatusError(err) && (err.code === 409 || err.code === 404))) throw err;
      return false;
    }
    return true;
  }
}
