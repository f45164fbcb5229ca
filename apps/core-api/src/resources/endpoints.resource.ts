/** core/v1 Endpoints (ValidateEndpoints, SetDefaults_Endpoints, printEndpoints). */
import { FieldError, type KubeObject } from '@kube/apimachinery';
import type { ResourceDefinition, ResourceStrategy } from '@kube/apiserver';
import { NONE } from './table.helpers';
import {
  child,
  index,
  invalidEach,
  isRecord,
  isValidPortNum,
  listOf,
  validateDNS1123Label,
  validateDNS1123Subdomain,
  validateEnum,
  validateIP,
  validateNonSpecialIP,
  validateQualifiedName,
} from './validation.helpers';

export const PORT_PROTOCOLS: readonly string[] = ['SCTP', 'TCP', 'UDP'];

export interface EndpointAddress {
  ip?: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: Record<string, unknown>;
}

export interface EndpointPort {
  name?: string;
  port?: number;
  protocol?: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends KubeObject {
  subsets?: EndpointSubset[];
}

/**
 * Loopback endpoint addresses are refused as in kube, unless the local stack allows them
 * (KUBE_ALLOW_LOOPBACK_ENDPOINTS): on one machine an aggregated server listens on 127.0.0.1.
 */
export interface EndpointsPolicy {
  allowLoopback: boolean;
}

const KUBE_POLICY: EndpointsPolicy = { allowLoopback: false };

function validateEndpointAddress(address: EndpointAddress, path: string, policy: EndpointsPolicy): FieldError[] {
  const ip = String(address.ip ?? '');
  const ipPath = child(path, 'ip');
  const ipErrors = validateIP(ipPath, ip);
  const special = validateNonSpecialIP(ip, ipPath).filter((e) => !(policy.allowLoopback && e.detail.includes('loopback')));
  const errs = ipErrors.length > 0 ? ipErrors : special;
  if (address.hostname) errs.push(...validateDNS1123Label(address.hostname, child(path, 'hostname')));
  if (address.nodeName !== undefined) errs.push(...validateDNS1123Subdomain(address.nodeName, child(path, 'nodeName')));
  return errs;
}

function validateEndpointPort(port: EndpointPort, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (requireName && !port.name) errs.push(FieldError.required(child(path, 'name')));
  else if (port.name) errs.push(...validateDNS1123Label(port.name, child(path, 'name')));
  errs.push(...invalidEach(child(path, 'port'), port.port, isValidPortNum(port.port)));
  errs.push(...validateEnum(port.protocol, child(path, 'protocol'), PORT_PROTOCOLS));
  if (port.appProtocol !== undefined) errs.push(...validateQualifiedName(port.appProtocol, child(path, 'appProtocol')));
  return errs;
}

function validateSubset(subset: EndpointSubset, path: string, policy: EndpointsPolicy): FieldError[] {
  const addresses = listOf(subset.addresses);
  const notReady = listOf(subset.notReadyAddresses);
  const ports = listOf(subset.ports);
  const errs: FieldError[] = [];
  if (addresses.length === 0 && notReady.length === 0) {
    errs.push(FieldError.required(path, 'must specify `addresses` or `notReadyAddresses`'));
  }
  addresses.forEach((a, i) => errs.push(...validateEndpointAddress(a, index(child(path, 'addresses'), i), policy)));
  notReady.forEach((a, i) => errs.push(...validateEndpointAddress(a, index(child(path, 'notReadyAddresses'), i), policy)));
  ports.forEach((p, i) => errs.push(...validateEndpointPort(p, ports.length > 1, index(child(path, 'ports'), i))));
  return errs;
}

export function validateEndpoints(ep: Endpoints, policy: EndpointsPolicy = KUBE_POLICY): FieldError[] {
  return listOf(ep.subsets).flatMap((s, i) => validateSubset(isRecord(s) ? s : {}, index('subsets', i), policy));
}

/** net.JoinHostPort: IPv6 hosts are bracketed. */
function joinHostPort(host: string, port: number | undefined): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

const MAX_PRINTED_ENDPOINTS = 3;

/** formatEndpoints: up to three "ip:port" entries, then " + N more...". */
export function formatEndpoints(ep: Endpoints): string {
  const subsets = listOf(ep.subsets);
  if (subsets.length === 0) return NONE;
  const all = subsets.flatMap((ss) => {
    const ips = listOf(ss.addresses).map((a) => String(a.ip ?? ''));
    const ports = listOf(ss.ports);
    if (ports.length === 0) return ips;
    return ports.flatMap((p) => ips.map((ip) => joinHostPort(ip, p.port)));
  });
  const shown = all.slice(0, MAX_PRINTED_ENDPOINTS).join(',');
  return all.length > MAX_PRINTED_ENDPOINTS ? `${shown} + ${all.length - MAX_PRINTED_ENDPOINTS} more...` : shown;
}

export function endpointsStrategy(policy: EndpointsPolicy = KUBE_POLICY): ResourceStrategy {
  return {
    /** SetDefaults_Endpoints: ports default to TCP. */
    default(obj: KubeObject): void {
      for (const subset of listOf((obj as Endpoints).subsets)) {
        for (const port of listOf(subset?.ports)) {
          if (isRecord(port) && !port.protocol) port.protocol = 'TCP';
        }
      }
    },
    validate: (obj: KubeObject) => validateEndpoints(obj as Endpoints, policy),
    validateUpdate: (obj: KubeObject) => validateEndpoints(obj as Endpoints, policy),
  };
}

/** Endpoints with the given policy (kube's by default). */
export function endpointsResourceWith(policy: EndpointsPolicy): ResourceDefinition {
  return { ...endpointsResource, strategy: endpointsStrategy(policy) };
}

export const endpointsResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Endpoints',
  listKind: 'EndpointsList',
  plural: 'endpoints',
  singular: 'endpoints',
  shortNames: ['ep'],
  namespaced: true,
  // k8s.io/api marks v1 Endpoints deprecated in 1.33 (APILifecycleDeprecated, replaced by EndpointSlice): kube's
  // installer then warns on every verb, in deprecation.WarningMessage's words.
  deprecationWarning: 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice',
  strategy: endpointsStrategy(),
  tableColumns: [
    {
      name: 'Endpoints',
      type: 'string',
      description:
        'The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.',
      cell: (obj: KubeObject) => formatEndpoints(obj as Endpoints),
    },
  ],
};
