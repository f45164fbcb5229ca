import { describe, expect, it } from 'vitest';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { deletionFinalizersForGarbageCollection, validateDeleteOptions } from './gc.finalizers';

const obj = (finalizers?: string[]): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', finalizers } });

describe('deletionFinalizersForGarbageCollection (kube registry/generic/registry/store.go)', () => {
  it('adds orphan for propagationPolicy Orphan and for the deprecated orphanDependents=true', () => {
    expect(deletionFinalizersForGarbageCollection(obj(), { propagationPolicy: 'Orphan' })).toEqual({ changed: true, finalizers: ['orphan'] });
    expect(deletionFinalizersForGarbageCollection(obj(['a']), { orphanDependents: true })).toEqual({ changed: true, finalizers: ['a', 'orphan'] });
  });

  it('adds foregroundDeletion for Foreground and replaces an orphan finalizer', () => {
    expect(deletionFinalizersForGarbageCollection(obj(['orphan']), { propagationPolicy: 'Foreground' })).toEqual({ changed: true, finalizers: ['foregroundDeletion'] });
  });

  it('Background removes both; nothing asked keeps what the object has', () => {
    expect(deletionFinalizersForGarbageCollection(obj(['orphan', 'x']), { propagationPolicy: 'Background' })).toEqual({ changed: true, finalizers: ['x'] });
    expect(deletionFinalizersForGarbageCollection(obj(['foregroundDeletion']), {})).toEqual({ changed: false, finalizers: ['foregroundDeletion'] });
    expect(deletionFinalizersForGarbageCollection(obj(), {})).toEqual({ changed: false, finalizers: [] });
  });

  it('follows the resource default: OrphanDependents orphans without options, Unsupported never adds', () => {
    expect(deletionFinalizersForGarbageCollection(obj(), {}, 'OrphanDependents').finalizers).toEqual(['orphan']);
    expect(deletionFinalizersForGarbageCollection(obj(), { propagationPolicy: 'Foreground' }, 'Unsupported').changed).toBe(false);
  });

  it('refuses orphanDependents with propagationPolicy as kube does (422)', () => {
    let err: unknown;
    try {
      validateDeleteOptions({ orphanDependents: false, propagationPolicy: 'Background' });
    } catch (e) {
      err = e;
    }
    expect(isStatusError(err) && err.code).toBe(422);
    expect((err as Error).message).toContain('orphanDependents and deletionPropagation cannot be both set');
  });
});
