/**
 * kube's FieldManager (k8s.io/apimachinery/pkg/util/managedfields/internal) for one endpoint — a kind at
 * one API version, optionally a subresource — over plain JSON objects:
 *
 *  - update(): every create, update and non-apply patch. The writer's manager gains the fields it
 *    changed (an Update entry per manager, apiVersion and subresource; time moves only when its fields
 *    changed), `[]`/`[{}]` in the request resets ownership, objects never tracked stay untracked,
 *    at most 10 Update entries (the oldest merged into "ancient-changes"). Never fails the write.
 *  - apply(): server-side apply. The applier's Apply entry becomes exactly its config; fields it
 *    dropped are removed unless owned by someone else; other owners' fields conflict (409) unless
 *    forced; the live object is first attributed to "before-first-apply" if it had no managedFields;
 *    manager "kubectl" may take over what its last-applied-configuration annotation says it set.
 */
import { Errors, StatusError, type JsonObject, type KubeObject, type ManagedFieldsEntry } from '@kube/apimachinery';
import { FieldSet } from './fieldpath.set';
import { makePath, pathString } from './fieldpath.path';
import { decodeManagedFields, emptyManaged, encodeManagedFields, isResetManagedFields, managerIdentifier, parseManagerIdentifier, type Managed } from './managed-fields.codec';
import { ConflictsError, groupConflicts, Updater, type Conflict, type Converter } from './merge.updater';
import type { ParseableType } from './schema.types';
import { TypedValue } from './typed.value';
import { goJson, goQuote, valuesEqual, type Value } from './value.order';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
export const DEFAULT_MAX_UPDATE_MANAGERS = 10;
/** kube's FieldManagerMaxLength. */
export const FIELD_MANAGER_MAX_LENGTH = 128;
const ANCIENT_CHANGES = 'ancient-changes';
const BEFORE_FIRST_APPLY = 'before-first-apply';
const CURRENT_OPERATION = 'current-operation';
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** Fields never owned by anyone (stripmeta.go). Leaf difference: metadata.labels etc. stay owned. */
const STRIP_SET = FieldSet.of(
  makePath('apiVersion'),
  makePath('kind'),
  makePath('metadata'),
  makePath('metadata', 'name'),
  makePath('metadata', 'namespace'),
  makePath('metadata', 'creationTimestamp'),
  makePath('metadata', 'selfLink'),
  makePath('metadata', 'uid'),
  makePath('metadata', 'clusterName'),
  makePath('metadata', 'generation'),
  makePath('metadata', 'managedFields'),
  makePath('metadata', 'resourceVersion'),
);

export interface FieldManagerOptions {
  /** The kind's type at this endpoint's version. */
  type: ParseableType;
  /** group/version of the endpoint, e.g. "v1" or "stable.example.com/v1". */
  apiVersion: string;
  kind: string;
  /** "" for the resource itself, "status", "scale". */
  subresource?: string;
  /** Fields this endpoint never lets anyone own (kube's reset fields: status on the main resource, spec on /status). */
  resetFields?: FieldSet;
  /** Other API versions of the kind; default: conversion None (same fields). */
  converter?: Converter;
  /** Custom resources keep nulls an apply leaves (their pipeline prunes them); built-in types drop them. */
  keepNulls?: boolean;
  maxUpdateManagers?: number;
  /** RFC 3339 time, second precision; injectable for tests. */
  now?: () => string;
  /** Called when update() had to give up on managedFields (kube logs "[SHOULD NOT HAPPEN]"). */
  onUpdateError?: (err: Error) => void;
}

let nowCache = { second: -1, text: '' };

/** The time now at second precision; formatted once per second (every write records one). */
function nowRfc3339(): string {
  const ms = Date.now();
  const second = Math.floor(ms / 1000);
  if (second !== nowCache.second) nowCache = { second, text: new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') };
  return nowCache.text;
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** Drops null-valued object entries and list items' nulls inside maps, as a typed round trip of a built-in kind does. */
function dropNulls(v: Value): void {
  if (Array.isArray(v)) {
    for (const item of v) dropNulls(item);
    return;
  }
  if (typeof v !== 'object' || v === null) return;
  for (const k of Object.keys(v)) {
    if (v[k] === null) delete v[k];
    else dropNulls(v[k]);
  }
}

/** A server error as kube reports errors that are not API statuses: 500 with no reason. */
function internal(message: string): StatusError {
  return new StatusError(500, '', message);
}

/** printManager: `"name"`, plus ` with subresource "s"`, plus ` using v1` for Update managers. */
export function printManager(id: string): string {
  let who;
  try {
    who = parseManagerIdentifier(id);
  } catch {
    return goQuote(id);
  }
  let s = goQuote(who.manager ?? '');
  if (who.subresource) s += ` with subresource ${goQuote(who.subresource)}`;
  if (who.operation === 'Update') s += ` using ${who.apiVersion ?? ''}`;
  return s;
}

/** The 409 kube answers a conflicting apply with (internal/conflict.go NewConflictError). */
export function conflictError(conflicts: readonly Conflict[]): StatusError {
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.manager)}`, field: pathString(c.path) }));
  let message: string;
  if (conflicts.length === 1) message = `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].manager)}: ${pathString(conflicts[0].path)}`;
  else {
    const byManager = groupConflicts(conflicts);
    const lines = [...byManager.keys()].sort().flatMap((m) => [`conflicts with ${printManager(m)}:`, ...(byManager.get(m) ?? []).map((p) => `- ${pathString(p)}`)]);
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, { causes });
}

function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const [group, version] = slash >= 0 ? [av.slice(0, slash), av.slice(slash + 1)] : ['', av];
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

function objectGVKNN(obj: { metadata?: { namespace?: string; name?: string }; apiVersion?: unknown; kind?: unknown }): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}; ${gvkString(obj.apiVersion, obj.kind)}`;
}

export class FieldManager {
  private readonly updater: Updater;
  private readonly subresource: string;
  private readonly maxUpdateManagers: number;
  private readonly now: () => string;

  constructor(private readonly opts: FieldManagerOptions) {
    this.subresource = opts.subresource ?? '';
    this.maxUpdateManagers = opts.maxUpdateManagers ?? DEFAULT_MAX_UPDATE_MANAGERS;
    this.now = opts.now ?? nowRfc3339;
    const ignored = opts.resetFields ? new Map([[opts.apiVersion, opts.resetFields]]) : undefined;
    this.updater = new Updater({ converter: opts.converter, ignored });
  }

  // ---- update ----

  /**
   * Sets `next.metadata.managedFields` for a non-apply write of `next` over `live` (undefined on create)
   * and returns `next`. Like kube's UpdateNoErrors, a failure drops managedFields instead of failing.
   */
  update(live: KubeObject | undefined, next: KubeObject, manager: string): KubeObject {
    try {
      return this.updateOrThrow(live, next, manager);
    } catch (err) {
      this.opts.onUpdateError?.(err as Error);
      delete next.metadata.managedFields;
      return next;
    }
  }

  private updateOrThrow(live: KubeObject | undefined, next: KubeObject, manager: string): KubeObject {
    const liveObj = live ?? this.emptyObject();
    let managed = this.decodeLiveOrNew(liveObj, next);
    delete next.metadata.managedFields;
    // skipNonApplied: an existing object nobody tracks stays untracked until its first apply.
    if (managed.fields.size === 0 && liveObj.metadata.uid) return next;
    managed = this.updateManaged(liveObj, next, managed, this.identifier(manager, 'Update'));
    this.capUpdateManagers(managed);
    this.encodeInto(next, managed);
    return next;
  }

  private decodeLiveOrNew(live: KubeObject, next: KubeObject): Managed {
    const fromLive = (): Managed => {
      try {
        return decodeManagedFields(live.metadata.managedFields);
      } catch {
        return emptyManaged();
      }
    };
    // A subresource write cannot change managedFields.
    if (this.subresource) return fromLive();
    if (isResetManagedFields(next.metadata.managedFields)) return emptyManaged();
    try {
      const managed = decodeManagedFields(next.metadata.managedFields);
      return managed.fields.size === 0 ? fromLive() : managed;
    } catch {
      return fromLive();
    }
  }

  /** buildManagerInfo → managedFieldsUpdater → stripMeta → structured merge Update. */
  private updateManaged(live: KubeObject, next: KubeObject, managed: Managed, id: string): Managed {
    const liveTyped = this.typed(live, true, 'live');
    const nextTyped = this.typed(withoutManagedFields(next), true, 'new');
    const fields = this.updater.updateObject(liveTyped, nextTyped, this.opts.apiVersion, managed.fields, CURRENT_OPERATION);
    this.strip(fields, CURRENT_OPERATION);
    const own = fields.get(CURRENT_OPERATION);
    if (own) {
      fields.delete(CURRENT_OPERATION);
      const previous = fields.get(id);
      fields.set(id, previous ? { ...own, set: own.set.union(previous.set) } : own);
      managed.times.set(id, this.now());
    }
    return { fields, times: managed.times };
  }

  // ---- apply ----

  /**
   * Server-side apply of `patch` (the decoded apply body) over `live` (undefined: create). Returns the
   * new object with managedFields; when nothing changes, the live object itself (managedFields may
   * still change). Throws StatusErrors as kube answers them.
   */
  apply(live: KubeObject | undefined, patch: JsonObject, manager: string, force: boolean): KubeObject {
    if (patch.apiVersion !== this.opts.apiVersion || patch.kind !== this.opts.kind) {
      throw Errors.badRequest(`invalid object type: ${gvkString(patch.apiVersion, patch.kind)}`);
    }
    const liveObj = live ?? this.emptyObject();
    let managed: Managed;
    try {
      managed = decodeManagedFields(liveObj.metadata.managedFields);
    } catch (err) {
      throw internal(`failed to decode managed fields: ${(err as Error).message}`);
    }
    let result: { object: KubeObject; managed: Managed };
    try {
      result = this.applyWithLastApplied(liveObj, patch, managed, manager, force);
    } catch (err) {
      if (err instanceof ConflictsError) throw conflictError(err.conflicts);
      throw err;
    }
    // Apply entries are never capped (capManagersManager only caps updates).
    this.encodeInto(result.object, result.managed);
    return result.object;
  }

  /** lastAppliedUpdater + lastAppliedManager around the rest of the chain. */
  private applyWithLastApplied(live: KubeObject, patch: JsonObject, managed: Managed, manager: string, force: boolean): { object: KubeObject; managed: Managed } {
    let result: { object: KubeObject; managed: Managed };
    try {
      result = this.applySkipNonApplied(live, patch, cloneManaged(managed), manager, force);
    } catch (err) {
      if (manager !== 'kubectl' || !(err instanceof ConflictsError)) throw err;
      // kubectl taking over from its own client-side apply: conflicts on fields the annotation says it set are forced.
      const allowed = this.allowedConflictsFromLastApplied(live);
      if (!allowed) throw err;
      const remaining = err.conflicts.filter((c) => !allowed.has(c.path));
      if (remaining.length > 0) throw new ConflictsError(remaining);
      result = this.applySkipNonApplied(live, patch, cloneManaged(managed), manager, true);
    }
    if (manager === 'kubectl' && hasLastApplied(result.object)) setLastApplied(result.object, buildLastApplied(patch));
    return result;
  }

  private allowedConflictsFromLastApplied(live: KubeObject): FieldSet | undefined {
    const text = live.metadata.annotations?.[LAST_APPLIED_ANNOTATION];
    if (!text) return undefined;
    try {
      const lastApplied = JSON.parse(text) as KubeObject;
      if (typeof lastApplied !== 'object' || lastApplied === null || lastApplied.apiVersion !== this.opts.apiVersion) return undefined;
      const liveTyped = this.typed(live, false, 'live');
      const lastTyped = TypedValue.of(lastApplied as unknown as Value, this.opts.type);
      const set = lastTyped.toFieldSet();
      const c = lastTyped.compare(liveTyped);
      return set.difference(c.modified).difference(c.added).difference(c.removed);
    } catch {
      return undefined;
    }
  }

  private applySkipNonApplied(live: KubeObject, patch: JsonObject, managed: Managed, manager: string, force: boolean): { object: KubeObject; managed: Managed } {
    if (managed.fields.size === 0) {
      // The live object's fields so far belong to "before-first-apply" (skipnonapplied.go).
      managed = this.updateManaged(this.emptyObject(), live, managed, this.identifier(BEFORE_FIRST_APPLY, 'Update'));
      this.capUpdateManagers(managed);
    }
    const id = this.identifier(manager, 'Apply');
    const { object, fields } = this.structuredApply(live, patch, managed, id, force);
    this.strip(fields, id);
    const out: Managed = { fields, times: managed.times };
    if (object) {
      out.times.set(id, this.now());
      return { object, managed: out };
    }
    // Nothing changed: the live object as it is (a copy: the caller's object is never touched).
    return { object: clone(live), managed: out };
  }

  private structuredApply(live: KubeObject, patch: JsonObject, managed: Managed, id: string, force: boolean): { object?: KubeObject; fields: Managed['fields'] } {
    const meta = patch.metadata;
    if (typeof meta === 'object' && meta !== null && !Array.isArray(meta) && meta.managedFields !== undefined && meta.managedFields !== null) {
      throw Errors.badRequest('metadata.managedFields must be nil');
    }
    let patchTyped: TypedValue;
    try {
      patchTyped = TypedValue.of(patch, this.opts.type);
    } catch (err) {
      throw internal(`failed to create typed patch object (${objectGVKNN(patch as unknown as KubeObject)}): ${(err as Error).message}`);
    }
    const liveTyped = this.typed(live, true, 'live');
    let res;
    try {
      res = this.updater.apply(liveTyped, patchTyped, this.opts.apiVersion, managed.fields, id, force);
    } catch (err) {
      if (err instanceof ConflictsError) throw err;
      throw internal((err as Error).message);
    }
    if (!res.object) return { fields: res.managers };
    // The merge shares subtrees with the live object and the patch: the result is copied before anyone edits it.
    const object = clone(res.object.value) as unknown as KubeObject;
    if (!this.opts.keepNulls) dropNulls(object as unknown as Value);
    if (typeof object.metadata !== 'object' || object.metadata === null) object.metadata = {};
    return { object, fields: res.managers };
  }

  // ---- shared ----

  private identifier(manager: string, operation: 'Apply' | 'Update'): string {
    return managerIdentifier({ manager: manager || 'unknown', operation, apiVersion: this.opts.apiVersion, subresource: this.subresource });
  }

  private emptyObject(): KubeObject {
    return { apiVersion: this.opts.apiVersion, kind: this.opts.kind, metadata: {} };
  }

  private typed(obj: KubeObject, allowDuplicates: boolean, what: 'live' | 'new'): TypedValue {
    try {
      return TypedValue.of(obj as unknown as Value, this.opts.type, { allowDuplicates });
    } catch (err) {
      throw internal(`failed to create typed ${what} object (${objectGVKNN(obj)}): ${(err as Error).message}`);
    }
  }

  private strip(fields: Managed['fields'], id: string): void {
    const vs = fields.get(id);
    if (!vs) return;
    const set = vs.set.difference(STRIP_SET);
    if (set.isEmpty()) fields.delete(id);
    else fields.set(id, { ...vs, set });
  }

  /** capmanagers.go: beyond the limit, the oldest Update entries are merged per apiVersion into "ancient-changes". */
  private capUpdateManagers(managed: Managed): void {
    const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
    if (updaters.length <= this.maxUpdateManagers) return;
    const secs = (id: string): number => {
      const t = managed.times.get(id);
      return t ? Math.floor(Date.parse(t) / 1000) || 0 : 0;
    };
    updaters.sort((a, b) => secs(a) - secs(b) || (a < b ? -1 : a > b ? 1 : 0));
    const firstByVersion = new Map<string, string>();
    let length = updaters.length;
    for (let i = 0; i < updaters.length && length > this.maxUpdateManagers; i++) {
      const id = updaters[i];
      const vs = managed.fields.get(id);
      if (!vs) continue;
      const time = managed.times.get(id);
      const bucket = managerIdentifier({ manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: vs.apiVersion });
      const first = firstByVersion.get(vs.apiVersion);
      if (first === undefined) {
        firstByVersion.set(vs.apiVersion, id);
        continue;
      }
      if (!managed.fields.has(bucket)) {
        const s = managed.fields.get(first);
        managed.fields.delete(first);
        if (s) managed.fields.set(bucket, s);
      }
      const b = managed.fields.get(bucket);
      managed.fields.set(bucket, { set: vs.set.union(b ? b.set : new FieldSet()), apiVersion: vs.apiVersion, applied: vs.applied });
      managed.fields.delete(id);
      length--;
      managed.times.set(bucket, time);
    }
  }

  private encodeInto(obj: KubeObject, managed: Managed): void {
    const entries: ManagedFieldsEntry[] | undefined = encodeManagedFields(managed);
    if (entries) obj.metadata.managedFields = entries;
    else delete obj.metadata.managedFields;
  }
}

function cloneManaged(m: Managed): Managed {
  return { fields: new Map(m.fields), times: new Map(m.times) };
}

function withoutManagedFields(obj: KubeObject): KubeObject {
  if (obj.metadata.managedFields === undefined) return obj;
  const { managedFields: _m, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function hasLastApplied(obj: KubeObject): boolean {
  return !!obj.metadata.annotations?.[LAST_APPLIED_ANNOTATION];
}

/** The annotation kubectl keeps in sync: the applied config without the annotation, as Go's encoder writes it. */
function buildLastApplied(patch: JsonObject): string {
  const copy = clone(patch);
  const meta = copy.metadata;
  if (typeof meta === 'object' && meta !== null && !Array.isArray(meta)) {
    const annotations = meta.annotations;
    if (typeof annotations === 'object' && annotations !== null && !Array.isArray(annotations)) delete annotations[LAST_APPLIED_ANNOTATION];
  }
  return `${goJson(copy)}\n`;
}

function setLastApplied(obj: KubeObject, value: string): void {
  const annotations = { ...(obj.metadata.annotations ?? {}) };
  annotations[LAST_APPLIED_ANNOTATION] = value;
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += Buffer.byteLength(k) + Buffer.byteLength(v);
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) delete annotations[LAST_APPLIED_ANNOTATION];
  obj.metadata.annotations = annotations;
}

/** True when `a` and `b` differ only in managedFields timestamps (then the old ones are kept: no-op writes stay no-ops). */
export function keepManagedFieldsTimestamps(next: KubeObject, old: KubeObject): void {
  const n = next.metadata.managedFields;
  const o = old.metadata.managedFields;
  if (!n || !o || n.length !== o.length || n.length === 0) return;
  if (n.every((e, i) => e.time === o[i].time)) return;
  for (let i = 0; i < n.length; i++) {
    const { time: _a, ...ne } = n[i];
    const { time: _b, ...oe } = o[i];
    if (!valuesEqual(ne as unknown as Value, oe as unknown as Value)) return;
  }
  if (!valuesEqual(withoutManagedFields(next) as unknown as Value, withoutManagedFields(old) as unknown as Value)) return;
  next.metadata.managedFields = n.map((e, i) => ({ ...e, time: o[i].time }));
}
