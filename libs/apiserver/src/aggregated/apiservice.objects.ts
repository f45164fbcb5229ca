/**
 * The three objects that make the aggregator route a group/version to an aggregated server: a Service without
 * selector, its Endpoints (where the server listens) and the APIService pointing at the Service, with the CA
 * that signed the server's certificate as caBundle. Used for self-registration and for the cluster manifest.
 */
import type { KubeObject } from '@kube/apimachinery';

export interface ApiServiceRegistration {
  group: string;
  version: string;
  serviceNamespace: string;
  serviceName: string;
  /** IP address the server is reached at (Endpoints take IPs, not host names). */
  address: string;
  port: number;
  /**
   * Replicas side by side on `address` (npm start's): every one's port, this one's among them. Each replica then
   * writes the same Service and Endpoints, listing them all, instead of replacing the others' address with its own.
   */
  replicaPorts?: number[];
  groupPriorityMinimum: number;
  versionPriority: number;
  /** PEM of the CA that signed the serving certificate. */
  caBundlePem: string;
}

/** The Service port the APIService names; the Endpoints map it to the server's own port. */
export const SERVICE_PORT = 443;
const PORT_NAME = 'https';

export function apiServiceName(reg: Pick<ApiServiceRegistration, 'group' | 'version'>): string {
  return `${reg.version}.${reg.group}`;
}

export function serviceObject(reg: ApiServiceRegistration): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: reg.serviceName, namespace: reg.serviceNamespace },
    spec: { ports: [{ name: PORT_NAME, protocol: 'TCP', port: SERVICE_PORT, targetPort: reg.replicaPorts?.[0] ?? reg.port }] },
  };
}

export function endpointsObject(reg: ApiServiceRegistration): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: reg.serviceName, namespace: reg.serviceNamespace },
    subsets: (reg.replicaPorts ?? [reg.port]).map((port) => ({ addresses: [{ ip: reg.address }], ports: [{ name: PORT_NAME, protocol: 'TCP', port }] })),
  };
}

export function apiServiceObject(reg: ApiServiceRegistration): KubeObject {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: apiServiceName(reg) },
    spec: {
      group: reg.group,
      version: reg.version,
      groupPriorityMinimum: reg.groupPriorityMinimum,
      versionPriority: reg.versionPriority,
      service: { namespace: reg.serviceNamespace, name: reg.serviceName, port: SERVICE_PORT },
      caBundle: Buffer.from(reg.caBundlePem).toString('base64'),
    },
  };
}

/** In the order they must exist: the APIService's availability check follows Service → Endpoints. */
export function registrationObjects(reg: ApiServiceRegistration): KubeObject[] {
  return [serviceObject(reg), endpointsObject(reg), apiServiceObject(reg)];
}
