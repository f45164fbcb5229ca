import { describe, expect, it } from 'vitest';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { applyScale, scaleSubresource, toScale } from './scale.subresource';

const sub = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
const obj = (): KubeObject => ({ apiVersion: 'x.io/v1', kind: 'Thing', metadata: { name: 't', namespace: 'ns', resourceVersion: '5', uid: 'u' }, spec: { replicas: 2 }, status: { replicas: 1, selector: 'app=t' } });

describe('scale subresource', () => {
  it('maps an object to autoscaling/v1 Scale', () => {
    expect(toScale(obj(), sub)).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 't', namespace: 'ns', uid: 'u', resourceVersion: '5', creationTimestamp: undefined },
      spec: { replicas: 2 },
      status: { replicas: 1, selector: 'app=t' },
    });
  });

  it('writes spec.replicas back, creating missing parents', () => {
    const o = obj();
    delete o.spec;
    applyScale(o, { spec: { replicas: 5 } }, sub);
    expect(o.spec).toEqual({ replicas: 5 });
  });

  it('refuses negative replicas with 422', () => {
    try {
      applyScale(obj(), { spec: { replicas: -1 } }, sub);
      expect.unreachable();
    } catch (err) {
      expect(isStatusError(err) && err.status.message).toBe('Scale.autoscaling "t" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    }
  });
});

describe('scaleSubresource', () => {
  const paths = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };
  const obj: KubeObject = { apiVersion: 'x/v1', kind: 'W', metadata: { name: 'w', resourceVersion: '5' }, spec: { replicas: 2 }, status: { replicas: 1 } };

  it('is an autoscaling/v1 Scale view whose writes change spec.replicas of the object', () => {
    const sub = scaleSubresource(paths);
    expect(sub.view?.kind).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    expect(sub.view?.get(obj)).toMatchObject({ kind: 'Scale', spec: { replicas: 2 }, status: { replicas: 1 } });
    const copy = structuredClone(obj);
    sub.view?.apply(copy, { spec: { replicas: 7 } });
    expect(copy.spec).toEqual({ replicas: 7 });
    expect(sub.view?.patchTypes).toEqual(['application/json-patch+json', 'application/merge-patch+json']);
  });

  it('validates a scale write as an update of the resource itself', () => {
    const ctx = { user: { name: 'u', groups: [] }, dryRun: false, warnings: [] };
    const seen: string[] = [];
    const errors = scaleSubresource(paths).validateUpdate?.(obj, obj, ctx, { validateUpdate: () => (seen.push('update'), []), validate: () => (seen.push('create'), []) });
    expect(errors).toEqual([]);
    expect(seen).toEqual(['update']);
  });
});
