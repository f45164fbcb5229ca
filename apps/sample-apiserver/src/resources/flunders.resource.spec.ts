import { describe, expect, it } from 'vitest';
import type { FieldError, KubeObject } from '@kube/apimachinery';
import type { RequestContext } from '@kube/apiserver';
import type { Flunder } from '../wardle.types';
import { flundersResource } from './flunders.resource';

const ctx: RequestContext = { user: { name: 'tester', groups: [] }, dryRun: false, warnings: [] };

const flunder = (spec?: Flunder['spec']): Flunder => ({ metadata: { name: 'f', namespace: 'default' }, ...(spec ? { spec } : {}) });

/** default → validate, as a POST runs them; returns the errors as kube prints them. */
function create(obj: Flunder): string[] {
  flundersResource.strategy?.default?.(obj);
  return (flundersResource.strategy?.validate?.(obj, ctx) ?? []).map((e: FieldError) => e.toString());
}

const cells = (obj: KubeObject): Record<string, unknown> => Object.fromEntries((flundersResource.tableColumns ?? []).map((c) => [c.name, c.cell(obj)]));

describe('flunders', () => {
  it('is namespaced with a status subresource under its own key prefix by default', () => {
    expect(flundersResource).toMatchObject({ group: 'wardle.example.com', version: 'v1alpha1', kind: 'Flunder', plural: 'flunders', namespaced: true, subresources: { status: expect.objectContaining({ verbs: ['get', 'patch', 'update'], discovered: true }) } });
  });

  it('accepts a Flunder without a reference', () => {
    expect(create(flunder())).toEqual([]);
    expect(create(flunder({}))).toEqual([]);
  });

  it('defaults referenceType to Flunder when a reference is set (SetDefaults_FlunderSpec)', () => {
    const obj = flunder({ reference: 'other' });
    expect(create(obj)).toEqual([]);
    expect(obj.spec).toEqual({ reference: 'other', referenceType: 'Flunder' });
  });

  it('accepts both reference types with a reference', () => {
    expect(create(flunder({ reference: 'a', referenceType: 'Flunder' }))).toEqual([]);
    expect(create(flunder({ reference: 'b', referenceType: 'Fischer' }))).toEqual([]);
  });

  it('requires a reference when a referenceType is set', () => {
    expect(create(flunder({ referenceType: 'Fischer' }))).toEqual(['spec.reference: Required value: cannot be empty if referenceType is Fischer']);
    expect(create(flunder({ referenceType: 'Flunder', reference: '' }))).toEqual(['spec.reference: Required value: cannot be empty if referenceType is Flunder']);
  });

  it('refuses other reference types', () => {
    expect(create(flunder({ reference: 'x', referenceType: 'Wardle' }))).toEqual(['spec.referenceType: Invalid value: "Wardle": must be Flunder or Fischer']);
  });

  it('validates updates the same way', () => {
    const errs = flundersResource.strategy?.validateUpdate?.(flunder({ referenceType: 'Flunder' }), flunder(), ctx) ?? [];
    expect(errs.map((e) => e.toString())).toEqual(['spec.reference: Required value: cannot be empty if referenceType is Flunder']);
  });

  it('prints the reference and its type', () => {
    expect(cells(flunder({ reference: 'a', referenceType: 'Fischer' }))).toEqual({ Reference: 'a', Type: 'Fischer' });
    expect(cells(flunder())).toEqual({ Reference: '', Type: '' });
  });
});
