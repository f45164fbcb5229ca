/**
 * The CRD-level checks of one schema location (validateCustomResourceDefinitionValidation): the root rules
 * that depend on /status, then the schema itself, which @kube/apiextensions checks.
 */
import { FieldError, type JSONSchemaProps } from '@kube/apimachinery';
import { validateCustomResourceDefinitionSchema, validateStructuralSchema } from '@kube/apiextensions';
import type { CustomResourceValidation } from './crd.types';
import { isRecord, present } from './plain-json.helpers';

/** JSONSchemaProps fields as (JSON name, Go name) in Go struct order, the order kube walks them in. */
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

/** Allowed at the root when /status exists, so that properties[status] alone carries every rule about status. */
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
export function validateSchema(validation: CustomResourceValidation | undefined, statusEnabled: boolean, path: string): FieldError[] {
  const schema = validation?.openAPIV3Schema;
  if (!isRecord(schema)) return [];
  const schemaPath = `${path}.openAPIV3Schema`;
  const errs = statusEnabled ? validateRootForStatus(schema, path) : [];
  if (schema.nullable === true) errs.push(FieldError.forbidden(`${schemaPath}.nullable`, 'nullable cannot be true at the root'));
  errs.push(...validateStructuralSchema(schema, schemaPath), ...validateCustomResourceDefinitionSchema(schema, schemaPath));
  return errs;
}

/** SchemaHas(…Default != nil) over every nested schema. */
export function schemaHasDefault(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(schemaHasDefault);
  if (!isRecord(schema)) return false;
  if (present(schema.default)) return true;
  const nested = [schema.items, schema.additionalProperties, schema.additionalItems, schema.not, schema.allOf, schema.anyOf, schema.oneOf];
  const maps = [schema.properties, schema.patternProperties, schema.definitions, schema.dependencies].filter(isRecord).flatMap((m) => Object.values(m));
  return [...nested, ...maps].some(schemaHasDefault);
}
