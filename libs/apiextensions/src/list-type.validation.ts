/**
 * Uniqueness of x-kubernetes-list-type=set elements and x-kubernetes-list-type=map keys
 * (pkg/apiserver/schema/listtype/validation.go).
 */
import { FieldError, type JSONSchemaProps } from '@kube/apimachinery';
import { childPath, indexPath, keyPath } from './field-path.format';
import { goJsonMarshal, isJsonMap, sortedKeys, type JsonMap } from './json.values';
import { additionalPropertiesSchema, anyStructuralNode, itemsSchema } from './schema.props';

/** Stands for "key field absent" so that it is unique among real key values. */
const UNSPECIFIED = Symbol('unspecified key');

/** A map key identifying equal elements: compounds by their JSON, scalars by type and value. */
function identity(x: unknown): string {
  if (x === UNSPECIFIED) return 'unspecified';
  if (typeof x === 'object' && x !== null) return `json:${goJsonMarshal(x)}`;
  return `${typeof x}:${String(x)}`;
}

/** Indices of the second occurrence of each repeated element (later repeats are not reported again). */
function duplicateIndices(list: unknown[]): number[] {
  if (list.length <= 1) return [];
  const seen = new Map<string, number>();
  const out: number[] = [];
  list.forEach((x, i) => {
    const id = identity(x);
    const times = seen.get(id) ?? 0;
    if (times === 1) out.push(i);
    seen.set(id, times + 1);
  });
  return out;
}

function validateListMap(path: string, s: JSONSchemaProps, list: unknown[]): FieldError[] {
  const bad = list.findIndex((x) => x !== null && !isJsonMap(x));
  if (bad >= 0) return [FieldError.invalid(indexPath(path, bad), list[bad], 'must be an object for an array of list-type map')];
  if (list.length <= 1) return [];
  const keyFields = s['x-kubernetes-list-map-keys'] ?? [];
  if (keyFields.length === 1) {
    const [field] = keyFields;
    const keys = list.map((x) => (isJsonMap(x) && Object.prototype.hasOwnProperty.call(x, field) ? x[field] : UNSPECIFIED));
    return duplicateIndices(keys).map((i) => FieldError.duplicate(indexPath(path, i), keys[i] === UNSPECIFIED ? {} : { [field]: keys[i] }));
  }
  const keys = list.map((x) => {
    const key: JsonMap = {};
    if (isJsonMap(x)) for (const f of keyFields) if (Object.prototype.hasOwnProperty.call(x, f)) key[f] = x[f];
    return sortedKeys(key);
  });
  return duplicateIndices(keys).map((i) => FieldError.duplicate(indexPath(path, i), keys[i]));
}

const isSetOrMap = (s: JSONSchemaProps): boolean => s['x-kubernetes-list-type'] === 'set' || s['x-kubernetes-list-type'] === 'map';

function validateArray(path: string, s: JSONSchemaProps, list: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') errs.push(...duplicateIndices(list).map((i) => FieldError.duplicate(indexPath(path, i), list[i])));
  if (listType === 'map') errs.push(...validateListMap(path, s, list));
  const items = itemsSchema(s);
  if (items) list.forEach((x, i) => errs.push(...validateValue(indexPath(path, i), items, x)));
  return errs;
}

function validateValue(path: string, s: JSONSchemaProps, x: unknown): FieldError[] {
  if (Array.isArray(x)) return validateArray(path, s, x);
  if (isJsonMap(x)) return validateListSetsAndMaps(x, s, path);
  return [];
}

/**
 * ValidateListSetsAndMaps: `Duplicate value` errors for repeated set elements and list-map keys, at the
 * repeated element ("spec.listeners[1]: Duplicate value: {"name":"a"}").
 */
export function validateListSetsAndMaps(obj: JsonMap, s: JSONSchemaProps | undefined, path = ''): FieldError[] {
  if (!s || !anyStructuralNode(s, isSetOrMap)) return [];
  const errs: FieldError[] = [];
  const ap = additionalPropertiesSchema(s);
  for (const [k, v] of Object.entries(obj)) {
    if (ap) errs.push(...validateValue(keyPath(path, k), ap, v));
    const prop = s.properties?.[k];
    if (prop) errs.push(...validateValue(childPath(path, k), prop, v));
  }
  return errs;
}
