/**
 * CustomResourceDefinition validation, ported from k8s.io/apiextensions-apiserver v0.33
 * pkg/apis/apiextensions/validation/validation.go with its messages and field paths.
 *
 * kube validates the *internal* type, and the v1 → internal conversion hoists versions[*].schema,
 * subresources, additionalPrinterColumns and selectableFields to spec.validation, spec.subresources, … when
 * every version carries the same value. Errors then name those internal paths (e.g.
 * `spec.validation.openAPIV3Schema.properties[spec].type`), so this port reproduces the hoisting.
 * The webhook client config likewise is internal `spec.conversion.webhookClientConfig`.
 * Schema internals (structural rules, defaults, CEL, list types) are delegated to @kube/apiextensions.
 */
import { FieldError } from '@kube/apimachinery';
import { CONVERSION_REVIEW_VERSIONS, validateConversion, type ConversionValidationOptions } from './crd-conversion.validation';
import { dns1035, validateEnum, validateGroup, validateNames, validateRequiredNames } from './crd-names.validation';
import { schemaHasDefault, validateSchema } from './crd-schema.validation';
import { validateColumns, validateDeprecationWarning, validateSelectableFields, validateSubresources } from './crd-version-fields.validation';
import {
  isConditionTrue,
  KUBE_API_APPROVED_ANNOTATION,
  type CustomResourceDefinition,
  type CustomResourceDefinitionSpec,
  type CustomResourceDefinitionVersion,
  type CustomResourceSubresources,
} from './crd.types';
import { isRecord, jsonEqual, list, present, str } from './plain-json.helpers';
import { caBundleError } from './webhook.validation';

const FIELD_IMMUTABLE = 'field is immutable';

/** The knobs kube derives from the old object on update (validationOptions), so stored CRDs stay updatable. */
interface ValidationOptions extends ConversionValidationOptions {
  /** scope and names.kind freeze once the CRD is Established. */
  requireImmutableNames: boolean;
  requireOpenAPISchema: boolean;
}

const CREATE_OPTIONS: ValidationOptions = {
  requireRecognizedConversionReviewVersion: true,
  requireImmutableNames: false,
  requireOpenAPISchema: true,
  // The CRD is not established yet, so a broken bundle hurts nobody.
  allowInvalidCABundle: true,
};

const versionsOf = (spec: CustomResourceDefinitionSpec | undefined): readonly CustomResourceDefinitionVersion[] => list(spec?.versions);

// ---------------------------------------------------------------------------
// The internal view: which per-version fields kube hoists to spec
// ---------------------------------------------------------------------------

type HoistedField = 'schema' | 'subresources' | 'additionalPrinterColumns' | 'selectableFields';

const INTERNAL_PATHS: Record<HoistedField, string> = {
  schema: 'spec.validation',
  subresources: 'spec.subresources',
  additionalPrinterColumns: 'spec.additionalPrinterColumns',
  selectableFields: 'spec.selectableFields',
};

/** Go slices: an empty list converts like an absent one (apiequality.Semantic treats them alike). */
function hoistable(version: CustomResourceDefinitionVersion, field: HoistedField): unknown {
  const value = version[field];
  return Array.isArray(value) && value.length === 0 ? undefined : value;
}

/** Convert_v1_CustomResourceDefinitionSpec_To_apiextensions…: hoisted when every version has the same value. */
function isHoisted(versions: readonly CustomResourceDefinitionVersion[], field: HoistedField): boolean {
  return versions.length > 0 && versions.every((v) => jsonEqual(hoistable(v, field), hoistable(versions[0], field)));
}

interface InternalSpec {
  versions: readonly CustomResourceDefinitionVersion[];
  hoisted: Record<HoistedField, boolean>;
}

function internalSpec(spec: CustomResourceDefinitionSpec | undefined): InternalSpec {
  const versions = versionsOf(spec);
  const hoisted = (field: HoistedField): boolean => isHoisted(versions, field);
  return {
    versions,
    hoisted: {
      schema: hoisted('schema'),
      subresources: hoisted('subresources'),
      additionalPrinterColumns: hoisted('additionalPrinterColumns'),
      selectableFields: hoisted('selectableFields'),
    },
  };
}

/** The spec-level (internal) value of a hoisted field, undefined when it stays per version. */
function topLevel<F extends HoistedField>(spec: InternalSpec, field: F): CustomResourceDefinitionVersion[F] | undefined {
  return spec.hoisted[field] ? spec.versions[0][field] : undefined;
}

/** The per-version (internal) value of a field, undefined when hoisted. */
function perVersion<F extends HoistedField>(spec: InternalSpec, version: CustomResourceDefinitionVersion, field: F): CustomResourceDefinitionVersion[F] | undefined {
  return spec.hoisted[field] ? undefined : version[field];
}

const hasStatus = (subresources: CustomResourceSubresources | undefined): boolean => present(subresources?.status);

/** getSubresourcesForVersion: the hoisted subresources apply to every version. */
function subresourcesForVersion(spec: InternalSpec, version: CustomResourceDefinitionVersion): CustomResourceSubresources | undefined {
  return spec.hoisted.subresources ? spec.versions[0].subresources : version.subresources;
}

// ---------------------------------------------------------------------------
// Versions
// ---------------------------------------------------------------------------

function validateVersion(spec: InternalSpec, version: CustomResourceDefinitionVersion, path: string): FieldError[] {
  return [
    ...validateDeprecationWarning(version, path),
    ...validateSchema(perVersion(spec, version, 'schema'), hasStatus(subresourcesForVersion(spec, version)), `${path}.schema`),
    ...validateSubresources(perVersion(spec, version, 'subresources'), `${path}.subresources`),
    ...validateColumns(perVersion(spec, version, 'additionalPrinterColumns'), `${path}.additionalPrinterColumns`),
    ...validateVersionSelectableFields(spec, version, path),
  ];
}

function validateVersionList(spec: InternalSpec): FieldError[] {
  const errs: FieldError[] = [];
  spec.versions.forEach((version, i) => {
    const path = `spec.versions[${i}]`;
    errs.push(...dns1035(`${path}.name`, str(version.name)), ...validateVersion(spec, version, path));
  });
  const names = spec.versions.map((v) => str(v.name));
  if (new Set(names).size !== names.length) errs.push(FieldError.invalid('spec.versions', spec.versions, 'must contain unique version names'));
  if (spec.versions.filter((v) => v.storage === true).length !== 1) {
    errs.push(FieldError.invalid('spec.versions', spec.versions, 'must have exactly one version marked as storage version'));
  }
  // Internally spec.version mirrors versions[0].name, so a bad first name is reported twice, as kube does.
  const first = str(spec.versions[0]?.name);
  if (first) errs.push(...dns1035('spec.version', first));
  return errs;
}

function validateSchemasPresent(crdSpec: CustomResourceDefinitionSpec | undefined, spec: InternalSpec, opts: ValidationOptions): FieldError[] {
  if (topLevel(spec, 'schema')?.openAPIV3Schema) return [];
  const missing = (v: CustomResourceDefinitionVersion): boolean => !perVersion(spec, v, 'schema')?.openAPIV3Schema;
  const path = (i: number): string => `spec.versions[${i}].schema.openAPIV3Schema`;
  if (opts.requireOpenAPISchema) {
    return spec.versions.flatMap((v, i) => (missing(v) ? [FieldError.required(path(i), 'schemas are required')] : []));
  }
  if (crdSpec?.preserveUnknownFields === true) return [];
  return spec.versions.flatMap((v, i) => (v.served === true && missing(v) ? [FieldError.required(path(i), 'because otherwise all fields are pruned')] : []));
}

// ---------------------------------------------------------------------------
// Hoisted fields
// ---------------------------------------------------------------------------

function validateVersionSelectableFields(spec: InternalSpec, version: CustomResourceDefinitionVersion, path: string): FieldError[] {
  const fields = list(perVersion(spec, version, 'selectableFields'));
  if (fields.length === 0) return [];
  // The internal per-version schema: absent when hoisted to spec.validation, which kube (v0.33) then rejects.
  const schema = perVersion(spec, version, 'schema')?.openAPIV3Schema;
  // kube's message says "is not included" although it means the opposite; kept verbatim.
  if (!schema) return [FieldError.invalid(`${path}.selectableFields`, '', 'selectableFields may only be set when version.schema.openAPIV3Schema is not included')];
  return validateSelectableFields(fields, schema, `${path}.selectableFields`);
}

/**
 * Hoisted selectable fields are checked against the hoisted schema: with per-version schemas that differ,
 * kube (v0.33) rejects identical selectableFields this way even though each version has a schema.
 */
function validateTopLevelSelectableFields(spec: InternalSpec): FieldError[] {
  const fields = list(topLevel(spec, 'selectableFields'));
  if (fields.length === 0) return [];
  const validation = topLevel(spec, 'schema');
  if (!validation) return [FieldError.invalid(INTERNAL_PATHS.selectableFields, '', 'selectableFields may only be set when validations.schema is included')];
  return validateSelectableFields(fields, validation.openAPIV3Schema, INTERNAL_PATHS.selectableFields);
}

function validateTopLevel(spec: InternalSpec): FieldError[] {
  const anyStatus = spec.versions.some((v) => hasStatus(v.subresources));
  return [
    ...validateSchema(topLevel(spec, 'schema'), anyStatus, INTERNAL_PATHS.schema),
    ...validateSubresources(topLevel(spec, 'subresources'), INTERNAL_PATHS.subresources),
    ...validateColumns(topLevel(spec, 'additionalPrinterColumns'), INTERNAL_PATHS.additionalPrinterColumns),
    ...validateTopLevelSelectableFields(spec),
  ];
}

// ---------------------------------------------------------------------------
// Spec
// ---------------------------------------------------------------------------

/** Defaults only work when unknown fields are pruned. */
function validateDefaultsNeedPruning(spec: CustomResourceDefinitionSpec | undefined): FieldError[] {
  if (spec?.preserveUnknownFields !== true) return [];
  const schemas = versionsOf(spec).map((v) => v.schema?.openAPIV3Schema);
  return schemas.some(schemaHasDefault) ? [FieldError.invalid('spec.preserveUnknownFields', true, 'must be false in order to use defaults in the schema')] : [];
}

/** Webhook conversion needs pruned objects, so it is ruled out while unknown fields are preserved. */
function validateConversionWithPruning(spec: CustomResourceDefinitionSpec | undefined): FieldError[] {
  const strategy = spec?.conversion?.strategy;
  if (!isRecord(spec?.conversion) || strategy === 'None' || spec?.preserveUnknownFields !== true) return [];
  return [FieldError.invalid('spec.conversion.strategy', strategy ?? '', 'must be None if spec.preserveUnknownFields is true')];
}

/** validateCustomResourceDefinitionSpec, in kube's order. */
function validateSpec(crdSpec: CustomResourceDefinitionSpec | undefined, opts: ValidationOptions): FieldError[] {
  const spec = internalSpec(crdSpec);
  return [
    ...validateGroup(str(crdSpec?.group)),
    ...validateEnum('spec.scope', str(crdSpec?.scope), ['Cluster', 'Namespaced']),
    ...validateSchemasPresent(crdSpec, spec, opts),
    ...validateDefaultsNeedPruning(crdSpec),
    ...validateVersionList(spec),
    ...validateRequiredNames(crdSpec?.names),
    ...validateNames(crdSpec?.names, 'spec.names'),
    ...validateTopLevel(spec),
    ...validateConversionWithPruning(crdSpec),
    ...validateConversion(crdSpec?.conversion, opts),
  ];
}

function validateImmutable(newValue: string, oldValue: string, path: string): FieldError[] {
  return newValue === oldValue ? [] : [FieldError.invalid(path, newValue, FIELD_IMMUTABLE)];
}

/** validateCustomResourceDefinitionSpecUpdate: group and plural name the storage; scope and kind once served. */
function validateSpecUpdate(spec: CustomResourceDefinitionSpec | undefined, old: CustomResourceDefinitionSpec | undefined, opts: ValidationOptions): FieldError[] {
  const errs = validateSpec(spec, opts);
  if (opts.requireImmutableNames) {
    errs.push(...validateImmutable(str(spec?.scope), str(old?.scope), 'spec.scope'));
    errs.push(...validateImmutable(str(spec?.names?.kind), str(old?.names?.kind), 'spec.names.kind'));
  }
  errs.push(...validateImmutable(str(spec?.group), str(old?.group), 'spec.group'));
  errs.push(...validateImmutable(str(spec?.names?.plural), str(old?.names?.plural), 'spec.names.plural'));
  return errs;
}

// ---------------------------------------------------------------------------
// Status, metadata, API approval
// ---------------------------------------------------------------------------

/** ValidateCustomResourceDefinitionStoredVersions: the storage version is recorded and no stored version vanished from spec. */
export function validateStoredVersions(storedVersions: readonly string[] | undefined, versions: readonly CustomResourceDefinitionVersion[]): FieldError[] {
  const path = 'status.storedVersions';
  const stored = list(storedVersions);
  if (stored.length === 0) return [FieldError.invalid(path, stored, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of versions) {
    if (v.storage === true && !remaining.has(v.name)) errs.push(FieldError.invalid(path, stored, `must have the storage version ${v.name}`));
    remaining.delete(v.name);
  }
  for (const [v, i] of remaining) {
    errs.push(
      FieldError.invalid(
        `${path}[${i}]`,
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}

function validateStatus(crd: CustomResourceDefinition): FieldError[] {
  return [...validateNames(crd.status?.acceptedNames, 'status.acceptedNames'), ...validateStoredVersions(crd.status?.storedVersions, versionsOf(crd.spec))];
}

/** The extra name rule of ValidateCustomResourceDefinition's nameValidationFn (the DNS subdomain part is generic). */
function validateMetadataName(crd: CustomResourceDefinition): FieldError[] {
  const required = `${str(crd.spec?.names?.plural)}.${str(crd.spec?.group)}`;
  const message = 'must be spec.names.plural+"."+spec.group';
  const errs: FieldError[] = [];
  const { name, generateName } = crd.metadata;
  if (generateName && generateName !== required) errs.push(FieldError.invalid('metadata.generateName', generateName, message));
  if (name && name !== required) errs.push(FieldError.invalid('metadata.name', name, message));
  return errs;
}

/** IsProtectedCommunityGroup: groups the Kubernetes project owns need an API review. */
export function isProtectedCommunityGroup(group: string): boolean {
  return ['k8s.io', 'kubernetes.io'].some((g) => group === g || group.endsWith(`.${g}`));
}

type ApprovalState = 'Invalid' | 'Approved' | 'Bypassed' | 'Missing';

/** GetAPIApprovalState: a URL means approved, "unapproved…" bypasses, anything else is rejected. */
function approvalState(annotations: Record<string, string> | undefined): { state: ApprovalState; reason: string } {
  const value = annotations?.[KUBE_API_APPROVED_ANNOTATION] ?? '';
  const quoted = JSON.stringify(KUBE_API_APPROVED_ANNOTATION);
  if (!value) return { state: 'Missing', reason: `protected groups must have approval annotation ${quoted}, see https://github.com/kubernetes/enhancements/pull/1111` };
  if (value.startsWith('unapproved')) return { state: 'Bypassed', reason: `not approved: ${JSON.stringify(value)}` };
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#\s]+/.test(value)) return { state: 'Approved', reason: `approved in ${value}` };
  return {
    state: 'Invalid',
    reason: `protected groups must have approval annotation ${quoted} with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  };
}

function validateAPIApproval(crd: CustomResourceDefinition, old?: CustomResourceDefinition): FieldError[] {
  if (!isProtectedCommunityGroup(str(crd.spec?.group))) return [];
  const next = approvalState(crd.metadata.annotations);
  // An unchanged state never fails, so controllers that only touch spec keep working.
  if (old && approvalState(old.metadata.annotations).state === next.state) return [];
  const path = `metadata.annotations[${KUBE_API_APPROVED_ANNOTATION}]`;
  if (next.state === 'Missing') return [FieldError.required(path, next.reason)];
  if (next.state === 'Invalid') return [FieldError.invalid(path, crd.metadata.annotations?.[KUBE_API_APPROVED_ANNOTATION], next.reason)];
  return [];
}

/** v1 no longer accepts preserveUnknownFields=true, except on CRDs stored with it from v1beta1 days. */
function validatePreserveUnknownFields(crd: CustomResourceDefinition, old?: CustomResourceDefinition): FieldError[] {
  if (old?.spec?.preserveUnknownFields === true || crd.spec?.preserveUnknownFields !== true) return [];
  return [FieldError.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
}

// ---------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------

/** ValidateCustomResourceDefinition (create). */
export function validateCustomResourceDefinition(crd: CustomResourceDefinition): FieldError[] {
  return [
    ...validateMetadataName(crd),
    ...validateSpec(crd.spec, CREATE_OPTIONS),
    ...validateStatus(crd),
    ...validateAPIApproval(crd),
    ...validatePreserveUnknownFields(crd),
  ];
}

function allVersionsHaveSchemas(spec: CustomResourceDefinitionSpec | undefined): boolean {
  return versionsOf(spec).every((v) => present(v.schema?.openAPIV3Schema));
}

/** allowInvalidCABundle: a broken bundle may stay broken, and may be anything before the CRD is served. */
function allowsInvalidCABundle(old: CustomResourceDefinition): boolean {
  if (!isConditionTrue(old, 'Established')) return true;
  const caBundle = str(old.spec?.conversion?.webhook?.clientConfig?.caBundle);
  return caBundle !== '' && caBundleError(Buffer.from(caBundle, 'base64').toString('latin1')) !== undefined;
}

function optionsForUpdate(old: CustomResourceDefinition): ValidationOptions {
  const oldReviewVersions = list(old.spec?.conversion?.webhook?.conversionReviewVersions);
  return {
    requireRecognizedConversionReviewVersion: oldReviewVersions.length === 0 || oldReviewVersions.some((v) => CONVERSION_REVIEW_VERSIONS.includes(v)),
    requireImmutableNames: isConditionTrue(old, 'Established'),
    requireOpenAPISchema: allVersionsHaveSchemas(old.spec),
    allowInvalidCABundle: allowsInvalidCABundle(old),
  };
}

/** ValidateCustomResourceDefinitionUpdate (PUT/PATCH of the main resource). */
export function validateCustomResourceDefinitionUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  return [
    ...validateSpecUpdate(crd.spec, old.spec, optionsForUpdate(old)),
    ...validateStatus(crd),
    ...validateAPIApproval(crd, old),
    ...validatePreserveUnknownFields(crd, old),
  ];
}

/**
 * ValidateUpdateCustomResourceDefinitionStatus (/status): only acceptedNames are checked. storedVersions is
 * deliberately free here: the storage version migrator removes versions through /status.
 */
export function validateCustomResourceDefinitionStatusUpdate(crd: CustomResourceDefinition): FieldError[] {
  return validateNames(crd.status?.acceptedNames, 'status.acceptedNames');
}
