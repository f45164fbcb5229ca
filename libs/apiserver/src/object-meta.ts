import { randomUUID } from 'node:crypto';
import {
  isValidPathSegmentName,
  FieldError,
  generateName,
  stableStringify,
  isDNS1123Label,
  isDNS1123Subdomain,
  validateAnnotations,
  validateLabels,
  GO_ANY,
  GO_BOOL,
  GO_INT64,
  GO_STRING,
  GO_TIME,
  goDecodeError,
  goMap,
  goNamedString,
  goSlice,
  goStruct,
  type GoType,
  type KubeObject,
  type ObjectMeta,
} from '@kube/apimachinery';
import type { NameValidation } from './resource.definition';

const UID = goNamedString('types.UID');

/** metav1.ObjectMeta as Go's decoder sees it (k8s.io/apimachinery/pkg/apis/meta/v1/types.go). */
export const OBJECT_META_GO_TYPE: GoType = goStruct('v1.ObjectMeta', {
  name: GO_STRING,
  generateName: GO_STRING,
  namespace: GO_STRING,
  selfLink: GO_STRING,
  uid: UID,
  resourceVersion: GO_STRING,
  generation: GO_INT64,
  creationTimestamp: GO_TIME,
  deletionTimestamp: GO_TIME,
  deletionGracePeriodSeconds: GO_INT64,
  labels: goMap(GO_STRING),
  annotations: goMap(GO_STRING),
  ownerReferences: goSlice(goStruct('v1.OwnerReference', { apiVersion: GO_STRING, kind: GO_STRING, name: GO_STRING, uid: UID, controller: GO_BOOL, blockOwnerDeletion: GO_BOOL })),
  finalizers: goSlice(GO_STRING),
  managedFields: goSlice(
    goStruct('v1.ManagedFieldsEntry', {
      manager: GO_STRING,
      operation: goNamedString('v1.ManagedFieldsOperationType'),
      apiVersion: GO_STRING,
      time: GO_TIME,
      fieldsType: GO_STRING,
      fieldsV1: GO_ANY,
      subresource: GO_STRING,
    }),
  ),
});

/**
 * Go's decode error for a body whose metadata holds a value of the wrong JSON type (labels that are objects, a
 * string generation), or undefined. Every later step (validation, field management) may then trust the types.
 */
export function objectMetaDecodeError(obj: { metadata?: unknown }, kind: string): string | undefined {
  // The object as far as its metadata is typed: `ConfigMap.metadata` names the field of a metadata that is no object.
  return goDecodeError({ metadata: obj.metadata }, goStruct(kind, { metadata: OBJECT_META_GO_TYPE }));
}

/** RFC 3339 with second precision, as kube serializes metav1.Time. */
export function nowTimestamp(): string {
  return formatTimestamp(new Date());
}

/** A metav1.Time as kube writes it (client-node reads them into Dates). */
export function formatTimestamp(time: Date): string {
  return time.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * kube's BeforeCreate metadata handling: server-owned fields are set, client values ignored. Generation is 1 where
 * the resource's strategy tracks it; elsewhere kube's generic registry keeps what the client sent (0: none).
 */
export function prepareMetaForCreate(obj: KubeObject, namespace: string | undefined, tracksGeneration = true): void {
  const meta = obj.metadata;
  if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
  meta.uid = randomUUID();
  meta.creationTimestamp = nowTimestamp();
  if (tracksGeneration) meta.generation = 1;
  else if (!meta.generation) delete meta.generation;
  delete meta.resourceVersion;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  if (namespace) meta.namespace = namespace;
  else delete meta.namespace;
  removeEmpty(meta);
}

/**
 * Update keeps what the client cannot change (kube's BeforeUpdate: generation too); where the resource tracks
 * generation, it moves when anything outside metadata/status does.
 */
export function prepareMetaForUpdate(obj: KubeObject, old: KubeObject, tracksGeneration = true): void {
  const meta = obj.metadata;
  const o = old.metadata;
  meta.name = o.name;
  if (o.namespace) meta.namespace = o.namespace;
  else delete meta.namespace;
  meta.uid = o.uid;
  meta.creationTimestamp = o.creationTimestamp;
  setOrDelete(meta, 'deletionTimestamp', o.deletionTimestamp);
  setOrDelete(meta, 'deletionGracePeriodSeconds', o.deletionGracePeriodSeconds);
  const generation = (o.generation ?? 0) + (tracksGeneration && specChanged(obj, old) ? 1 : 0);
  setOrDelete(meta, 'generation', generation || undefined);
  removeEmpty(meta);
}

function setOrDelete<K extends keyof ObjectMeta>(meta: ObjectMeta, key: K, value: ObjectMeta[K]): void {
  if (value === undefined) delete meta[key];
  else meta[key] = value;
}

function removeEmpty(meta: ObjectMeta): void {
  for (const k of ['labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields'] as const) {
    const v = meta[k];
    if (v && typeof v === 'object' && Object.keys(v).length === 0) delete meta[k];
  }
}

/** Everything except metadata and status, compared as JSON. */
export function specChanged(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject): string => {
    const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = o;
    return stableStringify(rest);
  };
  return strip(a) !== strip(b);
}


const NAME_RULES: Record<NameValidation, (name: string) => string[]> = {
  subdomain: isDNS1123Subdomain,
  label: isDNS1123Label,
  'path-segment': isValidPathSegmentName,
};

/** ObjectMeta validation shared by every resource (name, generateName, labels, annotations). */
export function validateObjectMeta(obj: KubeObject, namespaced: boolean, rule: NameValidation = 'subdomain'): FieldError[] {
  const meta = obj.metadata;
  const errs: FieldError[] = [];
  if (!meta.name) {
    errs.push(FieldError.required('metadata.name', 'name or generateName is required'));
  } else {
    for (const msg of NAME_RULES[rule](meta.name)) errs.push(FieldError.invalid('metadata.name', meta.name, msg));
  }
  if (namespaced && !meta.namespace) errs.push(FieldError.required('metadata.namespace', ''));
  errs.push(...validateLabels(meta.labels ?? {}, 'metadata.labels'));
  errs.push(...validateAnnotations(meta.annotations ?? {}, 'metadata.annotations'));
  const finalizers = meta.finalizers ?? [];
  finalizers.forEach((f, i) => {
    if (typeof f !== 'string' || f === '') errs.push(FieldError.invalid(`metadata.finalizers[${i}]`, f, 'name part must be non-empty'));
  });
  return errs;
}

export function validateFinalizersOnUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  if (!old.metadata.deletionTimestamp) return [];
  const before = new Set(old.metadata.finalizers ?? []);
  const added = (obj.metadata.finalizers ?? []).filter((f) => !before.has(f));
  return added.length ? [FieldError.forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`)] : [];
}
