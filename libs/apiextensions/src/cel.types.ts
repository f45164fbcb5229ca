/**
 * CEL types of a structural schema, as k8s.io/apiserver/pkg/cel/common.SchemaDeclType derives them:
 * objects with properties become object types whose fields are the (escaped) property names, maps
 * (additionalProperties) become map<string, V>, int-or-string is dyn, string formats byte/duration/date/
 * date-time become bytes/duration/timestamp. At a resource root (and embedded resources) apiVersion,
 * kind, metadata.name and metadata.generateName are always visible.
 */
import type { JSONSchemaProps } from '@kube/apimachinery';
import { additionalPropertiesSchema, itemsSchema, properties } from './schema.props';

export type ScalarCelType = 'string' | 'int' | 'double' | 'bool' | 'bytes' | 'google.protobuf.Timestamp' | 'google.protobuf.Duration' | 'dyn';

export interface ObjectField {
  /** The JSON property name the CEL field reads. */
  jsonName: string;
  type: DeclType;
}

export type DeclType =
  | { kind: 'scalar'; cel: ScalarCelType; format?: string }
  | { kind: 'list'; elem: DeclType; listType?: string; mapKeys?: string[] }
  | { kind: 'map'; value: DeclType }
  | { kind: 'object'; name: string; fields: Map<string, ObjectField>; ctor: new () => object };

const RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

/**
 * cel.Escape: property names that are not CEL identifiers are rewritten (`foo-bar` → `foo__dash__bar`,
 * `namespace` → `__namespace__`); undefined when the name cannot be expressed (then the field is hidden).
 */
export function escapeCelName(ident: string): string | undefined {
  if (ident.length === 0 || /^[0-9]/.test(ident)) return undefined;
  if (RESERVED.has(ident)) return `__${ident}__`;
  if (/[^a-zA-Z0-9_\-./]/.test(ident)) return undefined;
  return ident.replace(/__|[-./]/g, (m) => ({ __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' })[m] as string);
}

/** The schema with kind, apiVersion and metadata{name, generateName} that rules at a resource root see. */
function withTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  const str: JSONSchemaProps = { type: 'string' };
  return {
    ...s,
    properties: {
      ...(s.properties ?? {}),
      kind: str,
      apiVersion: str,
      metadata: { type: 'object', properties: { name: str, generateName: str } },
    },
  };
}

/** Builds the CEL types of one schema tree, naming each object type uniquely within it. */
export class DeclTypeBuilder {
  private count = 0;
  /** Every object type built, in dependency order (fields before the objects that hold them). */
  readonly objects: Array<Extract<DeclType, { kind: 'object' }>> = [];
  /** The type of each schema node met, as its rules see `self`. */
  readonly bySchema = new Map<JSONSchemaProps, DeclType>();

  build(s: JSONSchemaProps | undefined, isResourceRoot: boolean): DeclType | undefined {
    if (!s) return undefined;
    const t = this.buildUncached(s, isResourceRoot);
    if (t && !this.bySchema.has(s)) this.bySchema.set(s, t);
    return t;
  }

  private buildUncached(s: JSONSchemaProps, isResourceRoot: boolean): DeclType | undefined {
    if (s['x-kubernetes-int-or-string']) return { kind: 'scalar', cel: 'dyn' };
    const schema = isResourceRoot ? withTypeAndObjectMeta(s) : s;
    switch (s.type) {
      case 'array':
        return this.listType(s);
      case 'object':
        return this.objectOrMapType(s, schema);
      case 'string':
        return { kind: 'scalar', cel: STRING_FORMAT_TYPES[s.format ?? ''] ?? 'string', format: s.format };
      case 'boolean':
        return { kind: 'scalar', cel: 'bool' };
      case 'number':
        return { kind: 'scalar', cel: 'double' };
      case 'integer':
        return { kind: 'scalar', cel: 'int' };
      default:
        return undefined;
    }
  }

  private listType(s: JSONSchemaProps): DeclType | undefined {
    const items = itemsSchema(s);
    const elem = items && this.build(items, items['x-kubernetes-embedded-resource'] === true);
    if (!elem) return undefined;
    return { kind: 'list', elem, listType: s['x-kubernetes-list-type'], mapKeys: s['x-kubernetes-list-map-keys'] };
  }

  private objectOrMapType(s: JSONSchemaProps, withMeta: JSONSchemaProps): DeclType | undefined {
    const ap = additionalPropertiesSchema(s);
    if (ap) {
      const value = this.build(ap, ap['x-kubernetes-embedded-resource'] === true);
      return value ? { kind: 'map', value } : undefined;
    }
    const fields = new Map<string, ObjectField>();
    for (const [name, prop] of properties(withMeta)) {
      const type = this.build(prop, prop['x-kubernetes-embedded-resource'] === true);
      const escaped = escapeCelName(name);
      if (type && escaped) fields.set(escaped, { jsonName: name, type });
    }
    const name = `Object${this.count++}`;
    // A class per object type: cel-js tells object types apart by constructor.
    const ctor = { [name]: class {} }[name];
    const t = { kind: 'object' as const, name, fields, ctor };
    this.objects.push(t);
    return t;
  }
}

const STRING_FORMAT_TYPES: Record<string, ScalarCelType> = {
  byte: 'bytes',
  duration: 'google.protobuf.Duration',
  date: 'google.protobuf.Timestamp',
  'date-time': 'google.protobuf.Timestamp',
};

/** The type's name in cel-js signature syntax. */
export function celTypeName(t: DeclType): string {
  switch (t.kind) {
    case 'scalar':
      return t.cel;
    case 'list':
      return `list<${celTypeName(t.elem)}>`;
    case 'map':
      return `map<string, ${celTypeName(t.value)}>`;
    case 'object':
      return t.name;
  }
}
