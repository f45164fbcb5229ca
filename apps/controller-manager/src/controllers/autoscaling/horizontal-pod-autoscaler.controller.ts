import { isDeepStrictEqual } from 'node:util';
import { goEquality, isStatusError, parseLabelSelector, type KubeObject } from '@kube/apimachinery';
import { formatTimestamp } from '@kube/apiserver';
import { Controller, metaNamespaceKey, resourcePath, type ReconcileResult, type ResourcePath, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import type { InvolvedObject } from '../../event.recorder';
import type { Pod } from '../../simulation/pod.lifecycle';

export const HPAS: ResourcePath = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', namespaced: true };
const POD_METRICS: ResourcePath = { group: 'metrics.k8s.io', version: 'v1beta1', resource: 'pods', namespaced: true };
const PODS: ResourcePath = { group: '', version: 'v1', resource: 'pods', namespaced: true };
/** kube's --horizontal-pod-autoscaler-sync-period, -tolerance and the default scale-down stabilization window. */
/** Compared as Go compares the structs: the stored status lacks the omitempty zeros a computed one has. */
const statusEqual = goEquality('autoscaling/v2', 'HorizontalPodAutoscaler', 'status');
const SYNC_PERIOD_MS = 15_000;
const TOLERANCE = 0.1;
const DOWNSCALE_WINDOW_MS = 300_000;

interface ResourceMetric {
  type: string;
  resource?: { name: string; target: { type: string; averageUtilization?: number; averageValue?: string } };
}

interface Hpa extends KubeObject {
  spec?: { scaleTargetRef: { apiVersion?: string; kind: string; name: string }; minReplicas?: number; maxReplicas: number; metrics?: ResourceMetric[] };
  status?: { currentReplicas?: number; desiredReplicas?: number; lastScaleTime?: string; conditions?: Condition[]; currentMetrics?: unknown[]; observedGeneration?: number };
}

interface Condition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

interface Scale extends KubeObject {
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: string };
}

/** resource.Quantity of cpu or memory as a number (cores, bytes). */
function quantity(q: string | undefined): number {
  if (!q) return 0;
  const m = /^([0-9.]+)([a-zA-Z]*)$/.exec(q);
  if (!m) return 0;
  const units: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 };
  return Number(m[1]) * (units[m[2]] ?? 1);
}

/**
 * kube's HorizontalController (pkg/controller/podautoscaler), every 15 s per HPA: the target's /scale, the
 * Resource metrics (utilization of requests or average value) from metrics.k8s.io when an API serves it, the
 * replica count kube computes (tolerance 0.1, the ready pods' usage, min/max, the 5-minute scale-down
 * stabilization), the scale written back, and the AbleToScale, ScalingActive and ScalingLimited conditions and
 * events with kube's reasons and messages, including those it sets when no metrics API answers.
 */
export class HorizontalPodAutoscalerController implements ManagedController {
  readonly name = 'horizontal-pod-autoscaler-controller';
  readonly controller: Controller;
  private readonly hpas: SharedIndexInformer;
  private readonly recommendations = new Map<string, Array<{ at: number; replicas: number }>>();

  constructor(private readonly ctx: ControllerContext) {
    this.hpas = ctx.informers.informerFor(HPAS);
    this.controller = new Controller({ name: this.name, reconcile: (key) => this.sync(key), workers: 5, waitFor: [this.hpas] });
    const enqueue = (obj: KubeObject): void => this.controller.enqueue(metaNamespaceKey(obj));
    // A spec change (HPAs carry no metadata.generation in kube 1.33), not this controller's own status writes.
    this.hpas.addEventHandler({ add: enqueue, update: (o, n) => (isDeepStrictEqual(o.spec, n.spec) ? undefined : enqueue(n)), delete: (o) => this.recommendations.delete(metaNamespaceKey(o)) });
  }

  start(): Promise<void> {
    this.ctx.informers.start();
    return this.controller.run();
  }

  async stop(): Promise<void> {
    await this.controller.shutDown();
  }

  private ref(hpa: Hpa): InvolvedObject {
    return { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', name: hpa.metadata.name as string, namespace: hpa.metadata.namespace, uid: hpa.metadata.uid as string };
  }

  private async sync(key: string): Promise<ReconcileResult | void> {
    const hpa = this.hpas.lister.get(key) as Hpa | undefined;
    if (!hpa?.spec || hpa.metadata.deletionTimestamp) return;
    const ns = hpa.metadata.namespace as string;
    const now = new Date();
    const conditions: Condition[] = [];
    const set = (type: string, status: string, reason: string, message: string): void => {
      const old = hpa.status?.conditions?.find((c) => c.type === type);
      conditions.push({ type, status, lastTransitionTime: old?.status === status ? old.lastTransitionTime : formatTimestamp(now), reason, message });
    };
    const target = hpa.spec.scaleTargetRef;
    const mapping = this.ctx.discovery.mappingFor(target.apiVersion ?? '', target.kind);
    let scale: Scale;
    try {
      if (!mapping) throw new Error(`no matches for kind "${target.kind}" in group "${(target.apiVersion ?? '').split('/').slice(0, -1).join('/')}"`);
      scale = await this.ctx.client.get<Scale>(resourcePath(mapping, ns, target.name, 'scale'));
    } catch (err) {
      const message = `the HPA controller was unable to get the target's current scale: ${(err as Error).message}`;
      this.ctx.events.warning(this.ref(hpa), 'FailedGetScale', (err as Error).message);
      set('AbleToScale', 'False', 'FailedGetScale', message);
      await this.writeStatus(hpa, { ...(hpa.status ?? {}), conditions });
      return { requeueAfterMs: SYNC_PERIOD_MS };
    }
    const current = scale.spec?.replicas ?? 0;
    const min = hpa.spec.minReplicas ?? 1;
    const max = hpa.spec.maxReplicas;
    let desired = current;
    let rescaleReason = '';
    let metricsOk = true;
    const currentMetrics: unknown[] = [];
    if (current === 0 && min !== 0) {
      set('AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale");
      set('ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero');
      desired = 0;
    } else {
      const metrics = hpa.spec.metrics?.length ? hpa.spec.metrics : [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
      let proposal = 0;
      let firstError: string | undefined;
      let invalid = 0;
      let validName = '';
      for (const metric of metrics) {
        try {
          const r = await this.resourceProposal(hpa, metric, scale, current);
          currentMetrics.push(r.status);
          if (r.replicas > proposal) {
            proposal = r.replicas;
            validName = r.name;
          }
        } catch (err) {
          invalid++;
          firstError ??= (err as Error).message;
          const kind = metric.resource?.name ?? metric.type;
          this.ctx.events.warning(this.ref(hpa), 'FailedGetResourceMetric', (err as Error).message);
          currentMetrics.push({ type: 'Resource', resource: { name: kind, current: {} } });
        }
      }
      set('AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale");
      if (invalid === metrics.length || (invalid > 0 && proposal < current)) {
        metricsOk = false;
        const message = `invalid metrics (${invalid} invalid out of ${metrics.length}), first error is: ${firstError as string}`;
        this.ctx.events.warning(this.ref(hpa), 'FailedComputeMetricsReplicas', message);
        set('ScalingActive', 'False', 'FailedGetResourceMetric', `the HPA was unable to compute the replica count: ${firstError as string}`);
      } else {
        set('ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${validName}`);
        // Scale-down stabilization: the highest recommendation of the last five minutes.
        const history = (this.recommendations.get(key) ?? []).filter((r) => now.getTime() - r.at < DOWNSCALE_WINDOW_MS);
        history.push({ at: now.getTime(), replicas: proposal });
        this.recommendations.set(key, history);
        const stabilized = proposal < current ? Math.min(current, Math.max(...history.map((r) => r.replicas))) : proposal;
        desired = stabilized;
        rescaleReason = desired > current ? `${validName} above target` : 'All metrics below target';
      }
    }
    if (metricsOk && conditions.every((c) => c.reason !== 'ScalingDisabled')) {
      if (desired > max) {
        set('ScalingLimited', 'True', 'TooManyReplicas', 'the desired replica count is more than the maximum replica count');
        desired = max;
      } else if (desired < min) {
        set('ScalingLimited', 'True', 'TooFewReplicas', 'the desired replica count is less than the minimum replica count');
        desired = min;
      } else {
        set('ScalingLimited', 'False', 'DesiredWithinRange', 'the desired count is within the acceptable range');
      }
    } else if (!metricsOk) {
      desired = current;
    }
    let lastScaleTime = hpa.status?.lastScaleTime;
    if (metricsOk && desired !== current && mapping) {
      try {
        await this.ctx.client.request('PUT', resourcePath(mapping, ns, target.name, 'scale'), { body: { ...scale, spec: { ...scale.spec, replicas: desired } } });
        this.ctx.events.normal(this.ref(hpa), 'SuccessfulRescale', `New size: ${desired}; reason: ${rescaleReason}`);
        const i = conditions.findIndex((c) => c.type === 'AbleToScale');
        conditions[i] = { ...conditions[i], reason: 'SucceededRescale', message: `the HPA controller was able to update the target scale to ${desired}` };
        lastScaleTime = formatTimestamp(now);
      } catch (err) {
        this.ctx.events.warning(this.ref(hpa), 'FailedRescale', `New size: ${desired}; reason: ${rescaleReason}; error: ${(err as Error).message}`);
        const i = conditions.findIndex((c) => c.type === 'AbleToScale');
        conditions[i] = { ...conditions[i], status: 'False', reason: 'FailedUpdateScale', message: `the HPA controller was unable to update the target scale: ${(err as Error).message}` };
        desired = current;
      }
    }
    await this.writeStatus(hpa, { observedGeneration: hpa.metadata.generation, ...(lastScaleTime ? { lastScaleTime } : {}), currentReplicas: scale.status?.replicas ?? current, desiredReplicas: desired, ...(currentMetrics.length ? { currentMetrics } : {}), conditions });
    return { requeueAfterMs: SYNC_PERIOD_MS };
  }

  /** computeStatusForResourceMetric: the replicas a Resource metric asks for. */
  private async resourceProposal(hpa: Hpa, metric: ResourceMetric, scale: Scale, current: number): Promise<{ replicas: number; name: string; status: unknown }> {
    const name = metric.resource?.name ?? 'cpu';
    const ns = hpa.metadata.namespace as string;
    const selectorText = scale.status?.selector ?? '';
    const errPrefix = `failed to get ${name} resource metric value: failed to get ${name} utilization`;
    if (!this.ctx.discovery.resourceFor({ group: 'metrics.k8s.io', resource: 'pods' })) {
      throw new Error(`${errPrefix}: unable to get metrics for resource ${name}: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)`);
    }
    const list = await this.ctx.client.get<{ items: Array<KubeObject & { containers: Array<{ name: string; usage: Record<string, string> }> }> }>(resourcePath(POD_METRICS, ns), { query: { labelSelector: selectorText } });
    if (!list.items.length) throw new Error(`${errPrefix}: unable to get metrics for resource ${name}: no metrics returned from resource metrics API`);
    const pods = await this.ctx.client.get<{ items: Pod[] }>(resourcePath(PODS, ns), { query: { labelSelector: selectorText } });
    const selector = parseLabelSelector(selectorText);
    let usage = 0;
    let requests = 0;
    let counted = 0;
    for (const pm of list.items) {
      const pod = pods.items.find((p) => p.metadata.name === pm.metadata.name && selector.matches(p.metadata.labels ?? {}));
      if (!pod || pod.metadata.deletionTimestamp || pod.status?.phase === 'Failed') continue;
      for (const c of pod.spec?.containers ?? []) {
        const req = c.resources?.requests?.[name];
        if (metric.resource?.target.type === 'Utilization' && !req) throw new Error(`${errPrefix}: missing request for ${name} in container ${c.name} of Pod ${pod.metadata.name as string}`);
        requests += quantity(req);
      }
      usage += pm.containers.reduce((s, c) => s + quantity(c.usage[name]), 0);
      counted++;
    }
    if (counted === 0) throw new Error(`${errPrefix}: unable to get metrics for resource ${name}: no metrics returned from resource metrics API`);
    const target = metric.resource?.target;
    let ratio: number;
    let status: unknown;
    if (target?.type === 'Utilization') {
      const utilization = Math.round((usage / requests) * 100);
      ratio = utilization / (target.averageUtilization ?? 80);
      status = { type: 'Resource', resource: { name, current: { averageUtilization: utilization, averageValue: formatQuantity(name, usage / counted) } } };
    } else {
      const average = usage / counted;
      ratio = average / quantity(target?.averageValue);
      status = { type: 'Resource', resource: { name, current: { averageValue: formatQuantity(name, average) } } };
    }
    const replicas = Math.abs(ratio - 1) <= TOLERANCE ? current : Math.ceil(ratio * counted);
    return { replicas, name: target?.type === 'Utilization' ? `${name} resource utilization (percentage of request)` : `${name} resource`, status };
  }

  private async writeStatus(hpa: Hpa, status: NonNullable<Hpa['status']>): Promise<void> {
    if (statusEqual(hpa.status, status)) return;
    try {
      await this.ctx.client.request('PUT', resourcePath(HPAS, hpa.metadata.namespace, hpa.metadata.name, 'status'), { body: { ...hpa, apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', status } });
    } catch (err) {
      if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
    }
  }
}

function formatQuantity(name: string, v: number): string {
  return name === 'cpu' ? `${Math.round(v * 1000)}m` : String(Math.round(v));
}
