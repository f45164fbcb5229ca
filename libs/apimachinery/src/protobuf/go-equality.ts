/**
 * apiequality.Semantic.DeepEqual for the JSON forms of a built-in kind's values, which is how kube's controllers
 * decide whether a computed status differs from the stored one. They compare Go structs, where an absent field IS
 * its zero value: a computed `unavailableReplicas: 0` equals a stored object without it (the server drops omitempty
 * zeros, go-omitempty.ts), a nil list equals an empty one, and key order never counts. Comparing JSON as it is would
 * see differences Go does not, and send a no-op status update per sync.
 * Walks both values once, no copies: it runs on every sync of every controller.
 */
import type { JsonObject } from '../types';
import { protoSchema, type FieldPlan, type MessagePlan } from './proto.schema';

/** Compares two values of one Go type given as JSON (objects, or undefined/null for a nil pointer or absent struct). */
export type GoEquality = (a: unknown, b: unknown) => boolean;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON equality where an absent key equals one set to undefined (a spread's leftover) and key order does not count. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k in x) if (!jsonEqual(x[k], y[k])) return false;
  for (const k in y) if (!(k in x) && y[k] !== undefined) return false;
  return true;
}

/** The JSON keys a message's fields take, inlined structs' included: keys outside them are compared as plain JSON. */
const knownKeys = new WeakMap<MessagePlan, ReadonlySet<string>>();
function keysOf(plan: MessagePlan): ReadonlySet<string> {
  let keys = knownKeys.get(plan);
  if (!keys) {
    const set = new Set<string>();
    for (const f of plan.fields) {
      if (f.inline && f.message) for (const k of keysOf(f.message)) set.add(k);
      else set.add(f.json);
    }
    knownKeys.set(plan, (keys = set));
  }
  return keys;
}

/** Whether `v` decodes to the field's Go zero value (what an absent field is). */
function isZero(f: FieldPlan, v: unknown): boolean {
  // JSON null leaves a Go field as it was: zero.
  if (v === undefined || v === null) return true;
  // A nil and an empty list or map are equal to Semantic.DeepEqual.
  if (f.repeated || f.map) return Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0;
  // A set pointer differs from nil, whatever it points to.
  if (f.pointer) return false;
  const m = f.message;
  if (m) return !m.special && isObject(v) && messageIsZero(m, v);
  return v === false || v === 0 || v === '';
}

function messageIsZero(plan: MessagePlan, v: JsonObject): boolean {
  for (const f of plan.fields) {
    if (f.inline) {
      if (f.message && !messageIsZero(f.message, v)) return false;
    } else if (!isZero(f, v[f.json])) return false;
  }
  const keys = keysOf(plan);
  for (const k in v) if (!keys.has(k) && v[k] !== undefined) return false;
  return true;
}

function valueEqual(f: FieldPlan, a: unknown, b: unknown): boolean {
  const m = f.message;
  if (m && !m.special && isObject(a) && isObject(b)) return messageEqual(m, a, b);
  return jsonEqual(a, b);
}

function fieldEqual(f: FieldPlan, a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const za = isZero(f, a);
  const zb = isZero(f, b);
  if (za || zb) return za && zb;
  if (f.map) {
    if (!isObject(a) || !isObject(b)) return jsonEqual(a, b);
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => k in b && valueEqual(f, a[k], b[k]));
  }
  if (f.repeated) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return jsonEqual(a, b);
    return a.every((x, i) => valueEqual(f, x, b[i]));
  }
  return valueEqual(f, a, b);
}

function messageEqual(plan: MessagePlan, a: JsonObject, b: JsonObject): boolean {
  for (const f of plan.fields) {
    if (f.inline) {
      if (f.message && !messageEqual(f.message, a, b)) return false;
    } else if (!fieldEqual(f, a[f.json], b[f.json])) return false;
  }
  // Keys Go's type does not have (a newer field, a typo): equal only when both carry the same.
  const keys = keysOf(plan);
  for (const k in a) if (!keys.has(k) && !jsonEqual(a[k], b[k])) return false;
  for (const k in b) if (!keys.has(k) && !(k in a) && b[k] !== undefined) return false;
  return true;
}

/** Semantic.DeepEqual of two JSON objects of the message `plan` (undefined or null as the zero struct). */
export function goSemanticEqual(plan: MessagePlan, a: unknown, b: unknown): boolean {
  const x = a ?? {};
  const y = b ?? {};
  if (!isObject(x) || !isObject(y)) return jsonEqual(x, y);
  return messageEqual(plan, x, y);
}

/**
 * The equality of a built-in kind's objects, or of one of their top-level fields (`'status'`, `'spec'`). The plan
 * is looked up on the first comparison (the .proto files load then), so a module may build its equalities at import.
 * A kind Go does not type (a custom resource) gets plain JSON equality, as kube's unstructured objects do.
 */
export function goEquality(apiVersion: string, kind: string, field?: string): GoEquality {
  let equal: GoEquality | undefined;
  return (a, b) => {
    if (!equal) {
      let plan = protoSchema().kind(apiVersion, kind);
      if (plan && field !== undefined) plan = plan.fields.find((f) => f.json === field)?.message;
      const p = plan;
      equal = p ? (x, y) => goSemanticEqual(p, x, y) : (x, y) => jsonEqual(x ?? {}, y ?? {});
    }
    return equal(a, b);
  };
}
