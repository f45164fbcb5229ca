/**
 * merge.Updater of structured-merge-diff: who owns which fields after an update (never conflicts:
 * the updater takes what it changed) or an apply (the applier's set becomes exactly its config;
 * fields it stopped applying are removed unless someone else owns them; changing fields others own
 * conflicts unless forced).
 */
import { pathString, type Path } from './fieldpath.path';
import { FieldSet } from './fieldpath.set';
import { ensureNamedFieldsAreMembers, type Comparison, type TypedValue } from './typed.value';
import { valuesEqual } from './value.order';
import { reconcileFieldSetWithSchema } from './typed.reconcile';

/** What one manager owns, in which API version, and whether by apply. */
export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

/** Manager identifier → owned fields. */
export type ManagedFields = Map<string, VersionedSet>;

export interface Conflict {
  manager: string;
  path: Path;
}

/** merge.Conflicts: the error an apply fails with, listing each conflicting field and its owner. */
export class ConflictsError extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super(conflictsMessage(conflicts));
    this.name = 'ConflictsError';
  }
}

function conflictsMessage(conflicts: Conflict[]): string {
  if (conflicts.length === 1) return `conflict with "${conflicts[0].manager}": ${pathString(conflicts[0].path)}`;
  const byManager = groupConflicts(conflicts);
  return [...byManager.keys()]
    .sort()
    .flatMap((m) => [`conflicts with "${m}":`, ...(byManager.get(m) ?? []).map((p) => `- ${pathString(p)}`)])
    .join('\n');
}

export function groupConflicts(conflicts: readonly Conflict[]): Map<string, Path[]> {
  const m = new Map<string, Path[]>();
  for (const c of conflicts) {
    const list = m.get(c.manager);
    if (list) list.push(c.path);
    else m.set(c.manager, [c.path]);
  }
  return m;
}

function conflictsFromManagers(sets: ManagedFields): Conflict[] {
  const out: Conflict[] = [];
  for (const [manager, vs] of sets) vs.set.iterate((path) => out.push({ manager, path }));
  return out;
}

/** Thrown by a Converter when the object has no representation in the asked version. */
export class MissingVersionError extends Error {}

/** Converts a typed object to another API version of the same kind. */
export interface Converter {
  convert(object: TypedValue, version: string): TypedValue;
}

/** Conversion "None": every version has the same fields (custom resources, single-version kinds). */
export const IDENTITY_CONVERTER: Converter = { convert: (o) => o };

export interface UpdaterOptions {
  converter?: Converter;
  /** Per API version, fields no manager can own through this endpoint (kube's reset fields). */
  ignored?: Map<string, FieldSet>;
  /** Return the merged object even when an apply changes nothing (default: undefined for a no-op). */
  returnInputOnNoop?: boolean;
}

function filterIgnored(set: FieldSet, ignored: FieldSet | undefined): FieldSet {
  return ignored ? set.recursiveDifference(ignored) : set;
}

export class Updater {
  private readonly converter: Converter;

  constructor(private readonly opts: UpdaterOptions = {}) {
    this.converter = opts.converter ?? IDENTITY_CONVERTER;
  }

  private convert(object: TypedValue, version: string): TypedValue | undefined {
    try {
      return this.converter.convert(object, version);
    } catch (err) {
      if (err instanceof MissingVersionError) return undefined;
      throw err;
    }
  }

  private filteredComparison(c: Comparison, version: string): Comparison {
    const ignored = this.opts.ignored?.get(version);
    if (!ignored) return c;
    return { removed: c.removed.recursiveDifference(ignored), modified: c.modified.recursiveDifference(ignored), added: c.added.recursiveDifference(ignored) };
  }

  /**
   * Shared step of Update and Apply: other managers lose what changed (or, without force, the change
   * conflicts) and what was removed.
   */
  private update(oldObject: TypedValue, newObject: TypedValue, version: string, managers: ManagedFields, workflow: string, force: boolean): { managers: ManagedFields; compare: Comparison } {
    const conflicts: ManagedFields = new Map();
    const removed: ManagedFields = new Map();
    const compare = this.filteredComparison(oldObject.compare(newObject), version);
    const versions = new Map<string, Comparison>([[version, compare]]);
    for (const [manager, managerSet] of [...managers]) {
      if (manager === workflow) continue;
      let cmp = versions.get(managerSet.apiVersion);
      if (!cmp) {
        const oldV = this.convert(oldObject, managerSet.apiVersion);
        const newV = oldV && this.convert(newObject, managerSet.apiVersion);
        if (!oldV || !newV) {
          managers.delete(manager);
          continue;
        }
        cmp = this.filteredComparison(oldV.compare(newV), managerSet.apiVersion);
        versions.set(managerSet.apiVersion, cmp);
      }
      const conflictSet = managerSet.set.intersection(cmp.modified.union(cmp.added));
      if (!conflictSet.isEmpty()) conflicts.set(manager, { set: conflictSet, apiVersion: managerSet.apiVersion, applied: false });
      if (!cmp.removed.isEmpty()) removed.set(manager, { set: cmp.removed, apiVersion: managerSet.apiVersion, applied: false });
    }
    if (!force && conflicts.size > 0) throw new ConflictsError(conflictsFromManagers(conflicts));
    for (const [manager, c] of conflicts) {
      const m = managers.get(manager) as VersionedSet;
      managers.set(manager, { ...m, set: m.set.difference(c.set) });
    }
    for (const [manager, r] of removed) {
      const m = managers.get(manager) as VersionedSet;
      managers.set(manager, { ...m, set: m.set.difference(r.set) });
    }
    for (const [manager, m] of [...managers]) if (m.set.isEmpty()) managers.delete(manager);
    return { managers, compare };
  }

  /** A non-apply write: `manager` gains what it added or modified; nobody else loses anything but removals. */
  updateObject(liveObject: TypedValue, newObject: TypedValue, version: string, managed: ManagedFields, manager: string): ManagedFields {
    let managers = this.reconcileWithSchemaChanges(liveObject, managed);
    const res = this.update(liveObject, newObject, version, managers, manager, true);
    managers = res.managers;
    const prev = managers.get(manager)?.set ?? new FieldSet();
    let set = prev.difference(res.compare.removed).union(res.compare.modified).union(res.compare.added);
    set = filterIgnored(set, this.opts.ignored?.get(version));
    if (set.isEmpty()) managers.delete(manager);
    else managers.set(manager, { set, apiVersion: version, applied: false });
    return managers;
  }

  /**
   * An apply: the merged object (undefined when nothing changed) and the new ownership. Throws
   * ConflictsError unless forced.
   */
  apply(liveObject: TypedValue, configObject: TypedValue, version: string, managed: ManagedFields, manager: string, force: boolean): { object?: TypedValue; managers: ManagedFields } {
    let managers = this.reconcileWithSchemaChanges(liveObject, managed);
    let newObject = liveObject.merge(configObject);
    const lastSet = managers.get(manager);
    const set = filterIgnored(configObject.toFieldSet(), this.opts.ignored?.get(version));
    managers.set(manager, { set, apiVersion: version, applied: true });
    newObject = this.prune(newObject, managers, manager, lastSet);
    managers = this.update(liveObject, newObject, version, managers, manager, force).managers;
    if (!this.opts.returnInputOnNoop && valuesEqual(liveObject.value, newObject.value)) return { managers };
    return { object: newObject, managers };
  }

  /** Removes what the applier owned last time and no longer applies, unless another manager owns it. */
  private prune(merged: TypedValue, managers: ManagedFields, applyingManager: string, lastSet: VersionedSet | undefined): TypedValue {
    if (!lastSet || lastSet.set.isEmpty()) return merged;
    const version = lastSet.apiVersion;
    const convertedMerged = this.convert(merged, version);
    if (!convertedMerged) return merged;
    const { schema, typeRef } = convertedMerged;
    let pruned = convertedMerged.removeItems(ensureNamedFieldsAreMembers(lastSet.set, schema, typeRef));
    pruned = this.addBackOwnedItems(convertedMerged, pruned, version, managers);
    pruned = this.addBackDanglingItems(convertedMerged, pruned, lastSet);
    return this.convert(pruned, (managers.get(applyingManager) as VersionedSet).apiVersion) ?? pruned;
  }

  private addBackOwnedItems(merged: TypedValue, pruned: TypedValue, prunedVersion: string, managed: ManagedFields): TypedValue {
    const managedAtVersion = new Map<string, FieldSet>();
    for (const vs of managed.values()) managedAtVersion.set(vs.apiVersion, (managedAtVersion.get(vs.apiVersion) ?? new FieldSet()).union(vs.set));
    const order = [...managedAtVersion.keys()].sort((a, b) => (a === prunedVersion ? -1 : b === prunedVersion ? 1 : 0));
    for (const version of order) {
      const res = this.addBackOwnedItemsForVersion(merged, pruned, version, managedAtVersion.get(version) as FieldSet);
      merged = res.merged;
      pruned = res.pruned;
    }
    return pruned;
  }

  private addBackOwnedItemsForVersion(merged: TypedValue, pruned: TypedValue, version: string, managed: FieldSet): { merged: TypedValue; pruned: TypedValue } {
    const m = this.convert(merged, version);
    if (!m) return { merged, pruned };
    const p = this.convert(pruned, version);
    if (!p) return { merged: m, pruned };
    const { schema, typeRef } = m;
    const mergedSet = ensureNamedFieldsAreMembers(m.toFieldSet(), schema, typeRef);
    const prunedSet = ensureNamedFieldsAreMembers(p.toFieldSet(), schema, typeRef);
    const keep = prunedSet.union(ensureNamedFieldsAreMembers(managed, schema, typeRef));
    return { merged: m, pruned: m.removeItems(mergedSet.difference(keep)) };
  }

  private addBackDanglingItems(merged: TypedValue, pruned: TypedValue, lastSet: VersionedSet): TypedValue {
    const convertedPruned = this.convert(pruned, lastSet.apiVersion);
    if (!convertedPruned) return merged;
    const { schema, typeRef } = merged;
    const prunedSet = ensureNamedFieldsAreMembers(convertedPruned.toFieldSet(), schema, typeRef);
    const mergedSet = ensureNamedFieldsAreMembers(merged.toFieldSet(), schema, typeRef);
    const last = ensureNamedFieldsAreMembers(lastSet.set, schema, typeRef);
    return merged.removeItems(mergedSet.difference(prunedSet).intersection(last));
  }

  /** Owned sets recorded under an older schema (e.g. a list that became atomic) follow the current one. */
  private reconcileWithSchemaChanges(liveObject: TypedValue, managers: ManagedFields): ManagedFields {
    const result: ManagedFields = new Map();
    for (const [manager, vs] of managers) {
      const tv = this.convert(liveObject, vs.apiVersion);
      if (!tv) continue;
      const reconciled = reconcileFieldSetWithSchema(vs.set, tv);
      result.set(manager, reconciled ? { ...vs, set: reconciled } : vs);
    }
    return result;
  }
}
