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
import { FieldError, isDNS1035Label, isDNS1123Subdomain, type JSONSchemaProps } from '@kube/apimachinery';
import { validateCustomResourceDefinitionSchema, validateStructuralSchema } from '@kube/apiextensions';
import {
  isConditionTrue,
  KUBE_API_APPROVED_ANNOTATION,
  type CustomResourceColumnDefinition,
  type CustomResourceConversion,
  type CustomResourceDefinition,
  type CustomResourceDefinitionNames,
  type CustomResourceDefinitionSpec,
  type CustomResourceDefinitionVersion,
  type CustomResourceSubresources,
  type CustomResourceValidation,
  type SelectableField,
  type WebhookClientConfig,
} from './crd.types';
import { caBundleError, validateCABundle, validateWebhookService, validateWebhookURL } from './webhook.validation';

const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
/** ConversionReview versions this server (and the one before it) understands, sorted as sets.List prints them. */
const CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const MAX_SELECTABLE_FIELDS = 8;
const MAX_DEPRECATION_WARNING_LENGTH = 256;
const FIELD_IMMUTABLE = 'field is immutable';

/** The knobs kube derives from the old object on update (validationOptions), so stored CRDs stay updatable. */
interface ValidationOptions {
  requireRecognizedConversionReviewVersion: boolean;
  /** scope and names.kind freeze once the CRD is Established. */
  requireImmutableNames: boolean;
  requireOpenAPISchema: boolean;
  allowInvalidCABundle: boolean;
}

const CREATE_OPTIONS: ValidationOptions = {
  requireRecognizedConversionReviewVersion: true,
  requireImmutableNames: false,
  requireOpenAPISchema: true,
  // The CRD is not established yet, so a broken bundle hurts nobody.
  allowInvalidCABundle: true,
};

// ---------------------------------------------------------------------------
// Plain-JSON access (objects arrive as decoded JSON, not as checked Go structs)
// ---------------------------------------------------------------------------

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = <T>(value: readonly T[] | undefined | null): readonly T[] => (Array.isArray(value) ? value : []);
const present = (value: unknown): boolean => value !== undefined && value !== null;
const byteLength = (value: string): number => Buffer.byteLength(value, 'utf8');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON equality where absent and null are the same (what decoding into Go pointers and slices gives). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (!present(a) || !present(b)) return !present(a) && !present(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => jsonEqual(a[k], b[k]));
  }
  return a === b;
}

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
    hoisted: { schema: hoisted('schema'), subresources: hoisted('subresources'), additionalPrinterColumns: hoisted('additionalPrinterColumns'), selectableFields: hoisted('selectableFields') },
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

// ---------------------------------------------------------------------------
// Group, scope, names
// ---------------------------------------------------------------------------

function validateGroup(group: string): FieldError[] {
  const path = 'spec.group';
  if (!group) return [FieldError.required(path)];
  const errs = isDNS1123Subdomain(group);
  if (errs.length > 0) return [FieldError.invalid(path, group, errs.join(','))];
  return group.split('.').length < 2 ? [FieldError.invalid(path, group, 'should be a domain with at least one dot')] : [];
}

/** validateEnumStrings: Required when empty, NotSupported when not one of `accepted`. */
function validateEnum(path: string, value: string, accepted: string[]): FieldError[] {
  if (!value) return [FieldError.required(path)];
  return accepted.includes(value) ? [] : [FieldError.notSupported(path, value, accepted)];
}

function dns1035(path: string, value: string): FieldError[] {
  const errs = isDNS1035Label(value);
  return errs.length > 0 ? [FieldError.invalid(path, value, errs.join(','))] : [];
}

/** Kinds may be mixed case but must otherwise be DNS-1035 labels. */
function mixedCaseDNS1035(path: string, value: string): FieldError[] {
  const errs = isDNS1035Label(value.toLowerCase());
  return value && errs.length > 0 ? [FieldError.invalid(path, value, `may have mixed case, but should otherwise match: ${errs.join(',')}`)] : [];
}

/** ValidateCustomResourceDefinitionNames: format only (spec adds the required checks, status does not). */
export function validateNames(names: CustomResourceDefinitionNames | undefined, path: string): FieldError[] {
  const plural = str(names?.plural);
  const singular = str(names?.singular);
  const kind = str(names?.kind);
  const listKind = str(names?.listKind);
  const errs: FieldError[] = [];
  if (plural) errs.push(...dns1035(`${path}.plural`, plural));
  if (singular) errs.push(...dns1035(`${path}.singular`, singular));
  errs.push(...mixedCaseDNS1035(`${path}.kind`, kind), ...mixedCaseDNS1035(`${path}.listKind`, listKind));
  list(names?.shortNames).forEach((s, i) => errs.push(...dns1035(`${path}.shortNames[${i}]`, str(s))));
  // Equal kind and listKind would make list and item ambiguous when decoding.
  if (kind && kind === listKind) errs.push(FieldError.invalid(`${path}.listKind`, listKind, 'kind and listKind may not be the same'));
  list(names?.categories).forEach((c, i) => errs.push(...dns1035(`${path}.categories[${i}]`, str(c))));
  return errs;
}

function validateRequiredNames(names: CustomResourceDefinitionNames | undefined): FieldError[] {
  const required: Array<keyof CustomResourceDefinitionNames> = ['plural', 'singular', 'kind', 'listKind'];
  return required.filter((k) => !str(names?.[k])).map((k) => FieldError.required(`spec.names.${k}`));
}

// ---------------------------------------------------------------------------
// Versions
// ---------------------------------------------------------------------------

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function deprecationWarningErrors(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions'];
  if (warning === undefined) return [];
  const errs: string[] = [];
  if (byteLength(warning) > MAX_DEPRECATION_WARNING_LENGTH) errs.push(`must be <= ${MAX_DEPRECATION_WARNING_LENGTH} characters long`);
  if (warning.length === 0) errs.push('must not be an empty string');
  let offset = 0;
  for (const ch of warning) {
    if (!PRINTABLE.test(ch)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${offset}`);
      break;
    }
    offset += byteLength(ch);
  }
  return errs;
}

function validateDeprecationWarning(version: CustomResourceDefinitionVersion, path: string): FieldError[] {
  const warning = present(version.deprecationWarning) ? str(version.deprecationWarning) : undefined;
  return deprecationWarningErrors(version.deprecated === true, warning).map((m) => FieldError.invalid(`${path}.deprecationWarning`, warning, m));
}

function validateVersion(spec: InternalSpec, version: CustomResourceDefinitionVersion, path: string): FieldError[] {
  const subresources = spec.hoisted.subresources ? spec.versions[0].subresources : version.subresources;
  return [
    ...validateDeprecationWarning(version, path),
    ...validateSchema(perVersion(spec, version, 'schema'), hasStatus(subresources), `${path}.schema`),
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
// Schema (the CRD-level part; the schema itself is checked by @kube/apiextensions)
// ---------------------------------------------------------------------------

/** Non-zero fields allowed at the root when /status exists, so that properties[status] carries all of status' rules. */
const ROOT_FIELDS_IN_GO_ORDER: Array<[json: string, goName: string]> = [
  ['id', 'ID'], ['$schema', 'Schema'], ['$ref', 'Ref'], ['description', 'Description'], ['type', 'Type'], ['format', 'Format'],
  ['title', 'Title'], ['default', 'Default'], ['maximum', 'Maximum'], ['exclusiveMaximum', 'ExclusiveMaximum'], ['minimum', 'Minimum'],
  ['exclusiveMinimum', 'ExclusiveMinimum'], ['maxLength', 'MaxLength'], ['minLength', 'MinLength'], ['pattern', 'Pattern'],
  ['maxItems', 'MaxItems'], ['minItems', 'MinItems'], ['uniqueItems', 'UniqueItems'], ['multipleOf', 'MultipleOf'], ['enum', 'Enum'],
  ['maxProperties', 'MaxProperties'], ['minProperties', 'MinProperties'], ['required', 'Required'], ['items', 'Items'], ['allOf', 'AllOf'],
  ['oneOf', 'OneOf'], ['anyOf', 'AnyOf'], ['not', 'Not'], ['properties', 'Properties'], ['additionalProperties', 'AdditionalProperties'],
  ['patternProperties', 'PatternProperties'], ['dependencies', 'Dependencies'], ['additionalItems', 'AdditionalItems'],
  ['definitions', 'Definitions'], ['externalDocs', 'ExternalDocs'], ['example', 'Example'], ['nullable', 'Nullable'],
  ['x-kubernetes-preserve-unknown-fields', 'XPreserveUnknownFields'], ['x-kubernetes-embedded-resource', 'XEmbeddedResource'],
  ['x-kubernetes-int-or-string', 'XIntOrString'], ['x-kubernetes-list-map-keys', 'XListMapKeys'], ['x-kubernetes-list-type', 'XListType'],
  ['x-kubernetes-map-type', 'XMapType'], ['x-kubernetes-validations', 'XValidations'],
];

const ALLOWED_AT_ROOT = [
  'Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength', 'MinLength',
  'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties', 'ExternalDocs', 'Example',
  'XPreserveUnknownFields', 'XValidations',
];

/** Go's reflect zero value of a decoded field: false, 0, "" or absent. */
const isZero = (value: unknown): boolean => !present(value) || value === false || value === 0 || value === '';

/** The first offending root field, checked in Go struct order; at most one error, as kube breaks out of its loop. */
function validateRootForStatus(schema: JSONSchemaProps, path: string): FieldError[] {
  const fields = schema as Record<string, unknown>;
  for (const [json, goName] of ROOT_FIELDS_IN_GO_ORDER) {
    if (isZero(fields[json])) continue;
    if (goName === 'Type') {
      if (schema.type === 'object') continue;
      return [FieldError.invalid(`${path}.openAPIV3Schema.type`, schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
    }
    if (!ALLOWED_AT_ROOT.includes(goName)) {
      return [FieldError.invalid(`${path}.openAPIV3Schema`, schema, `only [${ALLOWED_AT_ROOT.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

/** validateCustomResourceDefinitionValidation for one schema location (spec.validation or versions[i].schema). */
function validateSchema(validation: CustomResourceValidation | undefined, statusEnabled: boolean, path: string): FieldError[] {
  const schema = validation?.openAPIV3Schema;
  if (!isRecord(schema)) return [];
  const schemaPath = `${path}.openAPIV3Schema`;
  const errs = statusEnabled ? validateRootForStatus(schema, path) : [];
  if (schema.nullable === true) errs.push(FieldError.forbidden(`${schemaPath}.nullable`, 'nullable cannot be true at the root'));
  errs.push(...validateStructuralSchema(schema, schemaPath), ...validateCustomResourceDefinitionSchema(schema, schemaPath));
  return errs;
}

/** SchemaHas(…Default != nil) over every nested schema. */
function schemaHasDefault(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(schemaHasDefault);
  if (!isRecord(schema)) return false;
  if (present(schema.default)) return true;
  const nested = [schema.items, schema.additionalProperties, schema.additionalItems, schema.not, schema.allOf, schema.anyOf, schema.oneOf];
  const maps = [schema.properties, schema.patternProperties, schema.definitions, schema.dependencies].filter(isRecord).flatMap((m) => Object.values(m));
  return [...nested, ...maps].some(schemaHasDefault);
}

// ---------------------------------------------------------------------------
// Subresources, printer columns, selectable fields
// ---------------------------------------------------------------------------

/** validateSimpleJSONPath: all kube really checks is the leading dot. */
function validateSimpleJSONPath(value: string, path: string): FieldError[] {
  if (value.length === 0) return [FieldError.invalid(path, value, 'must not be empty')];
  return value.startsWith('.') ? [] : [FieldError.invalid(path, value, 'must be a simple json path starting with .')];
}

function validateScalePath(value: string, path: string, prefixes: string[], message: string): FieldError[] {
  const errs = validateSimpleJSONPath(value, path);
  if (errs.length > 0) return errs;
  return prefixes.some((p) => value.startsWith(p)) ? [] : [FieldError.invalid(path, value, message)];
}

export function validateSubresources(subresources: CustomResourceSubresources | undefined, path: string): FieldError[] {
  const scale = subresources?.scale;
  if (!isRecord(scale)) return [];
  const errs: FieldError[] = [];
  const specReplicas = str(scale.specReplicasPath);
  const statusReplicas = str(scale.statusReplicasPath);
  const labelSelector = str(scale.labelSelectorPath);
  if (!specReplicas) errs.push(FieldError.required(`${path}.scale.specReplicasPath`));
  else errs.push(...validateScalePath(specReplicas, `${path}.scale.specReplicasPath`, ['.spec.'], 'should be a json path under .spec'));
  if (!statusReplicas) errs.push(FieldError.required(`${path}.scale.statusReplicasPath`));
  else errs.push(...validateScalePath(statusReplicas, `${path}.scale.statusReplicasPath`, ['.status.'], 'should be a json path under .status'));
  if (labelSelector) {
    errs.push(...validateScalePath(labelSelector, `${path}.scale.labelSelectorPath`, ['.spec.', '.status.'], 'should be a json path under either .spec or .status'));
  }
  return errs;
}

/** ValidateCustomResourceColumnDefinition (note kube's capitalised "JSONPath" path segment). */
export function validateColumn(column: CustomResourceColumnDefinition, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(column.type);
  const format = str(column.format);
  const jsonPath = str(column.jsonPath);
  if (!str(column.name)) errs.push(FieldError.required(`${path}.name`));
  const typeMessage = `must be one of ${PRINTER_COLUMN_TYPES.join(',')}`;
  if (!type) errs.push(FieldError.required(`${path}.type`, typeMessage));
  else if (!PRINTER_COLUMN_TYPES.includes(type)) errs.push(FieldError.invalid(`${path}.type`, type, typeMessage));
  if (format && !PRINTER_COLUMN_FORMATS.includes(format)) errs.push(FieldError.invalid(`${path}.format`, format, `must be one of ${PRINTER_COLUMN_FORMATS.join(',')}`));
  if (!jsonPath) errs.push(FieldError.required(`${path}.JSONPath`));
  else errs.push(...validateSimpleJSONPath(jsonPath, `${path}.JSONPath`));
  return errs;
}

function validateColumns(columns: readonly CustomResourceColumnDefinition[] | undefined, path: string): FieldError[] {
  return list(columns).flatMap((c, i) => validateColumn(isRecord(c) ? c : ({} as CustomResourceColumnDefinition), `${path}[${i}]`));
}

/** Where a selectable field's dot path leads in the schema (cel.ValidFieldPath without array notation). */
function resolveSelectablePath(jsonPath: string, root: JSONSchemaProps | undefined): { path: string[]; schema?: JSONSchemaProps } | string {
  if (jsonPath.includes('[')) return 'array notation is not allowed';
  if (!jsonPath.startsWith('.')) return `expected [ or . but got: ${jsonPath.split(/[.[\]]/)[0]}`;
  const steps = jsonPath.slice(1).split('.');
  if (steps[steps.length - 1] === '') return 'unexpected end of JSON path';
  let schema: JSONSchemaProps | undefined = root;
  const path: string[] = [];
  for (const step of steps) {
    const next = stepInto(schema, step);
    if (!next) return 'does not refer to a valid field';
    path.push(next.segment);
    schema = next.schema;
  }
  return { path, schema };
}

function stepInto(schema: JSONSchemaProps | undefined, name: string): { segment: string; schema: JSONSchemaProps } | undefined {
  if (schema?.properties && Object.keys(schema.properties).length > 0) {
    const property = schema.properties[name];
    return property ? { segment: `.${name}`, schema: property } : undefined;
  }
  const additional = schema?.additionalProperties;
  return isRecord(additional) ? { segment: `[${name}]`, schema: additional } : undefined;
}

/** ValidateCustomResourceSelectableFields: string, boolean or integer leaves outside metadata, unique, at most 8. */
export function validateSelectableFields(fields: readonly SelectableField[], schema: JSONSchemaProps | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((field, i) => {
    const jsonPath = str(field?.jsonPath);
    const fieldPath = `${path}[${i}].jsonPath`;
    if (!jsonPath) {
      errs.push(FieldError.required(fieldPath));
      return;
    }
    const resolved = resolveSelectablePath(jsonPath, schema);
    if (typeof resolved === 'string') {
      errs.push(FieldError.invalid(fieldPath, jsonPath, `is an invalid path: ${resolved}`));
      return;
    }
    if (resolved.path[0] === '.metadata') errs.push(FieldError.invalid(fieldPath, jsonPath, 'must not point to fields in metadata'));
    if (!['string', 'boolean', 'integer'].includes(str(resolved.schema?.type))) {
      errs.push(FieldError.invalid(fieldPath, jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    const key = resolved.path.join('');
    if (unique.has(key)) errs.push(FieldError.duplicate(fieldPath, jsonPath));
    unique.add(key);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(FieldError.tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

function validateVersionSelectableFields(spec: InternalSpec, version: CustomResourceDefinitionVersion, path: string): FieldError[] {
  const fields = list(perVersion(spec, version, 'selectableFields'));
  if (fields.length === 0) return [];
  const schema = version.schema?.openAPIV3Schema;
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
// Conversion (internal shape: spec.conversion.{strategy, webhookClientConfig, conversionReviewVersions})
// ---------------------------------------------------------------------------

function validateConversionReviewVersions(versions: readonly string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length === 0) return [FieldError.required(path)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((raw, i) => {
    const v = str(raw);
    if (seen.has(v)) {
      errs.push(FieldError.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    errs.push(...isDNS1035Label(v).map((m) => FieldError.invalid(`${path}[${i}]`, v, m)));
  });
  if (requireRecognized && !versions.some((v) => CONVERSION_REVIEW_VERSIONS.includes(v))) {
    errs.push(FieldError.invalid(path, versions, `must include at least one of ${CONVERSION_REVIEW_VERSIONS.join(', ')}`));
  }
  return errs;
}

function validateClientConfig(config: WebhookClientConfig, opts: ValidationOptions, path: string): FieldError[] {
  const hasURL = present(config.url);
  const errs: FieldError[] = [];
  if (hasURL === present(config.service)) errs.push(FieldError.required(path, 'exactly one of url or service is required'));
  else if (hasURL) errs.push(...validateWebhookURL(`${path}.url`, str(config.url), true));
  else if (config.service) errs.push(...validateWebhookService(`${path}.service`, config.service));
  const caBundle = str(config.caBundle);
  if (caBundle && !opts.allowInvalidCABundle) errs.push(...validateCABundle(`${path}.caBundle`, caBundle));
  return errs;
}

function validateConversion(conversion: CustomResourceConversion | undefined, opts: ValidationOptions): FieldError[] {
  if (!isRecord(conversion)) return [];
  const path = 'spec.conversion';
  const strategy = str(conversion.strategy);
  const clientConfig = conversion.webhook?.clientConfig;
  const reviewVersions = list(conversion.webhook?.conversionReviewVersions);
  const errs = validateEnum(`${path}.strategy`, strategy, ['None', 'Webhook']);
  if (strategy === 'Webhook') {
    if (!isRecord(clientConfig)) errs.push(FieldError.required(`${path}.webhookClientConfig`, 'required when strategy is set to Webhook'));
    else errs.push(...validateClientConfig(clientConfig, opts, `${path}.webhookClientConfig`));
    errs.push(...validateConversionReviewVersions(reviewVersions, opts.requireRecognizedConversionReviewVersion, `${path}.conversionReviewVersions`));
    return errs;
  }
  if (isRecord(clientConfig)) errs.push(FieldError.forbidden(`${path}.webhookClientConfig`, 'should not be set when strategy is not set to Webhook'));
  if (reviewVersions.length > 0) errs.push(FieldError.forbidden(`${path}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
  return errs;
}

// ---------------------------------------------------------------------------
// Spec
// ---------------------------------------------------------------------------

function validatePreserveUnknownFieldsUse(spec: CustomResourceDefinitionSpec | undefined): FieldError[] {
  if (spec?.preserveUnknownFields !== true) return [];
  const errs: FieldError[] = [];
  const schemas = versionsOf(spec).map((v) => v.schema?.openAPIV3Schema);
  if (schemas.some(schemaHasDefault)) errs.push(FieldError.invalid('spec.preserveUnknownFields', true, 'must be false in order to use defaults in the schema'));
  return errs;
}

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
    ...validatePreserveUnknownFieldsUse(crdSpec),
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
