import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedKeys } from './sorted.keys';

const PREFIX = '/registry/configmaps/';

/** What the watch cache did before: every key scanned, the matching ones sorted. */
function scan(keys: ReadonlySet<string>, keyPrefix: string): string[] {
  return [...keys].filter((k) => k.startsWith(keyPrefix)).sort();
}

describe('SortedKeys', () => {
  it('answers a namespace, an empty namespace and the whole resource in key order', () => {
    const keys = new SortedKeys(PREFIX);
    for (const k of ['b/z', 'a/y', 'b/a', 'a/x', 'ab/c']) keys.add(PREFIX + k);
    expect(keys.under(`${PREFIX}b/`)).toEqual([`${PREFIX}b/a`, `${PREFIX}b/z`]);
    expect(keys.under(`${PREFIX}a/`)).toEqual([`${PREFIX}a/x`, `${PREFIX}a/y`]);
    expect(keys.under(`${PREFIX}empty/`)).toEqual([]);
    expect(keys.under(PREFIX)).toEqual(['a/x', 'a/y', 'ab/c', 'b/a', 'b/z'].map((k) => PREFIX + k));
    keys.delete(`${PREFIX}b/a`);
    keys.add(`${PREFIX}b/m`);
    expect(keys.under(`${PREFIX}b/`)).toEqual([`${PREFIX}b/m`, `${PREFIX}b/z`]);
    // Not a collection: the caller scans.
    expect(keys.under(`${PREFIX}a/x`)).toBeUndefined();
    expect(keys.under('/registry/secrets/')).toBeUndefined();
    keys.clear();
    expect(keys.under(PREFIX)).toEqual([]);
  });

  it('agrees with a scan of every key after any sequence of adds, deletes and reads', () => {
    const key = fc.tuple(fc.constantFrom('a', 'b', 'kube-system', 'b-2'), fc.constantFrom('x', 'y', 'z', 'x-1', 'X')).map(([ns, name]) => `${PREFIX}${ns}/${name}`);
    const op = fc.oneof(
      key.map((k) => ({ kind: 'add' as const, k })),
      key.map((k) => ({ kind: 'delete' as const, k })),
      fc.constantFrom(PREFIX, `${PREFIX}a/`, `${PREFIX}b/`, `${PREFIX}kube-system/`, `${PREFIX}none/`).map((k) => ({ kind: 'read' as const, k })),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const keys = new SortedKeys(PREFIX);
        const truth = new Set<string>();
        for (const o of ops) {
          if (o.kind === 'add') (keys.add(o.k), truth.add(o.k));
          else if (o.kind === 'delete') (keys.delete(o.k), truth.delete(o.k));
          else expect(keys.under(o.k)).toEqual(scan(truth, o.k));
        }
        for (const p of [PREFIX, `${PREFIX}a/`, `${PREFIX}b-2/`]) expect(keys.under(p)).toEqual(scan(truth, p));
      }),
      { numRuns: 300 },
    );
  });
});
