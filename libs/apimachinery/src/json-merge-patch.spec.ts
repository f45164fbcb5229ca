import { describe, expect, it } from 'vitest';
import { applyMergePatch, createMergePatch } from './json-merge-patch';
import type { JsonValue } from './types';

describe('applyMergePatch: RFC 7386 appendix A', () => {
  it.each<[JsonValue, JsonValue, JsonValue]>([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j + %j → %j', (doc, patch, want) => {
    expect(applyMergePatch(doc, patch)).toEqual(want);
  });
});

describe('applyMergePatch: kube usage', () => {
  it('labels a ConfigMap the way kubectl label does', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { a: '1', b: '2' } }, data: { k: 'v' } };
    expect(applyMergePatch(cm, { metadata: { labels: { b: null, c: '3' } } })).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', labels: { a: '1', c: '3' } },
      data: { k: 'v' },
    });
  });

  it('replaces lists whole (spec.replicas via /scale is a plain merge)', () => {
    const dep = { spec: { replicas: 1, template: { spec: { containers: [{ name: 'a' }, { name: 'b' }] } } } };
    expect(applyMergePatch(dep, { spec: { replicas: 3, template: { spec: { containers: [{ name: 'c' }] } } } })).toEqual({
      spec: { replicas: 3, template: { spec: { containers: [{ name: 'c' }] } } },
    });
  });

  it('prunes nulls from values it adds, like evanphx/json-patch', () => {
    expect(applyMergePatch({}, { spec: { a: null, list: [{ x: null, y: 1 }, null] } })).toEqual({ spec: { list: [{ y: 1 }, null] } });
    // an existing object replaced by a list keeps the list as sent
    expect(applyMergePatch({ a: { b: 1 } }, { a: [{ x: null }] })).toEqual({ a: [{ x: null }] });
  });

  it('does not mutate its inputs', () => {
    const doc = { a: { b: 1, c: [1] } };
    const patch = { a: { b: null, d: { e: 1 } } };
    const docCopy = structuredClone(doc);
    const patchCopy = structuredClone(patch);
    const out = applyMergePatch(doc, patch) as { a: { d: { e: number } } };
    out.a.d.e = 99;
    expect(doc).toEqual(docCopy);
    expect(patch).toEqual(patchCopy);
  });
});

describe('createMergePatch', () => {
  it('sends changed and added keys, nulls for removed ones, and whole lists', () => {
    const original = { metadata: { name: 'x', labels: { a: '1', b: '2' } }, spec: { list: [1, 2], same: { k: 'v' }, n: 1 } };
    const modified = { metadata: { name: 'x', labels: { a: '1', c: '3' } }, spec: { list: [1, 3], same: { k: 'v' }, n: 2 } };
    expect(createMergePatch(original, modified)).toEqual({ metadata: { labels: { b: null, c: '3' } }, spec: { list: [1, 3], n: 2 } });
  });

  it('replaces values whose type changed and is empty for equal documents', () => {
    expect(createMergePatch({ a: { b: 1 } }, { a: 'x' })).toEqual({ a: 'x' });
    expect(createMergePatch({ a: [{ b: 1 }] }, { a: [{ b: 1 }] })).toEqual({});
  });

  it('round-trips through applyMergePatch', () => {
    const original = { a: 1, b: { c: 2, d: [1, { e: 3 }] }, f: 'x' };
    const modified = { a: 2, b: { d: [1, { e: 4 }], g: true }, h: null };
    const patch = createMergePatch(original, modified);
    expect(applyMergePatch(original, patch)).toEqual({ a: 2, b: { d: [1, { e: 4 }], g: true } });
  });
});
