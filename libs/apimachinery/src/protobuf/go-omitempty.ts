/**
 * What a built-in object looks like once kube has decoded it into its Go type and encoded it again: fields tagged
 * `omitempty` that hold their zero value (false, 0, "", an empty list or map, null) are gone. A client's
 * `paused: false` or `labels: {}`, a controller's `unavailableReplicas: 0`, never reach etcd or a response.
 * Pointers and fields without omitempty keep their zero; structs are never omitted (Go's omitempty leaves them).
 * The Go facts are the protobuf plans' (proto.schema.ts: api/proto/k8s.io/go-fields.json).
 */
import type { JsonObject, JsonValue } from '../types';
import { protoSchema, type FieldPlan, type MessagePlan } from './proto.schema';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function omittedZero(f: FieldPlan, v: JsonValue): boolean {
  if (f.repeated || f.map) return v === null || (Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0);
  // A struct is written even when zero (a zero metav1.Time as null).
  if (f.message) return false;
  return v === null || v === false || v === 0 || v === '';
}

/** Drops the omitempty zeros of `json`, an object of `plan`, in place, nested objects included. */
export function dropOmittedZeros(plan: MessagePlan, json: JsonObject): void {
  for (const f of plan.fields) {
    if (f.inline) {
      if (f.message) dropOmittedZeros(f.message, json);
      continue;
    }
    const v = json[f.json];
    if (v === undefined) continue;
    // A null pointer is nil (omitted); other fields without omitempty keep what Go writes for them.
    if (f.pointer ? v === null : !f.keepZero && omittedZero(f, v)) {
      delete json[f.json];
      continue;
    }
    const m = f.message;
    // Special messages (times, quantities, raw JSON, JSON schemas' unions…) have JSON forms of their own.
    if (!m || m.special || typeof v !== 'object' || v === null) continue;
    if (f.map) {
      for (const item of Object.values(v as JsonObject)) if (isObject(item)) dropOmittedZeros(m, item);
    } else if (Array.isArray(v)) {
      for (const item of v) if (isObject(item)) dropOmittedZeros(m, item);
    } else {
      dropOmittedZeros(m, v);
    }
  }
}

/**
 * The normalizer of a built-in kind (one with a protobuf message), looked up once; undefined for kinds Go does not
 * type (custom resources keep what they were given, as kube's unstructured objects do).
 */
export function omitEmptyNormalizer(apiVersion: string, kind: string): ((obj: JsonObject) => void) | undefined {
  const plan = protoSchema().kind(apiVersion, kind);
  return plan ? (obj) => dropOmittedZeros(plan, obj) : undefined;
}
