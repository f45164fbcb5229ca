import { Errors, FieldError, type DeleteOptions, type KubeObject } from '@kube/apimachinery';
import type { GarbageCollectionPolicy } from './resource.definition';

export const FINALIZER_ORPHAN_DEPENDENTS = 'orphan';
export const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';

/** kube's ValidateDeleteOptions: the deprecated orphanDependents and propagationPolicy exclude each other. */
export function validateDeleteOptions(options: DeleteOptions): void {
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    throw Errors.invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', [FieldError.invalid('propagationPolicy', options.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set')]);
  }
}

/** kube's shouldOrphanDependents: options first, then a finalizer already on the object, then the resource's default. */
function shouldOrphan(obj: KubeObject, options: DeleteOptions, policy: GarbageCollectionPolicy): boolean {
  if (policy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return options.orphanDependents;
  if (options.propagationPolicy) return options.propagationPolicy === 'Orphan';
  for (const f of obj.metadata.finalizers ?? []) {
    if (f === FINALIZER_ORPHAN_DEPENDENTS) return true;
    if (f === FINALIZER_DELETE_DEPENDENTS) return false;
  }
  return policy === 'OrphanDependents';
}

/** kube's shouldDeleteDependents: Foreground in the options, or the foregroundDeletion finalizer already there. */
function shouldDeleteDependents(obj: KubeObject, options: DeleteOptions, policy: GarbageCollectionPolicy): boolean {
  if (policy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return false;
  if (options.propagationPolicy) return options.propagationPolicy === 'Foreground';
  return (obj.metadata.finalizers ?? []).includes(FINALIZER_DELETE_DEPENDENTS);
}

/**
 * kube's deletionFinalizersForGarbageCollection (registry/generic/registry/store.go): the object's finalizers with
 * `orphan` / `foregroundDeletion` as the DELETE's propagation asks, and whether that changes them.
 */
export function deletionFinalizersForGarbageCollection(obj: KubeObject, options: DeleteOptions, policy: GarbageCollectionPolicy = 'DeleteDependents'): { changed: boolean; finalizers: string[] } {
  const current = obj.metadata.finalizers ?? [];
  const finalizers = current.filter((f) => f !== FINALIZER_ORPHAN_DEPENDENTS && f !== FINALIZER_DELETE_DEPENDENTS);
  if (shouldOrphan(obj, options, policy)) finalizers.push(FINALIZER_ORPHAN_DEPENDENTS);
  if (shouldDeleteDependents(obj, options, policy)) finalizers.push(FINALIZER_DELETE_DEPENDENTS);
  const before = new Set(current);
  const changed = before.size !== new Set(finalizers).size || finalizers.some((f) => !before.has(f));
  return { changed, finalizers: changed ? finalizers : current };
}
