import { describe, expect, it } from 'vitest';
import { serviceAccountsResource, type ServiceAccount } from './serviceaccounts.resource';
import { cells, create, meta, update } from './strategy.testing';

describe('serviceaccounts', () => {
  it('is namespaced with the sa short name', () => {
    expect(serviceAccountsResource).toMatchObject({ kind: 'ServiceAccount', plural: 'serviceaccounts', shortNames: ['sa'], namespaced: true });
  });

  it('keeps only the name of secret references on create and update', () => {
    const sa: ServiceAccount = { metadata: meta('builder', 'ci'), secrets: [{ name: 'token', kind: 'Secret', uid: 'u1' }] };
    expect(create(serviceAccountsResource, sa)).toEqual([]);
    expect(sa.secrets).toEqual([{ name: 'token' }]);
    const next: ServiceAccount = { metadata: meta('builder', 'ci'), secrets: [{ name: 'a', namespace: 'ci' }, { name: 'b' }] };
    expect(update(serviceAccountsResource, next, sa)).toEqual([]);
    expect(next.secrets).toEqual([{ name: 'a' }, { name: 'b' }]);
  });

  it('prints the number of secrets', () => {
    expect(cells(serviceAccountsResource, { metadata: meta('a', 'ns'), secrets: [{ name: 'x' }, { name: 'y' }] })).toEqual({ Secrets: 2 });
    expect(cells(serviceAccountsResource, { metadata: meta('a', 'ns') })).toEqual({ Secrets: 0 });
  });
});
