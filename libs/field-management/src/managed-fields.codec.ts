/**
 * metadata.managedFields ⇄ ownership (managedfields/internal/managedfields.go): one entry per manager
 * identifier — manager, operation, subresource and, for Update entries, apiVersion — holding a fieldsV1
 * set and the time it last changed; entries sorted by operation, time, manager, apiVersion, subresource.
 */
import type { ManagedFieldsEntry } from '@kube/apimachinery';
import { fieldsV1ToSet, setToFieldsV1 } from './fieldpath.serialize';
import type { ManagedFields } from './merge.updater';
import { compareStrings, goJsonString } from './value.order';

/** Ownership plus, per manager, the time of its entry. */
export interface Managed {
  fields: ManagedFields;
  times: Map<string, string | undefined>;
}

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

interface ManagerIdentity {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  subresource?: string;
}

/** BuildManagerIdentifier: the entry without fields and time (and without apiVersion for Apply), as JSON. */
export function managerIdentifier(e: ManagerIdentity): string {
  const parts: string[] = [];
  if (e.manager) parts.push(`"manager":${goJsonString(e.manager)}`);
  if (e.operation) parts.push(`"operation":${goJsonString(e.operation)}`);
  if (e.apiVersion && e.operation !== 'Apply') parts.push(`"apiVersion":${goJsonString(e.apiVersion)}`);
  if (e.subresource) parts.push(`"subresource":${goJsonString(e.subresource)}`);
  return `{${parts.join(',')}}`;
}

export function parseManagerIdentifier(id: string): ManagerIdentity {
  return JSON.parse(id) as ManagerIdentity;
}

/** DecodeManagedFields; throws on an entry kube would refuse. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  const managed = emptyManaged();
  (entries ?? []).forEach((e, i) => {
    if (typeof e !== 'object' || e === null) throw new Error(`managed fields entry ${i} is not an object`);
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new Error('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new Error('apiVersion must not be empty');
    if (e.fieldsType !== 'FieldsV1') {
      throw new Error(e.fieldsType ? `invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}` : `missing fieldsType in managed fields entry ${i}`);
    }
    const id = managerIdentifier(e);
    let set;
    try {
      set = fieldsV1ToSet(e.fieldsV1 ?? {});
    } catch (err) {
      throw new Error(`error decoding versioned set from entry ${i}: error decoding set: ${(err as Error).message}`);
    }
    managed.fields.set(id, { set, apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    managed.times.set(id, e.time);
  });
  return managed;
}

function seconds(time: string | undefined): number {
  if (!time) return 0;
  const t = Date.parse(time);
  return Number.isNaN(t) ? 0 : Math.floor(t / 1000);
}

/** encodeManagedFields: entries in kube's order, undefined when nobody owns anything. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const who = parseManagerIdentifier(id);
    // Key order is that of kube's JSON: manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource.
    const e: ManagedFieldsEntry = {};
    if (who.manager) e.manager = who.manager;
    const operation = vs.applied ? 'Apply' : who.operation;
    if (operation) e.operation = operation;
    if (vs.apiVersion) e.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time) e.time = time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = setToFieldsV1(vs.set);
    if (who.subresource) e.subresource = who.subresource;
    entries.push(e);
  }
  return entries.sort((p, q) => {
    if (p.operation !== q.operation) return compareStrings(p.operation ?? '', q.operation ?? '');
    const ps = seconds(p.time);
    const qs = seconds(q.time);
    if (ps !== qs) return ps - qs;
    if (p.manager !== q.manager) return compareStrings(p.manager ?? '', q.manager ?? '');
    if (p.apiVersion !== q.apiVersion) return compareStrings(p.apiVersion ?? '', q.apiVersion ?? '');
    return compareStrings(p.subresource ?? '', q.subresource ?? '');
  });
}

/** isResetManagedFields: `[]` or `[{}]` in a request clears all ownership. */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  return entries.length === 1 && typeof entries[0] === 'object' && entries[0] !== null && Object.keys(entries[0]).length === 0;
}
