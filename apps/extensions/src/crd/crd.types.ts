/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition as plain JSON (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/v1/types.go), plus the small condition and version helpers the naming,
 * establishing and finalizer controllers share (pkg/apihelpers).
 */
import type { JSONSchemaProps, KubeObject } from '@kube/apimachinery';

export const APIEXTENSIONS_GROUP = 'apiextensions.k8s.io';
export const APIEXTENSIONS_VERSION = 'v1';

/** Added on the first DELETE; the finalizer controller removes it once every custom resource is gone. */
export const CUSTOM_RESOURCE_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';
/** Required on CRDs in *.k8s.io and *.kubernetes.io groups (KEP 1111). */
export const KUBE_API_APPROVED_ANNOTATION = 'api-approved.kubernetes.io';

export type ResourceScope = 'Namespaced' | 'Cluster';
export type ConversionStrategyType = 'None' | 'Webhook';
export type ConditionStatus = 'True' | 'False' | 'Unknown';
/** kube's well-known condition types; any other string is allowed, as in Go (`string & {}` keeps completion). */
export type CustomResourceDefinitionConditionType =
  | 'Established'
  | 'NamesAccepted'
  | 'NonStructuralSchema'
  | 'Terminating'
  | 'KubernetesAPIApprovalPolicyConformant'
  | (string & {});

export interface CustomResourceDefinitionNames {
  plural: string;
  /** Defaults to the lowercased kind. */
  singular?: string;
  shortNames?: string[];
  kind: string;
  /** Defaults to kind + "List". */
  listKind?: string;
  categories?: string[];
}

export interface CustomResourceValidation {
  openAPIV3Schema?: JSONSchemaProps;
}

/** An empty object: its presence enables /status. */
export type CustomResourceSubresourceStatus = Record<string, never>;

export interface CustomResourceSubresourceScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CustomResourceSubresources {
  status?: CustomResourceSubresourceStatus;
  scale?: CustomResourceSubresourceScale;
}

export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface SelectableField {
  jsonPath: string;
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: CustomResourceValidation;
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  /** Defaults to 443. */
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** Base64 of PEM-encoded CA certificates ([]byte in Go). */
  caBundle?: string;
}

export interface WebhookConversion {
  clientConfig?: WebhookClientConfig;
  conversionReviewVersions: string[];
}

export interface CustomResourceConversion {
  strategy: ConversionStrategyType;
  webhook?: WebhookConversion;
}

export interface CustomResourceDefinitionSpec {
  group: string;
  names: CustomResourceDefinitionNames;
  scope: ResourceScope;
  versions: CustomResourceDefinitionVersion[];
  /** Defaults to {strategy: "None"}. */
  conversion?: CustomResourceConversion;
  /** Only ever false in v1 (true is rejected for new CRDs). */
  preserveUnknownFields?: boolean;
}

export interface CustomResourceDefinitionCondition {
  type: CustomResourceDefinitionConditionType;
  status: ConditionStatus;
  /** RFC 3339, seconds precision (metav1.Time). */
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinitionStatus {
  conditions?: CustomResourceDefinitionCondition[];
  acceptedNames?: CustomResourceDefinitionNames;
  storedVersions?: string[];
}

export interface CustomResourceDefinition extends KubeObject {
  spec: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
}

// ---------------------------------------------------------------------------
// Versions
// ---------------------------------------------------------------------------

/** The version custom resources are persisted in (the one marked storage), if any. */
export function storageVersion(crd: CustomResourceDefinition): string | undefined {
  return crd.spec.versions?.find((v) => v.storage === true)?.name;
}

/** Names of the served versions, in spec order. */
export function servedVersions(crd: CustomResourceDefinition): string[] {
  return (crd.spec.versions ?? []).filter((v) => v.served === true).map((v) => v.name);
}

export function isStoredVersion(crd: CustomResourceDefinition, version: string): boolean {
  return crd.status?.storedVersions?.includes(version) ?? false;
}

// ---------------------------------------------------------------------------
// Conditions
// ---------------------------------------------------------------------------

export function getCondition(
  crd: CustomResourceDefinition,
  type: CustomResourceDefinitionConditionType,
): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

/** metav1.Time as JSON: RFC 3339 in UTC without fractional seconds. */
export function conditionTimestamp(now: number = Date.now()): string {
  return new Date(now).toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * Adds or replaces a condition (SetCRDCondition). lastTransitionTime moves only when the status
 * changes, so `kubectl wait` and humans see when the condition last flipped, not when it was re-asserted.
 */
export function setCondition(
  crd: CustomResourceDefinition,
  condition: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>,
  now: number = Date.now(),
): void {
  const status = (crd.status ??= {});
  const conditions = (status.conditions ??= []);
  const existing = conditions.find((c) => c.type === condition.type);
  if (!existing) {
    conditions.push({ ...condition, lastTransitionTime: conditionTimestamp(now) });
    return;
  }
  if (existing.status !== condition.status || !existing.lastTransitionTime) existing.lastTransitionTime = conditionTimestamp(now);
  existing.status = condition.status;
  setOrDelete(existing, 'reason', condition.reason);
  setOrDelete(existing, 'message', condition.message);
}

export function removeCondition(crd: CustomResourceDefinition, type: CustomResourceDefinitionConditionType): void {
  if (crd.status?.conditions) crd.status.conditions = crd.status.conditions.filter((c) => c.type !== type);
}

export function isConditionTrue(crd: CustomResourceDefinition, type: CustomResourceDefinitionConditionType): boolean {
  return getCondition(crd, type)?.status === 'True';
}

/** Established=True: the CRD's resources are served and appear in discovery. */
export function isEstablished(crd: CustomResourceDefinition): boolean {
  return isConditionTrue(crd, 'Established');
}

/** Terminating=True: deletion started; creates of new custom resources are refused (the crdHandler check). */
export function isTerminating(crd: CustomResourceDefinition): boolean {
  return isConditionTrue(crd, 'Terminating');
}

function setOrDelete(condition: CustomResourceDefinitionCondition, key: 'reason' | 'message', value: string | undefined): void {
  if (value) condition[key] = value;
  else delete condition[key];
}
