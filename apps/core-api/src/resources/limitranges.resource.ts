/**
 * core/v1 LimitRange: SetDefaults_LimitRangeItem, quantities in canonical form, ValidateLimitRange
 * (pkg/apis/core/validation), printLimitRange. Enforced by the LimitRanger admission plugin.
 */
import { FieldError, isQualifiedName, Quantity, type KubeObject } from '@kube/apimachinery';
import type { ResourceDefinition, ResourceStrategy } from '@kube/apiserver';
import {
  canonicalizeResourceList,
  isExtendedResourceName,
  isNativeResource,
  isOvercommitAllowed,
  isStandardContainerResourceName,
  STANDARD_LIMIT_RANGE_TYPES,
  type LimitRange,
  type LimitRangeItem,
} from '@kube/admission';
import { undecodable, validateResourceName } from './resourcequotas.resource';
import { createdAtColumn } from './table.helpers';
import { child, entriesOf, index, isRecord, key, listOf } from './validation.helpers';

const LISTS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;
type ListName = (typeof LISTS)[number];

/** SetDefaults_LimitRangeItem: a Container's default limit from max, default request from default, then min. */
function defaultItem(item: LimitRangeItem): void {
  if (item.type !== 'Container') return;
  const defaults = { ...item.default };
  const requests = { ...item.defaultRequest };
  for (const [k, v] of entriesOf(item.max)) if (!(k in defaults)) defaults[k] = v;
  for (const [k, v] of entriesOf(defaults)) if (!(k in requests)) requests[k] = v;
  for (const [k, v] of entriesOf(item.min)) if (!(k in requests)) requests[k] = v;
  // Empty maps are omitted, as Go's omitempty does.
  if (Object.keys(defaults).length) item.default = defaults;
  if (Object.keys(requests).length) item.defaultRequest = requests;
}

export function defaultLimitRange(lr: LimitRange): void {
  for (const item of listOf(lr.spec?.limits)) {
    if (!isRecord(item)) continue;
    if (!LISTS.every((l) => canonicalizeResourceList(item[l]))) throw undecodable('LimitRange');
    defaultItem(item);
  }
}

/** validateLimitRangeTypeName. */
function validateTypeName(value: string, path: string): FieldError[] {
  const errors = isQualifiedName(value).map((msg) => FieldError.invalid(path, value, msg));
  if (errors.length) return errors;
  if (!value.includes('/') && !STANDARD_LIMIT_RANGE_TYPES.includes(value)) errors.push(FieldError.invalid(path, value, 'must be a standard limit type or fully qualified'));
  return errors;
}

/** validateContainerResourceName. */
function validateContainerResourceName(value: string, path: string): FieldError[] {
  const errors = validateResourceName(value, path);
  if (!value.includes('/')) {
    if (!isStandardContainerResourceName(value)) errors.push(FieldError.invalid(path, value, 'must be a standard resource for containers'));
  } else if (!isNativeResource(value) && !isExtendedResourceName(value)) errors.push(FieldError.invalid(path, value, "doesn't follow extended resource name standard"));
  return errors;
}

function validateItemResourceName(type: string, value: string, path: string): FieldError[] {
  return type === 'Pod' || type === 'Container' ? validateContainerResourceName(value, path) : validateResourceName(value, path);
}

/** Go's %f. */
const fixed6 = (n: number): string => (Number.isFinite(n) ? n.toFixed(6) : n > 0 ? '+Inf' : 'NaN');

function validateItem(item: LimitRangeItem, path: string, seenTypes: Set<string>): FieldError[] {
  const type = item.type ?? '';
  const errors = validateTypeName(type, child(path, 'type'));
  if (seenTypes.has(type)) errors.push(FieldError.duplicate(child(path, 'type'), type));
  seenTypes.add(type);

  const parsed = {} as Record<ListName, Map<string, Quantity>>;
  const keys = new Set<string>();
  const read = (list: ListName): void => {
    parsed[list] = new Map();
    for (const [k, v] of entriesOf(item[list])) {
      errors.push(...validateItemResourceName(type, k, key(child(path, list), k)));
      keys.add(k);
      const q = Quantity.tryParse(v);
      if (q) parsed[list].set(k, q);
    }
  };
  read('max');
  read('min');
  if (type === 'Pod') {
    parsed.default = new Map();
    parsed.defaultRequest = new Map();
    if (Object.keys(item.default ?? {}).length) errors.push(FieldError.forbidden(child(path, 'default'), "may not be specified when `type` is 'Pod'"));
    if (Object.keys(item.defaultRequest ?? {}).length) errors.push(FieldError.forbidden(child(path, 'defaultRequest'), "may not be specified when `type` is 'Pod'"));
  } else {
    read('default');
    read('defaultRequest');
  }
  if (type === 'PersistentVolumeClaim' && !parsed.min.has('storage') && !parsed.max.has('storage')) {
    errors.push(FieldError.required(child(path, 'limits'), 'either minimum or maximum storage value is required, but neither was provided'));
  }
  read('maxLimitRequestRatio');

  for (const k of [...keys].sort()) {
    const min = parsed.min.get(k);
    const max = parsed.max.get(k);
    const def = parsed.default.get(k);
    const defReq = parsed.defaultRequest.get(k);
    const ratio = parsed.maxLimitRequestRatio.get(k);
    if (min && max && min.cmp(max) > 0) errors.push(FieldError.invalid(key(child(path, 'min'), k), min.toString(), `min value ${min} is greater than max value ${max}`));
    if (defReq && min && min.cmp(defReq) > 0) errors.push(FieldError.invalid(key(child(path, 'defaultRequest'), k), defReq.toString(), `min value ${min} is greater than default request value ${defReq}`));
    if (defReq && max && defReq.cmp(max) > 0) errors.push(FieldError.invalid(key(child(path, 'defaultRequest'), k), defReq.toString(), `default request value ${defReq} is greater than max value ${max}`));
    if (defReq && def && defReq.cmp(def) > 0) errors.push(FieldError.invalid(key(child(path, 'defaultRequest'), k), defReq.toString(), `default request value ${defReq} is greater than default limit value ${def}`));
    if (def && min && min.cmp(def) > 0) errors.push(FieldError.invalid(key(child(path, 'default'), k), min.toString(), `min value ${min} is greater than default value ${def}`));
    if (def && max && def.cmp(max) > 0) errors.push(FieldError.invalid(key(child(path, 'default'), k), max.toString(), `default value ${def} is greater than max value ${max}`));
    if (ratio && ratio.cmp(Quantity.fromInt(1)) < 0) errors.push(FieldError.invalid(key(child(path, 'maxLimitRequestRatio'), k), ratio.toString(), `ratio ${ratio} is less than 1`));
    if (ratio && min && max) {
      const limit = max.milliValue() / min.milliValue();
      if (ratio.milliValue() / 1000 > limit) errors.push(FieldError.invalid(key(child(path, 'maxLimitRequestRatio'), k), ratio.toString(), `ratio ${ratio} is greater than max/min = ${fixed6(limit)}`));
    }
    // Resources that cannot be overcommitted (hugepages, extended resources): default must equal defaultRequest.
    if (!isOvercommitAllowed(k) && def && defReq && def.cmp(defReq) !== 0) {
      errors.push(FieldError.invalid(key(child(path, 'defaultRequest'), k), defReq.toString(), `default value ${def} must equal to defaultRequest value ${defReq} in ${k}`));
    }
  }
  return errors;
}

export function validateLimitRange(lr: LimitRange): FieldError[] {
  const seen = new Set<string>();
  return listOf(lr.spec?.limits).flatMap((item, i) => (isRecord(item) ? validateItem(item, index('spec.limits', i), seen) : []));
}

export const limitRangeStrategy: ResourceStrategy = {
  default: (obj: KubeObject) => defaultLimitRange(obj as LimitRange),
  validate: (obj: KubeObject) => validateLimitRange(obj as LimitRange),
};

export const limitRangesResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'LimitRange',
  plural: 'limitranges',
  singular: 'limitrange',
  shortNames: ['limits'],
  namespaced: true,
  strategy: limitRangeStrategy,
  tableColumns: [createdAtColumn],
  tableAge: false,
};
