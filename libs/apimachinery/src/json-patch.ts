/**
 * JSON patch (RFC 6902, application/json-patch+json) with kube-apiserver's answers
 * (apiserver pkg/endpoints/handlers/patch.go, jsonPatcher.applyJSPatch):
 * - a body that does not decode as a list of operations → 400 "error decoding patch: json: cannot unmarshal …";
 * - more than 10000 operations → 413 "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got N";
 * - any operation that fails (unknown op, missing path, failed test) → 422 Invalid with the generic message
 *   "the server rejected our request due to an error in our request" (kube drops the library's detail).
 * Operations are applied by fast-json-patch; like evanphx/json-patch, a missing "value" means null.
 */
import { applyOperation, getValueByPointer, type Operation } from 'fast-json-patch';
import { cloneJson } from './json-merge-patch';
import { Errors, StatusError } from './status.errors';
import type { JsonObject, JsonValue } from './types';

/** apiserver's maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/**
 * Not in kube (evanphx v4 has no limit there): caps the bytes that "copy" operations may add, so 10000
 * copies of a growing document cannot exhaust memory. 3 MiB matches kube's request body limit.
 */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

export interface JsonPatchOptions {
  maxOperations?: number;
  maxCopyBytes?: number;
}

const JSON_PATCH_OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

const jsonKind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const isJsonObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

const decodeError = (detail: string): StatusError => Errors.badRequest(`error decoding patch: json: cannot unmarshal ${detail}`);

/**
 * The 422 kube answers when a JSON patch operation (or a strategic merge of lists of lists) cannot be
 * applied: NewGenericServerResponse(422) replaces the detail with a generic message, kept here as `cause`.
 */
export function unprocessablePatchError(cause?: unknown): StatusError {
  const err = new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
  if (cause !== undefined) (err as Error & { cause?: unknown }).cause = cause;
  return err;
}

/** kube decodes the body into []jsonPatchOp first; this reproduces its type errors. */
function decodeOperations(ops: unknown): Array<JsonObject | null> {
  if (!Array.isArray(ops)) throw decodeError(`${jsonKind(ops)} into Go value of type []handlers.jsonPatchOp`);
  for (const op of ops) {
    if (op === null) continue;
    if (!isJsonObject(op)) throw decodeError(`${jsonKind(op)} into Go value of type handlers.jsonPatchOp`);
    for (const field of ['op', 'path', 'from'] as const) {
      const v = op[field];
      if (v !== undefined && v !== null && typeof v !== 'string') throw decodeError(`${jsonKind(v)} into Go struct field jsonPatchOp.${field} of type string`);
    }
  }
  return ops as Array<JsonObject | null>;
}

/** Turns a decoded operation into a fast-json-patch one; anything evanphx would refuse at apply time is a 422. */
function toOperation(raw: JsonObject | null): Operation {
  if (raw === null || typeof raw.op !== 'string' || !JSON_PATCH_OPS.has(raw.op)) throw unprocessablePatchError(new Error(`Unexpected kind: ${raw?.op ?? ''}`));
  if (typeof raw.path !== 'string') throw unprocessablePatchError(new Error('operation missing path field'));
  const op: Record<string, unknown> = { op: raw.op, path: raw.path };
  if (raw.op === 'move' || raw.op === 'copy') {
    if (typeof raw.from !== 'string') throw unprocessablePatchError(new Error('operation missing from field'));
    op.from = raw.from;
  }
  // Values are copied so the result never shares structure with the request body.
  if (raw.op === 'add' || raw.op === 'replace' || raw.op === 'test') op.value = raw.value === undefined ? null : cloneJson(raw.value);
  return op as unknown as Operation;
}

/** evanphx accepts {"op":"test","value":null} for a missing member of an existing object or array. */
function isNullTestOfMissingMember(doc: JsonValue, op: Operation): boolean {
  if (op.op !== 'test' || op.value !== null || op.path === '') return false;
  const slash = op.path.lastIndexOf('/');
  try {
    const parent: unknown = getValueByPointer(doc, op.path.slice(0, slash));
    return typeof parent === 'object' && parent !== null && getValueByPointer(doc, op.path) === undefined;
  } catch {
    return false;
  }
}

function copiedBytes(doc: JsonValue, op: Operation): number {
  if (op.op !== 'copy') return 0;
  try {
    return JSON.stringify(getValueByPointer(doc, op.from) ?? null).length;
  } catch {
    return 0; // an unresolvable "from" fails when the operation is applied
  }
}

/**
 * Applies a JSON patch to a copy of doc and returns the result. Neither input is mutated.
 * Throws a StatusError (400, 413 or 422) the way kube-apiserver answers.
 */
export function applyJsonPatch(doc: unknown, ops: unknown, options: JsonPatchOptions = {}): JsonValue {
  const decoded = decodeOperations(ops);
  const maxOps = options.maxOperations ?? MAX_JSON_PATCH_OPERATIONS;
  if (decoded.length > maxOps) {
    throw Errors.requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${maxOps}, got ${decoded.length}`);
  }
  const maxCopy = options.maxCopyBytes ?? MAX_JSON_PATCH_COPY_BYTES;
  let result = cloneJson(doc);
  let copied = 0;
  decoded.forEach((raw, index) => {
    const op = toOperation(raw);
    if (isNullTestOfMissingMember(result, op)) return;
    copied += copiedBytes(result, op);
    if (copied > maxCopy) throw Errors.requestEntityTooLarge(`the values copied by a JSON patch exceed ${maxCopy} bytes`);
    try {
      result = applyOperation(result, op, true, true, true, index).newDocument;
    } catch (err) {
      throw unprocessablePatchError(err);
    }
  });
  return result;
}
