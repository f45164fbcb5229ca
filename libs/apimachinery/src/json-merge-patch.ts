/**
 * JSON merge patch (RFC 7386, application/merge-patch+json) with the details of evanphx/json-patch, the
 * library kube-apiserver uses: null deletes a key, objects merge recursively, anything else replaces,
 * and nulls inside newly added values are pruned. Inputs are never mutated.
 */
import type { JsonObject, JsonValue } from './types';

function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep copy of a JSON value (undefined members are dropped, as JSON would). */
export function cloneJson<T extends JsonValue>(v: T): T;
export function cloneJson(v: unknown): JsonValue;
export function cloneJson(v: unknown): JsonValue {
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : cloneJson(x)));
  if (isJsonObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = cloneJson(x);
    return out;
  }
  return v as JsonValue;
}

/** A copy of v without null members in any object (array elements that are null stay). */
function withoutNulls(v: unknown): JsonValue {
  if (Array.isArray(v)) return v.map((x) => (x === null || x === undefined ? null : withoutNulls(x)));
  if (isJsonObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) out[k] = withoutNulls(x);
    return out;
  }
  return v as JsonValue;
}

/** Merges patch into a copy of target (both objects). */
function mergeObjects(target: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === undefined) {
      delete out[key];
      continue;
    }
    const current = out[key];
    out[key] = isJsonObject(current) && isJsonObject(value) ? mergeObjects(current, value) : isJsonObject(current) ? cloneJson(value) : withoutNulls(value);
  }
  return out;
}

/**
 * Applies a JSON merge patch. A non-object patch replaces the whole document (RFC 7386); kube-apiserver
 * rejects such patches before getting here.
 */
export function applyMergePatch(original: unknown, patch: unknown): JsonValue {
  if (isJsonObject(patch)) return isJsonObject(original) ? mergeObjects(cloneJson(original) as JsonObject, patch) : withoutNulls(patch);
  if (Array.isArray(patch)) return withoutNulls(patch);
  return patch === undefined ? null : (patch as JsonValue);
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
}

const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function diffObjects(original: JsonObject, modified: JsonObject): JsonObject {
  const patch: JsonObject = {};
  for (const [key, value] of Object.entries(modified)) {
    if (value === undefined) continue;
    if (!Object.prototype.hasOwnProperty.call(original, key) || original[key] === undefined || kindOf(original[key]) !== kindOf(value)) {
      patch[key] = cloneJson(value);
    } else if (isJsonObject(value)) {
      const nested = diffObjects(original[key] as JsonObject, value);
      if (Object.keys(nested).length > 0) patch[key] = nested;
    } else if (!jsonEqual(original[key], value)) {
      patch[key] = cloneJson(value);
    }
  }
  for (const key of Object.keys(original)) {
    if (original[key] !== undefined && (!Object.prototype.hasOwnProperty.call(modified, key) || modified[key] === undefined)) patch[key] = null;
  }
  return patch;
}

/**
 * Two-way merge patch (evanphx CreateMergePatch): the patch that turns original into modified. Removed
 * keys become null, changed lists are sent whole. For non-object documents the patch is modified itself.
 */
export function createMergePatch(original: unknown, modified: unknown): JsonValue {
  if (isJsonObject(original) && isJsonObject(modified)) return diffObjects(original, modified);
  return cloneJson(modified);
}
