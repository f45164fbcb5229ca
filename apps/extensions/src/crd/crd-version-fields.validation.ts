/** Per-version CRD fields: deprecationWarning, subresources, additionalPrinterColumns, selectableFields. */
import { FieldError, type JSONSchemaProps } from '@kube/apimachinery';
import type { CustomResourceColumnDefinition, CustomResourceDefinitionVersion, CustomResourceSubresources, SelectableField } from './crd.types';
import { byteLength, isRecord, list, present, str } from './plain-json.helpers';

const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const MAX_SELECTABLE_FIELDS = 8;
const MAX_DEPRECATION_WARNING_LENGTH = 256;

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

export function validateDeprecationWarning(version: CustomResourceDefinitionVersion, path: string): FieldError[] {
  const warning = present(version.deprecationWarning) ? str(version.deprecationWarning) : undefined;
  return deprecationWarningErrors(version.deprecated === true, warning).map((m) => FieldError.invalid(`${path}.deprecationWarning`, warning, m));
}

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
export function validateColumn(column: Partial<CustomResourceColumnDefinition>, path: string): FieldError[] {
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

export function validateColumns(columns: readonly CustomResourceColumnDefinition[] | undefined, path: string): FieldError[] {
  return list(columns).flatMap((c, i) => validateColumn(isRecord(c) ? c : {}, `${path}[${i}]`));
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
  // field.TooMany prints the count as the value ("Too many: 9: must have at most 8 items").
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(new FieldError('FieldValueTooMany', path, `must have at most ${MAX_SELECTABLE_FIELDS} items`, unique.size, true));
  return errs;
}
