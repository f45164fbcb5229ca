import { describe, expect, it } from 'vitest';
import { sameStoredContent } from './object.codec';

describe('sameStoredContent (a no-op write)', () => {
  it('ignores key order, undefined fields and resourceVersion; not array order or values', () => {
    const a = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', resourceVersion: '5', labels: { a: '1', b: '2' } }, spec: { containers: [{ name: 'c' }] } };
    const reordered = { kind: 'Pod', spec: { containers: [{ name: 'c' }], extra: undefined }, metadata: { labels: { b: '2', a: '1' }, name: 'p', resourceVersion: '6' }, apiVersion: 'v1' };
    expect(sameStoredContent(a, reordered)).toBe(true);
    expect(sameStoredContent(a, { ...a, spec: { containers: [{ name: 'c' }, { name: 'd' }] } })).toBe(false);
    expect(sameStoredContent(a, { ...a, metadata: { ...a.metadata, labels: { a: '1', b: '3' } } })).toBe(false);
    expect(sameStoredContent(a, { ...a, spec: { containers: [{ name: 'c' }], extra: null } })).toBe(false);
  });
});
