/**
 * ValidateAPIService / ValidateAPIServiceUpdate / ValidateAPIServiceStatus
 * (k8s.io/kube-aggregator pkg/apis/apiregistration/validation/validation.go) with kube's exact messages and paths.
 * The generic server has already checked metadata (name as a path segment, labels, annotations, immutable fields);
 * what is left here is the `<version>.<group>` name rule and the spec.
 */
import { FieldError, isDNS1035Label, isDNS1123Subdomain, type KubeObject } from '@kube/apimachinery';
import { apiServiceName, CONDITION_STATUSES, type APIServiceSpec, type APIServiceStatus, type ServiceReference } from './apiservice.types';

const MAX_GROUP_PRIORITY = 20000;
const MAX_VERSION_PRIORITY = 1000;
const MIN_PORT = 1;
const MAX_PORT = 65535;

/** JSON types the Go decoder insists on; kube rejects anything else before validation runs. */
type JsonType = 'string' | 'boolean' | 'int32' | 'object' | 'base64';

const SPEC_TYPES: Readonly<Record<keyof APIServiceSpec, JsonType>> = {
  service: 'object',
  group: 'string',
  version: 'string',
  insecureSkipTLSVerify: 'boolean',
  caBundle: 'base64',
  groupPriorityMinimum: 'int32',
  versionPriority: 'int32',
};

const SERVICE_TYPES: Readonly<Record<keyof ServiceReference, JsonType>> = {
  namespace: 'string',
  name: 'string',
  port: 'int32',
};

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'int32':
      return Number.isInteger(value) && (value as number) >= INT32_MIN && (value as number) <= INT32_MAX;
    case 'object':
      return isRecord(value);
    case 'base64':
      return typeof value === 'string' && BASE64.test(value);
    default:
      return typeof value === type;
  }
}

/** Fields of the wrong JSON type (null counts as absent, as it does for Go). */
function typeErrors(obj: Record<string, unknown>, types: Readonly<Record<string, JsonType>>, path: string): FieldError[] {
  return Object.entries(types)
    .filter(([field, type]) => obj[field] !== undefined && obj[field] !== null && !hasType(obj[field], type))
    .map(([field, type]) => FieldError.typeInvalid(`${path}.${field}`, obj[field], `must be of type ${type === 'base64' ? 'base64-encoded string' : type}`));
}

/**
 * What Go's decoder would reject as malformed: a non-object spec or fields of the wrong type. Validation only
 * continues on a well-typed spec, so the checks below can trust APIServiceSpec.
 */
function decodeErrors(spec: unknown): FieldError[] {
  if (spec === undefined || spec === null) return [];
  if (!isRecord(spec)) return [FieldError.typeInvalid('spec', spec, 'must be of type object')];
  const errors = typeErrors(spec, SPEC_TYPES, 'spec');
  if (isRecord(spec.service)) errors.push(...typeErrors(spec.service, SERVICE_TYPES, 'spec.service'));
  return errors;
}

/** content.IsPathSegmentName: the minimal rules for a name that is used as a URL path segment. */
function pathSegmentErrors(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

/** The APIService ValidateNameFunc: a path segment that must equal `<version>.<group>`. */
function nameErrors(name: string, requiredName: string): string[] {
  const minimal = pathSegmentErrors(name);
  if (minimal.length > 0) return minimal;
  return name === requiredName ? [] : [`must be \`spec.version+"."+spec.group\`: ${JSON.stringify(requiredName)}`];
}

/**
 * The name rule on metadata. The generic server checks metadata.name as a path segment already, so only the
 * `<version>.<group>` mismatch is added for it; generateName is not checked there, so it gets the whole rule.
 */
function validateMetadataNames(obj: KubeObject, requiredName: string): FieldError[] {
  const { name, generateName } = obj.metadata;
  const errors = generateName ? nameErrors(generateName, requiredName).map((msg) => FieldError.invalid('metadata.generateName', generateName, msg)) : [];
  if (name && pathSegmentErrors(name).length === 0) {
    errors.push(...nameErrors(name, requiredName).map((msg) => FieldError.invalid('metadata.name', name, msg)));
  }
  return errors;
}

/** An empty group is the legacy core group, which only ever has v1. */
function validateGroup(group: string, version: string): FieldError[] {
  if (group === '') {
    return version === 'v1' ? [] : [FieldError.required('spec.group', 'only v1 may have an empty group and it better be legacy kube')];
  }
  return isDNS1123Subdomain(group).map((msg) => FieldError.invalid('spec.group', group, msg));
}

/** No defaults: a missing priority is 0, which is rejected, so every APIService states where it sorts. */
function validatePriorities(spec: APIServiceSpec): FieldError[] {
  const errors: FieldError[] = [];
  const group = spec.groupPriorityMinimum ?? 0;
  const version = spec.versionPriority ?? 0;
  if (group <= 0 || group > MAX_GROUP_PRIORITY) {
    errors.push(FieldError.invalid('spec.groupPriorityMinimum', group, `must be positive and less than ${MAX_GROUP_PRIORITY}`));
  }
  if (version <= 0 || version > MAX_VERSION_PRIORITY) {
    errors.push(FieldError.invalid('spec.versionPriority', version, `must be positive and less than ${MAX_VERSION_PRIORITY}`));
  }
  return errors;
}

/** caBundle's length in bytes once base64-decoded, which is how kube reports it ("%d bytes"). */
function caBundleBytes(spec: APIServiceSpec): number {
  return spec.caBundle ? Buffer.from(spec.caBundle, 'base64').length : 0;
}

/** A local APIService is never dialled, so TLS settings for it are a mistake. */
function validateLocal(spec: APIServiceSpec): FieldError[] {
  const errors: FieldError[] = [];
  const bytes = caBundleBytes(spec);
  if (bytes !== 0) errors.push(FieldError.invalid('spec.caBundle', `${bytes} bytes`, 'local APIServices may not have a caBundle'));
  if (spec.insecureSkipTLSVerify) {
    errors.push(FieldError.invalid('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'));
  }
  return errors;
}

function validateService(spec: APIServiceSpec, service: ServiceReference): FieldError[] {
  const errors: FieldError[] = [];
  if (!service.namespace) errors.push(FieldError.required('spec.service.namespace'));
  if (!service.name) errors.push(FieldError.required('spec.service.name'));
  // The internal type has a plain int32: an undefaulted port is 0.
  const port = service.port ?? 0;
  if (port < MIN_PORT || port > MAX_PORT) {
    errors.push(FieldError.invalid('spec.service.port', port, `port is not valid: must be between ${MIN_PORT} and ${MAX_PORT}, inclusive`));
  }
  if (spec.insecureSkipTLSVerify && caBundleBytes(spec) > 0) {
    errors.push(FieldError.invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  }
  return errors;
}

/** ValidateAPIService, on top of the generic metadata checks. */
export function validateAPIService(obj: KubeObject): FieldError[] {
  const decode = decodeErrors(obj.spec);
  if (decode.length > 0) return decode;
  const spec = (obj.spec ?? {}) as APIServiceSpec;
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  return [
    ...validateMetadataNames(obj, apiServiceName(group, version)),
    ...validateGroup(group, version),
    ...isDNS1035Label(version).map((msg) => FieldError.invalid('spec.version', version, msg)),
    ...validatePriorities(spec),
    ...(spec.service ? validateService(spec, spec.service) : validateLocal(spec)),
  ];
}

/** ValidateAPIServiceUpdate: metadata update rules are the generic server's; the new object must be valid. */
export function validateAPIServiceUpdate(obj: KubeObject, _old: KubeObject): FieldError[] {
  return validateAPIService(obj);
}

/** ValidateAPIServiceStatus: every condition status is True, False or Unknown. */
export function validateAPIServiceStatus(status: APIServiceStatus | undefined, path = 'status'): FieldError[] {
  const conditions = Array.isArray(status?.conditions) ? status.conditions : [];
  return conditions.flatMap((condition, i) => {
    const value: unknown = isRecord(condition) ? condition.status : undefined;
    return CONDITION_STATUSES.some((s) => s === value) ? [] : [FieldError.notSupported(`${path}.conditions[${i}].status`, value ?? '', [...CONDITION_STATUSES])];
  });
}
