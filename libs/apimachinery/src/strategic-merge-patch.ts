/**
 * Strategic merge patch (application/strategic-merge-patch+json) as kube-apiserver applies it: a port of
 * StrategicMergeMapPatch from k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (v0.33), with the
 * patch metadata that Go reads from struct tags taken from the OpenAPI schema instead
 * (x-kubernetes-patch-merge-key, x-kubernetes-patch-strategy).
 *
 * Semantics, as in kube: maps merge recursively and null deletes a key; lists whose strategy is "merge"
 * merge by their merge key, or are set-unions for primitives; other lists are replaced. A merged list holds
 * the patch's elements in patch order with the live-only elements interleaved by their live order, so a
 * brand-new element lands first unless "$setElementOrder" says otherwise. Directives: "$patch": replace|delete
 * in maps, "$patch": replace|delete in list elements, "$deleteFromPrimitiveList/<field>",
 * "$setElementOrder/<field>" and "$retainKeys". "$patch": merge is rejected, as kube rejects it.
 *
 * Errors are StatusErrors mapped like the apiserver's interpretStrategicMergePatchError: malformed
 * directives → 400 BadRequest, lists of lists → 422 Invalid, anything else (e.g. a list element without
 * its merge key) → 500 with the library's message ("map: map[image:nginx] does not contain declared merge key: name").
 */
import { cloneJson } from './json-merge-patch';
import { unprocessablePatchError } from './json-patch';
import { resolveSchema, type JSONSchemaProps, type SchemaComponents } from './openapi.types';
import { Errors, StatusError } from './status.errors';
import type { JsonObject, JsonValue } from './types';

const DIRECTIVE_MARKER = '$patch';
const DELETE_DIRECTIVE = 'delete';
const REPLACE_DIRECTIVE = 'replace';
const MERGE_DIRECTIVE = 'merge';
const RETAIN_KEYS_STRATEGY = 'retainKeys';
const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

// ---- errors (mergepatch.Err* and how the apiserver answers them) ----

type SmpErrorKind = 'BadRequest' | 'Invalid' | 'Unknown';

class SmpError extends Error {
  constructor(
    message: string,
    readonly kind: SmpErrorKind = 'Unknown',
  ) {
    super(message);
  }
}

const errBadJSONDoc = (): SmpError => new SmpError('invalid JSON document', 'BadRequest');
const errNoListOfLists = (): SmpError => new SmpError('lists of lists are not supported', 'Invalid');
const errBadPatchFormatForPrimitiveList = (): SmpError => new SmpError('invalid patch format of primitive list', 'BadRequest');
const errBadPatchFormatForRetainKeys = (): SmpError => new SmpError('invalid patch format of retainKeys', 'BadRequest');
const errBadPatchFormatForSetElementOrderList = (): SmpError => new SmpError('invalid patch format of setElementOrder list', 'BadRequest');
const errNoMergeKey = (m: JsonObject, key: string): SmpError => new SmpError(`map: ${goValue(m)} does not contain declared merge key: ${key}`);
// Go formats a nil reflect.Type with %s as "%!s(<nil>)".
const errBadArgType = (expected: string, actual: unknown): SmpError =>
  new SmpError(`expected a ${expected}, but received a ${actual === null || actual === undefined ? '%!s(<nil>)' : goTypeName(actual)}`);
const errBadPatchType = (t: unknown, m: JsonObject): SmpError => new SmpError(`unknown patch type: ${goValue(t)} in map: ${goValue(m)}`);

const GO_MAP = 'map[string]interface {}';
const GO_SLICE = '[]interface {}';

function toStatusError(err: SmpError): StatusError {
  switch (err.kind) {
    case 'BadRequest':
      return Errors.badRequest(err.message);
    case 'Invalid':
      return unprocessablePatchError(err);
    default:
      // A plain Go error: ErrorToAPIStatus answers 500 with reason "" and the error text.
      return new StatusError(500, '', err.message);
  }
}

// ---- Go renderings used in messages ----

/** %v of a decoded JSON value: map[k:v ...] with sorted keys, [a b] for lists, <nil> for null. */
function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as JsonObject;
    return `map[${Object.keys(o)
      .sort()
      .map((k) => `${k}:${goValue(o[k])}`)
      .join(' ')}]`;
  }
  return String(v);
}

/** reflect.TypeOf(v).String() for values from kube's JSON decoder (integers kept as int64). */
function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return GO_SLICE;
  if (typeof v === 'object') return GO_MAP;
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

// ---- JSON helpers ----

const isMap = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasKey = (m: object, k: string): boolean => Object.prototype.hasOwnProperty.call(m, k);

/** The Go type identity mergeMap compares: maps and slices by kind, scalars by their Go type. */
const goType = goTypeName;

// ---- patch metadata from the OpenAPI schema ----

interface PatchMeta {
  strategies: string[];
  mergeKey: string;
}

const NO_META: PatchMeta = { strategies: [], mergeKey: '' };

/**
 * LookupPatchMeta over OpenAPI: the schema of the current object and how to find its fields' schemas.
 * An unknown field (or no schema at all) has no metadata, so it merges like a JSON merge patch.
 */
class SchemaLookup {
  constructor(
    private readonly schema: JSONSchemaProps | undefined,
    private readonly components: SchemaComponents,
  ) {}

  private resolved(): JSONSchemaProps | undefined {
    return resolveSchema(this.schema, this.components);
  }

  /** The field's own schema: a property, else the map value schema (additionalProperties). */
  private field(key: string): JSONSchemaProps | undefined {
    const s = this.resolved();
    if (!s) return undefined;
    if (s.properties && hasKey(s.properties, key)) return s.properties[key];
    return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  }

  /** Extensions may sit beside a $ref or allOf wrapper, so the whole resolution chain is read. */
  private patchMeta(field: JSONSchemaProps | undefined): PatchMeta {
    let mergeKey: string | undefined;
    let strategy: string | undefined;
    let s = field;
    for (let hops = 0; s && hops < 32; hops++) {
      mergeKey ??= s['x-kubernetes-patch-merge-key'];
      strategy ??= s['x-kubernetes-patch-strategy'];
      if (s.$ref) s = this.components[s.$ref.slice(s.$ref.lastIndexOf('/') + 1)];
      else if (s.allOf?.length === 1) s = s.allOf[0];
      else break;
    }
    return { strategies: strategy ? strategy.split(',') : [], mergeKey: mergeKey ?? '' };
  }

  forStruct(key: string): { sub: SchemaLookup; meta: PatchMeta } {
    const field = this.field(key);
    return { sub: new SchemaLookup(field, this.components), meta: field ? this.patchMeta(field) : NO_META };
  }

  forSlice(key: string): { sub: SchemaLookup; meta: PatchMeta } {
    const field = this.field(key);
    const items = resolveSchema(field, this.components)?.items;
    return { sub: new SchemaLookup(items, this.components), meta: field ? this.patchMeta(field) : NO_META };
  }

  /** PatchMetaFromStruct.Name(): the Go kind of the type, used in one error message. */
  name(): string {
    const t = this.resolved()?.type;
    return !t || t === 'object' ? 'struct' : t;
  }
}

/** extractRetainKeysPatchStrategy: retainKeys only matters to the client, so only the other strategy is kept. */
function patchStrategy(strategies: string[]): string {
  if (strategies.length === 0) return '';
  if (strategies.length === 1) return strategies[0] === RETAIN_KEYS_STRATEGY ? '' : strategies[0];
  if (strategies.length === 2) {
    if (strategies[0] === RETAIN_KEYS_STRATEGY) return strategies[1];
    if (strategies[1] === RETAIN_KEYS_STRATEGY) return strategies[0];
  }
  throw new SmpError(`unexpected patch strategy: [${strategies.join(' ')}]`);
}

// ---- directive helpers ----

/** removeDirectives: drops maps carrying "$patch" (and list elements that are such maps). Mutates. */
function removeDirectives(v: JsonValue): { value: JsonValue; keep: boolean } {
  if (Array.isArray(v)) {
    const out: JsonValue[] = [];
    for (const x of v) {
      const r = removeDirectives(x);
      if (r.keep) out.push(r.value);
    }
    return { value: out, keep: true };
  }
  if (isMap(v)) {
    if (hasKey(v, DIRECTIVE_MARKER)) return { value: null, keep: false };
    for (const [k, x] of Object.entries(v)) {
      const r = removeDirectives(x);
      if (r.keep) v[k] = r.value;
      else delete v[k];
    }
  }
  return { value: v, keep: true };
}

/** discardNullValuesFromPatch: nulls in values the live object does not have yet mean nothing. Mutates. */
function discardNulls(v: JsonValue): JsonValue {
  if (Array.isArray(v)) v.forEach(discardNulls);
  else if (isMap(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (x === null) delete v[k];
      else discardNulls(x);
    }
  }
  return v;
}

/**
 * What decoding the result into a typed object does to leftovers: directive keys are unknown fields and
 * are dropped (kube would ignore them the same way).
 */
function stripDirectiveKeys(v: JsonValue): void {
  if (Array.isArray(v)) v.forEach(stripDirectiveKeys);
  else if (isMap(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (isDirectiveKey(k)) delete v[k];
      else stripDirectiveKeys(x);
    }
  }
}

const isDirectiveKey = (k: string): boolean =>
  k === DIRECTIVE_MARKER || k === RETAIN_KEYS_DIRECTIVE || k.startsWith(`${SET_ELEMENT_ORDER_PREFIX}/`) || k.startsWith(`${DELETE_FROM_PRIMITIVE_LIST_PREFIX}/`);

/** extractKey: "$setElementOrder/containers" → "containers". */
function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    if (prefix === DELETE_FROM_PRIMITIVE_LIST_PREFIX) throw errBadPatchFormatForPrimitiveList();
    if (prefix === SET_ELEMENT_ORDER_PREFIX) throw errBadPatchFormatForSetElementOrderList();
    throw new SmpError(`fail to find unknown prefix ${JSON.stringify(prefix)} in ${s}\n`);
  }
  return s.slice(slash + 1);
}

// ---- list helpers ----

type ElementKind = 'map' | 'other';

/** sliceElementType: all elements must share one Go type, and lists of lists are refused. */
function sliceElementKind(...slices: JsonValue[][]): ElementKind {
  let prev: string | undefined;
  for (const s of slices) {
    for (const v of s) {
      const t = goType(v);
      if (prev === undefined) {
        prev = t;
        if (t === GO_SLICE) throw errNoListOfLists();
      } else if (prev !== t) {
        throw new SmpError(`list element types are not identical: ${goValue(slices)}`);
      }
    }
  }
  if (prev === undefined) throw new SmpError('no elements in any of the given slices');
  return prev === GO_MAP ? 'map' : 'other';
}

/** The value an element is identified by: its merge key for maps, itself otherwise. */
const identity = (item: JsonValue, mergeKey: string, kind: ElementKind): JsonValue | undefined =>
  kind === 'map' ? (isMap(item) ? item[mergeKey] : undefined) : item;

/** index(): position of each identity in `order` (first occurrence), precomputed for large lists. */
function positions(order: JsonValue[], mergeKey: string, kind: ElementKind): Map<unknown, number> {
  const pos = new Map<unknown, number>();
  order.forEach((item, i) => {
    const id = identity(item, mergeKey, kind);
    if (!pos.has(id)) pos.set(id, i);
  });
  return pos;
}

/**
 * Position of the first map carrying each merge key value (findMapInSliceBasedOnKeyValue, indexed so that
 * large lists do not merge in quadratic time). Every element must be a map.
 */
function mergeKeyIndex(list: JsonValue[], mergeKey: string): Map<JsonValue, number> {
  const index = new Map<JsonValue, number>();
  list.forEach((item, i) => {
    if (!isMap(item)) throw new SmpError(`value for key ${i} is not a map`);
    if (hasKey(item, mergeKey) && !index.has(item[mergeKey])) index.set(item[mergeKey], i);
  });
  return index;
}

function validateMergeKeyInLists(mergeKey: string, ...lists: JsonValue[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isMap(item)) throw errBadArgType(GO_MAP, item);
      if (!hasKey(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

const isDeleteElement = (v: JsonValue): boolean => isMap(v) && v[DIRECTIVE_MARKER] === DELETE_DIRECTIVE;

function extractToDeleteItems(list: JsonValue[]): { keep: JsonValue[]; toDelete: JsonValue[] } {
  const keep: JsonValue[] = [];
  const toDelete: JsonValue[] = [];
  for (const v of list) {
    if (!isMap(v)) throw errBadArgType(GO_MAP, v);
    (isDeleteElement(v) ? toDelete : keep).push(v);
  }
  return { keep, toDelete };
}

/**
 * normalizeSliceOrder: sorts toSort by the positions in order (stable). kube's comparator is only
 * consistent when every element is in `order`, which its callers guarantee; elements that are not
 * (impossible through kube's own paths) keep their relative order after the others.
 */
function normalizeSliceOrder(toSort: JsonValue[], order: JsonValue[], mergeKey: string, kind: ElementKind): JsonValue[] {
  let items = toSort;
  let toDelete: JsonValue[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, toSort, order);
    ({ keep: items, toDelete } = extractToDeleteItems(toSort));
  }
  const pos = positions(order, mergeKey, kind);
  const rank = (v: JsonValue): number => pos.get(identity(v, mergeKey, kind)) ?? Number.MAX_SAFE_INTEGER;
  return [...[...items].sort((a, b) => rank(a) - rank(b)), ...toDelete];
}

/**
 * mergeSortedSlice: interleaves live-only items (left) into the patch items (right). A left item goes
 * before a right item only when both are in the live list and it comes first there.
 */
function mergeSortedSlice(left: JsonValue[], right: JsonValue[], serverOrder: JsonValue[], mergeKey: string, kind: ElementKind): JsonValue[] {
  const pos = positions(serverOrder, mergeKey, kind);
  const at = (v: JsonValue): number | undefined => pos.get(identity(v, mergeKey, kind));
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = at(left[i]);
      const ri = at(right[j]);
      if (li !== undefined && ri !== undefined && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function normalizeElementOrder(
  patch: JsonValue[],
  serverOnly: JsonValue[],
  patchOrder: JsonValue[],
  serverOrder: JsonValue[],
  mergeKey: string,
  kind: ElementKind,
): JsonValue[] {
  const sortedPatch = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const sortedServerOnly = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(sortedServerOnly, sortedPatch, serverOrder, mergeKey, kind);
}

function partitionPrimitives(list: JsonValue[], by: JsonValue[]): { inPatch: JsonValue[]; serverOnly: JsonValue[] } {
  const present = new Set<unknown>(by);
  const inPatch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  for (const v of list) (present.has(v) ? inPatch : serverOnly).push(v);
  return { inPatch, serverOnly };
}

function partitionMaps(list: JsonValue[], by: JsonValue[], mergeKey: string): { inPatch: JsonValue[]; serverOnly: JsonValue[] } {
  const inPatch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  if (list.length === 0) return { inPatch, serverOnly };
  const present = mergeKeyIndex(by, mergeKey);
  for (const v of list) {
    if (!isMap(v)) throw errBadArgType(GO_MAP, v);
    if (!hasKey(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    (present.has(v[mergeKey]) ? inPatch : serverOnly).push(v);
  }
  return { inPatch, serverOnly };
}

function partition(list: JsonValue[], by: JsonValue[], mergeKey: string): { inPatch: JsonValue[]; serverOnly: JsonValue[] } {
  return mergeKey ? partitionMaps(list, by, mergeKey) : partitionPrimitives(list, by);
}

/** kube's in-place de-duplication, which moves the last element into each duplicate's slot. */
function deduplicateScalars(input: JsonValue[]): JsonValue[] {
  const s = [...input];
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (s[i] === s[j]) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

function deleteFromSlice(current: JsonValue[], toDelete: JsonValue[]): JsonValue[] {
  const drop = new Set<unknown>(toDelete);
  return current.filter((v) => !drop.has(v));
}

// ---- the merge ----

class Merger {
  mergeMap(original: JsonObject, patch: JsonObject, schema: SchemaLookup): JsonObject {
    if (hasKey(patch, DIRECTIVE_MARKER)) return this.mapDirective(patch[DIRECTIVE_MARKER], patch);
    this.applyRetainKeys(original, patch);
    this.mergeElementOrderLists(original, patch, schema);
    for (const [patchKey, patchV] of Object.entries(patch)) {
      const isDeleteList = patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX);
      const k = isDeleteList ? extractKey(patchKey, DELETE_FROM_PRIMITIVE_LIST_PREFIX) : patchKey;
      if (patchV === null) {
        delete original[k];
        continue;
      }
      if (!hasKey(original, k) || goType(original[k]) !== goType(patchV)) {
        if (!isDeleteList) this.setFromPatch(original, k, patchV);
        continue;
      }
      original[k] = this.mergeValue(original[k], patchV, k, schema, isDeleteList);
    }
    return original;
  }

  /** A value the live object lacks (or has with another type) is taken from the patch, directives removed. */
  private setFromPatch(original: JsonObject, k: string, patchV: JsonValue): void {
    const { value, keep } = removeDirectives(discardNulls(patchV));
    if (keep) original[k] = value;
    else delete original[k];
  }

  private mergeValue(originalV: JsonValue, patchV: JsonValue, k: string, schema: SchemaLookup, isDeleteList: boolean): JsonValue {
    if (isMap(originalV) && isMap(patchV)) {
      const { sub, meta } = schema.forStruct(k);
      return patchStrategy(meta.strategies) === REPLACE_DIRECTIVE ? discardNulls(patchV) : this.mergeMap(originalV, patchV, sub);
    }
    if (Array.isArray(originalV) && Array.isArray(patchV)) {
      const { sub, meta } = schema.forSlice(k);
      return this.mergeSliceHandler(originalV, patchV, sub, patchStrategy(meta.strategies), meta.mergeKey, isDeleteList);
    }
    return removeDirectives(patchV).value;
  }

  /** handleDirectiveInMergeMap: replace keeps the patch as the new map, delete empties it. */
  private mapDirective(directive: JsonValue, patch: JsonObject): JsonObject {
    if (directive === REPLACE_DIRECTIVE) {
      delete patch[DIRECTIVE_MARKER];
      return discardNulls(patch) as JsonObject;
    }
    if (directive === DELETE_DIRECTIVE) return {};
    throw errBadPatchType(directive, patch);
  }

  /** "$retainKeys": live keys not listed are cleared; every key the patch sets must be listed. */
  private applyRetainKeys(original: JsonObject, patch: JsonObject): void {
    if (!hasKey(patch, RETAIN_KEYS_DIRECTIVE)) return;
    const list = patch[RETAIN_KEYS_DIRECTIVE];
    delete patch[RETAIN_KEYS_DIRECTIVE];
    if (!Array.isArray(list)) throw errBadPatchFormatForRetainKeys();
    const retained = new Set<unknown>(list);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || k.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
      if (!retained.has(k)) throw errBadPatchFormatForRetainKeys();
    }
    for (const k of Object.keys(original)) if (!retained.has(k)) delete original[k];
  }

  /**
   * mergePatchIntoOriginal: each "$setElementOrder/<field>" is merged together with its list, then the
   * result is ordered: the directive's order first, live-only items placed by their live position.
   */
  private mergeElementOrderLists(original: JsonObject, patch: JsonObject, schema: SchemaLookup): void {
    for (const key of Object.keys(patch)) {
      if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
      const order = patch[key];
      delete patch[key];
      if (!Array.isArray(order)) throw errBadArgType(GO_SLICE, order);
      const field = extractKey(key, SET_ELEMENT_ORDER_PREFIX);
      const foundOriginal = hasKey(original, field);
      const foundPatch = hasKey(patch, field);
      const originalList = foundOriginal ? original[field] : [];
      const patchList = foundPatch ? patch[field] : [];
      if (!Array.isArray(originalList)) throw errBadArgType(GO_SLICE, originalList);
      if (!Array.isArray(patchList)) throw errBadArgType(GO_SLICE, patchList);
      const { sub, meta } = schema.forSlice(field);
      const strategy = patchStrategy(meta.strategies);
      validatePatchWithSetOrderList(patchList, order, meta.mergeKey);

      let merged: JsonValue[];
      if (foundOriginal && foundPatch) merged = this.mergeSliceHandler(originalList, patchList, sub, strategy, meta.mergeKey, false);
      else if (foundPatch) merged = removeDirectives(discardNulls(patchList)).value as JsonValue[];
      else if (foundOriginal) merged = originalList;
      else continue;

      const { inPatch, serverOnly } = partition(merged, order, meta.mergeKey);
      const kind = sliceElementKind(originalList, patchList);
      original[field] = normalizeElementOrder(inPatch, serverOnly, order, originalList, meta.mergeKey, kind);
      delete patch[field];
    }
  }

  private mergeSliceHandler(
    original: JsonValue[],
    patch: JsonValue[],
    schema: SchemaLookup,
    strategy: string,
    mergeKey: string,
    isDeleteList: boolean,
  ): JsonValue[] {
    // Deletion lists apply whatever the field's strategy is.
    if (strategy === MERGE_DIRECTIVE || isDeleteList) return this.mergeSlice(original, patch, schema, mergeKey, isDeleteList);
    return discardNulls(patch) as JsonValue[];
  }

  private mergeSlice(original: JsonValue[], patch: JsonValue[], schema: SchemaLookup, mergeKey: string, isDeleteList: boolean): JsonValue[] {
    if (original.length === 0 && patch.length === 0) return original;
    const kind = sliceElementKind(original, patch);
    let live = original;
    let patchItems = patch;
    let merged: JsonValue[];
    if (kind !== 'map') {
      if (isDeleteList) return deleteFromSlice(original, patch);
      merged = deduplicateScalars([...original, ...patch]);
    } else {
      if (!mergeKey) throw new SmpError(`cannot merge lists without merge key for ${schema.name()}`);
      ({ live, patchItems } = applyListDirectives(original, patch, mergeKey));
      merged = this.mergeByKey(live, patchItems, mergeKey, schema);
    }
    const { inPatch, serverOnly } = partition(merged, patchItems, mergeKey);
    return normalizeElementOrder(inPatch, serverOnly, patchItems, live, mergeKey, kind);
  }

  /** mergeSliceWithoutSpecialElements: elements with a live twin are merged into it, others appended. */
  private mergeByKey(live: JsonValue[], patch: JsonValue[], mergeKey: string, schema: SchemaLookup): JsonValue[] {
    const out = [...live];
    const index = mergeKeyIndex(out, mergeKey);
    for (const v of patch) {
      const item = v as JsonObject;
      if (!hasKey(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
      const at = index.get(item[mergeKey]);
      if (at !== undefined) {
        out[at] = this.mergeMap(out[at] as JsonObject, item, schema);
      } else {
        // Later patch elements with the same key merge into this one, as in kube.
        index.set(item[mergeKey], out.length);
        out.push(discardNulls(item));
      }
    }
    return out;
  }
}

/**
 * mergeSliceWithSpecialElements: "$patch": delete elements remove live elements with the same key;
 * a "$patch": replace element makes the other patch elements the whole list.
 */
function applyListDirectives(live: JsonValue[], patch: JsonValue[], mergeKey: string): { live: JsonValue[]; patchItems: JsonValue[] } {
  let remaining = live;
  const plain: JsonValue[] = [];
  let replace = false;
  for (const v of patch) {
    const item = v as JsonObject;
    if (!hasKey(item, DIRECTIVE_MARKER)) {
      plain.push(item);
      continue;
    }
    const directive = item[DIRECTIVE_MARKER];
    if (directive === DELETE_DIRECTIVE) {
      if (!hasKey(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
      const value = item[mergeKey];
      remaining = remaining.filter((x, i) => {
        if (!isMap(x)) throw new SmpError(`value for key ${i} is not a map`);
        return !(hasKey(x, mergeKey) && x[mergeKey] === value);
      });
    } else if (directive === REPLACE_DIRECTIVE) {
      replace = true; // keep scanning to drop the other directive elements
    } else if (directive === MERGE_DIRECTIVE) {
      throw new SmpError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, item);
    }
  }
  return replace ? { live: plain, patchItems: [] } : { live: remaining, patchItems: plain };
}

/** validatePatchWithSetOrderList: the patch's (non-deleted) elements must appear in the directive, in its order. */
function validatePatchWithSetOrderList(patchList: JsonValue[], order: JsonValue[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey ? extractToDeleteItems(patchList).keep : patchList;
  let p = 0;
  let o = 0;
  while (p < nonDelete.length && o < order.length) {
    if (isMap(nonDelete[p]) && hasKey(nonDelete[p] as JsonObject, DIRECTIVE_MARKER)) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(nonDelete[p], order[o], mergeKey)) p++;
    o++;
  }
  if (p < nonDelete.length && o >= order.length) {
    throw new SmpError(`The order in patch list:\n${goValue(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goValue(order)}\n`);
  }
}

function mergeKeyValueEqual(left: JsonValue, right: JsonValue, mergeKey: string): boolean {
  if (!mergeKey) return left === right;
  if (!isMap(left)) throw errBadArgType(GO_MAP, left);
  if (!isMap(right)) throw errBadArgType(GO_MAP, right);
  if (!hasKey(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!hasKey(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return left[mergeKey] === right[mergeKey];
}

/**
 * Applies a strategic merge patch to `original` (the live object) and returns the patched object; neither
 * input is mutated. `schema` is the object's OpenAPI schema (e.g. {$ref: "#/components/schemas/io.k8s.api.core.v1.Pod"})
 * resolved against `components`; without one the patch behaves like a JSON merge patch that still honours
 * the directives. Throws a StatusError the way kube-apiserver answers a bad patch.
 */
export function applyStrategicMergePatch(original: object, patch: object, schema: JSONSchemaProps | undefined, components: SchemaComponents): JsonObject {
  if (!isMap(patch)) {
    const kind = patch === null ? 'null' : Array.isArray(patch) ? 'array' : typeof patch;
    throw Errors.badRequest(`json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
  }
  try {
    if (!isMap(original)) throw errBadJSONDoc();
    const result = new Merger().mergeMap(cloneJson(original) as JsonObject, cloneJson(patch) as JsonObject, new SchemaLookup(schema, components));
    stripDirectiveKeys(result);
    return result;
  } catch (err) {
    if (err instanceof SmpError) throw toStatusError(err);
    throw err;
  }
}
