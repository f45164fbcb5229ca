/**
 * The CustomResourceDefinition strategy: v1 defaulting (pkg/apis/apiextensions/v1/defaults.go) and
 * pkg/registry/customresourcedefinition/strategy.go. Generation bumps and status/spec separation on
 * /status are done by the generic REST handler.
 */
import type { FieldError, KubeObject } from '@kube/apimachinery';
import { statusSubresource, type ResourceStrategy, type SubresourceStrategy } from '@kube/apiserver';
import { isStoredVersion, storageVersion, type CustomResourceDefinition, type CustomResourceDefinitionSpec } from './crd.types';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate, validateCustomResourceDefinitionStatusUpdate } from './crd.validation';
import { isRecord, list } from './plain-json.helpers';

const DEFAULT_SERVICE_PORT = 443;

/** SetDefaults_CustomResourceDefinitionSpec: singular, listKind, conversion strategy, webhook service port. */
function defaultSpec(spec: CustomResourceDefinitionSpec): void {
  const names = spec.names;
  if (isRecord(names) && typeof names.kind === 'string') {
    if (!names.singular && names.kind) names.singular = names.kind.toLowerCase();
    if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
  const service = spec.conversion.webhook?.clientConfig?.service;
  if (isRecord(service)) service.port ??= DEFAULT_SERVICE_PORT;
  // Go decodes missing served/storage as false and always prints them.
  for (const version of list(spec.versions)) {
    if (!isRecord(version)) continue;
    version.served ??= false;
    version.storage ??= false;
  }
}

/** SetDefaults_CustomResourceDefinition: the spec, then storedVersions from the storage version. */
export function defaultCustomResourceDefinition(crd: CustomResourceDefinition): void {
  if (!isRecord(crd.spec)) return;
  defaultSpec(crd.spec);
  const storage = storageVersion(crd);
  if (storage && (crd.status?.storedVersions?.length ?? 0) === 0) crd.status = { ...crd.status, storedVersions: [storage] };
}

/** Records a new storage version, which must then stay until a storage migration removes it. */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = isRecord(crd.spec) ? storageVersion(crd) : undefined;
  if (!storage || isStoredVersion(crd, storage)) return;
  const status = (crd.status ??= {});
  status.storedVersions = [...(status.storedVersions ?? []), storage];
}

/** PrepareForCreate: clients cannot set status; it starts with the storage version as the only stored version. */
export function prepareCustomResourceDefinitionForCreate(crd: CustomResourceDefinition): void {
  // What Go prints for a zero CustomResourceDefinitionStatus (acceptedNames has no omitempty fields).
  crd.status = { acceptedNames: { plural: '', kind: '' } };
  recordStorageVersion(crd);
}

/**
 * PrepareForUpdate: status stays as stored (the status subresource already kept it from the old object, before
 * graceful-deletion hooks ran), plus a newly chosen storage version.
 */
export function prepareCustomResourceDefinitionForUpdate(crd: CustomResourceDefinition): void {
  recordStorageVersion(crd);
}

/** The /status subresource: its writes are validated as kube's ValidateCustomResourceDefinitionStatusUpdate. */
export const customResourceDefinitionStatus: SubresourceStrategy = statusSubresource((obj: KubeObject): FieldError[] => validateCustomResourceDefinitionStatusUpdate(obj as CustomResourceDefinition));

export const customResourceDefinitionStrategy: ResourceStrategy = {
  default: (obj: KubeObject) => defaultCustomResourceDefinition(obj as CustomResourceDefinition),
  prepareForCreate: (obj: KubeObject) => prepareCustomResourceDefinitionForCreate(obj as CustomResourceDefinition),
  prepareForUpdate: (obj: KubeObject) => prepareCustomResourceDefinitionForUpdate(obj as CustomResourceDefinition),
  validate: (obj: KubeObject): FieldError[] => validateCustomResourceDefinition(obj as CustomResourceDefinition),
  validateUpdate: (obj: KubeObject, old: KubeObject): FieldError[] =>
    validateCustomResourceDefinitionUpdate(obj as CustomResourceDefinition, old as CustomResourceDefinition),
  // A CRD is only ever created by POST, and every update must name the resourceVersion it read.
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
};
