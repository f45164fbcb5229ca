/**
 * The type model field management works on (structured-merge-diff's schema package): named types made
 * of atoms — a scalar, a list (atomic, or associative: a set, or a map keyed by some fields of its
 * items), a map/struct (granular "separable", or atomic) — plus the untyped types used when a value
 * has no schema. Built from smd's own schema format or from OpenAPI (schema.openapi.ts).
 */
import type { Value } from './value.order';

export type Scalar = 'numeric' | 'string' | 'boolean' | 'untyped';
export type ElementRelationship = 'associative' | 'atomic' | 'separable';

/** A named type, or an inlined atom (its scalar/list/map written in the reference itself, as smd's YAML does). */
export interface TypeRef extends Atom {
  namedType?: string;
  /** Overrides the map/list relationship of the referenced type (x-kubernetes-map-type on a $ref). */
  elementRelationship?: ElementRelationship;
}

export interface Atom {
  scalar?: Scalar;
  list?: ListType;
  map?: MapType;
}

export interface ListType {
  elementType: TypeRef;
  elementRelationship?: ElementRelationship;
  keys?: string[];
}

export interface StructField {
  name: string;
  type: TypeRef;
  default?: Value;
}

export interface MapType {
  fields?: StructField[];
  /** Type of keys not declared in fields; undefined means such keys are not allowed. */
  elementType?: TypeRef;
  elementRelationship?: ElementRelationship;
}

/** A named type of smd's schema format (`types: [{name, scalar|list|map}]`). */
export interface TypeDef extends Atom {
  name: string;
}

const fieldIndexes = new WeakMap<MapType, Map<string, StructField>>();

/** Map.FindField: a declared field by name. */
export function findField(m: MapType, name: string): StructField | undefined {
  let index = fieldIndexes.get(m);
  if (!index) {
    index = new Map((m.fields ?? []).map((f) => [f.name, f]));
    fieldIndexes.set(m, index);
  }
  return index.get(name);
}

/** A set of named types; resolve() follows a TypeRef to its atom, applying relationship overrides. */
export class Schema {
  private readonly byName: Map<string, Atom>;
  private readonly overridden = new WeakMap<TypeRef, Atom | null>();

  constructor(types: readonly TypeDef[]) {
    this.byName = new Map();
    for (const t of types) {
      const { name, ...atom } = t;
      if (!this.byName.has(name)) this.byName.set(name, atom);
    }
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  resolve(tr: TypeRef): Atom | undefined {
    if (!tr.elementRelationship) return this.resolveNoOverrides(tr);
    const cached = this.overridden.get(tr);
    if (cached !== undefined) return cached ?? undefined;
    const base = this.resolveNoOverrides(tr);
    let result: Atom | null = null;
    if (base?.map) result = { map: { ...base.map, elementRelationship: tr.elementRelationship } };
    else if (base?.list) result = { list: { ...base.list, elementRelationship: tr.elementRelationship } };
    this.overridden.set(tr, result);
    return result ?? undefined;
  }

  private resolveNoOverrides(tr: TypeRef): Atom | undefined {
    if (tr.namedType !== undefined) return this.byName.get(tr.namedType);
    return tr;
  }
}

/** The name of the type used where a value has no schema: maps granular, lists atomic. */
export const UNTYPED_DEDUCED = '__untyped_deduced_';
/** Fully atomic untyped values (items of untyped lists, RawExtension). */
export const UNTYPED_ATOMIC = '__untyped_atomic_';

/** The two untyped types of typed.DeducedParseableType, added to every schema. */
export const UNTYPED_TYPES: readonly TypeDef[] = [
  {
    name: UNTYPED_ATOMIC,
    scalar: 'untyped',
    list: { elementType: { namedType: UNTYPED_ATOMIC }, elementRelationship: 'atomic' },
    map: { elementType: { namedType: UNTYPED_ATOMIC }, elementRelationship: 'atomic' },
  },
  {
    name: UNTYPED_DEDUCED,
    scalar: 'untyped',
    list: { elementType: { namedType: UNTYPED_ATOMIC }, elementRelationship: 'atomic' },
    map: { elementType: { namedType: UNTYPED_DEDUCED }, elementRelationship: 'separable' },
  },
];

/** A type of some schema: what a typed value needs to walk. */
export interface ParseableType {
  schema: Schema;
  typeRef: TypeRef;
}

/** The type of any value without a schema (typed.DeducedParseableType). */
export const DEDUCED_TYPE: ParseableType = { schema: new Schema(UNTYPED_TYPES), typeRef: { namedType: UNTYPED_DEDUCED } };
