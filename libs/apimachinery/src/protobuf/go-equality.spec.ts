import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../types';
import { goEquality, jsonEqual } from './go-equality';
import { omitEmptyNormalizer } from './go-omitempty';

describe('goEquality (apiequality.Semantic.DeepEqual of built-in kinds)', () => {
  const deploymentStatus = goEquality('apps/v1', 'Deployment', 'status');

  it('takes an absent field for its zero value, as the stored object (omitempty zeros dropped) is to Go', () => {
    const computed = { observedGeneration: 2, replicas: 0, updatedReplicas: 0, readyReplicas: 0, availableReplicas: 0, unavailableReplicas: 0, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: '' }] };
    const written: JsonObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, status: structuredClone(computed) };
    omitEmptyNormalizer('apps/v1', 'Deployment')?.(written);
    expect(written.status).toEqual({ observedGeneration: 2, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }] });
    expect(deploymentStatus(written.status, computed)).toBe(true);
    expect(deploymentStatus(computed, written.status)).toBe(true);
    // JSON as it is sees a difference Go does not.
    expect(jsonEqual(written.status, computed)).toBe(false);
  });

  it('sees real differences: a count, a condition, a set pointer against nil', () => {
    const base = { observedGeneration: 2, replicas: 1, conditions: [{ type: 'Available', status: 'True' }] };
    expect(deploymentStatus(base, { ...base, replicas: 2 })).toBe(false);
    expect(deploymentStatus(base, { ...base, conditions: [{ type: 'Available', status: 'False' }] })).toBe(false);
    expect(deploymentStatus(base, { ...base, conditions: [] })).toBe(false);
    // collisionCount is a *int32: 0 is set, absent is nil.
    expect(deploymentStatus(base, { ...base, collisionCount: 0 })).toBe(false);
    expect(deploymentStatus(base, { ...base, collisionCount: null })).toBe(true);
  });

  it('ignores key order and undefined keys, equates nil and empty lists and maps, and absent and zero structs', () => {
    const pod = goEquality('v1', 'Pod');
    const a = { metadata: { name: 'p', labels: { b: '2', a: '1' } }, spec: { containers: [{ name: 'c', image: 'i', args: [] }], hostNetwork: false } };
    const b = { spec: { containers: [{ image: 'i', name: 'c', resources: {} }] }, metadata: { labels: { a: '1', b: '2' }, name: 'p', annotations: {}, namespace: undefined } };
    expect(pod(a, b)).toBe(true);
    expect(pod(a, { ...b, metadata: { ...b.metadata, labels: { a: '1' } } })).toBe(false);
    // A map's keys count even with a zero value.
    expect(pod({ metadata: { labels: { a: '' } } }, { metadata: {} })).toBe(false);
    // Fields Go's type lacks are compared as they are.
    expect(pod({ spec: { notAField: 0 } }, { spec: {} })).toBe(false);
  });

  it('compares a kind Go does not type as plain JSON', () => {
    const cr = goEquality('example.com/v1', 'Widget', 'status');
    expect(cr({ count: 0 }, {})).toBe(false);
    expect(cr({ count: 0, gone: undefined }, { count: 0 })).toBe(true);
  });
});
