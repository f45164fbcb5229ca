/**
 * What kube's round trip of metadata through metav1.ObjectMeta does to a custom resource's metadata
 * (pkg/apiserver/schema/objectmeta/coerce.go): unknown fields are dropped (and reported like
 * UnmarshalStrict reports them), empty values of omitempty fields disappear.
 */
import { isJsonMap, type JsonMap } from './json.values';

/** Fields of metav1.ObjectMeta; every one is omitempty. */
const OBJECT_META_FIELDS = new Set([
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp',
  'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
]);

/** metav1.OwnerReference: apiVersion/kind/name/uid are always serialized, the pointers when set. */
const OWNER_REFERENCE_REQUIRED = ['apiVersion', 'kind', 'name', 'uid'];
const OWNER_REFERENCE_OPTIONAL = new Set(['controller', 'blockOwnerDeletion']);

const MANAGED_FIELDS_ENTRY_FIELDS = new Set(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource']);

/** Pointer fields keep a zero value; the others lose it to omitempty. */
const POINTER_FIELDS = new Set(['deletionGracePeriodSeconds', 'deletionTimestamp']);

function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isJsonMap(v) && Object.keys(v).length === 0;
}

function coerceOwnerReference(ref: unknown, path: string, unknown: string[]): void {
  if (!isJsonMap(ref)) return;
  for (const k of Object.keys(ref)) {
    if (OWNER_REFERENCE_REQUIRED.includes(k)) continue;
    if (!OWNER_REFERENCE_OPTIONAL.has(k)) unknown.push(`${path}.${k}`);
    if (!OWNER_REFERENCE_OPTIONAL.has(k) || ref[k] === null) delete ref[k];
  }
  for (const k of OWNER_REFERENCE_REQUIRED) if (ref[k] === undefined || ref[k] === null) ref[k] = '';
}

function coerceManagedFieldsEntry(entry: unknown, path: string, unknown: string[]): void {
  if (!isJsonMap(entry)) return;
  for (const k of Object.keys(entry)) {
    if (!MANAGED_FIELDS_ENTRY_FIELDS.has(k)) unknown.push(`${path}.${k}`);
    if (!MANAGED_FIELDS_ENTRY_FIELDS.has(k) || isEmptyValue(entry[k])) delete entry[k];
  }
}

/**
 * Coerces obj.metadata in place, as GetObjectMeta + SetObjectMeta do; returns the unknown fields found,
 * as "<prefix>.metadata.<field>" ("metadata.foo" at the root). Values of the wrong JSON type are left
 * for validation to report.
 */
export function coerceObjectMeta(obj: JsonMap, prefix = ''): string[] {
  const metadata = obj.metadata;
  if (!isJsonMap(metadata)) return [];
  const base = prefix ? `${prefix}.metadata` : 'metadata';
  const unknown: string[] = [];
  for (const k of Object.keys(metadata)) {
    if (!OBJECT_META_FIELDS.has(k)) {
      unknown.push(`${base}.${k}`);
      delete metadata[k];
    } else if (POINTER_FIELDS.has(k) ? metadata[k] === null : isEmptyValue(metadata[k])) {
      delete metadata[k];
    }
  }
  const refs = metadata.ownerReferences;
  if (Array.isArray(refs)) refs.forEach((r, i) => coerceOwnerReference(r, `${base}.ownerReferences[${i}]`, unknown));
  const managed = metadata.managedFields;
  if (Array.isArray(managed)) managed.forEach((e, i) => coerceManagedFieldsEntry(e, `${base}.managedFields[${i}]`, unknown));
  return unknown;
}
