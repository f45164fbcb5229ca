/**
 * core/v1 Service: SetDefaults_Service, the service strategy and REST hooks (NormalizeClusterIPs,
 * patchAllocatedValues, dropTypeDependentFields, initIPFamilyFields for a single-stack IPv4 cluster),
 * ValidateService / ValidateServiceUpdate and printService. IPs and node ports are allocated elsewhere.
 */
import { FieldError, isDNS1035Label, validateLabels, type KubeObject } from '@kube/apimachinery';
import { statusSubresource, type ResourceDefinition, type ResourceStrategy } from '@kube/apiserver';
import { PORT_PROTOCOLS } from './endpoints.resource';
import { ageColumn, formatLabels, NONE } from './table.helpers';
import {
  child,
  deepCopy,
  ensureRecord,
  entriesOf,
  index,
  invalidEach,
  isIPv6,
  isValidPortNum,
  listOf,
  notSupported,
  semanticEqual,
  validateCIDR,
  validateDNS1123Label,
  validateDNS1123Subdomain,
  validateEnum,
  validateIP,
  validateNonSpecialIP,
  validatePortNumOrName,
  validateQualifiedName,
  validateStricterName,
  type StringMap,
} from './validation.helpers';
import { fieldLabelNotSupported } from './field-labels';

export type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';

export interface ServicePort {
  name?: string;
  protocol?: string;
  appProtocol?: string;
  port?: number;
  targetPort?: number | string;
  nodePort?: number;
}

export interface ServiceSpec {
  type?: string;
  ports?: ServicePort[];
  selector?: StringMap;
  clusterIP?: string;
  clusterIPs?: string[];
  externalIPs?: string[];
  externalName?: string;
  sessionAffinity?: string;
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } } | null;
  ipFamilies?: string[];
  ipFamilyPolicy?: string | null;
  internalTrafficPolicy?: string | null;
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  allocateLoadBalancerNodePorts?: boolean | null;
  loadBalancerClass?: string | null;
  loadBalancerSourceRanges?: string[];
  trafficDistribution?: string | null;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: string;
}

export interface Service extends KubeObject {
  spec?: ServiceSpec;
  status?: { loadBalancer?: { ingress?: LoadBalancerIngress[] }; conditions?: unknown[] };
}

export const CLUSTER_IP_NONE = 'None';
const SERVICE_TYPES: readonly string[] = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SESSION_AFFINITIES: readonly string[] = ['ClientIP', 'None'];
const TRAFFIC_POLICIES: readonly string[] = ['Cluster', 'Local'];
const IP_FAMILIES: readonly string[] = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES: readonly string[] = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const TRAFFIC_DISTRIBUTIONS: readonly string[] = ['PreferClose'];
/** Types that need spec.internalTrafficPolicy (every type but ExternalName). */
const INTERNAL_TRAFFIC_TYPES: readonly string[] = ['ClusterIP', 'NodePort', 'LoadBalancer'];
const DEFAULT_CLIENT_IP_AFFINITY_SECONDS = 10800;
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;
/** This control plane serves a single-stack IPv4 service network. */
const CLUSTER_IP_FAMILY = 'IPv4';

const SPEC = 'spec';
const specPath = (...names: string[]): string => names.reduce(child, SPEC);
const specOf = (svc: Service): ServiceSpec => svc.spec ?? {};
const asService = (obj: KubeObject): Service => obj as Service;

// ---------------------------------------------------------------------------
// Predicates (pkg/api/service and the service REST)
// ---------------------------------------------------------------------------

function isHeadless(spec: ServiceSpec): boolean {
  const ips = listOf(spec.clusterIPs);
  return ips.length === 1 && ips[0] === CLUSTER_IP_NONE;
}

/** Headless and without selector: the one case that defaults to dual-stack families. */
function isHeadlessSelectorless(spec: ServiceSpec): boolean {
  return spec.clusterIP === CLUSTER_IP_NONE && entriesOf(spec.selector).length === 0;
}

const needsClusterIP = (spec: ServiceSpec): boolean => spec.type !== 'ExternalName';

function needsNodePort(spec: ServiceSpec): boolean {
  return spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
}

function externallyAccessible(spec: ServiceSpec): boolean {
  return spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && listOf(spec.externalIPs).length > 0);
}

const needsHealthCheck = (spec: ServiceSpec): boolean => spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';

const familyOf = (ip: string): string => (isIPv6(ip) ? 'IPv6' : 'IPv4');

// ---------------------------------------------------------------------------
// Defaulting (SetDefaults_Service)
// ---------------------------------------------------------------------------

function defaultSessionAffinity(spec: ServiceSpec): void {
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_AFFINITY_SECONDS } };
  }
}

function defaultPorts(spec: ServiceSpec): void {
  for (const port of listOf(spec.ports)) {
    if (!port.protocol) port.protocol = 'TCP';
    if ((port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') && port.port !== undefined) {
      port.targetPort = port.port;
    }
  }
}

function defaultTrafficPolicies(spec: ServiceSpec): void {
  if (externallyAccessible(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy == null && INTERNAL_TRAFFIC_TYPES.includes(spec.type ?? '')) spec.internalTrafficPolicy = 'Cluster';
}

function defaultLoadBalancer(svc: Service, spec: ServiceSpec): void {
  if (spec.type !== 'LoadBalancer') return;
  if (spec.allocateLoadBalancerNodePorts == null) spec.allocateLoadBalancerNodePorts = true;
  for (const ingress of listOf(svc.status?.loadBalancer?.ingress)) {
    if (ingress.ip && !ingress.ipMode) ingress.ipMode = 'VIP';
  }
}

export function defaultService(svc: Service): void {
  const spec = ensureRecord<ServiceSpec>(svc, SPEC);
  defaultSessionAffinity(spec);
  if (!spec.type) spec.type = 'ClusterIP';
  defaultPorts(spec);
  defaultTrafficPolicies(spec);
  defaultLoadBalancer(svc, spec);
}

// ---------------------------------------------------------------------------
// Create / update preparation
// ---------------------------------------------------------------------------

const sameClusterIPs = (a: ServiceSpec, b: ServiceSpec): boolean => semanticEqual(a.clusterIPs, b.clusterIPs);

/** NormalizeClusterIPs: keep clusterIP and clusterIPs in step when a client only manages the singular field. */
function normalizeClusterIPs(spec: ServiceSpec, old: ServiceSpec | undefined): void {
  const ips = listOf(spec.clusterIPs);
  if (!old) {
    if (spec.clusterIP && ips.length === 0) spec.clusterIPs = [spec.clusterIP];
    return;
  }
  if (old.clusterIP && !spec.clusterIP && sameClusterIPs(old, spec)) {
    delete spec.clusterIPs;
    return;
  }
  if (spec.clusterIP && spec.clusterIP !== old.clusterIP && sameClusterIPs(old, spec)) spec.clusterIPs = [spec.clusterIP];
  else if (spec.clusterIP && ips.length === 0) spec.clusterIPs = [spec.clusterIP];
}

/** patchAllocatedValues: an update that omits allocated values keeps them. */
function patchAllocatedValues(spec: ServiceSpec, old: ServiceSpec): void {
  if (needsClusterIP(old) && needsClusterIP(spec)) {
    if (!spec.clusterIP && old.clusterIP) spec.clusterIP = old.clusterIP;
    if (listOf(spec.clusterIPs).length === 0 && listOf(old.clusterIPs).length > 0) spec.clusterIPs = [...listOf(old.clusterIPs)];
  }
  if (needsNodePort(old) && needsNodePort(spec)) patchNodePorts(spec, old);
  if (needsHealthCheck(old) && needsHealthCheck(spec) && !spec.healthCheckNodePort && old.healthCheckNodePort) {
    spec.healthCheckNodePort = old.healthCheckNodePort;
  }
}

/** Missing node ports are taken from the old port of the same name, unless another port still uses them. */
function patchNodePorts(spec: ServiceSpec, old: ServiceSpec): void {
  const nodePorts = (s: ServiceSpec): Set<number> => new Set(listOf(s.ports).map((p) => p.nodePort ?? 0).filter((n) => n > 0));
  const newPorts = nodePorts(spec);
  const used = new Set([...nodePorts(old)].filter((n) => newPorts.has(n)));
  const byName = new Map(listOf(old.ports).map((p) => [p.name ?? '', p.nodePort ?? 0]));
  for (const port of listOf(spec.ports)) {
    const previous = byName.get(port.name ?? '') ?? 0;
    if (!port.nodePort && previous > 0 && !used.has(previous)) port.nodePort = previous;
  }
}

/** dropTypeDependentFields: a type change wipes the fields the old type needed, unless the client changed them too. */
function dropTypeDependentFields(svc: Service, spec: ServiceSpec, old: ServiceSpec): void {
  if (needsClusterIP(old) && !needsClusterIP(spec)) {
    if (sameClusterIPs(old, spec)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (semanticEqual(old.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
    if (semanticEqual(old.ipFamilyPolicy, spec.ipFamilyPolicy)) delete spec.ipFamilyPolicy;
  }
  const sameNodePorts = semanticEqual(listOf(old.ports).map((p) => p.nodePort), listOf(spec.ports).map((p) => p.nodePort));
  if (needsNodePort(old) && !needsNodePort(spec) && sameNodePorts) listOf(spec.ports).forEach((p) => delete p.nodePort);
  if (needsHealthCheck(old) && !needsHealthCheck(spec) && old.healthCheckNodePort === spec.healthCheckNodePort) delete spec.healthCheckNodePort;
  dropLoadBalancerFields(spec, old);
  if (externallyAccessible(old) && !externallyAccessible(spec) && old.externalTrafficPolicy === spec.externalTrafficPolicy) {
    delete spec.externalTrafficPolicy;
  }
  if (spec.type !== 'LoadBalancer' && svc.status) svc.status.loadBalancer = {};
}

function dropLoadBalancerFields(spec: ServiceSpec, old: ServiceSpec): void {
  if (old.type !== 'LoadBalancer' || spec.type === 'LoadBalancer') return;
  if (spec.allocateLoadBalancerNodePorts != null && spec.allocateLoadBalancerNodePorts === old.allocateLoadBalancerNodePorts) {
    delete spec.allocateLoadBalancerNodePorts;
  }
  if (semanticEqual(old.loadBalancerClass, spec.loadBalancerClass)) delete spec.loadBalancerClass;
}

/** initIPFamilyFields for a single-stack IPv4 cluster. */
function initIPFamilyFields(spec: ServiceSpec, old: ServiceSpec | undefined): void {
  if (spec.type === 'ExternalName') return;
  if (spec.ipFamilyPolicy == null) {
    if (old?.ipFamilyPolicy) spec.ipFamilyPolicy = old.ipFamilyPolicy;
    else spec.ipFamilyPolicy = isHeadlessSelectorless(spec) ? 'RequireDualStack' : 'SingleStack';
  }
  if (old && spec.ipFamilyPolicy === 'SingleStack') releaseSecondaries(spec, old);
  // kube stops here with an error for an IP of a family this cluster lacks (reported by validateSingleStack).
  if (listOf(spec.clusterIPs).some((ip) => ip !== CLUSTER_IP_NONE && familyOf(ip) !== CLUSTER_IP_FAMILY)) return;
  const families = [...listOf(spec.ipFamilies)];
  for (const [i, ip] of listOf(spec.clusterIPs).entries()) {
    if (ip === CLUSTER_IP_NONE) break;
    if (i >= families.length) families.push(familyOf(ip));
  }
  if (families.length === 0) families.push(CLUSTER_IP_FAMILY);
  if (isHeadlessSelectorless(spec) && families.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') {
    families.push(families[0] === 'IPv4' ? 'IPv6' : 'IPv4');
  }
  spec.ipFamilies = families;
}

/** Setting SingleStack on an unchanged dual-stack service is a request to drop the secondary IP and family. */
function releaseSecondaries(spec: ServiceSpec, old: ServiceSpec): void {
  if (sameClusterIPs(old, spec) && listOf(spec.clusterIPs).length > 1) spec.clusterIPs = listOf(spec.clusterIPs).slice(0, 1);
  if (semanticEqual(old.ipFamilies, spec.ipFamilies) && listOf(spec.ipFamilies).length > 1) spec.ipFamilies = listOf(spec.ipFamilies).slice(0, 1);
}

export function prepareServiceForCreate(svc: Service): void {
  const spec = ensureRecord<ServiceSpec>(svc, SPEC);
  svc.status = { loadBalancer: {} };
  normalizeClusterIPs(spec, undefined);
  initIPFamilyFields(spec, undefined);
}

export function prepareServiceForUpdate(svc: Service, old: Service): void {
  const spec = ensureRecord<ServiceSpec>(svc, SPEC);
  const oldSpec = specOf(old);
  svc.status = deepCopy(old.status) ?? { loadBalancer: {} };
  patchAllocatedValues(spec, oldSpec);
  normalizeClusterIPs(spec, oldSpec);
  dropTypeDependentFields(svc, spec, oldSpec);
  initIPFamilyFields(spec, oldSpec);
}

// ---------------------------------------------------------------------------
// Validation (ValidateService)
// ---------------------------------------------------------------------------

function validatePortsPresence(spec: ServiceSpec): FieldError[] {
  const missing = listOf(spec.ports).length === 0 && !isHeadless(spec) && spec.type !== 'ExternalName';
  return missing ? [FieldError.required(specPath('ports'))] : [];
}

function validateTypeSpecifics(spec: ServiceSpec): FieldError[] {
  const firstIP = index(specPath('clusterIPs'), 0);
  switch (spec.type) {
    case 'LoadBalancer':
    case 'NodePort':
      return isHeadless(spec) ? [FieldError.invalid(firstIP, listOf(spec.clusterIPs)[0], `may not be set to 'None' for ${spec.type} services`)] : [];
    case 'ExternalName':
      return validateExternalName(spec);
    default:
      return [];
  }
}

function validateExternalName(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const forbidden = 'may not be set for ExternalName services';
  if (listOf(spec.clusterIPs).length > 0) errs.push(FieldError.forbidden(specPath('clusterIPs'), forbidden));
  if (listOf(spec.ipFamilies).length > 0) errs.push(FieldError.forbidden(specPath('ipFamilies'), forbidden));
  if (spec.ipFamilyPolicy != null) errs.push(FieldError.forbidden(specPath('ipFamilyPolicy'), forbidden));
  const cname = (spec.externalName ?? '').replace(/\.$/, '');
  if (cname) errs.push(...validateDNS1123Subdomain(cname, specPath('externalName')));
  else errs.push(FieldError.required(specPath('externalName')));
  return errs;
}

function validateServicePort(port: ServicePort, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (requireName && !port.name) errs.push(FieldError.required(child(path, 'name')));
  else if (port.name) {
    errs.push(...validateDNS1123Label(port.name, child(path, 'name')));
    if (names.has(port.name)) errs.push(FieldError.duplicate(child(path, 'name'), port.name));
    names.add(port.name);
  }
  errs.push(...invalidEach(child(path, 'port'), port.port ?? 0, isValidPortNum(port.port)));
  errs.push(...validateEnum(port.protocol, child(path, 'protocol'), PORT_PROTOCOLS));
  errs.push(...validatePortNumOrName(port.targetPort ?? 0, child(path, 'targetPort')));
  if (port.appProtocol !== undefined) errs.push(...validateQualifiedName(port.appProtocol, child(path, 'appProtocol')));
  return errs;
}

function validatePorts(spec: ServiceSpec): FieldError[] {
  const ports = listOf(spec.ports);
  const names = new Set<string>();
  return ports.flatMap((p, i) => validateServicePort(p, ports.length > 1, names, index(specPath('ports'), i)));
}

function validateSessionAffinity(spec: ServiceSpec): FieldError[] {
  const errs = validateEnum(spec.sessionAffinity, specPath('sessionAffinity'), SESSION_AFFINITIES);
  const configPath = specPath('sessionAffinityConfig');
  if (spec.sessionAffinity === 'None' && spec.sessionAffinityConfig != null) {
    errs.push(FieldError.forbidden(configPath, 'must not be set when session affinity is None'));
  }
  if (spec.sessionAffinity === 'ClientIP') errs.push(...validateClientIPAffinity(spec, configPath));
  return errs;
}

function validateClientIPAffinity(spec: ServiceSpec, configPath: string): FieldError[] {
  const when = 'when session affinity type is ClientIP';
  const config = spec.sessionAffinityConfig;
  if (config == null) return [FieldError.required(configPath, when)];
  const clientIPPath = child(configPath, 'clientIP');
  if (config.clientIP == null) return [FieldError.required(clientIPPath, when)];
  const timeoutPath = child(clientIPPath, 'timeoutSeconds');
  const timeout = config.clientIP.timeoutSeconds;
  if (timeout == null) return [FieldError.required(timeoutPath, when)];
  const ok = timeout > 0 && timeout <= MAX_CLIENT_IP_AFFINITY_SECONDS;
  return ok ? [] : [FieldError.invalid(timeoutPath, timeout, `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`)];
}

/** ValidateServiceClusterIPsRelatedFields. */
function validateClusterIPsRelatedFields(spec: ServiceSpec): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errs = [...validateClusterIPSync(spec), ...validateIPFamilies(spec)];
  const ips = listOf(spec.clusterIPs);
  const ipErrors = validateClusterIPValues(ips);
  errs.push(...ipErrors);
  if (ips.length > 2) errs.push(FieldError.invalid(specPath('clusterIPs'), ips, 'may only hold up to 2 values'));
  if (ipErrors.length > 0) return errs;
  if (ips.length > 1 && !isDualStack(ips)) {
    errs.push(FieldError.invalid(specPath('clusterIPs'), ips, 'may specify no more than one IP for each IP family'));
  }
  return [...errs, ...validateIPsMatchFamilies(spec)];
}

function validateClusterIPSync(spec: ServiceSpec): FieldError[] {
  const ips = listOf(spec.clusterIPs);
  const path = specPath('clusterIPs');
  if (spec.clusterIP) {
    if (ips.length === 0) return [FieldError.required(path)];
    return ips[0] === spec.clusterIP ? [] : [FieldError.invalid(path, ips, 'first value must match `clusterIP`')];
  }
  return ips.length === 0 ? [] : [FieldError.invalid(path, ips, 'must be empty when `clusterIP` is not specified')];
}

function validateIPFamilies(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, family] of listOf(spec.ipFamilies).entries()) {
    const path = index(specPath('ipFamilies'), i);
    if (!IP_FAMILIES.includes(family)) errs.push(notSupported(path, family, IP_FAMILIES));
    if (seen.has(family)) errs.push(FieldError.duplicate(path, family));
    seen.add(family);
  }
  if (spec.ipFamilyPolicy != null && !IP_FAMILY_POLICIES.includes(spec.ipFamilyPolicy)) {
    errs.push(notSupported(specPath('ipFamilyPolicy'), spec.ipFamilyPolicy, IP_FAMILY_POLICIES));
  }
  return errs;
}

/** Each clusterIP is an IP address; "None" only as the first and only value. */
function validateClusterIPValues(ips: readonly string[]): FieldError[] {
  const path = specPath('clusterIPs');
  return ips.flatMap((ip, i) => {
    if (i === 0 && ip === CLUSTER_IP_NONE) {
      return ips.length > 1 ? [FieldError.invalid(path, ips, "'None' must be the first and only value")] : [];
    }
    return validateIP(index(path, i), ip);
  });
}

function isDualStack(ips: readonly string[]): boolean {
  const families = ips.map(familyOf);
  return families.includes('IPv4') && families.includes('IPv6');
}

function validateIPsMatchFamilies(spec: ServiceSpec): FieldError[] {
  if (isHeadless(spec)) return [];
  const families = listOf(spec.ipFamilies);
  return listOf(spec.clusterIPs).flatMap((ip, i) => {
    if (i >= families.length) return [];
    const mismatch = (families[i] === 'IPv4' && isIPv6(ip)) || (families[i] === 'IPv6' && !isIPv6(ip));
    const message = `expected an ${families[i]} value as indicated by \`ipFamilies[${i}]\``;
    return mismatch ? [FieldError.invalid(index(specPath('clusterIPs'), i), ip, message)] : [];
  });
}

/** What the allocator of a single-stack IPv4 cluster rejects (initIPFamilyFields' errors). */
function validateSingleStack(spec: ServiceSpec): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const policyPath = specPath('ipFamilyPolicy');
  const errs: FieldError[] = [];
  if (spec.ipFamilyPolicy === 'SingleStack') {
    const dual = 'must be \'RequireDualStack\' or \'PreferDualStack\' when multiple';
    if (listOf(spec.clusterIPs).length === 2) errs.push(FieldError.invalid(policyPath, spec.ipFamilyPolicy, `${dual} cluster IPs are specified`));
    if (listOf(spec.ipFamilies).length === 2) errs.push(FieldError.invalid(policyPath, spec.ipFamilyPolicy, `${dual} IP families are specified`));
  }
  if (errs.length > 0 || isHeadlessSelectorless(spec)) return errs;
  return [...validateConfiguredFamilies(spec), ...validateDualStackDemand(spec)];
}

function validateConfiguredFamilies(spec: ServiceSpec): FieldError[] {
  const ips = listOf(spec.clusterIPs);
  const ipErrors = ips.flatMap((ip, i) =>
    ip !== CLUSTER_IP_NONE && familyOf(ip) !== CLUSTER_IP_FAMILY
      ? [FieldError.invalid(index(specPath('clusterIPs'), i), ips, `${familyOf(ip)} is not configured on this cluster`)]
      : [],
  );
  if (ipErrors.length > 0) return ipErrors;
  return listOf(spec.ipFamilies).flatMap((family, i) =>
    family !== CLUSTER_IP_FAMILY ? [FieldError.invalid(index(specPath('ipFamilies'), i), family, 'not configured on this cluster')] : [],
  );
}

function validateDualStackDemand(spec: ServiceSpec): FieldError[] {
  return spec.ipFamilyPolicy === 'RequireDualStack'
    ? [FieldError.invalid(specPath('ipFamilyPolicy'), spec.ipFamilyPolicy, 'this cluster is not configured for dual-stack services')]
    : [];
}

function validateExternalIPs(spec: ServiceSpec): FieldError[] {
  return listOf(spec.externalIPs).flatMap((ip, i) => {
    const path = index(specPath('externalIPs'), i);
    const errs = validateIP(path, ip);
    return errs.length > 0 ? errs : validateNonSpecialIP(ip, path);
  });
}

function validateType(spec: ServiceSpec): FieldError[] {
  const errs = validateEnum(spec.type, specPath('type'), SERVICE_TYPES);
  if (spec.type === 'ClusterIP') {
    listOf(spec.ports).forEach((p, i) => {
      if (p.nodePort) errs.push(FieldError.forbidden(child(index(specPath('ports'), i), 'nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  return errs;
}

/** Node ports are unique per protocol, and so are ports. */
function validateDuplicatePorts(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const nodePorts = new Set<string>();
  const ports = new Set<string>();
  for (const [i, p] of listOf(spec.ports).entries()) {
    const path = index(specPath('ports'), i);
    const nodeKey = `${p.protocol}/${p.nodePort}`;
    if (p.nodePort && nodePorts.has(nodeKey)) errs.push(FieldError.duplicate(child(path, 'nodePort'), p.nodePort));
    if (p.nodePort) nodePorts.add(nodeKey);
    const portKey = `${p.protocol}/${p.port}`;
    if (ports.has(portKey)) errs.push(FieldError.duplicate(path, { protocol: p.protocol, port: p.port }));
    ports.add(portKey);
  }
  return errs;
}

const ONLY_LOAD_BALANCER = "may only be used when `type` is 'LoadBalancer'";

function validateLoadBalancerFields(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const ranges = listOf(spec.loadBalancerSourceRanges);
  // kube spells this path with a capital L.
  const rangesPath = specPath('LoadBalancerSourceRanges');
  if (ranges.length > 0 && spec.type !== 'LoadBalancer') errs.push(FieldError.forbidden(rangesPath, ONLY_LOAD_BALANCER));
  ranges.forEach((r, i) => errs.push(...validateCIDR(index(rangesPath, i), String(r).trim())));
  if (spec.allocateLoadBalancerNodePorts != null && spec.type !== 'LoadBalancer') {
    errs.push(FieldError.forbidden(specPath('allocateLoadBalancerNodePorts'), ONLY_LOAD_BALANCER));
  }
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts == null) {
    errs.push(FieldError.required('allocateLoadBalancerNodePorts'));
  }
  return [...errs, ...validateLoadBalancerClass(spec)];
}

function validateLoadBalancerClass(spec: ServiceSpec): FieldError[] {
  const path = specPath('loadBalancerClass');
  if (spec.loadBalancerClass == null) return [];
  return spec.type === 'LoadBalancer' ? validateQualifiedName(spec.loadBalancerClass, path) : [FieldError.forbidden(path, ONLY_LOAD_BALANCER)];
}

function validateExternalTrafficPolicy(spec: ServiceSpec): FieldError[] {
  const path = specPath('externalTrafficPolicy');
  const errs: FieldError[] = [];
  if (!externallyAccessible(spec)) {
    if (spec.externalTrafficPolicy) errs.push(FieldError.invalid(path, spec.externalTrafficPolicy, 'may only be set for externally-accessible services'));
  } else {
    errs.push(...validateEnum(spec.externalTrafficPolicy, path, TRAFFIC_POLICIES));
  }
  const hcPath = specPath('healthCheckNodePort');
  const hc = spec.healthCheckNodePort;
  if (!needsHealthCheck(spec) && hc) {
    errs.push(FieldError.invalid(hcPath, hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  }
  // A missing health check node port is the allocator's job, not a validation error here.
  if (needsHealthCheck(spec) && hc) errs.push(...invalidEach(hcPath, hc, isValidPortNum(hc)));
  return errs;
}

function validateInternalTraffic(spec: ServiceSpec): FieldError[] {
  const path = specPath('internalTrafficPolicy');
  const policy = spec.internalTrafficPolicy;
  if (policy == null) return INTERNAL_TRAFFIC_TYPES.includes(spec.type ?? '') ? [FieldError.required(path)] : [];
  return TRAFFIC_POLICIES.includes(policy) ? [] : [notSupported(path, policy, TRAFFIC_POLICIES)];
}

function validateTrafficDistribution(spec: ServiceSpec): FieldError[] {
  const value = spec.trafficDistribution;
  return value == null || TRAFFIC_DISTRIBUTIONS.includes(value) ? [] : [notSupported(specPath('trafficDistribution'), value, TRAFFIC_DISTRIBUTIONS)];
}

export function validateService(svc: Service): FieldError[] {
  const spec = specOf(svc);
  return [
    ...validateStricterName(svc.metadata.name, isDNS1035Label),
    ...validatePortsPresence(spec),
    ...validateTypeSpecifics(spec),
    ...validatePorts(spec),
    ...validateLabels(spec.selector, specPath('selector')),
    ...validateSessionAffinity(spec),
    ...validateClusterIPsRelatedFields(spec),
    ...validateExternalIPs(spec),
    ...validateType(spec),
    ...validateDuplicatePorts(spec),
    ...validateLoadBalancerFields(spec),
    ...validateExternalTrafficPolicy(spec),
    ...validateInternalTraffic(spec),
    ...validateTrafficDistribution(spec),
    ...validateSingleStack(spec),
  ];
}

// ---------------------------------------------------------------------------
// Update validation (ValidateServiceUpdate)
// ---------------------------------------------------------------------------

const MAY_NOT_CHANGE = 'may not change once set';

/** validateUpgradeDowngradeClusterIPs: the primary cluster IP never changes. */
function validateClusterIPsUpdate(spec: ServiceSpec, old: ServiceSpec): FieldError[] {
  if (spec.type === 'ExternalName' || old.type === 'ExternalName') return [];
  if (isHeadless(old) && isHeadless(spec)) return [];
  const ips = listOf(spec.clusterIPs);
  const oldIPs = listOf(old.clusterIPs);
  const at = (i: number): string => index(specPath('clusterIPs'), i);
  if (oldIPs.length === ips.length) {
    return oldIPs.flatMap((ip, i) => (ip !== ips[i] ? [FieldError.invalid(at(i), ips, MAY_NOT_CHANGE)] : []));
  }
  const errs: FieldError[] = [];
  const released = oldIPs.length > ips.length;
  if (released && ips.length === 0) errs.push(FieldError.invalid(at(0), ips, 'primary clusterIP can not be unset'));
  if (oldIPs.length > 0 && ips.length > 0 && ips[0] !== oldIPs[0]) errs.push(FieldError.invalid(at(0), ips, MAY_NOT_CHANGE));
  if (released && ips.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
    errs.push(FieldError.invalid(specPath('ipFamilyPolicy'), spec.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
  }
  return errs;
}

/** validateUpgradeDowngradeIPFamilies: the primary family never changes (headless services excepted). */
function validateIPFamiliesUpdate(spec: ServiceSpec, old: ServiceSpec): FieldError[] {
  if (spec.type === 'ExternalName' || old.type === 'ExternalName' || isHeadless(spec) || isHeadless(old)) return [];
  const families = listOf(spec.ipFamilies);
  const oldFamilies = listOf(old.ipFamilies);
  const first = index(specPath('ipFamilies'), 0);
  if (oldFamilies.length === families.length) {
    return oldFamilies.some((f, i) => f !== families[i]) ? [FieldError.invalid(first, families, MAY_NOT_CHANGE)] : [];
  }
  const errs: FieldError[] = [];
  if (oldFamilies.length > families.length && listOf(spec.clusterIPs).length === 0) {
    errs.push(FieldError.invalid(first, families, 'primary ipFamily can not be unset'));
  }
  if (oldFamilies.length > 0 && families.length > 0 && families[0] !== oldFamilies[0]) {
    errs.push(FieldError.invalid(first, listOf(spec.clusterIPs), MAY_NOT_CHANGE));
  }
  if (oldFamilies.length > families.length && families.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
    errs.push(FieldError.invalid(specPath('ipFamilyPolicy'), spec.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
  }
  return errs;
}

function validateImmutableLoadBalancing(spec: ServiceSpec, old: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const bothLoadBalancers = spec.type === 'LoadBalancer' && old.type === 'LoadBalancer';
  if (bothLoadBalancers && (spec.loadBalancerClass ?? null) !== (old.loadBalancerClass ?? null)) {
    errs.push(FieldError.invalid(specPath('loadBalancerClass'), spec.loadBalancerClass ?? null, MAY_NOT_CHANGE));
  }
  if (needsHealthCheck(spec) && needsHealthCheck(old) && spec.healthCheckNodePort !== old.healthCheckNodePort) {
    errs.push(FieldError.forbidden(specPath('healthCheckNodePort'), 'field is immutable'));
  }
  return errs;
}

export function validateServiceUpdate(svc: Service, old: Service): FieldError[] {
  const spec = specOf(svc);
  const oldSpec = specOf(old);
  return [
    ...validateClusterIPsUpdate(spec, oldSpec),
    ...validateIPFamiliesUpdate(spec, oldSpec),
    ...validateImmutableLoadBalancing(spec, oldSpec),
    ...validateService(svc),
  ];
}

// ---------------------------------------------------------------------------
// Printing (printService)
// ---------------------------------------------------------------------------

/** loadBalancerStatusStringer as the server prints it (wide: never clipped): sorted unique IPs or hostnames. */
function loadBalancerAddresses(svc: Service): string[] {
  const addresses = listOf(svc.status?.loadBalancer?.ingress)
    .map((ing) => ing.ip || ing.hostname || '')
    .filter((a) => a !== '');
  return [...new Set(addresses)].sort();
}

export function serviceExternalIP(svc: Service): string {
  const spec = specOf(svc);
  const externalIPs = listOf(spec.externalIPs);
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : NONE;
    case 'LoadBalancer': {
      const all = [...loadBalancerAddresses(svc), ...externalIPs];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return spec.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/** makePortString: "80/TCP", "80:30080/TCP" with a node port, comma-joined. */
export function servicePorts(svc: Service): string {
  const pieces = listOf(specOf(svc).ports).map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`));
  return pieces.length > 0 ? pieces.join(',') : NONE;
}

export const serviceStrategy: ResourceStrategy = {
  default: (obj: KubeObject) => defaultService(asService(obj)),
  prepareForCreate: (obj: KubeObject) => prepareServiceForCreate(asService(obj)),
  prepareForUpdate: (obj: KubeObject, old: KubeObject) => prepareServiceForUpdate(asService(obj), asService(old)),
  validate: (obj: KubeObject) => validateService(asService(obj)),
  validateUpdate: (obj: KubeObject, old: KubeObject) => validateServiceUpdate(asService(obj), asService(old)),
  fields: (obj: KubeObject) => ({ 'spec.clusterIP': specOf(asService(obj)).clusterIP ?? '', 'spec.type': specOf(asService(obj)).type ?? '' }),
  unknownFieldLabel: fieldLabelNotSupported,
};

export const servicesResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Service',
  plural: 'services',
  singular: 'service',
  shortNames: ['svc'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: statusSubresource() },
  strategy: serviceStrategy,
  tableColumns: [
    {
      name: 'Type',
      type: 'string',
      description: 'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer.',
      cell: (obj: KubeObject) => specOf(asService(obj)).type ?? '',
    },
    {
      name: 'Cluster-IP',
      type: 'string',
      description: 'clusterIP is the IP address of the service and is usually assigned randomly.',
      cell: (obj: KubeObject) => listOf(specOf(asService(obj)).clusterIPs)[0] ?? NONE,
    },
    {
      name: 'External-IP',
      type: 'string',
      description: 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.',
      cell: (obj: KubeObject) => serviceExternalIP(asService(obj)),
    },
    {
      name: 'Port(s)',
      type: 'string',
      description: 'The list of ports that are exposed by this service.',
      cell: (obj: KubeObject) => servicePorts(asService(obj)),
    },
    ageColumn,
    {
      name: 'Selector',
      type: 'string',
      priority: 1,
      description: 'Route service traffic to pods with label keys and values matching this selector.',
      cell: (obj: KubeObject) => formatLabels(specOf(asService(obj)).selector),
    },
  ],
};
