import { goEquality, isStatusError, stableStringify, type KubeObject } from '@kube/apimachinery';
import { Controller, metaNamespaceKey, NAMESPACE_INDEX, resourcePath, type ResourcePath, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import { NODES, type Node } from '../../simulation/node.simulator';
import type { Pod } from '../../simulation/pod.lifecycle';
import { controllerRefOf, newControllerRef } from '../apps/controller-ref.manager';
import { PODS } from '../apps/pod.control';
import { podReady, resolvePorts, selectedPods, SERVICES, servicesSelecting, type ResolvedPort, type Service } from './service-endpoints';

export const ENDPOINT_SLICES: ResourcePath = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', namespaced: true };
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
const MANAGED_BY = 'endpointslice-controller.k8s.io';
/** kube's --max-endpoints-per-slice default. */
export const MAX_ENDPOINTS_PER_SLICE = 100;
const ZONE_LABEL = 'topology.kubernetes.io/zone';
/** Compared as Go compares the structs: a stored object lacks the omitempty zeros a computed one may have. */
const sliceEqual = goEquality('discovery.k8s.io/v1', 'EndpointSlice');

interface Endpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  hostname?: string;
  targetRef: { kind: string; namespace: string; name: string; uid: string };
  nodeName?: string;
  zone?: string;
}

interface EndpointSlice extends KubeObject {
  addressType: string;
  endpoints?: Endpoint[] | null;
  ports?: ResolvedPort[] | null;
}

/**
 * kube's EndpointSliceController (pkg/controller/endpointslice): for every Service with a selector, slices of at
 * most 100 endpoints (one per pod with an IP: ready/serving/terminating conditions, nodeName, zone, targetRef,
 * hostname when the pod's subdomain is the Service), grouped by the ports the Service's targetPorts resolve to on
 * each pod, labelled kubernetes.io/service-name and endpointslice.kubernetes.io/managed-by, owned by the Service;
 * a Service without endpoints keeps one empty placeholder slice.
 */
export class EndpointSliceController implements ManagedController {
  readonly name = 'endpointslice-controller';
  readonly controller: Controller;
  private readonly services: SharedIndexInformer;
  private readonly pods: SharedIndexInformer;
  private readonly nodes: SharedIndexInformer;
  private readonly slices: SharedIndexInformer;

  constructor(private readonly ctx: ControllerContext) {
    this.services = ctx.informers.informerFor(SERVICES);
    this.pods = ctx.informers.informerFor(PODS);
    this.nodes = ctx.informers.informerFor(NODES);
    this.slices = ctx.informers.informerFor(ENDPOINT_SLICES);
    this.controller = new Controller({ name: this.name, reconcile: (key) => this.sync(key), workers: 5, waitFor: [this.services, this.pods, this.nodes, this.slices] });
    const enqueue = (obj: KubeObject): void => this.controller.enqueue(metaNamespaceKey(obj));
    this.services.addEventHandler({ add: enqueue, update: (_o, n) => enqueue(n), delete: enqueue });
    const podChanged = (pod: KubeObject): void => servicesSelecting(this.services, pod).forEach(enqueue);
    this.pods.addEventHandler({ add: podChanged, update: (o, n) => {
      podChanged(n);
      if (stableStringify(o.metadata.labels ?? {}) !== stableStringify(n.metadata.labels ?? {})) podChanged(o);
    }, delete: podChanged });
    const sliceChanged = (s: KubeObject): void => {
      const svc = s.metadata.labels?.[SERVICE_NAME_LABEL];
      if (svc && s.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY) this.controller.enqueue(`${s.metadata.namespace as string}/${svc}`);
    };
    this.slices.addEventHandler({ add: sliceChanged, update: (_o, n) => sliceChanged(n), delete: sliceChanged });
  }

  start(): Promise<void> {
    this.ctx.informers.start();
    return this.controller.run();
  }

  async stop(): Promise<void> {
    await this.controller.shutDown();
  }

  private async sync(key: string): Promise<void> {
    const [ns, name] = key.split('/');
    const svc = this.services.lister.get(key) as Service | undefined;
    const existing = (this.slices.lister.byIndex(NAMESPACE_INDEX, ns) as EndpointSlice[]).filter((s) => s.metadata.labels?.[SERVICE_NAME_LABEL] === name && s.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY);
    // No Service, or one without a selector: nothing of ours should remain (the garbage collector takes owned ones too).
    if (!svc || !svc.spec?.selector || Object.keys(svc.spec.selector).length === 0 || svc.metadata.deletionTimestamp) {
      await Promise.all(existing.map((s) => this.remove(s)));
      return;
    }
    const groups = new Map<string, { ports: ResolvedPort[]; endpoints: Endpoint[] }>();
    const pods = selectedPods(svc, this.pods.lister.byIndex(NAMESPACE_INDEX, ns) as Pod[]).sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    for (const pod of pods) {
      const ports = resolvePorts(svc, pod);
      const k = stableStringify(ports);
      const group = groups.get(k) ?? { ports, endpoints: [] };
      groups.set(k, group);
      group.endpoints.push(this.endpointFor(svc, pod));
    }
    const desired: Array<{ ports: ResolvedPort[] | null; endpoints: Endpoint[] }> = [];
    for (const g of groups.values()) for (let i = 0; i < g.endpoints.length; i += MAX_ENDPOINTS_PER_SLICE) desired.push({ ports: g.ports, endpoints: g.endpoints.slice(i, i + MAX_ENDPOINTS_PER_SLICE) });
    if (desired.length === 0) desired.push({ ports: null, endpoints: [] });
    const unused = [...existing].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    const labels = { ...(svc.metadata.labels ?? {}), [SERVICE_NAME_LABEL]: name, [MANAGED_BY_LABEL]: MANAGED_BY };
    const addressType = svc.spec.ipFamilies?.[0] === 'IPv6' ? 'IPv6' : 'IPv4';
    for (const want of desired) {
      // Reuse a slice with the same ports when there is one (fewer writes, stable names).
      const idx = Math.max(0, unused.findIndex((s) => stableStringify(s.ports ?? null) === stableStringify(want.ports)));
      const current = unused.splice(idx, 1)[0] as EndpointSlice | undefined;
      const body: EndpointSlice = {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: current ? { ...current.metadata, labels } : { generateName: `${name}-`, namespace: ns, labels, ownerReferences: [newControllerRef(svc, { apiVersion: 'v1', kind: 'Service' })] },
        addressType,
        endpoints: want.endpoints,
        ports: want.ports,
      };
      if (current && sliceEqual({ metadata: { labels: current.metadata.labels }, addressType: current.addressType, endpoints: current.endpoints, ports: current.ports }, { metadata: { labels }, addressType, endpoints: want.endpoints, ports: want.ports })) continue;
      try {
        if (current) await this.ctx.client.request('PUT', resourcePath(ENDPOINT_SLICES, ns, current.metadata.name), { body });
        else await this.ctx.client.request('POST', resourcePath(ENDPOINT_SLICES, ns), { body });
      } catch (err) {
        if (isStatusError(err) && err.code === 403 && /is being terminated/.test(err.message)) return;
        this.ctx.events.warning({ apiVersion: 'v1', kind: 'Service', name, namespace: ns, uid: svc.metadata.uid as string }, 'FailedToUpdateEndpointSlices', `Error updating Endpoint Slices for Service ${ns}/${name}: ${(err as Error).message}`);
        throw err;
      }
    }
    await Promise.all(unused.map((s) => this.remove(s)));
  }

  private endpointFor(svc: Service, pod: Pod): Endpoint {
    const ready = podReady(svc, pod);
    const terminating = !!pod.metadata.deletionTimestamp;
    const node = pod.spec?.nodeName ? (this.nodes.lister.get(pod.spec.nodeName) as Node | undefined) : undefined;
    const zone = node?.metadata.labels?.[ZONE_LABEL];
    const spec = pod.spec as (Pod['spec'] & { hostname?: string; subdomain?: string }) | undefined;
    return {
      addresses: [pod.status?.podIP as string],
      conditions: { ready: ready && !terminating, serving: terminating ? ready || !!svc.spec?.publishNotReadyAddresses : ready, terminating },
      ...(spec?.hostname && spec.subdomain === svc.metadata.name ? { hostname: spec.hostname } : {}),
      targetRef: { kind: 'Pod', namespace: pod.metadata.namespace as string, name: pod.metadata.name as string, uid: pod.metadata.uid as string },
      ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
      ...(zone ? { zone } : {}),
    };
  }

  private async remove(slice: EndpointSlice): Promise<void> {
    if (controllerRefOf(slice) === undefined && slice.metadata.labels?.[MANAGED_BY_LABEL] !== MANAGED_BY) return;
    try {
      await this.ctx.client.request('DELETE', resourcePath(ENDPOINT_SLICES, slice.metadata.namespace, slice.metadata.name));
    } catch (err) {
      if (!(isStatusError(err) && err.code === 404)) throw err;
    }
  }
}
