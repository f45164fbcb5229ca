/**
 * typed.ReconcileFieldSetWithSchema: a field set recorded when a list or map was granular, read
 * against a schema where it is atomic, owns the atomic node instead of its former children.
 */
import type { PathElement } from './fieldpath.path';
import { FieldSet } from './fieldpath.set';
import { findField, UNTYPED_DEDUCED, type ListType, type MapType, type Schema, type TypeRef } from './schema.types';
import type { TypedValue } from './typed.value';

function isUntypedDeducedRef(t: TypeRef | undefined): boolean {
  if (!t) return false;
  if (t.namedType !== undefined) return t.namedType === UNTYPED_DEDUCED;
  return t.scalar === 'untyped';
}

function isUntypedDeducedMap(m: MapType): boolean {
  return isUntypedDeducedRef(m.elementType) && m.fields === undefined;
}

interface Acc {
  toRemove?: FieldSet;
  toAdd?: FieldSet;
}

function walk(schema: Schema, tr: TypeRef, fieldSet: FieldSet | undefined, path: PathElement[], isAtomic: boolean, acc: Acc): void {
  const a = schema.resolve(tr);
  if (!a) return;
  if (a.map) return doMap(schema, a.map, fieldSet, path, isAtomic, acc);
  if (a.scalar) return;
  if (a.list) return doList(schema, a.list, fieldSet, path, isAtomic, acc);
}

function markAtomic(path: PathElement[], acc: Acc): void {
  const node = FieldSet.of(path);
  acc.toRemove = acc.toRemove ? acc.toRemove.union(node) : node;
  acc.toAdd = acc.toAdd ? acc.toAdd.union(FieldSet.of(path)) : FieldSet.of(path);
}

function visit(element: FieldSet, childType: (pe: PathElement) => TypeRef | undefined, schema: Schema, path: PathElement[], acc: Acc): void {
  const handle = (pe: PathElement, isMember: boolean): void => {
    const tr = childType(pe);
    if (!tr) return;
    const sub = element.child(pe);
    walk(schema, tr, sub, [...path, pe], isMember && !sub, acc);
  };
  for (const c of element.children) if (!element.hasMember(c.pe)) handle(c.pe, false);
  for (const pe of element.members) handle(pe, true);
}

function doList(schema: Schema, t: ListType, fieldSet: FieldSet | undefined, path: PathElement[], isAtomic: boolean, acc: Acc): void {
  if (!isAtomic && t.elementRelationship === 'atomic') {
    markAtomic(path, acc);
    return;
  }
  if (fieldSet) visit(fieldSet, () => t.elementType, schema, path, acc);
}

function doMap(schema: Schema, t: MapType, fieldSet: FieldSet | undefined, path: PathElement[], isAtomic: boolean, acc: Acc): void {
  if (isUntypedDeducedMap(t)) return;
  if (!isAtomic && t.elementRelationship === 'atomic') {
    if (fieldSet && fieldSet.size() > 0) markAtomic(path, acc);
    return;
  }
  if (!fieldSet) return;
  const childType = (pe: PathElement): TypeRef | undefined => {
    const tr = (pe.kind === 'field' ? findField(t, pe.name)?.type : undefined) ?? t.elementType;
    // Fields the schema does not know are left alone.
    return tr && (tr.namedType !== undefined || tr.scalar || tr.list || tr.map || tr.elementRelationship !== undefined) ? tr : undefined;
  };
  visit(fieldSet, childType, schema, path, acc);
}

/** The reconciled set, or undefined when nothing changes. */
export function reconcileFieldSetWithSchema(fieldSet: FieldSet, tv: TypedValue): FieldSet | undefined {
  const acc: Acc = {};
  walk(tv.schema, tv.typeRef, fieldSet, [], false, acc);
  if (!acc.toAdd && !acc.toRemove) return undefined;
  let out = fieldSet;
  if (acc.toRemove) out = out.recursiveDifference(acc.toRemove);
  if (acc.toAdd) out = out.union(acc.toAdd);
  return out;
}
