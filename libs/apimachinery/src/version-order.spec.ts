import { describe, expect, it } from 'vitest';
import { compareKubeAwareVersionStrings, compareKubeVersions, isKubeVersion } from './version-order';

describe('compareKubeAwareVersionStrings (kube TestCompareKubeAwareVersionStrings)', () => {
  it.each([
    ['v1', 'v2', false],
    ['v2', 'v1', true],
    ['v10', 'v2', true],
    ['v1', 'v2alpha1', true],
    ['v1', 'v2beta1', true],
    ['v1alpha2', 'v1alpha1', true],
    ['v1beta1', 'v2alpha3', true],
    ['v1alpha10', 'v1alpha2', true],
    ['v1beta10', 'v1beta2', true],
    ['foo', 'v1beta2', false],
    ['bar', 'foo', true],
    ['version1', 'version2', true],
    ['version1', 'version10', true],
  ])('%s preferred over %s: %s', (a, b, preferred) => {
    expect(compareKubeAwareVersionStrings(a, b) > 0).toBe(preferred);
  });

  it('is 0 for equal strings', () => expect(compareKubeAwareVersionStrings('v1', 'v1')).toBe(0));
});

describe('compareKubeVersions', () => {
  it('sorts the most preferred version first', () => {
    const versions = ['v1alpha1', 'v11alpha2', 'foo10', 'v2', 'foo1', 'v12alpha1', 'v1beta2', 'v10beta3', 'v1', 'v3beta1', 'v10', 'v11beta2'];
    expect([...versions].sort(compareKubeVersions)).toEqual([
      'v10',
      'v2',
      'v1',
      'v11beta2',
      'v10beta3',
      'v3beta1',
      'v1beta2',
      'v12alpha1',
      'v11alpha2',
      'v1alpha1',
      'foo1',
      'foo10',
    ]);
  });

  it('treats non-kube-like strings (v1.1, v1beta) as less preferred than any kube version', () => {
    expect(['v1.1', 'v1alpha1', 'v1beta'].sort(compareKubeVersions)).toEqual(['v1alpha1', 'v1.1', 'v1beta']);
  });
});

describe('isKubeVersion', () => {
  it.each([
    ['v1', true],
    ['v2beta10', true],
    ['v1alpha1', true],
    ['v1.1', false],
    ['v1alpha1.1', false],
    ['v1beta', false],
    ['1', false],
    ['V1', false],
    ['version1', false],
  ])('%s → %s', (v, want) => expect(isKubeVersion(v)).toBe(want));
});
