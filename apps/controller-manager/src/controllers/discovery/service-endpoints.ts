/** What the endpointslice and endpoints controllers both read from a Service and its pods (kube's endpointutil). */
import { labelSelectorFromMetav1, type KubeObject } from '@kube/apimachinery';
import { NAMESPACE_INDEX, type ResourcePath, type SharedIndexInformer } from '@kube/client';
import { isPodReady, type Pod } from '../../simulation/pod.lifecycle';

export const SERVICES: ResourcePath = { group: '', version: 'v1', resource: 'services', namespaced: true };

export interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
  protocol?: string;
  appProtocol?: string;
}

export interface Service extends KubeObject {
  spec?: { selector?: Record<string, string> | null; ports?: ServicePort[]; publishNotReadyAddresses?: boolean; type?: string; clusterIP?: string; ipFamilies?: string[] };
}

export interface ResolvedPort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

/** The pods a Service with a selector sends to (a Service without one is managed by hand, or mirrored). */
export function selectedPods(svc: Service, pods: readonly Pod[]): Pod[] {
  const sel = svc.spec?.selector;
  if (!sel || Object.keys(sel).length === 0) return [];
  const selector = labelSelectorFromMetav1({ matchLabels: sel });
  return pods.filter((p) => selector.matches(p.metadata.labels ?? {}) && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !!p.status?.podIP);
}

/** podutil.FindPort: a number, or the container port of that name. */
export function resolvePorts(svc: Service, pod: Pod): ResolvedPort[] {
  const out: ResolvedPort[] = [];
  for (const sp of svc.spec?.ports ?? []) {
    const protocol = sp.protocol ?? 'TCP';
    let port: number | undefined;
    const target = sp.targetPort ?? sp.port;
    if (typeof target === 'number') port = target;
    else if (/^\d+$/.test(target)) port = Number(target);
    else {
      for (const c of pod.spec?.containers ?? []) {
        const found = (c.ports as Array<{ name?: string; containerPort?: number; protocol?: string }> | undefined)?.find((p) => p.name === target && (p.protocol ?? 'TCP') === protocol);
        if (found) port = found.containerPort;
      }
    }
    if (port === undefined) continue;
    out.push({ name: sp.name ?? '', port, protocol, ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) });
  }
  return out;
}

/** ShouldPodBeInEndpoints' readiness: ready, or the Service publishes not-ready addresses. */
export function podReady(svc: Service, pod: Pod): boolean {
  return !!svc.spec?.publishNotReadyAddresses || (isPodReady(pod) && !pod.metadata.deletionTimestamp);
}

/** The Services of the pod's namespace whose (non-empty) selector the pod's labels match: whom a pod change concerns. */
export function servicesSelecting(services: SharedIndexInformer, pod: KubeObject): Service[] {
  return (services.lister.byIndex(NAMESPACE_INDEX, pod.metadata.namespace as string) as Service[]).filter((svc) => {
    const sel = svc.spec?.selector;
    return !!sel && Object.keys(sel).length > 0 && Object.entries(sel).every(([k, v]) => pod.metadata.labels?.[k] === v);
  });
}
