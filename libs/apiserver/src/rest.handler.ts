import {
  Errors,
  FieldError,
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  formatGroupVersion,
  generateName,
  goDecodeError,
  goZeroNulls,
  goSprintValue,
  goTypeOfSchema,
  goUnstructuredConvertError,
  isStatusError,
  omitEmptyNormalizer,
  pruneUnknownFields,
  successStatus,
  type DeleteOptions,
  type GroupKind,
  type GroupResource,
  type JsonObject,
  type JsonValue,
  type KubeList,
  type KubeObject,
  type Status,
} from '@kube/apimachinery';
import type { ListResult, StorageInterface } from '@kube/storage';
import { deletionFinalizersForGarbageCollection, validateDeleteOptions } from './gc.finalizers';
import { formatTimestamp, OBJECT_META_GO_TYPE, objectMetaDecodeError } from './object-meta';
import type { AdmissionPlugin, GracefulDeletion, RequestContext, ResourceDefinition, UndoFn, UserInfo } from './resource.definition';
import { ObjectFilter } from './object.filter';
import { ResourceFieldManagers } from './field.managers';
import { admit, runWriteStages, type FieldValidation, type Write, type WriteOptions, type WriteTarget } from './rest.stages';
import type { SubresourceStrategy, SubresourceView } from './subresources/subresource.strategy';

export type { FieldValidation, WriteOptions } from './rest.stages';

export interface ListQuery {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const PATCH_CONTENT_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

const MAX_GENERATE_NAME_ATTEMPTS = 8;
/** Reads made by the server itself (controllers, admission), not on behalf of a client. */
const INTERNAL_USER: UserInfo = { name: 'system:apiserver', groups: ['system:masters'] };

function clone<T>(v: T): T {
  return structuredClone(v);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The generic REST behaviour of one resource (kube's registry/generic Store + endpoint handlers):
 * object metadata, strategy hooks, admission, field validation, finalizers, and storage calls.
 */
export class RestHandler implements WriteTarget {
  readonly gr: GroupResource;
  readonly gk: GroupKind;
  readonly apiVersion: string;
  readonly listKind: string;
  readonly acceptedPatchTypes: string[];
  /** Objects are written with this apiVersion (the storage version when several versions share storage). */
  readonly storageApiVersion: string;
  /** managedFields on every write, server-side apply (libs/field-management). */
  readonly fields: ResourceFieldManagers;
  /** The declared subresources (`status`, `scale`, …) by name. */
  readonly subresources: ReadonlyMap<string, SubresourceStrategy>;

  constructor(
    readonly def: ResourceDefinition,
    readonly store: StorageInterface,
    readonly admission: readonly AdmissionPlugin[] = [],
  ) {
    this.subresources = new Map(Object.entries(def.subresources ?? {}));
    this.gr = { group: def.group, resource: def.plural };
    this.gk = { group: def.group, kind: def.kind };
    this.apiVersion = formatGroupVersion(def);
    this.listKind = def.listKind ?? `${def.kind}List`;
    this.acceptedPatchTypes = ['application/json-patch+json', 'application/merge-patch+json', ...(this.strategicMergeAllowed ? ['application/strategic-merge-patch+json'] : []), 'application/apply-patch+yaml'];
    this.fields = new ResourceFieldManagers(def);
    this.storageApiVersion = def.storageVersion ? formatGroupVersion({ group: def.group, version: def.storageVersion }) : this.apiVersion;
  }

  private get strategicMergeAllowed(): boolean {
    return !!this.def.schema && !this.def.disableStrategicMergePatch;
  }

  // ---- reads ----

  /** `user` is who asks: a computed resource's storage sees it; stored objects do not depend on it. */
  async get(ns: string | undefined, name: string, resourceVersion?: string, user: UserInfo = INTERNAL_USER): Promise<KubeObject> {
    return this.servedOne(await this.store.get(ns, name, { resourceVersion, user }));
  }

  async list(ns: string | undefined, q: ListQuery, user: UserInfo = INTERNAL_USER): Promise<KubeList & { result: ListResult }> {
    const filter = ObjectFilter.parse(q.labelSelector, q.fieldSelector, this.def);
    const result = await this.store.list(ns, {
      resourceVersion: q.resourceVersion,
      resourceVersionMatch: q.resourceVersionMatch,
      limit: q.limit,
      continue: q.continue,
      predicate: filter.empty ? undefined : (o) => filter.matches(o),
      user,
    });
    const metadata: KubeList['metadata'] = { resourceVersion: result.resourceVersion };
    if (result.continue) metadata.continue = result.continue;
    if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
    return { kind: this.listKind, apiVersion: this.apiVersion, metadata, items: await this.served(result.items), result };
  }

  withTypeMeta(obj: KubeObject): KubeObject {
    if (obj.kind === this.def.kind && obj.apiVersion === this.apiVersion) return obj;
    return { ...obj, apiVersion: this.apiVersion, kind: this.def.kind };
  }

  /** Stored objects as this version serves them: through the conversion hook in one batch, else only type meta rewritten. */
  async served(objs: KubeObject[]): Promise<KubeObject[]> {
    if (!this.def.conversion) return objs.map((o) => this.decorated(this.withTypeMeta(o)));
    return (await this.def.conversion.fromStorage(objs, this.def.version)).map((o) => this.decorated(o));
  }

  /** One stored object as this version serves it (a GET, a write's answer, a WATCH event). */
  async servedOne(obj: KubeObject, justWritten = false): Promise<KubeObject> {
    // An object this request just wrote went through defaulting already: no read-time decoration needed.
    const decorate = (o: KubeObject): KubeObject => (justWritten ? o : this.decorated(o));
    if (!this.def.conversion) return decorate(this.withTypeMeta(obj));
    const [converted] = await this.def.conversion.fromStorage([obj], this.def.version);
    return decorate(converted);
  }

  private readonly decorations = new WeakMap<KubeObject, KubeObject>();
  /** The kind's omitempty normalizer, looked up on the first write (null: none). */
  private omitEmptyOf: ((obj: JsonObject) => void) | null | undefined;

  /**
   * Read-time changes (CR defaults added after an object was stored). Stored objects are immutable, so the
   * result is computed once per object version and reused by every later read.
   */
  private decorated(obj: KubeObject): KubeObject {
    const decorate = this.def.strategy?.decorate;
    if (!decorate) return obj;
    let out = this.decorations.get(obj);
    if (!out) {
      out = decorate(obj);
      this.decorations.set(obj, out);
    }
    return out;
  }

  // ---- create ----

  /** POST: decode, then the write stages, then storage (a generated name that is taken is generated again). */
  async create(ctx: RequestContext, ns: string | undefined, body: JsonValue, opts: WriteOptions): Promise<KubeObject> {
    const obj = this.decode(body, ctx, opts);
    if (this.def.createOnly) return this.withTypeMeta(await this.def.createOnly(obj, ctx));
    this.checkNamespace(obj, ns);
    const generated = !obj.metadata.name && !!obj.metadata.generateName;
    const w = this.write('CREATE', ctx, opts, ns, obj);
    await runWriteStages(w, this);
    let stored: KubeObject;
    for (let attempt = 1; ; attempt++) {
      try {
        stored = await this.store.create(w.obj, { dryRun: opts.dryRun, ttlSeconds: this.def.ttlSeconds });
        break;
      } catch (err) {
        // kube's RetryGenerateName: only the name changes, everything else was decided already.
        if (generated && attempt < MAX_GENERATE_NAME_ATTEMPTS && isStatusError(err) && err.reason === 'AlreadyExists') {
          w.obj.metadata.name = generateName(w.obj.metadata.generateName as string);
          continue;
        }
        await w.undo?.();
        throw err;
      }
    }
    // Outside the try: the object is written, a failing conversion of the response must not undo its side effects.
    return this.servedOne(stored, true);
  }

  private write(operation: Write['operation'], ctx: RequestContext, opts: WriteOptions, ns: string | undefined, obj: KubeObject, old?: KubeObject, subresource = '', startDeletion: boolean | GracefulDeletion = false, applied = false): Write {
    return { operation, ctx, opts, namespace: ns, subresource, sub: subresource ? this.subresource(subresource) : undefined, obj, old, startDeletion, applied, undo: undefined };
  }

  /** The strategy of a declared subresource; anything else is 404. */
  subresource(name: string): SubresourceStrategy {
    const sub = this.subresources.get(name);
    if (!sub) throw Errors.notFound(this.gr, '');
    return sub;
  }

  // ---- update / patch ----

  /** PUT. Returns the stored object and whether it was created. */
  async update(ctx: RequestContext, ns: string | undefined, name: string, body: JsonValue, opts: WriteOptions, subresource = ''): Promise<{ object: KubeObject; created: boolean }> {
    const incoming = this.decode(body, ctx, opts);
    if (incoming.metadata.name && incoming.metadata.name !== name) {
      throw Errors.badRequest(`the name of the object (${incoming.metadata.name}) does not match the name on the URL (${name})`);
    }
    incoming.metadata.name = name;
    this.checkNamespace(incoming, ns);
    const allowCreate = !subresource && (this.def.strategy?.allowCreateOnUpdate ?? true);
    // kube's DefaultUpdatedObjectInfo: a uid in the body is a precondition of the write (a replaced object is not updated).
    const uid = incoming.metadata.uid;
    return this.writeUpdate(ctx, ns, name, opts, subresource, allowCreate, () => clone(incoming), false, false, uid ? { uid } : undefined);
  }

  async patch(ctx: RequestContext, ns: string | undefined, name: string, patchType: PatchType, patch: JsonValue, opts: WriteOptions, subresource = ''): Promise<KubeObject> {
    if (patchType === 'apply') return (await this.apply(ctx, ns, name, patch, opts, subresource)).object;
    if (patchType === 'strategic' && !this.strategicMergeAllowed) throw Errors.unsupportedMediaType('application/strategic-merge-patch+json', this.acceptedPatchTypes);
    const { object } = await this.writeUpdate(ctx, ns, name, opts, subresource, false, (cur) => {
      const current = cur as KubeObject;
      const patched = this.applyPatch(current, patchType, patch);
      if (patchType === 'strategic') this.checkStrategicResult(patched, patch);
      // A strict decoding error names the patch as kube's patchers do: the strategic patch as Go prints its map, else the patched JSON.
      const obj = this.decode(patched, ctx, opts, true, patchType === 'strategic' ? goSprintValue(patch) : undefined);
      // A patch that carries no resourceVersion is unconditional: it applies to whatever is current.
      if (!obj.metadata.resourceVersion || !this.patchSetsResourceVersion(patch)) obj.metadata.resourceVersion = current.metadata.resourceVersion;
      return obj;
    });
    return object;
  }

  /**
   * Server-side apply (kube's applyPatcher): the field manager merges the config into the live object,
   * or into nothing (201 Created, also where PUT may not create); subresources never create.
   */
  async apply(ctx: RequestContext, ns: string | undefined, name: string, patch: JsonValue, opts: WriteOptions, subresource = ''): Promise<{ object: KubeObject; created: boolean }> {
    if (!isObject(patch)) throw Errors.badRequest('error decoding YAML: the apply configuration is not an object');
    const manager = opts.fieldManager ?? '';
    return this.writeUpdate(ctx, ns, name, opts, subresource, !subresource, (cur) => {
      const obj = this.fields.apply(cur, clone(patch) as JsonObject, subresource, manager, opts.force ?? false);
      // The merged object is converted to the Go type in kube too (managedFields keep what was applied).
      this.omitEmpty(obj);
      if (obj.metadata.name !== name) throw Errors.badRequest(`the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${name})`);
      this.checkNamespace(obj, ns);
      return obj;
    }, false, true);
  }

  private patchSetsResourceVersion(patch: JsonValue): boolean {
    if (Array.isArray(patch)) return patch.some((op) => isObject(op) && typeof op.path === 'string' && op.path.startsWith('/metadata/resourceVersion'));
    return isObject(patch) && isObject(patch.metadata) && patch.metadata.resourceVersion !== undefined;
  }

  private applyPatch(current: KubeObject, type: PatchType, patch: JsonValue): JsonValue {
    const doc = clone(current) as unknown as JsonValue;
    switch (type) {
      case 'json':
        return applyJsonPatch(doc, patch) as JsonValue;
      case 'merge':
        if (!isObject(patch)) throw Errors.badRequest('the patch is not a JSON object');
        return applyMergePatch(doc, patch) as JsonValue;
      default: {
        if (!isObject(patch)) throw Errors.badRequest('the patch is not a JSON object');
        const schema = this.def.schema;
        return applyStrategicMergePatch(doc as object, patch, schema ? { $ref: `#/components/schemas/${schema.name}` } : undefined, schema?.components ?? {}) as JsonValue;
      }
    }
  }

  /**
   * The shared update path of PUT, PATCH and subresource writes: optimistic concurrency, then the write stages
   * on each attempt (a PUT of a missing object runs them as a create), then the finalizer check that may
   * complete a pending delete.
   */
  private async writeUpdate(
    ctx: RequestContext,
    ns: string | undefined,
    name: string,
    opts: WriteOptions,
    subresource: string,
    allowCreate: boolean,
    desired: (current: KubeObject | undefined) => KubeObject,
    startDeletion: boolean | GracefulDeletion = false,
    applied = false,
    preconditions?: { uid: string },
  ): Promise<{ object: KubeObject; created: boolean }> {
    let undo: UndoFn | void = undefined;
    let written: { object: KubeObject; created: boolean };
    let currentVersion: string | undefined;
    try {
      const result = await this.store.guaranteedUpdate(
        ns,
        name,
        async (current) => {
          await undo?.();
          undo = undefined;
          currentVersion = current?.metadata.resourceVersion;
          let w: Write;
          if (!current) {
            // PUT to a missing object creates it where the resource allows (configmaps do, CRs do not).
            if (!allowCreate) throw Errors.notFound(this.gr, name);
            const obj = desired(undefined);
            if (obj.metadata.resourceVersion) throw Errors.notFound(this.gr, name);
            w = this.write('CREATE', ctx, opts, ns, obj, undefined, '', false, applied);
          } else {
            // The update is computed in the request's version: the stored object is converted first (kube decodes into it).
            const old = this.def.conversion ? await this.servedOne(current) : current;
            const incoming = desired(this.withTypeMeta(old));
            this.checkResourceVersion(incoming, old);
            w = this.write('UPDATE', ctx, opts, ns, incoming, old, subresource, startDeletion, applied);
          }
          try {
            await runWriteStages(w, this);
          } finally {
            undo = w.undo;
          }
          return w.obj;
        },
        { ignoreNotFound: allowCreate, dryRun: opts.dryRun, preconditions },
      );
      const object = result.changed && !opts.dryRun ? await this.finishIfFinalized(result.object) : result.object;
      // A dry-run deletion wrote nothing: its answer is the stored object marked as deleted, resourceVersion included (kube's updateForGracefulDeletionAndFinalizers).
      if (startDeletion && opts.dryRun && result.changed && !object.metadata.resourceVersion && currentVersion) object.metadata.resourceVersion = currentVersion;
      written = { object, created: result.created };
    } catch (err) {
      await (undo as UndoFn | void)?.();
      throw err;
    }
    // Outside the try: the object is written, a failing conversion of the response must not undo its side effects.
    return { object: await this.servedOne(written.object, true), created: written.created };
  }

  /**
   * Optimistic concurrency: a resourceVersion in the request must be the stored one (or be required at all);
   * "0" parses to kube's zero version, which means none (an unconditional update where the kind allows one).
   */
  private checkResourceVersion(incoming: KubeObject, current: KubeObject): void {
    const rv = incoming.metadata.resourceVersion;
    if (!rv || rv === '0') {
      if (this.def.strategy?.allowUnconditionalUpdate === false) {
        throw Errors.invalid(this.gk, incoming.metadata.name ?? '', [FieldError.invalid('metadata.resourceVersion', 0, 'must be specified for an update')]);
      }
    } else if (rv !== current.metadata.resourceVersion) {
      throw Errors.modified(this.gr, current.metadata.name as string);
    }
  }

  /** The object as it is written: converted by the hook, else (conversion "None") only apiVersion changes. */
  async forStorage(obj: KubeObject): Promise<KubeObject> {
    if (this.def.conversion) return this.def.conversion.toStorage(obj);
    if (obj.apiVersion !== this.storageApiVersion) obj.apiVersion = this.storageApiVersion;
    return obj;
  }

  // ---- subresources shown as another kind (/scale) ----

  /** GET of a view subresource: the view of the stored object, in the request's version. */
  async getView(ns: string | undefined, name: string, subresource: string): Promise<KubeObject> {
    const view = this.viewOf(subresource);
    const stored = await this.store.get(ns, name);
    return view.get(this.def.conversion ? await this.servedOne(stored) : stored);
  }

  /** PUT or PATCH of a view subresource: the change is applied to the view, then written back onto the object. */
  async updateView(ctx: RequestContext, ns: string | undefined, name: string, subresource: string, change: (view: KubeObject) => KubeObject, opts: WriteOptions): Promise<KubeObject> {
    const view = this.viewOf(subresource);
    const { object } = await this.writeUpdate(ctx, ns, name, opts, subresource, false, (cur) => {
      const current = clone(cur as KubeObject);
      const desired = change(view.get(current));
      const rv = desired.metadata?.resourceVersion;
      if (rv && rv !== current.metadata.resourceVersion) throw Errors.modified(this.gr, name);
      view.apply(current, desired);
      return current;
    });
    return view.get(object);
  }

  private viewOf(subresource: string): SubresourceView {
    const view = this.subresource(subresource).view;
    if (!view) throw Errors.notFound(this.gr, '');
    return view;
  }

  /**
   * An object being deleted whose last finalizer was just removed is deleted for real; one in a graceful
   * deletion (a period above 0) stays until its final delete (kube's ShouldDeleteDuringUpdate).
   */
  private async finishIfFinalized(obj: KubeObject): Promise<KubeObject> {
    if (!obj.metadata.deletionTimestamp || this.hasPendingFinalizers(obj) || (obj.metadata.deletionGracePeriodSeconds ?? 0) > 0) return obj;
    try {
      const deleted = await this.store.delete(obj.metadata.namespace, obj.metadata.name as string, { preconditions: { resourceVersion: obj.metadata.resourceVersion } });
      await this.def.hooks?.afterDelete?.(deleted);
    } catch (err) {
      if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
    }
    return obj;
  }

  private hasPendingFinalizers(obj: KubeObject): boolean {
    return (obj.metadata.finalizers?.length ?? 0) > 0 || (this.def.hooks?.pendingFinalizers?.(obj) ?? false);
  }

  // ---- delete ----

  /** DELETE: removes the object, or starts graceful deletion when finalizers are pending. */
  async delete(ctx: RequestContext, ns: string | undefined, name: string, options: DeleteOptions, dryRun: boolean): Promise<{ body: KubeObject | Status; code: number }> {
    const stored = await this.store.get(ns, name);
    // Admission sees the object in the request's version, as kube decodes it.
    const current = this.def.conversion ? await this.servedOne(stored) : stored;
    validateDeleteOptions(options);
    this.checkDeletePreconditions(name, current, options.preconditions);
    // Webhooks see the DeleteOptions as sent (dryRun among them: ctx.dryRun is the options').
    const admissionOptions = { delete: { gracePeriodSeconds: options.gracePeriodSeconds, preconditions: options.preconditions, propagationPolicy: options.propagationPolicy, orphanDependents: options.orphanDependents } };
    await admit(this, 'admit', 'DELETE', ctx, '', undefined, current, admissionOptions);
    await admit(this, 'validate', 'DELETE', ctx, '', undefined, current, admissionOptions);
    // The garbage collector's finalizers (orphan, foregroundDeletion) as the propagation policy asks (kube's Store.Delete).
    const policy = this.def.strategy?.garbageCollectionPolicy;
    const graceful = this.gracefulDeletion(current, options);
    if (graceful === 'pending') return { body: successStatus({ name, group: this.def.group || undefined, kind: this.def.plural, uid: current.metadata.uid }), code: 200 };
    if (graceful) {
      // Started or shortened: the object stays until whoever runs it (a kubelet) deletes it with a grace period of 0.
      const { object } = await this.writeUpdate(ctx, ns, name, { dryRun, fieldValidation: 'Ignore' }, '', false, (cur) => {
        const next = clone(cur as KubeObject);
        const finalizers = deletionFinalizersForGarbageCollection(next, options, policy).finalizers;
        if (finalizers.length) next.metadata.finalizers = finalizers;
        else delete next.metadata.finalizers;
        return next;
      }, graceful);
      return { body: object, code: 200 };
    }
    const gc = deletionFinalizersForGarbageCollection(current, options, policy);
    if (this.hasPendingFinalizers(current) || gc.changed) {
      // Deletion under way: the options no longer change the finalizers (kube: "cannot be updated via DeleteOptions if a deletion is already pending").
      if (current.metadata.deletionTimestamp) return { body: this.withTypeMeta(current), code: 200 };
      const { object } = await this.writeUpdate(ctx, ns, name, { dryRun, fieldValidation: 'Ignore' }, '', false, (cur) => {
        const next = clone(cur as KubeObject);
        const finalizers = deletionFinalizersForGarbageCollection(next, options, policy).finalizers;
        if (finalizers.length) next.metadata.finalizers = finalizers;
        else delete next.metadata.finalizers;
        return next;
      }, true);
      if (!this.hasPendingFinalizers(object)) return { body: successStatus({ name, group: this.def.group || undefined, kind: this.def.plural, uid: object.metadata.uid }), code: 200 };
      // kube answers 202 only to the deprecated orphanDependents=false (other clients expect 200).
      return { body: object, code: options.orphanDependents === false ? 202 : 200 };
    }
    const deleted = await this.store.delete(ns, name, { preconditions: options.preconditions, dryRun });
    if (!dryRun) await this.def.hooks?.afterDelete?.(deleted);
    return { body: successStatus({ name, group: this.def.group || undefined, kind: this.def.plural, uid: deleted.metadata.uid }), code: 200 };
  }

  /**
   * rest.BeforeDelete's early precondition check, with its texts (the storage checks again when it deletes): the
   * resource is named by kind, e.g. `Deployment.apps "web"`.
   */
  private checkDeletePreconditions(name: string, current: KubeObject, pre: DeleteOptions['preconditions']): void {
    if (!pre) return;
    const byKind = { group: this.def.group, resource: this.def.kind };
    if (pre.uid && pre.uid !== current.metadata.uid) {
      throw Errors.conflict(byKind, name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${current.metadata.uid ?? ''}). The object might have been deleted and then recreated`);
    }
    if (pre.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
      throw Errors.conflict(byKind, name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion ?? ''}). The object might have been modified`);
    }
  }

  /**
   * rest.BeforeDelete for a resource with a graceful delete strategy: a period to start (or shorten to), 'pending'
   * when a deletion under way is not shortened, undefined for a delete that happens at once.
   */
  private gracefulDeletion(current: KubeObject, options: DeleteOptions): GracefulDeletion | 'pending' | undefined {
    const check = this.def.strategy?.checkGracefulDelete;
    if (!check) return undefined;
    // Negative periods count as 1 s on the delete path.
    const requested = options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0 ? 1 : options.gracePeriodSeconds;
    const meta = current.metadata;
    if (meta.deletionTimestamp) {
      const existing = meta.deletionGracePeriodSeconds ?? 0;
      if (existing <= 0) return undefined;
      if (requested === undefined || requested >= existing) return 'pending';
      // Only shorter; 0 deletes now (the kubelet's final delete).
      if (requested === 0) return undefined;
      const due = Date.parse(meta.deletionTimestamp) - existing * 1000 + requested * 1000;
      return { deletionTimestamp: formatTimestamp(new Date(Math.max(due, Date.now()))), gracePeriodSeconds: requested };
    }
    const period = check(current, requested);
    if (period <= 0) return undefined;
    return { deletionTimestamp: formatTimestamp(new Date(Date.now() + period * 1000)), gracePeriodSeconds: period };
  }

  async deleteCollection(ctx: RequestContext, ns: string | undefined, q: ListQuery, options: DeleteOptions, dryRun: boolean): Promise<KubeList> {
    const list = await this.list(ns, { labelSelector: q.labelSelector, fieldSelector: q.fieldSelector });
    const deleted: KubeObject[] = [];
    for (const item of list.items) {
      try {
        const res = await this.delete(ctx, ns ?? item.metadata.namespace, item.metadata.name as string, { ...options, preconditions: undefined }, dryRun);
        deleted.push(res.body.kind === 'Status' ? item : (res.body as KubeObject));
      } catch (err) {
        if (!(isStatusError(err) && err.code === 404)) throw err;
      }
    }
    return { kind: this.listKind, apiVersion: this.apiVersion, metadata: { resourceVersion: list.metadata.resourceVersion }, items: deleted };
  }

  // ---- shared steps ----

  /**
   * Checks apiVersion/kind and the JSON types of metadata, fills type meta, applies fieldValidation (unknown
   * fields are pruned or refused). `patched`: the body is a patch's result (kube reports its decode errors apart).
   */
  decode(body: JsonValue, ctx: RequestContext, opts: WriteOptions, patched = false, patchValue?: string): KubeObject {
    if (!isObject(body)) throw Errors.badRequest(`the body of the request was in an unknown format - expected a ${this.def.kind} object`);
    const obj = body as unknown as KubeObject;
    if (obj.apiVersion !== undefined && obj.apiVersion !== this.apiVersion) {
      throw Errors.badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${this.apiVersion})`);
    }
    if (obj.kind !== undefined && obj.kind !== this.def.kind) {
      throw Errors.badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${this.def.kind})`);
    }
    this.checkJsonTypes(obj, patched);
    this.omitEmpty(obj);
    obj.apiVersion = this.apiVersion;
    obj.kind = this.def.kind;
    obj.metadata = obj.metadata ?? {};
    this.checkFields(obj, ctx, opts.fieldValidation, patched ? (patchValue ?? JSON.stringify(obj)) : undefined);
    return obj;
  }

  /** Built-in kinds lose their omitempty zeros as kube's Go types do (custom resources are unstructured and keep them). */
  private omitEmpty(obj: KubeObject): void {
    this.omitEmptyNormalizer()?.(obj as unknown as JsonObject);
  }

  private omitEmptyNormalizer(): ((obj: JsonObject) => void) | null {
    if (this.omitEmptyOf === undefined) this.omitEmptyOf = this.def.disableStrategicMergePatch ? null : (omitEmptyNormalizer(this.apiVersion, this.def.kind) ?? null);
    return this.omitEmptyOf;
  }

  /**
   * Looks up now what the first write would: the omitempty plan of a built-in kind needs kube's Go field facts
   * loaded (~200 ms, once per process), which a server does before it serves, not in its first write.
   */
  prepare(): void {
    this.omitEmptyNormalizer();
  }

  /**
   * The body's JSON types as Go's decoder checks them (a label that is an object, a string generation, a list
   * where the schema has a struct): 400 with the decoder's message, as kube's transformDecodeError words it,
   * before any step trusts the types. Typed kinds are checked against their schema; custom resources (the
   * unstructured kinds, which alone refuse strategic merge patches) only have their metadata decoded on its own,
   * as apiextensions' GetObjectMeta does (their messages name `ObjectMeta.<field>`).
   */
  private checkJsonTypes(obj: KubeObject, patched: boolean): void {
    const unstructured = !!this.def.disableStrategicMergePatch;
    const schema = this.def.schema;
    const err = unstructured
      ? goDecodeError(obj.metadata, OBJECT_META_GO_TYPE)
      : (objectMetaDecodeError(obj, this.def.kind) ?? (schema ? goDecodeError(obj, goTypeOfSchema(schema.name, schema.components)) : undefined));
    if (!err) {
      // What Go decodes a null map or list element into (a label "a": null is the label "a" with value ""), before
      // code typed after Go meets a null where it expects a string.
      goZeroNulls(obj.metadata, OBJECT_META_GO_TYPE);
      if (!unstructured && schema) goZeroNulls(obj, goTypeOfSchema(schema.name, schema.components));
      return;
    }
    // A patch's result that does not decode is kube's 422 on the field "patch" (jsonPatcher.applyPatchToCurrentObject).
    if (patched) throw Errors.invalid({ group: '', kind: '' }, '', [FieldError.invalid('patch', JSON.stringify(obj), err)]);
    throw Errors.badRequest(`${this.def.kind} in version ${JSON.stringify(this.def.version)} cannot be handled as a ${this.def.kind}: ${err}`);
  }

  /**
   * A strategic merge patch's result is converted from its map, not decoded from JSON (kube's applyPatchToObject):
   * a wrong type is the unstructured converter's error, on the field "patch" valued with the patch as Go prints it.
   */
  private checkStrategicResult(patched: JsonValue, patch: JsonValue): void {
    const schema = this.def.schema;
    if (!schema || !isObject(patched)) return;
    const err = goUnstructuredConvertError(patched, goTypeOfSchema(schema.name, schema.components));
    if (err) throw Errors.invalid({ group: '', kind: '' }, '', [FieldError.invalid('patch', goSprintValue(patch), err)]);
  }

  /**
   * Unknown fields under fieldValidation: Strict fail as kube words a decoding error: transformDecodeError's 400 for a
   * body, the patchers' 422 on the field "patch" for a patch's result (`patchValue`).
   */
  private checkFields(obj: KubeObject, ctx: RequestContext, mode: FieldValidation, patchValue?: string): void {
    const unknown = this.unknownFields(obj);
    if (!unknown.length || mode === 'Ignore') return;
    if (mode === 'Strict') {
      const err = `strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`;
      if (patchValue !== undefined) throw Errors.invalid({ group: '', kind: '' }, '', [FieldError.invalid('patch', patchValue, err)]);
      throw Errors.badRequest(`${this.def.kind} in version ${JSON.stringify(this.def.version)} cannot be handled as a ${this.def.kind}: ${err}`);
    }
    for (const f of unknown) ctx.warnings.push(`unknown field "${f}"`);
  }

  private unknownFields(obj: KubeObject): string[] {
    if (this.def.strategy?.prune) return this.def.strategy.prune(obj);
    const schema = this.def.schema;
    return schema ? pruneUnknownFields(obj, { $ref: `#/components/schemas/${schema.name}` }, schema.components) : [];
  }

  private checkNamespace(obj: KubeObject, ns: string | undefined): void {
    if (!this.def.namespaced) {
      delete obj.metadata.namespace;
      return;
    }
    if (obj.metadata.namespace && ns && obj.metadata.namespace !== ns) {
      throw Errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    if (ns) obj.metadata.namespace = ns;
  }
}
