/**
 * OpenAPI schemas → the field-management type model, as kube-openapi's schemaconv does for built-in
 * types and CRD structural schemas alike: properties become struct fields, additionalProperties the
 * element type, x-kubernetes-list-type / -list-map-keys / -map-type set list and map semantics, and
 * lists without them follow their strategic-merge-patch markers (patch strategy merge + merge key →
 * map keyed by it, merge alone → set); anything else is atomic.
 */
import type { JSONSchemaProps, SchemaComponents } from '@kube/apimachinery';
import { Schema, UNTYPED_ATOMIC, UNTYPED_DEDUCED, UNTYPED_TYPES, type Atom, type ElementRelationship, type ListType, type MapType, type ParseableType, type Scalar, type StructField, type TypeDef, type TypeRef } from './schema.types';
import type { Value } from './value.order';

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const RAW_EXTENSION = 'io.k8s.apimachinery.pkg.runtime.RawExtension';

export class SchemaConversionError extends Error {}

function refName(s: JSONSchemaProps): string | undefined {
  let ref = s.$ref;
  if (!ref && s.allOf?.length === 1 && s.allOf[0].$ref) ref = s.allOf[0].$ref;
  if (!ref) return undefined;
  const name = ref.slice(ref.lastIndexOf('/') + 1);
  return name || undefined;
}

function mapRelationship(s: JSONSchemaProps, errors: string[]): ElementRelationship | undefined {
  const v = s['x-kubernetes-map-type'];
  if (v === undefined) return undefined;
  if (v === 'atomic') return 'atomic';
  if (v === 'granular') return 'separable';
  errors.push(`unknown map type ${String(v)}`);
  return undefined;
}

function listRelationship(s: JSONSchemaProps, errors: string[]): { rel: ElementRelationship; keys?: string[] } {
  const listType = s['x-kubernetes-list-type'];
  if (listType !== undefined) {
    switch (listType) {
      case 'atomic':
        return { rel: 'atomic' };
      case 'set':
        return { rel: 'associative' };
      case 'map': {
        const keys = s['x-kubernetes-list-map-keys'];
        if (!keys) errors.push('missing map keys');
        return { rel: 'associative', keys: keys ? [...keys] : undefined };
      }
      default:
        errors.push(`unknown list type ${String(listType)}`);
        return { rel: 'atomic' };
    }
  }
  const strategy = s['x-kubernetes-patch-strategy'];
  if (typeof strategy === 'string' && strategy.split(',').includes('merge')) {
    const key = s['x-kubernetes-patch-merge-key'];
    return key ? { rel: 'associative', keys: [key] } : { rel: 'associative' };
  }
  return { rel: 'atomic' };
}

function primitive(type: string, format: string | undefined): Scalar {
  switch (type) {
    case 'integer':
    case 'number':
      return 'numeric';
    case 'boolean':
      return 'boolean';
    case 'string':
      return !format || format === 'byte' ? 'string' : 'untyped';
    default:
      return 'untyped';
  }
}

class Converter {
  readonly errors: string[] = [];

  atomOf(s: JSONSchemaProps, preserveUnknown: boolean): Atom {
    if (s['x-kubernetes-preserve-unknown-fields'] === true) preserveUnknown = true;
    switch (s.type ?? '') {
      case '':
        return { scalar: 'untyped', list: this.list(s, preserveUnknown), map: this.map(s, preserveUnknown) };
      case 'object':
        return { map: this.map(s, preserveUnknown) };
      case 'array':
        return { list: this.list(s, preserveUnknown) };
      case 'integer':
      case 'number':
      case 'boolean':
      case 'string':
        return { scalar: primitive(s.type as string, s.format) };
      default:
        this.errors.push(`unrecognized type: '${String(s.type)}'`);
        return { scalar: 'untyped' };
    }
  }

  ref(s: JSONSchemaProps, preserveUnknown: boolean): TypeRef {
    const name = refName(s);
    if (name) {
      const rel = mapRelationship(s, this.errors);
      return rel ? { namedType: name, elementRelationship: rel } : { namedType: name };
    }
    return this.atomOf(s, preserveUnknown);
  }

  private map(s: JSONSchemaProps, preserveUnknown: boolean): MapType {
    const props = s.properties ?? {};
    const fields: StructField[] = Object.entries(props).map(([name, member]) => {
      const f: StructField = { name, type: this.ref(member, preserveUnknown) };
      if (member.default !== undefined) f.default = member.default as Value;
      return f;
    });
    let elementType: TypeRef | undefined;
    const ap = s.additionalProperties;
    if (ap === undefined) {
      // An object without properties is free-form; with properties, unknown keys are not allowed.
      if (preserveUnknown || fields.length === 0) elementType = { namedType: UNTYPED_DEDUCED };
    } else if (typeof ap === 'object') elementType = this.ref(ap, preserveUnknown);
    else if (ap === true) elementType = { namedType: UNTYPED_DEDUCED };
    const m: MapType = { fields: fields.length ? fields : undefined, elementType };
    const rel = mapRelationship(s, this.errors);
    if (rel) m.elementRelationship = rel;
    return m;
  }

  private list(s: JSONSchemaProps, preserveUnknown: boolean): ListType {
    const { rel, keys } = listRelationship(s, this.errors);
    let elementType: TypeRef;
    if (s.items) elementType = Array.isArray(s.items) ? (this.errors.push('structural schema arrays must have exactly one member subtype'), { namedType: UNTYPED_DEDUCED }) : this.ref(s.items, preserveUnknown);
    else {
      if (s.type) this.errors.push('`items` must be specified on arrays');
      elementType = { namedType: UNTYPED_ATOMIC };
    }
    const l: ListType = { elementType, elementRelationship: rel };
    if (keys) l.keys = keys;
    return l;
  }
}

/** Every named OpenAPI component as a named type (schemaconv.ToSchemaFromOpenAPI). */
export function schemaFromOpenAPI(components: SchemaComponents, preserveUnknownFields = false): Schema {
  const c = new Converter();
  const types: TypeDef[] = [];
  for (const [name, s] of Object.entries(components)) {
    if (s.$ref) continue;
    if (name === QUANTITY || name === RAW_EXTENSION) types.push({ name, scalar: 'untyped' });
    else types.push({ name, ...c.atomOf(s, preserveUnknownFields) });
  }
  if (c.errors.length) throw new SchemaConversionError(c.errors.join('\n'));
  return new Schema([...types, ...UNTYPED_TYPES]);
}

const cache = new WeakMap<SchemaComponents, Schema>();

/** The type of one kind, `name` being its component (e.g. "io.k8s.api.core.v1.ConfigMap"); schemas are cached per components object. */
export function typeFromOpenAPI(components: SchemaComponents, name: string): ParseableType {
  let schema = cache.get(components);
  if (!schema) {
    schema = schemaFromOpenAPI(components);
    cache.set(components, schema);
  }
  if (!schema.has(name)) throw new SchemaConversionError(`no type found matching: ${name}`);
  return { schema, typeRef: { namedType: name } };
}
