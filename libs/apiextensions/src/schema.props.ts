/**
 * A CRD's openAPIV3Schema as it arrives from users: JSONSchemaProps plus the JSON-Schema keywords kube
 * rejects (so they must be seen to be rejected), with Go's "is this field set" semantics.
 */
import type { JSONSchemaProps } from '@kube/apimachinery';

/** One x-kubernetes-validations entry. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** JSONSchemaProps with the keywords apiextensions knows but does not support or only carries along. */
export type SchemaNode = JSONSchemaProps & {
  id?: string;
  $schema?: string;
  title?: string;
  example?: unknown;
  externalDocs?: { description?: string; url?: string };
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
};

export function asNode(schema: JSONSchemaProps): SchemaNode {
  return schema as SchemaNode;
}

/** items as a single schema, or undefined when absent or an (unsupported) array of schemas. */
export function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const items: unknown = s.items;
  return items && !Array.isArray(items) ? (items as JSONSchemaProps) : undefined;
}

export function itemsIsArray(s: JSONSchemaProps): boolean {
  return Array.isArray(s.items as unknown);
}

/** additionalProperties' schema, when it is one (not a boolean). */
export function additionalPropertiesSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const ap = s.additionalProperties;
  return typeof ap === 'object' && ap !== null ? ap : undefined;
}

export function properties(s: JSONSchemaProps): Array<[string, JSONSchemaProps]> {
  return Object.entries(s.properties ?? {});
}

export function hasProperties(s: JSONSchemaProps): boolean {
  return Object.keys(s.properties ?? {}).length > 0;
}

export function validations(s: JSONSchemaProps): ValidationRule[] {
  return (s['x-kubernetes-validations'] ?? []) as ValidationRule[];
}

/** A default is set when it is present and not JSON null (Go's JSON{Object: nil}). */
export function hasDefault(s: JSONSchemaProps): boolean {
  return s.default !== undefined && s.default !== null;
}

/**
 * How Go's structural schema stores each keyword, which decides when it counts as specified:
 * pointers and JSON values whenever present, bools when true, strings/slices/maps when non-empty.
 */
const KEYWORD_KIND: Record<string, 'ptr' | 'bool' | 'string' | 'collection'> = {
  description: 'string',
  type: 'string',
  title: 'string',
  default: 'ptr',
  nullable: 'bool',
  externalDocs: 'ptr',
  example: 'ptr',
  'x-kubernetes-preserve-unknown-fields': 'ptr',
  'x-kubernetes-embedded-resource': 'bool',
  'x-kubernetes-int-or-string': 'bool',
  'x-kubernetes-list-map-keys': 'collection',
  'x-kubernetes-list-type': 'ptr',
  'x-kubernetes-map-type': 'ptr',
  'x-kubernetes-validations': 'collection',
  format: 'string',
  maximum: 'ptr',
  exclusiveMaximum: 'bool',
  minimum: 'ptr',
  exclusiveMinimum: 'bool',
  maxLength: 'ptr',
  minLength: 'ptr',
  pattern: 'string',
  maxItems: 'ptr',
  minItems: 'ptr',
  uniqueItems: 'bool',
  multipleOf: 'ptr',
  enum: 'collection',
  maxProperties: 'ptr',
  minProperties: 'ptr',
  required: 'collection',
  allOf: 'collection',
  oneOf: 'collection',
  anyOf: 'collection',
  not: 'ptr',
  items: 'ptr',
  properties: 'collection',
  additionalProperties: 'ptr',
};

/** Whether keyword `key` is set in s, by Go's zero-value rules; unknown keys never count. */
export function isSet(s: JSONSchemaProps, key: string): boolean {
  const value = (s as Record<string, unknown>)[key];
  switch (KEYWORD_KIND[key]) {
    case 'ptr':
      return value !== undefined && value !== null;
    case 'bool':
      return value === true;
    case 'string':
      return typeof value === 'string' && value.length > 0;
    case 'collection':
      if (Array.isArray(value)) return value.length > 0;
      return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
    default:
      return false;
  }
}

/** The keywords of s that the structural schema carries and that are set. */
export function setKeywords(s: JSONSchemaProps): string[] {
  return Object.keys(KEYWORD_KIND).filter((k) => isSet(s, k));
}

/** Walks every schema reachable through items, properties and additionalProperties (not value validations). */
export function forEachStructuralNode(s: JSONSchemaProps, visit: (node: JSONSchemaProps) => void): void {
  visit(s);
  const items = itemsSchema(s);
  if (items) forEachStructuralNode(items, visit);
  for (const [, p] of properties(s)) forEachStructuralNode(p, visit);
  const ap = additionalPropertiesSchema(s);
  if (ap) forEachStructuralNode(ap, visit);
}

const subtreeAnswers = new WeakMap<(node: JSONSchemaProps) => boolean, WeakMap<JSONSchemaProps, boolean>>();

/**
 * Whether `test` holds for s or a schema reachable from it (as forEachStructuralNode walks), computed once per
 * schema node and test: schemas in use are never changed, so a validation pass whose keyword appears nowhere in
 * a subtree can skip the object below it.
 */
export function anyStructuralNode(s: JSONSchemaProps, test: (node: JSONSchemaProps) => boolean): boolean {
  let answers = subtreeAnswers.get(test);
  if (!answers) subtreeAnswers.set(test, (answers = new WeakMap()));
  let answer = answers.get(s);
  if (answer === undefined) {
    const items = itemsSchema(s);
    const ap = additionalPropertiesSchema(s);
    answer = test(s) || (!!items && anyStructuralNode(items, test)) || Object.values(s.properties ?? {}).some((p) => anyStructuralNode(p, test)) || (!!ap && anyStructuralNode(ap, test));
    answers.set(s, answer);
  }
  return answer;
}
