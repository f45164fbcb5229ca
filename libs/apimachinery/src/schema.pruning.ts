import { resolveSchema, type JSONSchemaProps, type SchemaComponents } from './openapi.types';

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Drops fields the schema does not know, in place, and returns their paths ("spec.foo",
 * "spec.containers[0].bar") for fieldValidation Warn/Strict. Maps (additionalProperties) and
 * x-kubernetes-preserve-unknown-fields keep everything below them; a schema without structure keeps its value.
 */
export function pruneUnknownFields(obj: Json, schema: JSONSchemaProps | undefined, components: SchemaComponents): string[] {
  const unknown: string[] = [];
  prune(obj, schema, components, '', unknown, true);
  return unknown;
}

function prune(value: Json, schemaIn: JSONSchemaProps | undefined, components: SchemaComponents, path: string, unknown: string[], root: boolean): void {
  const schema = resolveSchema(schemaIn, components);
  if (!schema || schema['x-kubernetes-preserve-unknown-fields']) return;
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, i) => prune(item, schema.items, components, `${path}[${i}]`, unknown, false));
    return;
  }
  if (!isObject(value)) return;
  if (schema.properties) {
    for (const key of Object.keys(value)) {
      const child = schema.properties[key];
      const childPath = path ? `${path}.${key}` : key;
      if (child) prune(value[key], child, components, childPath, unknown, false);
      else if (root && (key === 'apiVersion' || key === 'kind')) continue;
      else {
        unknown.push(childPath);
        delete value[key];
      }
    }
    return;
  }
  if (isObject(schema.additionalProperties)) {
    for (const key of Object.keys(value)) prune(value[key], schema.additionalProperties, components, `${path}[${key}]`, unknown, false);
  }
}
