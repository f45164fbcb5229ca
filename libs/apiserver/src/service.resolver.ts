import type { KubeObject } from '@kube/apimachinery';
import type { StorageInterface, Storage } from '@kube/storage';

/** A Service port as APIServices and webhooks name their backend (`spec.service`, `clientConfig.service`). */
export interface ServiceReference {
  namespace: string;
  name: string;
  /** The Service's port (not the target port); defaults to 443. */
  port?: number;
}

/** Reads one object by namespace and name (a StorageInterface, or a fake in tests). */
export type ObjectReader = Pick<StorageInterface, 'tryGet'>;

/** Where Services and their Endpoints are read from (etcd, through the watch caches). */
export interface ServiceStores {
  services: ObjectReader;
  endpoints: ObjectReader;
}

export type ServiceResolutionFailure = 'ServiceNotFound' | 'ServicePortError' | 'EndpointsNotFound' | 'MissingEndpoints';

/** An endpoint `host:port` to dial, or why there is none (reasons and messages of kube's availability controller). */
export type ServiceResolution = { resolved: true; address: string; addresses: string[] } | { resolved: false; reason: ServiceResolutionFailure; message: string };

interface ServicePort {
  name?: string;
  port: number;
}

interface EndpointSubset {
  addresses?: Array<{ ip: string }>;
  ports?: Array<{ name?: string; port: number }>;
}

/** The stores of core/v1 Services and Endpoints in a process's Storage. */
export function serviceStores(storage: Storage): { services: StorageInterface; endpoints: StorageInterface } {
  return {
    services: storage.resource({ group: '', resource: 'services' }, 'services'),
    endpoints: storage.resource({ group: '', resource: 'endpoints' }, 'endpoints'),
  };
}

/**
 * Resolves a Service reference to an endpoint address, as kube does with aggregator routing (there is no
 * kube-proxy to reach a ClusterIP): Service → the port with that number → the Endpoints address of that port.
 * A Service without selector plus hand-written Endpoints works.
 */
export async function resolveServiceEndpoint(stores: ServiceStores, ref: ServiceReference): Promise<ServiceResolution> {
  const port = ref.port ?? 443;
  const svc = await stores.services.tryGet(ref.namespace, ref.name);
  if (!svc) return { resolved: false, reason: 'ServiceNotFound', message: `service/${ref.name} in "${ref.namespace}" is not present` };
  const ports = (svc.spec as { ports?: ServicePort[] } | undefined)?.ports ?? [];
  const svcPort = ports.find((p) => p.port === port);
  if (!svcPort) return { resolved: false, reason: 'ServicePortError', message: `service/${ref.name} in "${ref.namespace}" is not listening on port ${port}` };
  const ep = await stores.endpoints.tryGet(ref.namespace, ref.name);
  if (!ep) return { resolved: false, reason: 'EndpointsNotFound', message: `cannot find endpoints for service/${ref.name} in "${ref.namespace}"` };
  const addresses = endpointAddresses(ep, svcPort);
  const address = addresses[0];
  if (!address) return { resolved: false, reason: 'MissingEndpoints', message: `endpoints for service/${ref.name} in "${ref.namespace}" have no addresses with port name "${svcPort.name ?? ''}"` };
  return { resolved: true, address, addresses };
}

/** Every ready address with the Service port's name (or the only port of a subset), the first one first; replicas are the rest. */
function endpointAddresses(ep: KubeObject, svcPort: ServicePort): string[] {
  const subsets = (ep.subsets ?? []) as EndpointSubset[];
  const out: string[] = [];
  for (const s of subsets) {
    const p = (s.ports ?? []).find((x) => (x.name ?? '') === (svcPort.name ?? '')) ?? (s.ports?.length === 1 ? s.ports[0] : undefined);
    if (!p) continue;
    for (const a of s.addresses ?? []) if (a.ip) out.push(`${a.ip.includes(':') ? `[${a.ip}]` : a.ip}:${p.port}`);
  }
  return out;
}
