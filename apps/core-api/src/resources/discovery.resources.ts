/** discovery.k8s.io/v1 EndpointSlice (pkg/apis/discovery/validation, printEndpointSlice). No controller mirrors Services into them. */
import { FieldError, isDNS1123Subdomain, type KubeObject } from '@kube/apimachinery';
import type { ResourceDefinition } from '@kube/apiserver';
import { column } from './cluster.helpers';
import { child, index, invalidEach, isValidPortNum, listOf, validateEnum, validateImmutableField, validateIP } from './validation.helpers';

interface EndpointPort {
  name?: string;
  port?: number;
  protocol?: string;
}

export interface EndpointSlice extends KubeObject {
  addressType?: string;
  endpoints?: { addresses?: string[]; nodeName?: string; hostname?: string }[];
  ports?: EndpointPort[];
}

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;

/** SetDefaults_EndpointPort: protocol TCP, name "". */
export function defaultEndpointSlice(slice: EndpointSlice): void {
  for (const port of listOf(slice.ports)) {
    port.protocol ??= 'TCP';
    port.name ??= '';
  }
}

/** ValidateEndpointSliceCreate. */
export function validateEndpointSlice(slice: EndpointSlice): FieldError[] {
  const errs: FieldError[] = [];
  const type = slice.addressType;
  if (!type) errs.push(FieldError.required('addressType'));
  else errs.push(...validateEnum(type, 'addressType', ADDRESS_TYPES));
  const endpoints = listOf(slice.endpoints);
  if (endpoints.length > MAX_ENDPOINTS) errs.push(FieldError.tooMany('endpoints', endpoints.length, MAX_ENDPOINTS));
  endpoints.forEach((ep, i) => {
    const path = index('endpoints', i);
    const addresses = listOf(ep.addresses);
    if (addresses.length === 0) errs.push(FieldError.required(child(path, 'addresses'), 'must contain at least 1 address'));
    else if (addresses.length > MAX_ADDRESSES) errs.push(FieldError.tooMany(child(path, 'addresses'), addresses.length, MAX_ADDRESSES));
    addresses.forEach((addr, j) => {
      const p = index(child(path, 'addresses'), j);
      if (type === 'IPv4' || type === 'IPv6') {
        const ipErrs = validateIP(p, addr);
        if (ipErrs.length) errs.push(...ipErrs);
        else if ((type === 'IPv4') !== !addr.includes(':')) errs.push(FieldError.invalid(p, addr, `must be an ${type} address`));
      } else if (type === 'FQDN') {
        errs.push(...invalidEach(p, addr, isDNS1123Subdomain(addr)));
      }
    });
    if (ep.nodeName) errs.push(...invalidEach(child(path, 'nodeName'), ep.nodeName, isDNS1123Subdomain(ep.nodeName)));
  });
  const ports = listOf(slice.ports);
  if (ports.length > MAX_PORTS) errs.push(FieldError.tooMany('ports', ports.length, MAX_PORTS));
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const path = index('ports', i);
    const name = port.name ?? '';
    if (names.has(name)) errs.push(FieldError.duplicate(child(path, 'name'), name));
    names.add(name);
    if (port.protocol !== undefined) errs.push(...validateEnum(port.protocol, child(path, 'protocol'), ['SCTP', 'TCP', 'UDP']));
    if (port.port !== undefined) errs.push(...invalidEach(child(path, 'port'), port.port, isValidPortNum(port.port)));
  });
  return errs;
}

/** listWithMoreString: at most three entries, "<unset>" when none. */
function listWithMore(values: readonly string[]): string {
  const max = 3;
  if (values.length === 0) return '<unset>';
  return values.length > max ? `${values.slice(0, max).join(',')} + ${values.length - max} more...` : values.join(',');
}

export const endpointSlicesResource: ResourceDefinition = {
  tracksGeneration: true,
  group: 'discovery.k8s.io',
  version: 'v1',
  kind: 'EndpointSlice',
  plural: 'endpointslices',
  singular: 'endpointslice',
  namespaced: true,
  strategy: {
    allowCreateOnUpdate: false,
    default: (obj) => defaultEndpointSlice(obj as EndpointSlice),
    validate: (obj) => validateEndpointSlice(obj as EndpointSlice),
    validateUpdate: (obj, old) => [...validateEndpointSlice(obj as EndpointSlice), ...validateImmutableField((obj as EndpointSlice).addressType, (old as EndpointSlice).addressType, 'addressType')],
  },
  tableColumns: [
    column<EndpointSlice>('AddressType', 'string', 'addressType specifies the type of address carried by this EndpointSlice.', (s) => s.addressType ?? ''),
    column<EndpointSlice>('Ports', 'string', 'ports specifies the list of network ports exposed by each endpoint in this slice.', (s) => listWithMore(listOf(s.ports).map((p) => (p.port !== undefined ? String(p.port) : p.name || '*')))),
    column<EndpointSlice>('Endpoints', 'string', 'endpoints is a list of unique endpoints in this slice.', (s) => listWithMore(listOf(s.endpoints).flatMap((e) => listOf(e.addresses)))),
  ],
};
