/**
 * Structural schema rules of apiextensions-apiserver (pkg/apiserver/schema: convert.go NewStructural,
 * validation.go ValidateStructural, complete.go), with kube's messages and its sorted error order.
 */
import { FieldError, type JSONSchemaProps } from '@kube/apimachinery';
import { childPath, indexPath, keyPath } from './field-path.format';
import { compileGoRegexp } from './go-regexp.engine';
import { asNode, isSet, itemsIsArray, itemsSchema, properties, setKeywords } from './schema.props';

/** Where a schema sits: rules about `type` and additionalProperties differ per level. */
type Level = 'root' | 'item' | 'field';

/** The default path of a CRD's schema in apiextensions.k8s.io/v1beta1 terms, as kube's own tests use. */
export const DEFAULT_SCHEMA_PATH = 'spec.validation.openAPIV3Schema';

/**
 * NewStructural's conversion errors: keywords a structural schema cannot express at all.
 * Returns the first one found (Go stops at the first), or undefined.
 */
export function structuralConversionError(s: JSONSchemaProps): string | undefined {
  return unsupportedFieldError(s) ?? valueValidationConversionError(s) ?? extensionsConversionError(s) ?? childrenConversionError(s);
}

function unsupportedFieldError(s: JSONSchemaProps): string | undefined {
  const n = asNode(s);
  if (n.id) return "OpenAPIV3Schema 'id' is not supported";
  if (n.$schema) return "OpenAPIV3Schema 'schema' is not supported";
  if (n.$ref) return "OpenAPIV3Schema '$ref' is not supported";
  if (n.patternProperties && Object.keys(n.patternProperties).length > 0) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (n.dependencies && Object.keys(n.dependencies).length > 0) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (n.additionalItems !== undefined && n.additionalItems !== null) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (n.definitions && Object.keys(n.definitions).length > 0) return "OpenAPIV3Schema 'definitions' is not supported";
  return undefined;
}

function valueValidationConversionError(s: JSONSchemaProps): string | undefined {
  const nested = [...(s.not ? [s.not] : []), ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  for (const n of nested) {
    const err = unsupportedFieldError(n) ?? valueValidationConversionError(n) ?? extensionsConversionError(n) ?? childrenConversionError(n);
    if (err) return err;
  }
  return undefined;
}

function extensionsConversionError(s: JSONSchemaProps): string | undefined {
  return s['x-kubernetes-preserve-unknown-fields'] === false ? "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined" : undefined;
}

function childrenConversionError(s: JSONSchemaProps): string | undefined {
  if (itemsIsArray(s)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  const children = [itemsSchema(s), ...properties(s).map(([, p]) => p)];
  if (typeof s.additionalProperties === 'object') children.push(s.additionalProperties);
  for (const c of children) {
    const err = c && structuralConversionError(c);
    if (err) return err;
  }
  return undefined;
}

/**
 * ValidateStructural: every field has a type (save int-or-string / preserve-unknown-fields), value
 * validations (allOf/anyOf/oneOf/not) only restrict what the structure already declares, metadata at the
 * root restricts only name and generateName. Errors are sorted by message, as kube sorts them.
 */
export function validateStructuralSchema(schema: JSONSchemaProps, fieldPath = DEFAULT_SCHEMA_PATH): FieldError[] {
  const conversionError = structuralConversionError(schema);
  if (conversionError) return [FieldError.invalid(fieldPath, '', conversionError)];
  const errs = [...invariants(schema, 'root', fieldPath), ...completeness(schema, fieldPath)];
  return errs.sort((a, b) => compareStrings(a.toString(), b.toString()));
}

function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

function invariants(s: JSONSchemaProps, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const items = itemsSchema(s);
  if (s.type === 'array' && !items) errs.push(FieldError.required(childPath(path, 'items'), 'must be specified'));
  if (items) errs.push(...invariants(items, 'item', childPath(path, 'items')));
  for (const [k, p] of properties(s)) errs.push(...invariants(p, 'field', keyPath(childPath(path, 'properties'), k)));
  errs.push(...additionalPropertiesInvariants(s, level, path));
  errs.push(...extensionInvariants(s, path));
  errs.push(...valueValidationInvariants(s, isIntOrStringAnyOf(s.anyOf), isIntOrStringAnyOf(s.allOf?.[0]?.anyOf), path));
  errs.push(...typeInvariants(s, level, path));
  errs.push(...typeMetaInvariants(s, level, path));
  const metadata = s.properties?.metadata;
  if (metadata) errs.push(...metadataInvariants(metadata, level === 'root' || isEmbedded(s), level, keyPath(childPath(path, 'properties'), 'metadata')));
  if (isEmbedded(s) && !s['x-kubernetes-preserve-unknown-fields'] && properties(s).length === 0) {
    errs.push(FieldError.required(childPath(path, 'properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

const isEmbedded = (s: JSONSchemaProps): boolean => s['x-kubernetes-embedded-resource'] === true;

function additionalPropertiesInvariants(s: JSONSchemaProps, level: Level, path: string): FieldError[] {
  if (s.additionalProperties === undefined || s.additionalProperties === null) return [];
  const errs: FieldError[] = [];
  const apPath = childPath(path, 'additionalProperties');
  if (level === 'root') errs.push(FieldError.forbidden(apPath, 'must not be used at the root'));
  if (typeof s.additionalProperties === 'object') errs.push(...invariants(s.additionalProperties, 'field', apPath));
  if (isEmbedded(s)) errs.push(FieldError.forbidden(apPath, 'must not be used if x-kubernetes-embedded-resource is set'));
  return errs;
}

function extensionInvariants(s: JSONSchemaProps, path: string): FieldError[] {
  if (!s['x-kubernetes-int-or-string']) return [];
  const errs: FieldError[] = [];
  if (s['x-kubernetes-preserve-unknown-fields']) {
    errs.push(FieldError.invalid(childPath(path, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (isEmbedded(s)) errs.push(FieldError.invalid(childPath(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  return errs;
}

const EMPTY_TYPE_DETAIL: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

function typeInvariants(s: JSONSchemaProps, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const typePath = childPath(path, 'type');
  if (isEmbedded(s) && s.type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    errs.push(s.type ? FieldError.invalid(typePath, s.type, detail) : FieldError.required(typePath, detail));
  } else if (!s.type && !s['x-kubernetes-int-or-string'] && !s['x-kubernetes-preserve-unknown-fields']) {
    errs.push(FieldError.required(typePath, EMPTY_TYPE_DETAIL[level]));
  }
  if (level === 'root' && s.type && s.type !== 'object') errs.push(FieldError.invalid(typePath, s.type, 'must be object at the root'));
  return errs;
}

/** kind and apiVersion, where a resource starts (root or embedded), must be strings. */
function typeMetaInvariants(s: JSONSchemaProps, level: Level, path: string): FieldError[] {
  if (level !== 'root' && !isEmbedded(s)) return [];
  const errs: FieldError[] = [];
  for (const name of ['kind', 'apiVersion']) {
    const p = s.properties?.[name];
    if (p && p.type !== 'string') errs.push(FieldError.invalid(childPath(keyPath(childPath(path, 'properties'), name), 'type'), p.type ?? '', 'must be string'));
  }
  return errs;
}

/** Root metadata may be `type: object` with name/generateName properties and a default; nothing else. */
function metadataInvariants(m: JSONSchemaProps, checkMetadata: boolean, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && m.type !== 'object') errs.push(FieldError.invalid(childPath(path, 'type'), m.type ?? '', 'must be object'));
  if (level !== 'root') return errs;
  const propNames = Object.keys(m.properties ?? {});
  const onlyNames = propNames.every((n) => n === 'name' || n === 'generateName');
  const rest = setKeywords(m).filter((k) => k !== 'type' && k !== 'default' && !(k === 'properties' && onlyNames));
  if (rest.length > 0) {
    errs.push(FieldError.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
  return errs;
}

/** anyOf: [{type: integer}, {type: string}] exactly: the int-or-string shape value validations may use. */
function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  if (!anyOf || anyOf.length !== 2) return false;
  const onlyType = (x: JSONSchemaProps, t: string): boolean => x.type === t && setKeywords(x).length === 1;
  return onlyType(anyOf[0], 'integer') && onlyType(anyOf[1], 'string');
}

function valueValidationInvariants(v: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) (v.anyOf ?? []).forEach((x, i) => errs.push(...nestedInvariants(x, false, false, indexPath(childPath(path, 'anyOf'), i))));
  (v.allOf ?? []).forEach((x, i) => errs.push(...nestedInvariants(x, skipFirstAllOfAnyOf && i === 0, false, indexPath(childPath(path, 'allOf'), i))));
  (v.oneOf ?? []).forEach((x, i) => errs.push(...nestedInvariants(x, false, false, indexPath(childPath(path, 'oneOf'), i))));
  if (v.not) errs.push(...nestedInvariants(v.not, false, false, childPath(path, 'not')));
  if (v.pattern) {
    const compiled = compileGoRegexp(v.pattern);
    if (!compiled.ok) errs.push(FieldError.invalid(childPath(path, 'pattern'), v.pattern, `must be a valid regular expression, but isn't: ${compiled.error}`));
  }
  return errs;
}

/** What a nested (value-validation-only) schema must leave to the structural part. */
const NESTED_FORBIDDEN: Array<[string, string]> = [
  ['type', 'must be empty to be structural'],
  ['default', 'must be undefined to be structural'],
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
  ['nullable', 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', 'must be false to be structural'],
  ['x-kubernetes-int-or-string', 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural'],
  ['x-kubernetes-list-type', 'must be undefined to be structural'],
  ['x-kubernetes-map-type', 'must be undefined to be structural'],
  ['x-kubernetes-validations', 'must be empty to be structural'],
];

function nestedInvariants(v: JSONSchemaProps, skipAnyOf: boolean, skipAllOfAnyOf: boolean, path: string): FieldError[] {
  const errs = valueValidationInvariants(v, skipAnyOf, skipAllOfAnyOf, path);
  const items = itemsSchema(v);
  if (items) errs.push(...nestedInvariants(items, false, false, childPath(path, 'items')));
  for (const [k, p] of properties(v)) errs.push(...nestedInvariants(p, false, false, keyPath(childPath(path, 'properties'), k)));
  // additionalProperties: false converts to nothing in Go; true or a schema is a nested additionalProperties.
  if (v.additionalProperties !== undefined && v.additionalProperties !== null && v.additionalProperties !== false) {
    errs.push(FieldError.forbidden(childPath(path, 'additionalProperties'), 'must be undefined to be structural'));
  }
  for (const [key, detail] of NESTED_FORBIDDEN) {
    if (key === 'x-kubernetes-preserve-unknown-fields' ? v[key] === true : isSet(v, key)) errs.push(FieldError.forbidden(childPath(path, key), detail));
  }
  if (v.properties?.metadata) errs.push(FieldError.forbidden(keyPath(childPath(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  return errs;
}

/** complete.go: every property/items a value validation mentions must exist in the structural part. */
function completeness(s: JSONSchemaProps, path: string): FieldError[] {
  return valueValidationCompleteness(s, s, path, path);
}

function valueValidationCompleteness(v: JSONSchemaProps, s: JSONSchemaProps, sPath: string, vPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (v.not) errs.push(...nestedCompleteness(v.not, s, sPath, childPath(vPath, 'not')));
  for (const [kw, list] of [['allOf', v.allOf], ['anyOf', v.anyOf], ['oneOf', v.oneOf]] as const) {
    (list ?? []).forEach((x, i) => errs.push(...nestedCompleteness(x, s, sPath, indexPath(childPath(vPath, kw), i))));
  }
  return errs;
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [FieldError.required(sPath, `because it is defined in ${vPath}`)];
  const errs = valueValidationCompleteness(v, s, sPath, vPath);
  const vItems = itemsSchema(v);
  if (vItems) errs.push(...nestedCompleteness(vItems, itemsSchema(s), childPath(sPath, 'items'), childPath(vPath, 'items')));
  for (const [k, vp] of properties(v)) {
    const sp = s.properties?.[k];
    const spPath = keyPath(childPath(sPath, 'properties'), k);
    const vpPath = keyPath(childPath(vPath, 'properties'), k);
    if (!sp) errs.push(FieldError.required(spPath, `because it is defined in ${vpPath}`));
    else errs.push(...nestedCompleteness(vp, sp, spPath, vpPath));
  }
  return errs;
}
