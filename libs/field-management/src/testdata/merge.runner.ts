/**
 * Replays a merge case with our Updater the way structured-merge-diff's test fixture does: the live
 * object starts empty (null), updates are typed allowing duplicates, applies are not, and an apply that
 * changes nothing leaves the live object as it is.
 */
import type { JsonValue } from '@kube/apimachinery';
import { pathString } from '../fieldpath.path';
import { setToFieldsV1Json } from '../fieldpath.serialize';
import { ConflictsError, Updater, type ManagedFields } from '../merge.updater';
import { Schema } from '../schema.types';
import { TypedValue } from '../typed.value';
import { goJson } from '../value.order';
import type { MergeCase } from './merge.cases';
import { SCHEMAS } from './merge.schemas';

export interface OpResult {
  conflicts?: string[];
  error?: string;
}

export interface CaseResult {
  ops: OpResult[];
  /** The live object as sorted-key JSON. */
  object: string;
  managed: Record<string, { apiVersion: string; applied: boolean; fieldsV1: string; paths: string[] }>;
}

export function runMergeCase(c: MergeCase): CaseResult {
  const schema = new Schema(SCHEMAS[c.schema]);
  const type = { schema, typeRef: { namedType: c.type } };
  const updater = new Updater();
  let live = TypedValue.of(null, type);
  let managers: ManagedFields = new Map();
  const ops: OpResult[] = [];
  for (const op of c.ops) {
    const version = op.apiVersion ?? 'v1';
    try {
      if (op.update !== undefined) {
        const next = TypedValue.of(op.update as JsonValue, type, { allowDuplicates: true });
        managers = updater.updateObject(live, next, version, managers, op.manager);
        live = next;
      } else {
        const config = TypedValue.of(op.apply as JsonValue, type);
        const res = updater.apply(live, config, version, managers, op.manager, op.force ?? false);
        managers = res.managers;
        if (res.object) live = res.object;
      }
      ops.push({});
    } catch (err) {
      if (err instanceof ConflictsError) ops.push({ conflicts: err.conflicts.map((x) => `${x.manager}: ${pathString(x.path)}`).sort() });
      else ops.push({ error: (err as Error).message });
    }
  }
  const managed: CaseResult['managed'] = {};
  for (const [m, vs] of [...managers].sort(([a], [b]) => (a < b ? -1 : 1))) {
    managed[m] = { apiVersion: vs.apiVersion, applied: vs.applied, fieldsV1: setToFieldsV1Json(vs.set), paths: vs.set.paths().map(pathString).sort() };
  }
  return { ops, object: goJson(live.value), managed };
}
