import { goEquality, isStatusError, stableStringify, type KubeObject } from '@kube/apimachinery';
import { Controller, metaNamespaceKey, NAMESPACE_INDEX, resourcePath, type ResourcePath, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import { newControllerRef } from '../apps/controller-ref.manager';
import { ENDPOINT_SLICES, MANAGED_BY_LABEL, SERVICE_NAME_LABEL } from './endpointslice.controller';
import { SERVICES, type Service } from './service-endpoints';

const ENDPOINTS: ResourcePath = { group: '', version: 'v1', resource: 'endpoints', namespaced: true };
const MANAGED_BY = 'endpointslicemirroring-controller.k8s.io';
const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';
/** kube's --mirroring-max-endpoints-per-subset default. */
const MAX_ENDPOINTS_PER_SUBSET = 1000;
/** Labels of an Endpoints object kube does not copy onto its mirrored slices. */
const SKIPPED_LABELS = new Set([SKIP_MIRROR_LABEL, 'service.kubernetes.io/headless']);
/** Compared as Go compares the structs: a stored object lacks the omitempty zeros a computed one may have. */
const sliceEqual = goEquality('discovery.k8s.io/v1', 'EndpointSlice');

interface Address {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: Record<string, unknown>;
}

interface Endpoints extends KubeObject {
  subsets?: Array<{ addresses?: Address[]; notReadyAddresses?: Address[]; ports?: Array<{ name?: string; port: number; protocol?: string; appProtocol?: string }> }>;
}

interface Slice extends KubeObject {
  addressType: string;
  endpoints?: unknown[] | null;
  ports?: unknown[] | null;
}

/**
 * kube's EndpointSliceMirroringController (pkg/controller/endpointslicemirroring): the Endpoints of a Service
 * without a selector (written by hand or by another controller) mirrored into EndpointSlices managed by
 * `endpointslicemirroring-controller.k8s.io`, one per subset and address family (at most 1000 endpoints a
 * subset), unless the Endpoints carry `endpointslice.kubernetes.io/skip-mirror: "true"` (the apiserver's own).
 */
export class EndpointSliceMirroringController implements ManagedController {
  readonly name = 'endpointslice-mirroring-controller';
  readonly controller: Controller;
  private readonly endpoints: SharedIndexInformer;
  private readonly services: SharedIndexInformer;
  private readonly slices: SharedIndexInformer;

  constructor(private readonly ctx: ControllerContext) {
    this.endpoints = ctx.informers.informerFor(ENDPOINTS);
    this.services = ctx.informers.informerFor(SERVICES);
    this.slices = ctx.informers.informerFor(ENDPOINT_SLICES);
    this.controller = new Controller({ name: this.name, reconcile: (key) => this.sync(key), workers: 5, waitFor: [this.endpoints, this.services, this.slices] });
    const enqueue = (obj: KubeObject): void => this.controller.enqueue(metaNamespaceKey(obj));
    this.endpoints.addEventHandler({ add: enqueue, update: (_o, n) => enqueue(n), delete: enqueue });
    this.services.addEventHandler({ add: enqueue, update: (_o, n) => enqueue(n), delete: enqueue });
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
    const ep = this.endpoints.lister.get(key) as Endpoints | undefined;
    const existing = (this.slices.lister.byIndex(NAMESPACE_INDEX, ns) as Slice[]).filter((s) => s.metadata.labels?.[SERVICE_NAME_LABEL] === name && s.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY);
    const mirror = !!svc && !!ep && !(svc.spec?.selector && Object.keys(svc.spec.selector).length) && ep.metadata.labels?.[SKIP_MIRROR_LABEL] !== 'true' && !svc.metadata.deletionTimestamp;
    const desired: Array<{ addressType: string; endpoints: unknown[]; ports: unknown[] | null }> = [];
    if (mirror) {
      for (const subset of ep.subsets ?? []) {
        const ports = (subset.ports ?? []).map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) }));
        const byFamily = new Map<string, unknown[]>();
        const add = (a: Address, ready: boolean): void => {
          const family = a.ip.includes(':') ? 'IPv6' : 'IPv4';
          const list = byFamily.get(family) ?? [];
          byFamily.set(family, list);
          if (list.length >= MAX_ENDPOINTS_PER_SUBSET) return;
          list.push({ addresses: [a.ip], conditions: { ready }, ...(a.hostname ? { hostname: a.hostname } : {}), ...(a.targetRef ? { targetRef: a.targetRef } : {}), ...(a.nodeName ? { nodeName: a.nodeName } : {}) });
        };
        for (const a of subset.addresses ?? []) add(a, true);
        for (const a of subset.notReadyAddresses ?? []) add(a, false);
        for (const [addressType, endpoints] of byFamily) desired.push({ addressType, endpoints, ports: ports.length ? ports : null });
      }
    }
    const unused = [...existing].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    if (mirror && svc && ep) {
      const labels: Record<string, string> = {};
      for (const [k, v] of Object.entries(ep.metadata.labels ?? {})) if (!SKIPPED_LABELS.has(k)) labels[k] = v;
      Object.assign(labels, { [SERVICE_NAME_LABEL]: name, [MANAGED_BY_LABEL]: MANAGED_BY });
      for (const want of desired) {
        const idx = Math.max(0, unused.findIndex((s) => s.addressType === want.addressType && stableStringify(s.ports ?? null) === stableStringify(want.ports)));
        const current = unused.splice(idx, 1)[0] as Slice | undefined;
        if (current && current.addressType === want.addressType && sliceEqual({ metadata: { labels: current.metadata.labels }, endpoints: current.endpoints, ports: current.ports }, { metadata: { labels }, endpoints: want.endpoints, ports: want.ports })) continue;
        if (current && current.addressType !== want.addressType) {
          unused.push(current);
          await this.create(ns, name, svc, labels, want);
          continue;
        }
        if (current) {
          await this.ctx.client.request('PUT', resourcePath(ENDPOINT_SLICES, ns, current.metadata.name), { body: { ...current, metadata: { ...current.metadata, labels }, endpoints: want.endpoints, ports: want.ports } });
        } else {
          await this.create(ns, name, svc, labels, want);
        }
      }
    }
    for (const s of unused) {
      await this.ctx.client.request('DELETE', resourcePath(ENDPOINT_SLICES, ns, s.metadata.name)).catch((err: unknown) => {
        if (!(isStatusError(err) && err.code === 404)) throw err;
      });
    }
  }

  private async create(ns: string, name: string, svc: Service, labels: Record<string, string>, want: { addressType: string; endpoints: unknown[]; ports: unknown[] | null }): Promise<void> {
    const body = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { generateName: `${name}-`, namespace: ns, labels, ownerReferences: [newControllerRef(svc, { apiVersion: 'v1', kind: 'Service' })] }, ...want };
    try {
      await this.ctx.client.request('POST', resourcePath(ENDPOINT_SLICES, ns), { body });
    } catch (err) {
      if (isStatusError(err) && err.code === 403 && /is being terminated/.test(err.message)) return;
      throw err;
    }
  }
}
