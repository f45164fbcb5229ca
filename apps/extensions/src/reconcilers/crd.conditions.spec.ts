import { describe, expect, it } from 'vitest';
import type { CustomResourceDefinition } from '../crd/crd.types';
import { desiredStatus, withCondition } from './crd.conditions';

const crd = (name: string, status?: CustomResourceDefinition['status']): CustomResourceDefinition =>
  ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}s.example.com` },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: `${name}s`, kind: name[0].toUpperCase() + name.slice(1) }, versions: [{ name: 'v1', served: true, storage: true }] },
    status,
  }) as unknown as CustomResourceDefinition;

describe('CRD conditions', () => {
  it('sets a condition in place, keeping its lastTransitionTime while its status holds (SetCRDCondition)', () => {
    const before = [
      { type: 'NamesAccepted', status: 'True' as const, reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: '2026-01-01T00:00:00Z' },
      { type: 'Established', status: 'True' as const, reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: '2026-01-01T00:00:01Z' },
    ];
    const same = withCondition(before, { ...before[0], message: 'still no conflicts', lastTransitionTime: '2026-06-01T00:00:00Z' });
    expect(same.map((c) => c.type)).toEqual(['NamesAccepted', 'Established']);
    expect(same[0]).toMatchObject({ message: 'still no conflicts', lastTransitionTime: '2026-01-01T00:00:00Z' });
    const flipped = withCondition(before, { ...before[0], status: 'False', reason: 'Conflict', lastTransitionTime: '2026-06-01T00:00:00Z' });
    expect(flipped.map((c) => c.type)).toEqual(['NamesAccepted', 'Established']);
    expect(flipped[0].lastTransitionTime).toBe('2026-06-01T00:00:00Z');
    expect(withCondition(before, { type: 'Terminating', status: 'True', reason: 'r', message: 'm' }).map((c) => c.type)).toEqual(['NamesAccepted', 'Established', 'Terminating']);
  });

  it('reaches a fixed point in one pass: the status it wrote needs no second write', () => {
    const first = desiredStatus(crd('widget'), []);
    expect(first.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['NamesAccepted=True', 'Established=True']);
    const written = crd('widget', first);
    expect(desiredStatus(written, [written])).toEqual(first);
  });
});
