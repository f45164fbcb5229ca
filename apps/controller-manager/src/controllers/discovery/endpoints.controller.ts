import { goEquality, isStatusError, stableStringify, type KubeObject } from '@kube/apimachinery';
import { Controller, metaNamespaceKey, NAMESPACE_INDEX, resourcePath, type ResourcePath, type SharedIndexInformer } from '@kube/client';
import type { ControllerContext, ManagedController } from '../../controller.context';
import type { Pod } from '../../simulation/pod.lifecycle';
import { PODS } from '../apps/pod.control';
import { podReady, resolvePorts, selectedPods, SERVICES, servicesSelecting, type Service } from './service-endpoints';

const ENDPOINTS: ResourcePath = { group: '', version: 'v1', resource: 'endpoints', namespaced: true };
/** kube's maxCapacity: an Endpoints object keeps at most this many addresses, and says it truncated. */
const MAX_CAPACITY = 1000;
const TRUNCATED_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';
const HEADLESS_LABEL = 'service.kubernetes.io/headless';
/** Compared as Go compares the structs: a stored object lacks the omitempty zeros a computed one may have. */
const endpointsEqual = goEquality('v1', 'Endpoints');

interface Address {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef: { kind: string; namespace: string; name: string; uid: string };
}

interface Subset {
  addresses?: Address[];
  notReadyAddresses?: Address[];
  ports?: Array<{ name?: string; port: number; protocol: string; appProtocol?: string }>;
}

interface Endpoints extends KubeObject {
  subsets?: Subset[];
}

/**
 * kube's Endpoints controller (pkg/controller/endpoint): the legacy v1 Endpoints of every Service with a selector,
 * one subset per set of resolved ports, ready and not-ready addresses, at most 1000 addresses (then the
 * over-capacity annotation), the headless label; Endpoints of Services without a selector are left alone.
 */
export class EndpointsController implements ManagedController {
  readonly name = 'endpoints-controller';
  readonly controller: Controller;
  private readonly services: SharedIndexInformer;
  private readonly pods: SharedIndexInformer;

  constructor(private readonly ctx: ControllerContext) {
    this.services = ctx.informers.informerFor(SERVICES);
    this.pods = ctx.informers.informerFor(PODS);
    this.controller = new Controller({ name: this.name, reconcile: (key) => this.sync(key), workers: 5, waitFor: [this.services, this.pods] });
    const enqueue = (obj: KubeObject): void => this.controller.enqueue(metaNamespaceKey(obj));
    this.services.addEventHandler({ add: enqueue, update: (_o, n) => enqueue(n), delete: enqueue });
    const podChanged = (pod: KubeObject): void => servicesSelecting(this.services, pod).forEach(enqueue);
    this.pods.addEventHandler({ add: podChanged, update: (o, n) => {
      podChanged(n);
      podChanged(o);
    }, delete: podChanged });
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
    if (!svc) {
      await this.ctx.client.request('DELETE', resourcePath(ENDPOINTS, ns, name)).catch((err: unknown) => {
        if (!(isStatusError(err) && err.code === 404)) throw err;
      });
      return;
    }
    if (!svc.spec?.selector || Object.keys(svc.spec.selector).length === 0) return;
    const subsets = new Map<string, Subset>();
    let count = 0;
    for (const pod of selectedPods(svc, this.pods.lister.byIndex(NAMESPACE_INDEX, ns) as Pod[]).sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))) {
      if (pod.metadata.deletionTimestamp && !svc.spec.publishNotReadyAddresses) continue;
      if (count >= MAX_CAPACITY) break;
      const ports = resolvePorts(svc, pod).map((p) => ({ ...(p.name ? { name: p.name } : {}), port: p.port, protocol: p.protocol, ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) }));
      const k = stableStringify(ports);
      const subset = subsets.get(k) ?? { ports: ports.length ? ports : undefined };
      subsets.set(k, subset);
      const spec = pod.spec as (Pod['spec'] & { hostname?: string; subdomain?: string }) | undefined;
      const address: Address = {
        ip: pod.status?.podIP as string,
        ...(spec?.hostname && spec.subdomain === name ? { hostname: spec.hostname } : {}),
        ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
        targetRef: { kind: 'Pod', namespace: ns, name: pod.metadata.name as string, uid: pod.metadata.uid as string },
      };
      if (podReady(svc, pod)) (subset.addresses ??= []).push(address);
      else if ((pod.spec?.restartPolicy ?? 'Always') === 'Always' || !['Succeeded', 'Failed'].includes(pod.status?.phase ?? '')) (subset.notReadyAddresses ??= []).push(address);
      count++;
    }
    const labels: Record<string, string> = { ...(svc.metadata.labels ?? {}) };
    if (svc.spec.clusterIP === 'None') labels[HEADLESS_LABEL] = '';
    const annotations: Record<string, string> = count >= MAX_CAPACITY ? { [TRUNCATED_ANNOTATION]: 'truncated' } : {};
    const wanted = [...subsets.values()].filter((s) => s.addresses?.length || s.notReadyAddresses?.length);
    let current: Endpoints | undefined;
    try {
      current = await this.ctx.client.get<Endpoints>(resourcePath(ENDPOINTS, ns, name));
    } catch (err) {
      if (!(isStatusError(err) && err.code === 404)) throw err;
    }
    const body: Endpoints = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { ...(current?.metadata ?? { name, namespace: ns }), labels, ...(Object.keys(annotations).length || current?.metadata.annotations ? { annotations: { ...(current?.metadata.annotations ?? {}), ...annotations } } : {}) },
      ...(wanted.length ? { subsets: wanted } : {}),
    };
    if (current && endpointsEqual({ metadata: { labels: current.metadata.labels }, subsets: current.subsets }, { metadata: { labels }, subsets: wanted })) return;
    try {
      if (current) await this.ctx.client.request('PUT', resourcePath(ENDPOINTS, ns, name), { body });
      else await this.ctx.client.request('POST', resourcePath(ENDPOINTS, ns), { body });
    } catch (err) {
      if (isStatusError(err) && (err.code === 409 || (err.code === 403 && /is being terminated/.test(err.message)))) return;
      this.ctx.events.warning({ apiVersion: 'v1', kind: 'Service', name, namespace: ns, uid: svc.metadata.uid as string }, 'FailedToUpdateEndpoint', `Failed to update endpoint ${ns}/${name}: ${(err as Error).message}`);
      throw err;
    }
  }
}
