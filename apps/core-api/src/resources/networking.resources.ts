/**
 * networking.k8s.io/v1 Ingress, IngressClass and NetworkPolicy: kube's defaults (pkg/apis/networking/v1),
 * validation (pkg/apis/networking/validation) and printers. Stored objects only: no ingress controller or
 * network plugin acts on them.
 */
import { FieldError, isDNS1123Subdomain, validateLabelSelector, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import { statusSubresource, type ResourceDefinition } from '@kube/apiserver';
import { column, formatLabelSelector } from './cluster.helpers';
import { NONE } from './table.helpers';
import { child, index, invalidEach, isRecord, isValidPortName, isValidPortNum, listOf, parseIP, validateCIDR, validateDNS1123Label, validateEnum, validateImmutableField } from './validation.helpers';

const GROUP = 'networking.k8s.io';

// ---------------------------------------------------------------------------
// Ingress
// ---------------------------------------------------------------------------

interface IngressBackend {
  service?: { name?: string; port?: { name?: string; number?: number } };
  resource?: { apiGroup?: string | null; kind?: string; name?: string };
}

interface IngressRule {
  host?: string;
  http?: { paths?: { path?: string; pathType?: string; backend?: IngressBackend }[] };
}

export interface Ingress extends KubeObject {
  spec?: { ingressClassName?: string | null; defaultBackend?: IngressBackend | null; rules?: IngressRule[]; tls?: { hosts?: string[]; secretName?: string }[] };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];
const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

function validateBackend(backend: IngressBackend, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const { service, resource } = backend;
  if (resource && service) return [FieldError.invalid(path, '', 'cannot set both resource and service backends')];
  if (resource) {
    if (!resource.kind) errs.push(FieldError.required(child(child(path, 'resource'), 'kind')));
    if (!resource.name) errs.push(FieldError.required(child(child(path, 'resource'), 'name')));
    return errs;
  }
  if (!service) return [FieldError.invalid(path, '', 'resource or service backend is required')];
  if (!service.name) errs.push(FieldError.required(`${path}.service.name`));
  else errs.push(...validateDNS1123Label(service.name, `${path}.service.name`));
  const port = service.port ?? {};
  if (port.name && port.number) errs.push(FieldError.invalid(path, '', 'cannot set both port name & port number'));
  else if (port.name) errs.push(...invalidEach(`${path}.service.port.name`, port.name, isValidPortName(port.name)));
  else if (port.number) errs.push(...invalidEach(`${path}.service.port.number`, port.number, isValidPortNum(port.number)));
  else errs.push(FieldError.required(path, 'port name or number is required'));
  return errs;
}

function validateIngressPath(p: NonNullable<NonNullable<IngressRule['http']>['paths']>[number], path: string): FieldError[] {
  if (!p.pathType) return [FieldError.required(child(path, 'pathType'), 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = p.path ?? '';
  if (p.pathType === 'Exact' || p.pathType === 'Prefix') {
    if (!value.startsWith('/')) errs.push(FieldError.invalid(child(path, 'path'), value, 'must be an absolute path'));
    if (value) {
      for (const seq of INVALID_PATH_SEQUENCES) if (value.includes(seq)) errs.push(FieldError.invalid(child(path, 'path'), value, `must not contain '${seq}'`));
      for (const suffix of INVALID_PATH_SUFFIXES) if (value.endsWith(suffix)) errs.push(FieldError.invalid(child(path, 'path'), value, `cannot end with '${suffix}'`));
    }
  } else if (p.pathType === 'ImplementationSpecific') {
    if (value && !value.startsWith('/')) errs.push(FieldError.invalid(child(path, 'path'), value, 'must be an absolute path'));
  } else {
    errs.push(FieldError.notSupported(child(path, 'pathType'), p.pathType, PATH_TYPES));
  }
  errs.push(...validateBackend(p.backend ?? {}, child(path, 'backend')));
  return errs;
}

function validateHost(host: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (parseIP(host)) errs.push(FieldError.invalid(path, host, 'must be a DNS name, not an IP address'));
  const name = host.startsWith('*.') ? host.slice(2) : host;
  if (host.includes('*') && !host.startsWith('*.')) {
    errs.push(FieldError.invalid(path, host, "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
  } else {
    errs.push(...invalidEach(path, host, isDNS1123Subdomain(name)));
  }
  return errs;
}

/** ValidateIngressCreate / ValidateIngressSpec. */
export function validateIngress(ing: Ingress): FieldError[] {
  const spec = isRecord(ing.spec) ? ing.spec : {};
  const errs: FieldError[] = [];
  const rules = listOf(spec.rules);
  if (rules.length === 0 && !spec.defaultBackend) errs.push(FieldError.invalid('spec', rules, 'either `defaultBackend` or `rules` must be specified'));
  if (spec.defaultBackend) errs.push(...validateBackend(spec.defaultBackend, 'spec.defaultBackend'));
  rules.forEach((rule, i) => {
    const path = index('spec.rules', i);
    if (rule.host) errs.push(...validateHost(rule.host, child(path, 'host')));
    if (rule.http) {
      const paths = listOf(rule.http.paths);
      if (paths.length === 0) errs.push(FieldError.required(`${path}.http.paths`));
      paths.forEach((p, j) => errs.push(...validateIngressPath(p, index(`${path}.http.paths`, j))));
    }
  });
  listOf(spec.tls).forEach((tls, i) => {
    listOf(tls.hosts).forEach((h, j) => errs.push(...validateHost(h, index(`${index('spec.tls', i)}.hosts`, j))));
    if (tls.secretName) errs.push(...invalidEach(`${index('spec.tls', i)}.secretName`, tls.secretName, isDNS1123Subdomain(tls.secretName)));
  });
  if (spec.ingressClassName) errs.push(...invalidEach('spec.ingressClassName', spec.ingressClassName, isDNS1123Subdomain(spec.ingressClassName)));
  const annotation = ing.metadata.annotations?.[INGRESS_CLASS_ANNOTATION];
  if (annotation !== undefined && spec.ingressClassName && annotation !== spec.ingressClassName) {
    errs.push(FieldError.invalid(`annotations.${INGRESS_CLASS_ANNOTATION}`, annotation, 'must match `ingressClassName` when both are specified'));
  }
  return errs;
}

/** formatHosts: at most three hosts, "*" when none. */
function ingressHosts(rules: readonly IngressRule[]): string {
  const max = 3;
  const hosts = rules.slice(0, max).map((r) => r.host).filter((h): h is string => !!h);
  if (hosts.length === 0) return '*';
  return rules.length > max ? `${hosts.join(',')} + ${rules.length - max} more...` : hosts.join(',');
}

/** ingressLoadBalancerStatusStringer, not wide: IPs and hostnames, cut at 16 characters. */
function ingressAddress(ing: Ingress): string {
  const text = listOf(ing.status?.loadBalancer?.ingress).flatMap((i) => [i.ip, i.hostname].filter((v): v is string => !!v)).join(',');
  return text.length > 16 ? `${text.slice(0, 13)}...` : text;
}

export const ingressesResource: ResourceDefinition = {
  tracksGeneration: true,
  group: GROUP,
  version: 'v1',
  kind: 'Ingress',
  plural: 'ingresses',
  singular: 'ingress',
  shortNames: ['ing'],
  namespaced: true,
  subresources: { status: statusSubresource() },
  strategy: {
    allowCreateOnUpdate: false,
    validate: (obj) => validateIngress(obj as Ingress),
    validateUpdate: (obj) => validateIngress(obj as Ingress).filter((e) => !e.field.startsWith('annotations.')),
  },
  tableColumns: [
    column<Ingress>('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration', (i) => i.spec?.ingressClassName ?? NONE),
    column<Ingress>('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule', (i) => ingressHosts(listOf(i.spec?.rules))),
    column<Ingress>('Address', 'string', 'Address is a list containing ingress points for the load-balancer', ingressAddress),
    column<Ingress>('Ports', 'string', 'Ports of TLS configurations that open', (i) => (listOf(i.spec?.tls).length ? '80, 443' : '80')),
  ],
};

// ---------------------------------------------------------------------------
// IngressClass
// ---------------------------------------------------------------------------

export interface IngressClass extends KubeObject {
  spec?: { controller?: string; parameters?: { apiGroup?: string | null; kind?: string; name?: string; scope?: string; namespace?: string } | null };
}

const MAX_CONTROLLER_LENGTH = 250;

/** ValidateIngressClass. */
export function validateIngressClass(ic: IngressClass): FieldError[] {
  const spec = ic.spec ?? {};
  const errs: FieldError[] = [];
  const controller = spec.controller ?? '';
  if (!controller) errs.push(FieldError.required('spec.controller'));
  else {
    if (controller.length > MAX_CONTROLLER_LENGTH) errs.push(FieldError.tooLong('spec.controller', '', MAX_CONTROLLER_LENGTH));
    const slash = controller.indexOf('/');
    const domain = slash < 0 ? controller : controller.slice(0, slash);
    if (slash < 0) errs.push(FieldError.invalid('spec.controller', controller, 'must be a domain-prefixed path (such as "acme.io/foo")'));
    else errs.push(...invalidEach('spec.controller', domain, isDNS1123Subdomain(domain)));
  }
  const params = spec.parameters;
  if (params) {
    if (!params.kind) errs.push(FieldError.required('spec.parameters.kind'));
    if (!params.name) errs.push(FieldError.required('spec.parameters.name'));
    if (params.scope !== undefined) errs.push(...validateEnum(params.scope, 'spec.parameters.scope', ['Cluster', 'Namespace']));
    if (params.scope === 'Namespace' && !params.namespace) errs.push(FieldError.required('spec.parameters.namespace', '`parameters.scope` is set to \'Namespace\''));
    if (params.scope === 'Cluster' && params.namespace) errs.push(FieldError.forbidden('spec.parameters.namespace', '`parameters.scope` is set to \'Cluster\''));
  }
  return errs;
}

export const ingressClassesResource: ResourceDefinition = {
  tracksGeneration: true,
  group: GROUP,
  version: 'v1',
  kind: 'IngressClass',
  plural: 'ingressclasses',
  singular: 'ingressclass',
  namespaced: false,
  strategy: {
    allowCreateOnUpdate: false,
    default: (obj) => {
      const params = (obj as IngressClass).spec?.parameters;
      if (params?.kind && !params.scope) params.scope = 'Cluster';
    },
    validate: (obj) => validateIngressClass(obj as IngressClass),
    validateUpdate: (obj, old) => [...validateImmutableField((obj as IngressClass).spec?.controller, (old as IngressClass).spec?.controller, 'spec.controller'), ...validateIngressClass(obj as IngressClass)],
  },
  tableColumns: [
    column<IngressClass>('Controller', 'string', 'Controller that is responsible for handling this class', (ic) => ic.spec?.controller ?? ''),
    column<IngressClass>('Parameters', 'string', 'A reference to a resource with additional parameters', (ic) => {
      const p = ic.spec?.parameters;
      return p ? `${p.kind ?? ''}${p.apiGroup ? `.${p.apiGroup}` : ''}/${p.name ?? ''}` : NONE;
    }),
  ],
};

// ---------------------------------------------------------------------------
// NetworkPolicy
// ---------------------------------------------------------------------------

interface NetworkPolicyPort {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}

interface NetworkPolicyPeer {
  podSelector?: MetaV1LabelSelector | null;
  namespaceSelector?: MetaV1LabelSelector | null;
  ipBlock?: { cidr?: string; except?: string[] } | null;
}

export interface NetworkPolicy extends KubeObject {
  spec?: {
    podSelector?: MetaV1LabelSelector;
    ingress?: { ports?: NetworkPolicyPort[]; from?: NetworkPolicyPeer[] }[];
    egress?: { ports?: NetworkPolicyPort[]; to?: NetworkPolicyPeer[] }[];
    policyTypes?: string[];
  };
}

const POLICY_TYPES = ['Ingress', 'Egress'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** SetDefaults_NetworkPolicyPort and SetDefaults_NetworkPolicy. */
export function defaultNetworkPolicy(np: NetworkPolicy): void {
  const spec = (np.spec ??= {});
  spec.podSelector ??= {};
  for (const rule of [...listOf(spec.ingress), ...listOf(spec.egress)]) for (const port of listOf(rule.ports)) port.protocol ??= 'TCP';
  if (!listOf(spec.policyTypes).length) spec.policyTypes = listOf(spec.egress).length ? ['Ingress', 'Egress'] : ['Ingress'];
}

function validatePorts(ports: readonly NetworkPolicyPort[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  ports.forEach((port, i) => {
    const p = index(path, i);
    if (port.protocol !== undefined) errs.push(...validateEnum(port.protocol, child(p, 'protocol'), PROTOCOLS));
    if (typeof port.port === 'number') {
      errs.push(...invalidEach(child(p, 'port'), port.port, isValidPortNum(port.port)));
      if (port.endPort !== undefined) {
        if (port.endPort < port.port) errs.push(FieldError.invalid(child(p, 'endPort'), port.endPort, 'must be greater than or equal to `port`'));
        errs.push(...invalidEach(child(p, 'endPort'), port.endPort, isValidPortNum(port.endPort)));
      }
    } else if (typeof port.port === 'string') {
      if (port.endPort !== undefined) errs.push(FieldError.invalid(child(p, 'endPort'), port.endPort, 'may not be specified when `port` is non-numeric'));
      errs.push(...invalidEach(child(p, 'port'), port.port, isValidPortName(port.port)));
    } else if (port.endPort !== undefined) {
      errs.push(FieldError.invalid(child(p, 'endPort'), port.endPort, 'may not be specified when `port` is not specified'));
    }
  });
  return errs;
}

function validatePeers(peers: readonly NetworkPolicyPeer[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  peers.forEach((peer, i) => {
    const p = index(path, i);
    const set = [peer.podSelector, peer.namespaceSelector, peer.ipBlock].filter((v) => v != null).length;
    if (peer.podSelector) errs.push(...validateLabelSelector(peer.podSelector, child(p, 'podSelector')));
    if (peer.namespaceSelector) errs.push(...validateLabelSelector(peer.namespaceSelector, child(p, 'namespaceSelector')));
    if (peer.ipBlock) {
      if (!peer.ipBlock.cidr) errs.push(FieldError.required(`${p}.ipBlock.cidr`));
      else errs.push(...validateCIDR(`${p}.ipBlock.cidr`, peer.ipBlock.cidr));
      listOf(peer.ipBlock.except).forEach((e, j) => errs.push(...validateCIDR(index(`${p}.ipBlock.except`, j), e)));
    }
    if (set === 0) errs.push(FieldError.required(p, 'must specify a peer'));
    else if (set > 1 && peer.ipBlock) errs.push(FieldError.forbidden(p, 'may not specify both ipBlock and another peer'));
  });
  return errs;
}

/** ValidateNetworkPolicy. */
export function validateNetworkPolicy(np: NetworkPolicy): FieldError[] {
  const spec = np.spec ?? {};
  const errs = [...validateLabelSelector(spec.podSelector, 'spec.podSelector')];
  listOf(spec.ingress).forEach((rule, i) => {
    errs.push(...validatePorts(listOf(rule.ports), `${index('spec.ingress', i)}.ports`));
    errs.push(...validatePeers(listOf(rule.from), `${index('spec.ingress', i)}.from`));
  });
  listOf(spec.egress).forEach((rule, i) => {
    errs.push(...validatePorts(listOf(rule.ports), `${index('spec.egress', i)}.ports`));
    errs.push(...validatePeers(listOf(rule.to), `${index('spec.egress', i)}.to`));
  });
  const types = listOf(spec.policyTypes);
  if (types.length > POLICY_TYPES.length) errs.push(FieldError.invalid('spec.policyTypes', types, 'may not specify more than two policyTypes'));
  types.forEach((t, i) => {
    if (!POLICY_TYPES.includes(t)) errs.push(FieldError.notSupported(index('spec.policyTypes', i), t, POLICY_TYPES));
  });
  return errs;
}

export const networkPoliciesResource: ResourceDefinition = {
  tracksGeneration: true,
  group: GROUP,
  version: 'v1',
  kind: 'NetworkPolicy',
  plural: 'networkpolicies',
  singular: 'networkpolicy',
  shortNames: ['netpol'],
  namespaced: true,
  strategy: {
    allowCreateOnUpdate: false,
    default: (obj) => defaultNetworkPolicy(obj as NetworkPolicy),
    validate: (obj) => validateNetworkPolicy(obj as NetworkPolicy),
  },
  tableColumns: [column<NetworkPolicy>('Pod-Selector', 'string', 'podSelector selects the pods to which this NetworkPolicy object applies.', (np) => formatLabelSelector(np.spec?.podSelector))],
};

export const networkingResources: ResourceDefinition[] = [ingressClassesResource, ingressesResource, networkPoliciesResource];
