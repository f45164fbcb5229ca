/**
 * core/v1 ResourceQuota: quantities in canonical form, ValidateResourceQuota / ValidateResourceQuotaUpdate /
 * ValidateResourceQuotaStatusUpdate (pkg/apis/core/validation), the status subresource, printResourceQuota.
 * Usage is charged by the ResourceQuota admission plugin and recalculated by the quota controller.
 */
import { Errors, FieldError, isQualifiedName, Quantity, QUANTITY_FORMAT_ERROR, type KubeObject } from '@kube/apimachinery';
import { statusSubresource, type ResourceDefinition, type ResourceStrategy, type SubresourceStrategy } from '@kube/apiserver';
import {
  canonicalizeResourceList,
  isIntegerResourceName,
  isStandardQuotaResourceName,
  isStandardResourceName,
  RESOURCE_QUOTA_SCOPES,
  type ResourceQuota,
  type ScopedResourceSelectorRequirement,
} from '@kube/admission';
import { ageColumn } from './table.helpers';
import { child, entriesOf, FIELD_IMMUTABLE, isRecord, key, listOf } from './validation.helpers';

/** kube answers a body it cannot decode with 400 BadRequest. */
export function undecodable(kind: string): Error {
  return Errors.badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: ${QUANTITY_FORMAT_ERROR}`);
}

function canonicalizeQuota(quota: ResourceQuota): void {
  const lists = [quota.spec?.hard, quota.status?.hard, quota.status?.used];
  if (!lists.every(canonicalizeResourceList)) throw undecodable('ResourceQuota');
}

// ---------------------------------------------------------------------------
// Resource names and quantities (shared with LimitRange)
// ---------------------------------------------------------------------------

/** validateResourceName: a qualified name, and a standard one when it has no domain. */
export function validateResourceName(value: string, path: string): FieldError[] {
  const errors = isQualifiedName(value).map((msg) => FieldError.invalid(path, value, msg));
  if (errors.length) return errors;
  if (!value.includes('/') && !isStandardResourceName(value)) errors.push(FieldError.invalid(path, value, 'must be a standard resource type or fully qualified'));
  return errors;
}

function validateQuotaResourceName(value: string, path: string): FieldError[] {
  const errors = validateResourceName(value, path);
  if (!value.includes('/') && !isStandardQuotaResourceName(value)) errors.push(FieldError.invalid(path, value, 'must be a standard resource for quota'));
  return errors;
}

/** ValidateResourceQuantityValue: not negative, and whole for counted resources. */
export function validateQuantityValue(resource: string, value: unknown, path: string): FieldError[] {
  const q = Quantity.tryParse(value as string);
  if (!q) return [];
  const errors: FieldError[] = [];
  if (q.sign() < 0) errors.push(FieldError.invalid(path, q.toString(), 'must be greater than or equal to 0'));
  if (isIntegerResourceName(resource) && q.milliValue() % 1000 !== 0) errors.push(FieldError.invalid(path, q.toString(), 'must be an integer'));
  return errors;
}

function validateQuotaList(list: Record<string, unknown> | undefined, path: string): FieldError[] {
  return entriesOf(list).flatMap(([name, value]) => [...validateQuotaResourceName(name, key(path, name)), ...validateQuantityValue(name, value, key(path, name))]);
}

// ---------------------------------------------------------------------------
// Scopes
// ---------------------------------------------------------------------------

const POD_COUNT = new Set(['pods']);
const POD_COMPUTE = new Set(['cpu', 'limits.cpu', 'limits.memory', 'memory', 'requests.cpu', 'requests.memory']);
const EXISTS_ONLY = new Set(['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity']);
const CONFLICTING: readonly [string, string][] = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

/** IsResourceQuotaScopeValidForResource. */
function scopeValidForResource(scope: string, resource: string): boolean {
  if (scope === 'BestEffort') return POD_COUNT.has(resource);
  if (RESOURCE_QUOTA_SCOPES.includes(scope)) return POD_COUNT.has(resource) || POD_COMPUTE.has(resource);
  return true;
}

function hardNames(quota: ResourceQuota): string[] {
  return entriesOf(quota.spec?.hard)
    .map(([k]) => k)
    .sort();
}

/** A scope used with a resource it cannot select (one error per resource, as kube reports). */
function unsupportedForResources(scope: string, quota: ResourceQuota): number {
  return hardNames(quota).filter((k) => isStandardQuotaResourceName(k) && !scopeValidForResource(scope, k)).length;
}

function validateScopes(quota: ResourceQuota): FieldError[] {
  const scopes = listOf(quota.spec?.scopes);
  if (scopes.length === 0) return [];
  const path = 'spec.scopes';
  const errors: FieldError[] = [];
  for (const scope of scopes) {
    if (!RESOURCE_QUOTA_SCOPES.includes(scope)) errors.push(FieldError.invalid(path, scopes, 'unsupported scope'));
    for (let i = unsupportedForResources(scope, quota); i > 0; i--) errors.push(FieldError.invalid(path, scopes, 'unsupported scope applied to resource'));
  }
  for (const [a, b] of CONFLICTING) if (scopes.includes(a) && scopes.includes(b)) errors.push(FieldError.invalid(path, scopes, 'conflicting scopes'));
  return errors;
}

function validateScopeSelector(quota: ResourceQuota): FieldError[] {
  const selector = quota.spec?.scopeSelector;
  if (!isRecord(selector)) return [];
  const path = 'spec.scopeSelector.matchExpressions';
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const req of listOf<ScopedResourceSelectorRequirement>(selector.matchExpressions)) {
    const scope = req.scopeName ?? '';
    if (!RESOURCE_QUOTA_SCOPES.includes(scope)) errors.push(FieldError.invalid(child(path, 'scopeName'), scope, 'unsupported scope'));
    for (let i = unsupportedForResources(scope, quota); i > 0; i--) errors.push(FieldError.invalid(path, selector, 'unsupported scope applied to resource'));
    if (EXISTS_ONLY.has(scope) && req.operator !== 'Exists') {
      errors.push(
        FieldError.invalid(
          child(path, 'operator'),
          req.operator ?? '',
          "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (listOf(req.values).length === 0) errors.push(FieldError.required(child(path, 'values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (listOf(req.values).length !== 0) errors.push(FieldError.invalid(child(path, 'values'), req.values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
        break;
      default:
        errors.push(FieldError.invalid(child(path, 'operator'), req.operator ?? '', 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  for (const [a, b] of CONFLICTING) if (seen.has(a) && seen.has(b)) errors.push(FieldError.invalid(path, quota.spec?.scopes ?? null, 'conflicting scopes'));
  return errors;
}

// ---------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------

function validateStatus(quota: ResourceQuota): FieldError[] {
  return [...validateQuotaList(quota.status?.hard, 'status.hard'), ...validateQuotaList(quota.status?.used, 'status.used')];
}

export function validateResourceQuota(quota: ResourceQuota): FieldError[] {
  return [...validateQuotaList(quota.spec?.hard, 'spec.hard'), ...validateScopes(quota), ...validateScopeSelector(quota), ...validateStatus(quota)];
}

/** ValidateResourceQuotaUpdate: the spec as on create, and the set of scopes never changes. */
export function validateResourceQuotaUpdate(quota: ResourceQuota, old: ResourceQuota): FieldError[] {
  const errors = [...validateQuotaList(quota.spec?.hard, 'spec.hard'), ...validateScopes(quota), ...validateScopeSelector(quota)];
  const scopes = new Set(listOf(quota.spec?.scopes));
  const oldScopes = new Set(listOf(old.spec?.scopes));
  if (scopes.size !== oldScopes.size || [...scopes].some((s) => !oldScopes.has(s))) errors.push(FieldError.invalid('spec.scopes', quota.spec?.scopes ?? null, FIELD_IMMUTABLE));
  return errors;
}

export const resourceQuotaStrategy: ResourceStrategy = {
  // kube's strategy: a PUT of a missing object is 404, not a create.
  allowCreateOnUpdate: false,
  default: (obj: KubeObject) => canonicalizeQuota(obj as ResourceQuota),
  validate: (obj: KubeObject) => validateResourceQuota(obj as ResourceQuota),
  validateUpdate: (obj: KubeObject, old: KubeObject) => validateResourceQuotaUpdate(obj as ResourceQuota, old as ResourceQuota),
};

/** /status: only status changes; its quantities canonical like the rest. */
function resourceQuotaStatusSubresource(): SubresourceStrategy {
  const base = statusSubresource((obj) => validateStatus(obj as ResourceQuota));
  return {
    ...base,
    prepareForUpdate(incoming, old) {
      const obj = base.prepareForUpdate(incoming, old);
      canonicalizeQuota(obj as ResourceQuota);
      return obj;
    },
  };
}

// ---------------------------------------------------------------------------
// printResourceQuota: NAME, AGE, REQUEST, LIMIT
// ---------------------------------------------------------------------------

/** `resource: used/hard, …` for the status's hard resources, limits.* in the LIMIT column, the rest in REQUEST. */
export function quotaColumns(quota: ResourceQuota): { request: string; limit: string } {
  const hard = quota.status?.hard ?? {};
  const used = quota.status?.used ?? {};
  const request: string[] = [];
  const limit: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const pieces = name.split('.');
    const cell = `${name}: ${used[name] ?? '0'}/${hard[name]}`;
    (pieces.length > 1 && pieces[0] === 'limits' ? limit : request).push(cell);
  }
  return { request: request.join(', '), limit: limit.join(', ') };
}

export const resourceQuotasResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ResourceQuota',
  plural: 'resourcequotas',
  singular: 'resourcequota',
  shortNames: ['quota'],
  namespaced: true,
  strategy: resourceQuotaStrategy,
  subresources: { status: resourceQuotaStatusSubresource() },
  tableColumns: [
    ageColumn,
    { name: 'Request', type: 'string', description: 'Request represents a minimum amount of cpu/memory that a container may consume.', cell: (obj) => quotaColumns(obj as ResourceQuota).request },
    { name: 'Limit', type: 'string', description: 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.', cell: (obj) => quotaColumns(obj as ResourceQuota).limit },
  ],
};

