/**
 * The Go type a typed kind's OpenAPI schema describes, as encoding/json decodes a request body into it: what
 * goDecodeError checks a built-in (or an SDK server's typed) object against. Only what Go would refuse is typed;
 * whatever the schema leaves open (int-or-string, quantities, raw JSON, preserved unknown fields) stays `any`.
 */
import { GO_ANY, GO_BOOL, GO_INT32, GO_INT64, GO_STRING, GO_TIME, goMap, goSlice, type GoType } from './go-json.typecheck';
import type { JSONSchemaProps, SchemaComponents } from './openapi.types';

/** Types whose UnmarshalJSON reads a JSON string (metav1.Time, MicroTime). */
const TIME_TYPES = new Set(['io.k8s.apimachinery.pkg.apis.meta.v1.Time', 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime']);

/** Types whose UnmarshalJSON takes any JSON (or a choice the schema cannot say): never a decode error here. */
const ANY_TYPES = new Set([
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Duration',
]);

/** How Go prints a named type: the last package element and the type (`io.k8s.api.core.v1.ConfigMap` → `v1.ConfigMap`). */
function goTypeName(definition: string): string {
  const parts = definition.split('.');
  return parts.length > 1 ? `${parts[parts.length - 2]}.${parts[parts.length - 1]}` : definition;
}

const byComponents = new WeakMap<SchemaComponents, Map<string, GoType>>();

/** The Go type of the component `name` (built once per component set; recursive schemas become cyclic types). */
export function goTypeOfSchema(name: string, components: SchemaComponents): GoType {
  let cache = byComponents.get(components);
  if (!cache) byComponents.set(components, (cache = new Map()));
  return named(name, components, cache);
}

function named(name: string, components: SchemaComponents, cache: Map<string, GoType>): GoType {
  const cached = cache.get(name);
  if (cached) return cached;
  if (TIME_TYPES.has(name)) return GO_TIME;
  if (ANY_TYPES.has(name)) return GO_ANY;
  const schema = components[name];
  if (!schema || !hasOwnType(schema) || schema.type !== 'object' || !schema.properties) {
    const t = schema ? of(schema, components, cache) : GO_ANY;
    cache.set(name, t);
    return t;
  }
  // A struct: registered before its fields are built, so that a field of its own type refers back to it.
  const fields: Record<string, GoType> = {};
  const t: GoType = { kind: 'struct', name: goTypeName(name), fields };
  cache.set(name, t);
  for (const [field, prop] of Object.entries(schema.properties)) fields[field] = of(prop, components, cache);
  return t;
}

/** A schema that says what it is: no choice (oneOf/anyOf), no preserved or int-or-string escape. */
function hasOwnType(s: JSONSchemaProps): boolean {
  return !!s.type && !s.oneOf && !s.anyOf && !s['x-kubernetes-preserve-unknown-fields'] && !s['x-kubernetes-int-or-string'];
}

function of(s: JSONSchemaProps, components: SchemaComponents, cache: Map<string, GoType>): GoType {
  if (s.$ref) return named(s.$ref.slice(s.$ref.lastIndexOf('/') + 1), components, cache);
  if (s.allOf?.length === 1 && !s.type && !s.properties) return of(s.allOf[0], components, cache);
  if (!hasOwnType(s)) return GO_ANY;
  switch (s.type) {
    case 'string':
      return s.format === 'date-time' ? GO_TIME : GO_STRING;
    case 'boolean':
      return GO_BOOL;
    case 'integer':
      return s.format === 'int32' ? GO_INT32 : GO_INT64;
    case 'number':
      return { kind: 'float64' };
    case 'array':
      return goSlice(s.items ? of(s.items, components, cache) : GO_ANY);
    case 'object':
      if (s.properties) return { kind: 'struct', name: 'struct', fields: Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, of(p, components, cache)])) };
      if (s.additionalProperties && typeof s.additionalProperties === 'object') return goMap(of(s.additionalProperties, components, cache));
      // An object the schema does not describe (map[string]interface{}, an empty struct): any JSON object.
      return GO_ANY;
    default:
      return GO_ANY;
  }
}
