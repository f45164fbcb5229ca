import { describe, expect, it } from 'vitest';
import {
  getCondition,
  isEstablished,
  isStoredVersion,
  isTerminating,
  removeCondition,
  servedVersions,
  setCondition,
  storageVersion,
  type CustomResourceDefinition,
} from './crd.types';
import { multiVersion } from './crd.testing';

const T0 = Date.parse('2024-01-01T00:00:00.750Z');
const T1 = Date.parse('2024-01-01T00:05:00Z');

function gadgets(): CustomResourceDefinition {
  const crd = multiVersion();
  crd.spec.versions.push({ name: 'v2alpha1', served: false, storage: false });
  crd.status = { storedVersions: ['v1beta1', 'v1'] };
  return crd;
}

describe('CRD helpers', () => {
  it('find the storage and served versions', () => {
    const crd = gadgets();
    expect(storageVersion(crd)).toBe('v1');
    expect(servedVersions(crd)).toEqual(['v1beta1', 'v1']);
    expect(isStoredVersion(crd, 'v1beta1')).toBe(true);
    expect(isStoredVersion(crd, 'v2alpha1')).toBe(false);
    expect(storageVersion({ ...crd, spec: { ...crd.spec, versions: [] } })).toBeUndefined();
  });

  it('add a condition stamped with a seconds-precision lastTransitionTime', () => {
    const crd = gadgets();
    setCondition(crd, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' }, T0);
    expect(getCondition(crd, 'NamesAccepted')).toEqual({
      type: 'NamesAccepted',
      status: 'True',
      reason: 'NoConflicts',
      message: 'no conflicts found',
      lastTransitionTime: '2024-01-01T00:00:00Z',
    });
    expect(crd.status?.storedVersions).toEqual(['v1beta1', 'v1']);
  });

  it('keep lastTransitionTime while the status stays the same, and move it when it flips', () => {
    const crd = gadgets();
    setCondition(crd, { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' }, T0);
    setCondition(crd, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }, T1);
    expect(getCondition(crd, 'Established')).toMatchObject({ reason: 'NotAccepted', lastTransitionTime: '2024-01-01T00:00:00Z' });
    expect(isEstablished(crd)).toBe(false);
    setCondition(crd, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted' }, T1);
    expect(getCondition(crd, 'Established')).toEqual({ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', lastTransitionTime: '2024-01-01T00:05:00Z' });
    expect(isEstablished(crd)).toBe(true);
    expect(crd.status?.conditions).toHaveLength(1);
  });

  it('tell a terminating CRD by its Terminating condition', () => {
    const crd = gadgets();
    expect(isTerminating(crd)).toBe(false);
    setCondition(crd, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending' }, T0);
    expect(isTerminating(crd)).toBe(true);
    removeCondition(crd, 'Terminating');
    expect(isTerminating(crd)).toBe(false);
    expect(getCondition(crd, 'Terminating')).toBeUndefined();
  });
});
