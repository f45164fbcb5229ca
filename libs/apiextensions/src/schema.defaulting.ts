/**
 * Structural defaulting (pkg/apiserver/schema/defaulting: algorithm.go, prunenulls.go, prune.go).
 */
import type { JSONSchemaProps } from '@kube/apimachinery';
import { deepCopyJson, isJsonMap } from './json.values';
import { pruneWithSchema } from './schema.pruning';
import { additionalPropertiesSchema, hasDefault, itemsSchema } from './schema.props';

/** A null where the schema does not allow one (and so a default may replace it). */
function isNonNullableNull(x: unknown, s: JSONSchemaProps | undefined): s is JSONSchemaProps {
  return x === null && !!s && !s.nullable;
}

/**
 * Fills in defaults, in place: for missing fields and for nulls in non-nullable fields, recursively
 * (objects, array items, additionalProperties maps). Defaults are deep-copied.
 */
export function applyDefaults(obj: unknown, schema: JSONSchemaProps | undefined): void {
  if (!schema) return;
  if (Array.isArray(obj)) {
    const items = itemsSchema(schema);
    obj.forEach((v, i) => {
      if (isNonNullableNull(v, items) && hasDefault(items)) obj[i] = deepCopyJson(items.default);
      applyDefaults(obj[i], items);
    });
    return;
  }
  if (!isJsonMap(obj)) return;
  for (const [k, prop] of Object.entries(schema.properties ?? {})) {
    if (!hasDefault(prop)) continue;
    if (!Object.prototype.hasOwnProperty.call(obj, k) || isNonNullableNull(obj[k], prop)) obj[k] = deepCopyJson(prop.default);
  }
  const ap = additionalPropertiesSchema(schema);
  const hasAP = schema.additionalProperties !== undefined && schema.additionalProperties !== null;
  for (const k of Object.keys(obj)) {
    const prop = schema.properties?.[k];
    if (prop) applyDefaults(obj[k], prop);
    else if (hasAP) {
      if (isNonNullableNull(obj[k], ap) && hasDefault(ap)) obj[k] = deepCopyJson(ap.default);
      applyDefaults(obj[k], ap);
    }
  }
}

function schemaForField(field: string, s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  return s?.properties?.[field] ?? (s ? additionalPropertiesSchema(s) : undefined);
}

/**
 * PruneNonNullableNullsWithoutDefaults: drops, in place, null values of fields that are neither nullable
 * nor defaulted (a null with a default is left for applyDefaults to replace).
 */
export function dropNullsInNonNullable(obj: unknown, schema: JSONSchemaProps | undefined): void {
  if (Array.isArray(obj)) {
    const items = schema ? itemsSchema(schema) : undefined;
    obj.forEach((v) => dropNullsInNonNullable(v, items));
    return;
  }
  if (!isJsonMap(obj)) return;
  for (const [k, v] of Object.entries(obj)) {
    const s = schemaForField(k, schema);
    if (v === null && s && !s.nullable && !hasDefault(s)) delete obj[k];
    else dropNullsInNonNullable(v, s);
  }
}

/**
 * PruneDefaults: a copy of the schema whose object/array defaults are pruned to what the schema at
 * their place specifies, so defaulting never brings back unknown fields.
 */
export function pruneDefaults(schema: JSONSchemaProps): JSONSchemaProps {
  const copy = deepCopyJson(schema);
  const visit = (s: JSONSchemaProps): void => {
    if (hasDefault(s) && typeof s.default === 'object') pruneWithSchema(s.default, s, s['x-kubernetes-embedded-resource'] === true, false);
    const items = itemsSchema(s);
    if (items) visit(items);
    for (const p of Object.values(s.properties ?? {})) visit(p);
    const ap = additionalPropertiesSchema(s);
    if (ap) visit(ap);
  };
  visit(copy);
  return copy;
}
