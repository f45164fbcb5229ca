/**
 * A value together with its type (typed.TypedValue): validation, the set of fields it sets
 * (ToFieldSet), merging another value into it, comparing it with another, and removing or extracting
 * the items of a field set — the operations the merge Updater is built from.
 */
import { pathElementString, serializePathElement, type PathElement } from './fieldpath.path';
import { FieldSet } from './fieldpath.set';
import { findField, type ListType, type MapType, type ParseableType, type Scalar, type Schema, type TypeRef } from './schema.types';
import { atElement, errorf, TypedValueError, type ValidationError } from './typed.errors';
import { atomsEqual, deduceAtom, fieldType, handleAtom, identifyItem, listItemToPathElement, listValue, mapValue, resolveSchema, validateScalar, type AtomHandler } from './typed.helpers';
import { isMapValue, valuesEqual, type Value } from './value.order';

export interface Comparison {
  removed: FieldSet;
  modified: FieldSet;
  added: FieldSet;
}

export function comparisonIsSame(c: Comparison): boolean {
  return c.removed.isEmpty() && c.modified.isEmpty() && c.added.isEmpty();
}

export class TypedValue {
  constructor(
    readonly value: Value,
    readonly schema: Schema,
    readonly typeRef: TypeRef,
  ) {}

  /** typed.AsTyped: the value, validated against the type (duplicate list keys refused unless allowed). */
  static of(value: Value, type: ParseableType, opts: { allowDuplicates?: boolean } = {}): TypedValue {
    const tv = new TypedValue(value, type.schema, type.typeRef);
    const errs = new Validator(type.schema, opts.allowDuplicates ?? false).validate(value, type.typeRef);
    if (errs.length) throw new TypedValueError(errs);
    return tv;
  }

  with(value: Value): TypedValue {
    return new TypedValue(value, this.schema, this.typeRef);
  }

  toFieldSet(): FieldSet {
    const set = new FieldSet();
    const errs = new FieldSetWalker(this.schema, set).walk(this.value, this.typeRef, []);
    if (errs.length) throw new TypedValueError(errs);
    return set;
  }

  /** This value with `other` merged in: other's leaves win, associative lists and maps merge by item. */
  merge(other: TypedValue): TypedValue {
    const w = new MergingWalker(this.schema, this.typeRef, [], this.value, other.value);
    const errs = w.merge();
    if (errs.length) throw new TypedValueError(errs);
    return this.with(w.out === undefined ? null : w.out);
  }

  /** Fields removed, modified and added going from this value to `other`. */
  compare(other: TypedValue): Comparison {
    const comparison: Comparison = { removed: new FieldSet(), modified: new FieldSet(), added: new FieldSet() };
    const w = new CompareWalker(this.schema, this.typeRef, [], this.value, other.value, comparison);
    const errs = w.compare();
    if (errs.length) throw new TypedValueError(errs);
    return comparison;
  }

  /** The value without the items of `items` (and what is below them). */
  removeItems(items: FieldSet): TypedValue {
    return this.with(removeItemsWithSchema(this.value, items, this.schema, this.typeRef, false));
  }

  /** Only the items of `items`; with appendKeyFields, keyed items keep their key fields. */
  extractItems(items: FieldSet, opts: { appendKeyFields?: boolean } = {}): TypedValue {
    let set = items;
    if (opts.appendKeyFields) {
      try {
        const own = this.toFieldSet();
        const keyFields = new FieldSet();
        items.iterate((path) => {
          if (!own.has(path)) return;
          path.forEach((pe, i) => {
            if (pe.kind !== 'key') return;
            for (const f of pe.key) keyFields.insert([...path.slice(0, i + 1), { kind: 'field', name: f.name }]);
          });
        });
        set = items.union(keyFields);
      } catch {
        // As upstream: without a field set of the value, no key fields are added.
      }
    }
    return this.with(removeItemsWithSchema(this.value, set, this.schema, this.typeRef, true));
  }
}

// ---- validation ----

class Validator implements AtomHandler {
  private value: Value | undefined;

  constructor(
    private readonly schema: Schema,
    private readonly allowDuplicates: boolean,
  ) {}

  validate(value: Value | undefined, tr: TypeRef): ValidationError[] {
    const saved = this.value;
    this.value = value;
    try {
      return resolveSchema(this.schema, tr, value, this);
    } finally {
      this.value = saved;
    }
  }

  doScalar(t: Scalar): ValidationError[] {
    return validateScalar(t, this.value, '');
  }

  doList(t: ListType): ValidationError[] {
    const { list, error } = listValue(this.value as Value);
    if (error) return errorf(error);
    if (!list) return [];
    const errs: ValidationError[] = [];
    const observed = new Set<string>();
    for (let i = 0; i < list.length; i++) {
      const child = list[i];
      let pe: PathElement;
      if (t.elementRelationship !== 'associative') pe = { kind: 'index', index: i };
      else {
        try {
          pe = listItemToPathElement(this.schema, t, child);
        } catch (err) {
          errs.push(...errorf(`element ${i}: ${(err as Error).message}`));
          return errs;
        }
        const k = serializePathElement(pe);
        if (observed.has(k) && !this.allowDuplicates) errs.push(...errorf(`duplicate entries for key ${pathElementString(pe)}`));
        observed.add(k);
      }
      errs.push(...atElement(this.validate(child, t.elementType), pe));
    }
    return errs;
  }

  doMap(t: MapType): ValidationError[] {
    const { map, error } = mapValue(this.value);
    if (error) return errorf(error);
    if (!map) return [];
    const errs: ValidationError[] = [];
    for (const [key, val] of Object.entries(map)) {
      const sf = findField(t, key);
      if (!sf && !t.elementType) {
        errs.push(...atElement(errorf('field not declared in schema'), { kind: 'field', name: key }));
        break;
      }
      errs.push(...atElement(this.validate(val, sf?.type ?? t.elementType ?? {}), { kind: 'field', name: key }));
    }
    return errs;
  }
}

// ---- ToFieldSet ----

class FieldSetWalker implements AtomHandler {
  private value: Value | undefined;
  private path: PathElement[] = [];

  constructor(
    private readonly schema: Schema,
    private readonly set: FieldSet,
  ) {}

  walk(value: Value | undefined, tr: TypeRef, path: PathElement[]): ValidationError[] {
    const saved = { value: this.value, path: this.path };
    this.value = value;
    this.path = path;
    try {
      return resolveSchema(this.schema, tr, value, this);
    } finally {
      this.value = saved.value;
      this.path = saved.path;
    }
  }

  doScalar(): ValidationError[] {
    this.set.insert(this.path);
    return [];
  }

  doList(t: ListType): ValidationError[] {
    const { list } = listValue(this.value as Value);
    if (t.elementRelationship === 'atomic') {
      this.set.insert(this.path);
      return [];
    }
    if (!list) return [];
    const path = this.path;
    const pes = list.map((child) => {
      try {
        return listItemToPathElement(this.schema, t, child);
      } catch {
        // Upstream ignores the error here and goes on with an empty path element.
        return undefined;
      }
    });
    const seen = new Set<string>();
    const duplicates = new Set<string>();
    pes.forEach((pe) => {
      if (!pe) return;
      const k = serializePathElement(pe);
      if (seen.has(k)) {
        // Duplicated items are owned as a whole (the item, not its fields).
        if (!duplicates.has(k)) {
          this.set.insert([...path, pe]);
          duplicates.add(k);
        }
      } else seen.add(k);
    });
    const errs: ValidationError[] = [];
    list.forEach((child, i) => {
      const pe = pes[i];
      if (!pe || duplicates.has(serializePathElement(pe))) return;
      const childPath = [...path, pe];
      errs.push(...this.walk(child, t.elementType, childPath));
      this.set.insert(childPath);
    });
    return errs;
  }

  doMap(t: MapType): ValidationError[] {
    const { map } = mapValue(this.value);
    if (t.elementRelationship === 'atomic') {
      this.set.insert(this.path);
      return [];
    }
    if (!map) return [];
    const path = this.path;
    const errs: ValidationError[] = [];
    for (const [key, val] of Object.entries(map)) {
      const childPath = [...path, { kind: 'field', name: key } as const];
      const sf = findField(t, key);
      errs.push(...this.walk(val, sf?.type ?? t.elementType ?? {}, childPath));
      // Map entries (not struct fields) and empty or null values are owned themselves, not only their leaves.
      if (val === null || (isMapValue(val) && Object.keys(val).length === 0) || !sf) this.set.insert(childPath);
    }
    return errs;
  }
}

// ---- merge ----

class MergingWalker implements AtomHandler {
  out: Value | undefined;
  inLeaf = false;

  constructor(
    private readonly schema: Schema,
    private readonly typeRef: TypeRef,
    private readonly path: PathElement[],
    private readonly lhs: Value | undefined,
    private readonly rhs: Value | undefined,
  ) {}

  merge(prefix?: PathElement): ValidationError[] {
    if (this.lhs === undefined && this.rhs === undefined) return errorf('at least one of lhs and rhs must be provided');
    const a = this.schema.resolve(this.typeRef);
    if (!a) return errorf(`schema error: no type found matching: ${this.typeRef.namedType}`);
    const alhs = deduceAtom(a, this.lhs);
    const arhs = deduceAtom(a, this.rhs);
    const errs: ValidationError[] = [];
    if (this.rhs === undefined) errs.push(...handleAtom(alhs, this.typeRef, this));
    else if (this.lhs === undefined || atomsEqual(alhs, arhs)) errs.push(...handleAtom(arhs, this.typeRef, this));
    else {
      // Different kinds on each side: the left one is only checked, the right one decides.
      const copy = new MergingWalker(this.schema, this.typeRef, this.path, this.lhs, this.rhs);
      copy.inLeaf = this.inLeaf;
      errs.push(...handleAtom(alhs, this.typeRef, copy));
      errs.push(...handleAtom(arhs, this.typeRef, this));
    }
    return prefix ? atElement(errs, prefix) : errs;
  }

  private doLeaf(): void {
    if (this.inLeaf) return;
    this.inLeaf = true;
    this.out = this.rhs !== undefined ? this.rhs : this.lhs;
  }

  doScalar(t: Scalar): ValidationError[] {
    const lerrs = validateScalar(t, this.lhs, 'lhs: ');
    const rerrs = validateScalar(t, this.rhs, 'rhs: ');
    if (lerrs.length && rerrs.length) return [...lerrs, ...rerrs];
    this.doLeaf();
    return [];
  }

  private descend(pe: PathElement, tr: TypeRef, lhs: Value | undefined, rhs: Value | undefined): { out?: Value; errs: ValidationError[] } {
    const w = new MergingWalker(this.schema, tr, [...this.path, pe], lhs, rhs);
    const errs = w.merge(pe);
    return { out: w.out, errs };
  }

  doList(t: ListType): ValidationError[] {
    const lhs = this.lhs === undefined ? undefined : listValue(this.lhs).list;
    const rhs = this.rhs === undefined ? undefined : listValue(this.rhs).list;
    const empty = (!lhs || lhs.length === 0) && (!rhs || rhs.length === 0);
    if (t.elementRelationship === 'atomic' || empty) {
      this.doLeaf();
      return [];
    }
    if (!lhs && !rhs) return [];
    return this.visitListItems(t, lhs ?? [], rhs ?? []);
  }

  private index(t: ListType, list: Value[], allowDuplicates: boolean): { pes: PathElement[]; keys: string[]; observed: Map<string, Value>; errs: ValidationError[] } {
    const errs: ValidationError[] = [];
    const observed = new Map<string, Value>();
    const pes: PathElement[] = [];
    const keys: string[] = [];
    list.forEach((child, i) => {
      const id = identifyItem(this.schema, t, child, i, errs);
      if (!id) return;
      const { pe, k } = id;
      const found = observed.has(k);
      if (found && !allowDuplicates) {
        errs.push(...errorf(`duplicate entries for key ${pathElementString(pe)}`));
        return;
      }
      // A duplicated item of the live object merges as null: its copies are replaced as a whole.
      observed.set(k, found ? null : child);
      pes.push(pe);
      keys.push(k);
    });
    return { pes, keys, observed, errs };
  }

  /**
   * Ordering of merged items (typed/merge.go visitListItems): items of both lists follow the order
   * of the applied (right) list; items only on the left keep their relative position.
   */
  private visitListItems(t: ListType, lhs: Value[], rhs: Value[]): ValidationError[] {
    const r = this.index(t, rhs, false);
    const l = this.index(t, lhs, true);
    const errs = [...r.errs, ...l.errs];
    if (errs.length) return errs;
    const out: Value[] = [];
    const sharedOrder: string[] = r.keys.filter((k) => l.observed.has(k));
    let sharedAt = 0;
    let nextShared: string | undefined = sharedOrder[sharedAt++];
    const mergedRHS = new Set<string>();
    const mergeItem = (pe: PathElement, lChild: Value | undefined, rChild: Value | undefined): void => {
      // Errors of items are dropped here, as upstream does (they were reported by validation).
      const { out: o } = this.descend(pe, t.elementType, lChild, rChild);
      if (o !== undefined) out.push(o);
    };
    const lLen = l.pes.length;
    const rLen = r.pes.length;
    for (let lI = 0, rI = 0; lI < lLen || rI < rLen; ) {
      if (lI < lLen && rI < rLen) {
        const k = l.keys[lI];
        if (k === r.keys[rI]) {
          mergedRHS.add(k);
          mergeItem(l.pes[lI], l.observed.get(k), r.observed.get(k));
          lI++;
          rI++;
          nextShared = sharedOrder[sharedAt++];
          continue;
        }
        if (r.observed.has(k) && nextShared !== undefined && nextShared !== k) {
          lI++;
          continue;
        }
      }
      if (lI < lLen) {
        const k = l.keys[lI];
        if (!r.observed.has(k)) {
          mergeItem(l.pes[lI], lhs[lI], undefined);
          lI++;
          continue;
        } else if (mergedRHS.has(k)) lI++;
      }
      if (rI < rLen) {
        const k = r.keys[rI];
        mergedRHS.add(k);
        mergeItem(r.pes[rI], l.observed.get(k), r.observed.get(k));
        rI++;
        if (nextShared !== undefined && nextShared === k) nextShared = sharedOrder[sharedAt++];
      }
    }
    if (out.length > 0) this.out = out;
    return [];
  }

  doMap(t: MapType): ValidationError[] {
    const lhs = this.lhs === undefined ? undefined : mapValue(this.lhs).map;
    const rhs = this.rhs === undefined ? undefined : mapValue(this.rhs).map;
    const empty = (!lhs || Object.keys(lhs).length === 0) && (!rhs || Object.keys(rhs).length === 0);
    if (t.elementRelationship === 'atomic' || empty) {
      this.doLeaf();
      return [];
    }
    if (!lhs && !rhs) return [];
    const out: Record<string, Value> = {};
    const errs: ValidationError[] = [];
    const visit = (key: string, l: Value | undefined, r: Value | undefined): void => {
      const res = this.descend({ kind: 'field', name: key }, fieldType(t, key), l, r);
      errs.push(...res.errs);
      if (res.out !== undefined) out[key] = res.out;
    };
    if (lhs) for (const key of Object.keys(lhs)) visit(key, lhs[key], rhs?.[key]);
    if (rhs) for (const key of Object.keys(rhs)) if (!lhs || !(key in lhs)) visit(key, undefined, rhs[key]);
    if (Object.keys(out).length > 0) this.out = out;
    return errs;
  }
}

// ---- compare ----

class CompareWalker implements AtomHandler {
  inLeaf = false;

  constructor(
    private readonly schema: Schema,
    private readonly typeRef: TypeRef,
    private readonly path: PathElement[],
    private readonly lhs: Value | undefined,
    private readonly rhs: Value | undefined,
    private readonly comparison: Comparison,
  ) {}

  compare(prefix?: PathElement): ValidationError[] {
    if (this.lhs === undefined && this.rhs === undefined) return errorf('at least one of lhs and rhs must be provided');
    const a = this.schema.resolve(this.typeRef);
    if (!a) return errorf(`schema error: no type found matching: ${this.typeRef.namedType}`);
    const alhs = deduceAtom(a, this.lhs);
    const arhs = deduceAtom(a, this.rhs);
    const errs: ValidationError[] = [];
    if (this.rhs === undefined) errs.push(...handleAtom(alhs, this.typeRef, this));
    else if (this.lhs === undefined || atomsEqual(alhs, arhs)) errs.push(...handleAtom(arhs, this.typeRef, this));
    else {
      const copy = new CompareWalker(this.schema, this.typeRef, this.path, this.lhs, this.rhs, this.comparison);
      copy.inLeaf = this.inLeaf;
      errs.push(...handleAtom(alhs, this.typeRef, copy));
      errs.push(...handleAtom(arhs, this.typeRef, this));
    }
    if (!this.inLeaf) {
      if (this.lhs === undefined) this.comparison.added.insert(this.path);
      else if (this.rhs === undefined) this.comparison.removed.insert(this.path);
    }
    return prefix ? atElement(errs, prefix) : errs;
  }

  private doLeaf(): void {
    if (this.inLeaf) return;
    this.inLeaf = true;
    if (this.lhs === undefined) this.comparison.added.insert(this.path);
    else if (this.rhs === undefined) this.comparison.removed.insert(this.path);
    else if (!valuesEqual(this.rhs, this.lhs)) this.comparison.modified.insert(this.path);
  }

  doScalar(t: Scalar): ValidationError[] {
    const lerrs = validateScalar(t, this.lhs, 'lhs: ');
    const rerrs = validateScalar(t, this.rhs, 'rhs: ');
    if (lerrs.length && rerrs.length) return [...lerrs, ...rerrs];
    this.doLeaf();
    return [];
  }

  private item(pe: PathElement, tr: TypeRef, l: Value | undefined, r: Value | undefined): ValidationError[] {
    if (l === undefined && r !== undefined) {
      let below = this.comparison.added;
      for (const p of this.path) below = below.descend(p);
      return addedSubtree(this.schema, below, this.path, pe, tr, r, this.comparison);
    }
    return new CompareWalker(this.schema, tr, [...this.path, pe], l, r, this.comparison).compare(pe);
  }

  doList(t: ListType): ValidationError[] {
    const lhs = this.lhs === undefined ? undefined : listValue(this.lhs).list;
    const rhs = this.rhs === undefined ? undefined : listValue(this.rhs).list;
    const empty = (!lhs || lhs.length === 0) && (!rhs || rhs.length === 0);
    if (t.elementRelationship === 'atomic' || empty) {
      this.doLeaf();
      return [];
    }
    if (!lhs && !rhs) return [];
    return this.visitListItems(t, lhs ?? [], rhs ?? []);
  }

  /** Items matched by path element; duplicated items compare as whole items. */
  private visitListItems(t: ListType, lhs: Value[], rhs: Value[]): ValidationError[] {
    const errs: ValidationError[] = [];
    const all: { k: string; pe: PathElement }[] = [];
    const lValues = new Map<string, Value[]>();
    const rValues = new Map<string, Value[]>();
    lhs.forEach((child, i) => {
      const id = identifyItem(this.schema, t, child, i, errs);
      if (!id) return;
      const found = lValues.get(id.k);
      if (found) found.push(child);
      else {
        lValues.set(id.k, [child]);
        all.push(id);
      }
    });
    rhs.forEach((child, i) => {
      const id = identifyItem(this.schema, t, child, i, errs);
      if (!id) return;
      const found = rValues.get(id.k);
      if (found) found.push(child);
      else {
        rValues.set(id.k, [child]);
        if (!lValues.has(id.k)) all.push(id);
      }
    });
    for (const { k, pe } of all) {
      const lList = lValues.get(k) ?? [];
      const rList = rValues.get(k) ?? [];
      if (lList.length <= 1 && rList.length <= 1) {
        errs.push(...this.item(pe, t.elementType, lList[0], rList[0]));
      } else if (lList.length >= 2 && rList.length >= 2) {
        const same = lList.length === rList.length && lList.every((v, i) => valuesEqual(v, rList[i]));
        if (!same) this.comparison.modified.insert([...this.path, pe]);
      } else if (lList.length >= 2) {
        if (rList.length !== 0) errs.push(...this.item(pe, t.elementType, undefined, rList[0]));
        this.comparison.removed.insert([...this.path, pe]);
      } else {
        if (lList.length !== 0) errs.push(...this.item(pe, t.elementType, lList[0], undefined));
        this.comparison.added.insert([...this.path, pe]);
      }
    }
    return errs;
  }

  doMap(t: MapType): ValidationError[] {
    const lhs = this.lhs === undefined ? undefined : mapValue(this.lhs).map;
    const rhs = this.rhs === undefined ? undefined : mapValue(this.rhs).map;
    const empty = (!lhs || Object.keys(lhs).length === 0) && (!rhs || Object.keys(rhs).length === 0);
    if (t.elementRelationship === 'atomic' || empty) {
      this.doLeaf();
      return [];
    }
    if (!lhs && !rhs) return [];
    const errs: ValidationError[] = [];
    if (lhs) for (const key of Object.keys(lhs)) errs.push(...this.item({ kind: 'field', name: key }, fieldType(t, key), lhs[key], rhs?.[key]));
    if (rhs) for (const key of Object.keys(rhs)) if (!lhs || !(key in lhs)) errs.push(...this.item({ kind: 'field', name: key }, fieldType(t, key), undefined, rhs[key]));
    return errs;
  }
}

/**
 * What CompareWalker does for a value with nothing on the left (a new field: every node of it is added), for the
 * common nodes without the generic walk: a scalar is added, a map is added after its entries, each inserted
 * into `set` (the added set at `path`) rather than from the root. Anything else (lists, nulls, values whose
 * type does not match) goes through CompareWalker, errors included.
 */
function addedSubtree(schema: Schema, set: FieldSet, path: PathElement[], pe: PathElement, tr: TypeRef, value: Value, comparison: Comparison): ValidationError[] {
  const atom = schema.resolve(tr);
  if (atom?.scalar && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) {
    set.insertElement(pe);
    return [];
  }
  if (atom?.map && isMapValue(value)) {
    const map = atom.map;
    const keys = Object.keys(value);
    if (map.elementRelationship !== 'atomic' && keys.length > 0) {
      const below = set.descend(pe);
      const childPath = [...path, pe];
      let errs: ValidationError[] = [];
      for (const key of keys) {
        const e = addedSubtree(schema, below, childPath, { kind: 'field', name: key }, fieldType(map, key), value[key], comparison);
        if (e.length) errs = errs.concat(e);
      }
      set.insertElement(pe);
      return atElement(errs, pe);
    }
    set.insertElement(pe);
    return [];
  }
  return new CompareWalker(schema, tr, [...path, pe], undefined, value, comparison).compare(pe);
}

// ---- remove / extract ----

/**
 * typed/remove.go: walks the value dropping (or, extracting, keeping only) the items of `toRemove`.
 * An emptied map or list comes back as null, as upstream's does.
 */
function removeItemsWithSchema(val: Value, toRemove: FieldSet, schema: Schema, tr: TypeRef, extract: boolean): Value {
  const w = new RemovingWalker(val, schema, toRemove, extract);
  resolveSchema(schema, tr, val, w);
  return w.out === undefined ? null : w.out;
}

class RemovingWalker implements AtomHandler {
  out: Value | undefined;

  constructor(
    private readonly value: Value,
    private readonly schema: Schema,
    private readonly toRemove: FieldSet,
    private readonly extract: boolean,
  ) {}

  doScalar(): ValidationError[] {
    this.out = this.value;
    return [];
  }

  doList(t: ListType): ValidationError[] {
    if (!Array.isArray(this.value) || this.value.length === 0) return [];
    if (t.elementRelationship === 'atomic') {
      if (this.extract) this.out = this.value;
      return [];
    }
    const items: Value[] = [];
    for (const item of this.value) {
      let pe: PathElement;
      try {
        pe = listItemToPathElement(this.schema, t, item);
      } catch {
        // An item without identity matches nothing: removing keeps it, extracting drops it.
        if (!this.extract) items.push(item);
        continue;
      }
      if (this.toRemove.hasMember(pe)) {
        if (this.extract) items.push(removeItemsWithSchema(item, this.toRemove, this.schema, t.elementType, true));
        else continue;
      }
      const subset = this.toRemove.withPrefix(pe);
      let kept = item;
      if (!subset.isEmpty()) kept = removeItemsWithSchema(item, subset, this.schema, t.elementType, this.extract);
      else if (this.extract) continue;
      items.push(kept);
    }
    if (items.length > 0) this.out = items;
    return [];
  }

  doMap(t: MapType): ValidationError[] {
    if (!isMapValue(this.value)) return [];
    const m = this.value;
    const keys = Object.keys(m);
    if (keys.length === 0) return [];
    if (t.elementRelationship === 'atomic') {
      if (this.extract) this.out = m;
      return [];
    }
    const out: Record<string, Value> = {};
    for (const k of keys) {
      const pe: PathElement = { kind: 'field', name: k };
      const type = fieldType(t, k);
      if (this.toRemove.hasMember(pe)) {
        if (this.extract) out[k] = removeItemsWithSchema(m[k], this.toRemove, this.schema, type, true);
        continue;
      }
      const subset = this.toRemove.withPrefix(pe);
      if (!subset.isEmpty()) out[k] = removeItemsWithSchema(m[k], subset, this.schema, type, this.extract);
      else if (!this.extract) out[k] = m[k];
    }
    if (Object.keys(out).length > 0) this.out = out;
    return [];
  }
}

// ---- sets and schemas ----

/**
 * Set.EnsureNamedFieldsAreMembers: struct fields that only have children become members too, so that
 * removing a set removes the struct fields it names (map entries are left alone).
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, schema: Schema, tr: TypeRef): FieldSet {
  const atom = schema.resolve(tr);
  const members = set.members.slice();
  const out = new FieldSet(members, []);
  for (const node of set.children) {
    let childType: TypeRef = {};
    if (node.pe.kind === 'field' && atom?.map) {
      const sf = findField(atom.map, node.pe.name);
      if (sf) out.insert([node.pe]);
      childType = sf?.type ?? atom.map.elementType ?? {};
    } else if (node.pe.kind === 'key' && atom?.list) childType = atom.list.elementType;
    out.children.push({ pe: node.pe, set: ensureNamedFieldsAreMembers(node.set, schema, childType) });
  }
  return out;
}
