/** Shared steps of the typed walkers (typed/helpers.go): atom resolution and list item identity. */
import { PathElements, serializePathElement, type PathElement } from './fieldpath.path';
import { findField, type Atom, type ListType, type MapType, type Scalar, type Schema, type TypeRef } from './schema.types';
import { errorf, goFormat, goType, type ValidationError } from './typed.errors';
import { isMapValue, type Value } from './value.order';

export interface AtomHandler {
  doScalar(t: Scalar): ValidationError[];
  doList(t: ListType): ValidationError[];
  doMap(t: MapType): ValidationError[];
}

export const EMPTY_TYPE_REF: TypeRef = {};

function typeName(tr: TypeRef): string {
  return tr.namedType ?? 'inlined type';
}

/** Narrows an atom to the part that matches the value's kind (typed.deduceAtom). */
export function deduceAtom(atom: Atom, v: Value | undefined): Atom {
  if (v === undefined) return atom;
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') {
    if (atom.scalar) return { scalar: atom.scalar };
  } else if (Array.isArray(v)) {
    if (atom.list) return { list: atom.list };
  } else if (v !== null) {
    if (atom.map) return { map: atom.map };
  }
  return atom;
}

/** Deduced atoms of one atom are equal when they kept the same parts. */
export function atomsEqual(a: Atom, b: Atom): boolean {
  return a.scalar === b.scalar && a.list === b.list && a.map === b.map;
}

export function handleAtom(a: Atom, tr: TypeRef, h: AtomHandler): ValidationError[] {
  if (a.map) return h.doMap(a.map);
  if (a.scalar) return h.doScalar(a.scalar);
  if (a.list) return h.doList(a.list);
  return errorf(`schema error: invalid atom: ${tr.namedType !== undefined ? `named type: ${tr.namedType}` : 'inlined'}`);
}

export function resolveSchema(s: Schema, tr: TypeRef, v: Value | undefined, h: AtomHandler): ValidationError[] {
  const a = s.resolve(tr);
  if (!a) return errorf(`schema error: no type found matching: ${typeName(tr)}`);
  return handleAtom(deduceAtom(a, v), tr, h);
}

/** The type of a map entry: its declared field's, else the map's element type. */
export function fieldType(t: MapType, key: string): TypeRef {
  return findField(t, key)?.type ?? t.elementType ?? EMPTY_TYPE_REF;
}

export function validateScalar(t: Scalar, v: Value | undefined, prefix: string): ValidationError[] {
  if (v === undefined || v === null) return [];
  switch (t) {
    case 'numeric':
      if (typeof v !== 'number') return errorf(`${prefix}expected numeric (int or float), got ${goType(v)}`);
      break;
    case 'string':
      if (typeof v !== 'string') return errorf(`${prefix}expected string, got &value.valueUnstructured{Value:${goFormat(v)}}`);
      break;
    case 'boolean':
      if (typeof v !== 'boolean') return errorf(`${prefix}expected boolean, got &{${goFormat(v)}}`);
      break;
    case 'untyped':
      if (typeof v === 'object') return errorf(`${prefix}expected any scalar, got &{${goFormat(v)}}`);
      break;
    default:
      return errorf(`${prefix}unexpected scalar type in schema: ${String(t)}`);
  }
  return [];
}

/** A list value, undefined for null; anything else is an error. */
export function listValue(v: Value): { list?: Value[]; error?: string } {
  if (v === null) return {};
  if (!Array.isArray(v)) return { error: `expected list, got &{${goFormat(v)}}` };
  return { list: v };
}

export function mapValue(v: Value | undefined): { map?: Record<string, Value>; error?: string } {
  if (v === undefined) return { error: 'expected map, got nil' };
  if (v === null) return {};
  if (!isMapValue(v)) return { error: `expected map, got &{${goFormat(v)}}` };
  return { map: v };
}

function keyedItemToPathElement(s: Schema, list: ListType, child: Value): PathElement {
  if (child === null) throw new Error('associative list with keys may not have a null element');
  if (!isMapValue(child)) throw new Error('associative list with keys may not have non-map elements');
  const fields = [];
  for (const name of list.keys ?? []) {
    const v = child[name];
    if (v !== undefined) {
      fields.push({ name, value: v });
      continue;
    }
    const atom = s.resolve(list.elementType);
    if (!atom) throw new Error(`couldn't find default value for ${name}: invalid elementType for list`);
    if (!atom.map) throw new Error(`couldn't find default value for ${name}: associative list may not have non-map types`);
    const def = findField(atom.map, name)?.default;
    if (def === undefined || def === null) throw new Error(`associative list with keys has an element that omits key field "${name}" (and doesn't have default value)`);
    fields.push({ name, value: def });
  }
  return PathElements.key(fields);
}

function setItemToPathElement(child: Value): PathElement {
  if (Array.isArray(child)) throw new Error('not supported: associative list with lists as elements');
  if (child === null) throw new Error("associative list without keys has an element that's an explicit null");
  if (typeof child === 'object') throw new Error("associative list without keys has an element that's a map type");
  return PathElements.value(child);
}

/**
 * An item's path element and its canonical text (equal elements, equal text), or undefined with the
 * error recorded as upstream words it.
 */
export function identifyItem(s: Schema, list: ListType, child: Value, i: number, errs: ValidationError[]): { pe: PathElement; k: string } | undefined {
  try {
    const pe = listItemToPathElement(s, list, child);
    return { pe, k: serializePathElement(pe) };
  } catch (err) {
    errs.push(...errorf(`element ${i}: ${(err as Error).message}`));
    return undefined;
  }
}

/** The path element naming an item of an associative list (by its keys, or its value for a set). */
export function listItemToPathElement(s: Schema, list: ListType, child: Value): PathElement {
  if (list.elementRelationship !== 'associative') throw new Error('invalid indexing of non-associative list');
  if ((list.keys?.length ?? 0) > 0) return keyedItemToPathElement(s, list, child);
  return setItemToPathElement(child);
}
