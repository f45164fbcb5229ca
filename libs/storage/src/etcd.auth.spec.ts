import { describe, expect, it } from 'vitest';
import { describeRange, keyGrant, prefixGrant, rangesExcept } from './etcd.auth';

describe('etcd grants', () => {
  it('grants a prefix as [prefix, prefix with its last byte + 1) and a key alone with an empty range end', () => {
    expect(prefixGrant('/registry/', 'read')).toEqual({ permission: 'read', key: '/registry/', rangeEnd: '/registry0' });
    expect(keyGrant('compact_rev_key', 'readwrite')).toEqual({ permission: 'readwrite', key: 'compact_rev_key', rangeEnd: '' });
  });

  it('grants "everything under a prefix but" as the ranges in between, merging overlaps, in key order', () => {
    const except = [prefixGrant('/registry/secrets/', 'readwrite'), prefixGrant('/registry/apps/', 'readwrite'), prefixGrant('/registry/apps/deployments/', 'readwrite'), keyGrant('/registry/leader', 'readwrite')];
    expect(rangesExcept('/registry/', except, 'readwrite').map((g) => describeRange(g.key, g.rangeEnd))).toEqual([
      '[/registry/, /registry/apps/)',
      '[/registry/apps0, /registry/leader)',
      '[/registry/leader\\u0000, /registry/secrets/)',
      '[/registry/secrets0, /registry0)',
    ]);
  });

  it('leaves out grants outside the prefix, and grants nothing when the exceptions cover it', () => {
    expect(rangesExcept('/registry/', [keyGrant('compact_rev_key', 'read')], 'read')).toEqual([prefixGrant('/registry/', 'read')]);
    expect(rangesExcept('/registry/a/', [prefixGrant('/registry/', 'read')], 'read')).toEqual([]);
  });

  it('describes grants as etcdctl would: a key, a prefix*, or a range', () => {
    expect(describeRange('compact_rev_key', '')).toBe('compact_rev_key');
    expect(describeRange('/registry/', '/registry0')).toBe('/registry/*');
    expect(describeRange('/a', '/c')).toBe('[/a, /c)');
  });
});
