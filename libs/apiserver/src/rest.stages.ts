import { Errors, type FieldError, type GroupKind, type KubeObject } from '@kube/apimachinery';
import { managerName, type ResourceFieldManagers } from './field.managers';
import { nowTimestamp, prepareMetaForCreate, prepareMetaForUpdate, validateFinalizersOnUpdate, validateObjectMeta } from './object-meta';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin, GracefulDeletion, RequestContext, ResourceDefinition, UndoFn } from './resource.definition';
import type { SubresourceStrategy } from './subresources/subresource.strategy';
import type { AdmissionOptions } from '@kube/admission';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export interface WriteOptions {
  dryRun: boolean;
  fieldValidation: FieldValidation;
  fieldManager?: string;
  /** Apply patches only: take over fields other managers own. */
  force?: boolean;
}

/** One create or update as it passes the write stages (a DELETE's graceful start is an update too). */
export interface Write {
  readonly operation: Extract<AdmissionOperation, 'CREATE' | 'UPDATE'>;
  readonly ctx: RequestContext;
  readonly opts: WriteOptions;
  /** The request's namespace (undefined for cluster-scoped resources). */
  readonly namespace: string | undefined;
  /** The subresource written ('' for the resource itself) and its strategy. */
  readonly subresource: string;
  readonly sub: SubresourceStrategy | undefined;
  /** The object being written, decoded; stages change it in place or replace it. */
  obj: KubeObject;
  /** The stored object an update changes (in the request's version). */
  readonly old: KubeObject | undefined;
  /** This update starts deletion (a DELETE of an object with pending finalizers, or a graceful delete with its period). */
  readonly startDeletion: boolean | GracefulDeletion;
  /** A server-side apply: the object carries its managedFields already. */
  readonly applied: boolean;
  /** Set by the storage stage: undoes the resource's side effects (allocations) if the write fails. */
  undo: UndoFn | void;
}

/** What the stages need of the resource being written. */
export interface WriteTarget {
  readonly def: ResourceDefinition;
  readonly gk: GroupKind;
  readonly admission: readonly AdmissionPlugin[];
  readonly subresources: ReadonlyMap<string, SubresourceStrategy>;
  readonly fields: ResourceFieldManagers;
  /** The object as it is stored (converted to the storage version). */
  forStorage(obj: KubeObject): Promise<KubeObject>;
}

export interface WriteStage {
  readonly name: string;
  run(w: Write, t: WriteTarget): void | Promise<void>;
}

/** kube's defaulting: the resource's defaults (a subresource write changes only its part and is not defaulted). */
function defaults(w: Write, t: WriteTarget): void {
  if (!w.sub) t.def.strategy?.default?.(w.obj);
}

/**
 * What an update may change: a write through a subresource takes only its part from the request (the status of
 * a /status write), a write of the resource itself never changes what its subresources own (status stays).
 */
function subresourceScope(w: Write, t: WriteTarget): void {
  const old = w.old;
  if (!old) return;
  if (w.sub) {
    const applied = w.obj.metadata.managedFields;
    w.obj = w.sub.prepareForUpdate(w.obj, old);
    // An apply's managedFields are its own, not the stored object's.
    if (w.applied) w.obj.metadata.managedFields = applied;
  } else for (const sub of t.subresources.values()) sub.prepareResourceForUpdate?.(w.obj, old);
}

/** managedFields, recorded before mutating admission as kube does (an apply recorded them already; a deletion never does). */
function fieldManager(w: Write, t: WriteTarget): void {
  if (w.applied || w.startDeletion) return;
  t.fields.update(w.old, w.obj, w.subresource, managerName(w.opts.fieldManager, w.ctx.userAgent));
}

function mutatingAdmission(w: Write, t: WriteTarget): Promise<void> {
  return admit(t, 'admit', w.operation, w.ctx, w.subresource, w.obj, w.old, admissionOptions(w.opts));
}

/**
 * kube's PrepareForCreate/PrepareForUpdate: server-owned metadata (a create never sets what subresources own),
 * graceful deletion, then the resource's strategy.
 */
function prepare(w: Write, t: WriteTarget): void {
  const strategy = t.def.strategy;
  if (!w.old) {
    prepareMetaForCreate(w.obj, t.def.namespaced ? w.namespace : undefined, t.def.tracksGeneration === true);
    for (const sub of t.subresources.values()) sub.prepareResourceForCreate?.(w.obj);
    strategy?.prepareForCreate?.(w.obj, w.ctx);
    return;
  }
  prepareMetaForUpdate(w.obj, w.old, t.def.tracksGeneration === true);
  t.fields.keepTimestamps(w.obj, w.old);
  if (w.startDeletion) markDeleting(w.obj, t.def, typeof w.startDeletion === 'object' ? w.startDeletion : undefined);
  if (!w.sub) strategy?.prepareForUpdate?.(w.obj, w.old, w.ctx);
}

/** Object metadata rules, then the resource's (or the subresource's) validation: 422 Invalid with every cause. */
function validate(w: Write, t: WriteTarget): void {
  const strategy = t.def.strategy;
  const { obj, old, ctx } = w;
  const errors: FieldError[] = validateObjectMeta(obj, t.def.namespaced, t.def.nameValidation);
  if (!old) errors.push(...(strategy?.validate?.(obj, ctx) ?? []));
  else {
    errors.push(...validateFinalizersOnUpdate(obj, old));
    if (w.sub) errors.push(...(w.sub.validateUpdate?.(obj, old, ctx, strategy) ?? []));
    else errors.push(...(strategy?.validateUpdate?.(obj, old, ctx) ?? strategy?.validate?.(obj, ctx) ?? []));
  }
  if (errors.length) throw Errors.invalid(t.gk, obj.metadata.name ?? obj.metadata.generateName ?? '', errors);
}

function validatingAdmission(w: Write, t: WriteTarget): Promise<void> {
  return admit(t, 'validate', w.operation, w.ctx, w.subresource, w.obj, w.old, admissionOptions(w.opts));
}

/** The resource's side effects before the write (allocations, with an undo), then the storage version. */
async function storage(w: Write, t: WriteTarget): Promise<void> {
  const hooks = t.def.hooks;
  if (!w.opts.dryRun) w.undo = w.old ? await hooks?.beforeUpdate?.(w.obj, w.old, w.ctx) : await hooks?.beforeCreate?.(w.obj, w.ctx);
  if (w.old) delete w.obj.metadata.resourceVersion;
  w.obj = await t.forStorage(w.obj);
}

/**
 * Every create, update, patch and subresource write passes these stages in this order, after decoding and
 * before the storage call (which writes `w.obj`). Later features add theirs here (admission webhooks inside the
 * two admission stages).
 */
export const WRITE_STAGES: readonly WriteStage[] = [
  { name: 'default', run: defaults },
  { name: 'subresource-scope', run: subresourceScope },
  { name: 'field-manager', run: fieldManager },
  { name: 'mutating-admission', run: mutatingAdmission },
  { name: 'prepare', run: prepare },
  { name: 'validate', run: validate },
  { name: 'validating-admission', run: validatingAdmission },
  { name: 'storage', run: storage },
];

/** Runs the write stages on `w`; the caller then stores `w.obj`. */
export async function runWriteStages(w: Write, t: WriteTarget, stages: readonly WriteStage[] = WRITE_STAGES): Promise<void> {
  for (const stage of stages) await stage.run(w, t);
}

/** Every admission plugin's admit (mutating) or validate, in order (kube's admission chain). */
export async function admit(t: WriteTarget, phase: 'admit' | 'validate', operation: AdmissionOperation, ctx: RequestContext, subresource: string, object?: KubeObject, oldObject?: KubeObject, options?: AdmissionOptions): Promise<void> {
  let attrs: AdmissionAttributes | undefined;
  for (const plugin of t.admission) {
    const run = plugin[phase];
    if (!run) continue;
    const source = object ?? oldObject;
    attrs ??= { operation, resource: t.def, subresource, namespace: source?.metadata.namespace ?? ctx.namespace ?? '', name: source?.metadata.name ?? '', object, oldObject, ctx, options };
    await run.call(plugin, attrs);
  }
}

/** The request's options as webhooks see them (CreateOptions/UpdateOptions). */
function admissionOptions(opts: WriteOptions): AdmissionOptions {
  return { fieldManager: opts.fieldManager, fieldValidation: opts.fieldValidation };
}

/** Graceful deletion starts: deletionTimestamp set once, generation bumped, resource-specific state. */
function markDeleting(obj: KubeObject, def: ResourceDefinition, graceful?: GracefulDeletion): void {
  if (graceful) {
    // rest.BeforeDelete: a first graceful deletion bumps a generation above 0; a shorter period only moves the timestamp.
    const first = !obj.metadata.deletionTimestamp;
    if (first) def.hooks?.onDeletionStarted?.(obj);
    obj.metadata.deletionTimestamp = graceful.deletionTimestamp;
    obj.metadata.deletionGracePeriodSeconds = graceful.gracePeriodSeconds;
    if (first && obj.metadata.generation) obj.metadata.generation += 1;
    return;
  }
  if (obj.metadata.deletionTimestamp) return;
  def.hooks?.onDeletionStarted?.(obj);
  obj.metadata.deletionTimestamp = nowTimestamp();
  obj.metadata.deletionGracePeriodSeconds = 0;
  // markAsDeleting: only a generation above 0 moves.
  if (obj.metadata.generation) obj.metadata.generation += 1;
}
