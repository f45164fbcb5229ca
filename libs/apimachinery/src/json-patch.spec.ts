import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from './json-patch';
import { StatusError } from './status.errors';

const pod = () => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', labels: { app: 'web' } },
  spec: { containers: [{ name: 'a', image: 'nginx:1' }, { name: 'b', image: 'busybox' }] },
});

function failure(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('expected a StatusError');
}

const UNPROCESSABLE = { code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request', details: {} };

describe('applyJsonPatch', () => {
  it('applies the operations kubectl patch --type json sends', () => {
    const out = applyJsonPatch(pod(), [
      { op: 'replace', path: '/spec/containers/0/image', value: 'nginx:2' },
      { op: 'add', path: '/metadata/labels/tier', value: 'frontend' },
      { op: 'remove', path: '/spec/containers/1' },
      { op: 'add', path: '/spec/containers/-', value: { name: 'c', image: 'x' } },
      { op: 'test', path: '/metadata/name', value: 'p' },
      { op: 'copy', from: '/metadata/labels/app', path: '/metadata/labels/copy' },
      { op: 'move', from: '/metadata/labels/copy', path: '/metadata/labels/moved' },
    ]);
    expect(out).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', labels: { app: 'web', tier: 'frontend', moved: 'web' } },
      spec: { containers: [{ name: 'a', image: 'nginx:2' }, { name: 'c', image: 'x' }] },
    });
  });

  it('unescapes ~1 and ~0 in paths (annotation keys with slashes)', () => {
    const out = applyJsonPatch({ metadata: {} }, [{ op: 'add', path: '/metadata/annotations', value: { 'example.com/a~b': 'x' } }, { op: 'replace', path: '/metadata/annotations/example.com~1a~0b', value: 'y' }]);
    expect(out).toEqual({ metadata: { annotations: { 'example.com/a~b': 'y' } } });
  });

  it('treats a missing value as null, like evanphx/json-patch', () => {
    expect(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/a' }])).toEqual({ a: null });
    expect(applyJsonPatch({ a: {} }, [{ op: 'test', path: '/a/missing', value: null }])).toEqual({ a: {} });
  });

  it('does not mutate the document or share values with the patch', () => {
    const doc = pod();
    const value = { name: 'c', image: 'x' };
    const out = applyJsonPatch(doc, [{ op: 'add', path: '/spec/containers/0', value }]) as ReturnType<typeof pod>;
    expect(doc).toEqual(pod());
    out.spec.containers[0].image = 'changed';
    expect(value.image).toBe('x');
  });

  it('answers 400 for a body that is not a list of operations', () => {
    expect(failure(() => applyJsonPatch(pod(), { op: 'add' })).status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    });
    expect(failure(() => applyJsonPatch(pod(), ['add'])).message).toBe('error decoding patch: json: cannot unmarshal string into Go value of type handlers.jsonPatchOp');
    expect(failure(() => applyJsonPatch(pod(), [{ op: 'add', path: 5, value: 1 }])).message).toBe(
      'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string',
    );
  });

  it.each([
    ['a failed test', [{ op: 'test', path: '/metadata/name', value: 'other' }]],
    ['removing a missing path', [{ op: 'remove', path: '/metadata/missing' }]],
    ['replacing a missing path', [{ op: 'replace', path: '/spec/missing', value: 1 }]],
    ['adding under a missing parent', [{ op: 'add', path: '/a/b/c', value: 1 }]],
    ['an index past the end', [{ op: 'add', path: '/spec/containers/5', value: {} }]],
    ['an unknown op', [{ op: 'frobnicate', path: '/a' }]],
    ['the internal _get op', [{ op: '_get', path: '/metadata' }]],
    ['a missing path', [{ op: 'add', value: 1 }]],
    ['a copy without from', [{ op: 'copy', path: '/a' }]],
    ['a null operation', [null]],
    ['a __proto__ path', [{ op: 'add', path: '/__proto__/polluted', value: true }]],
  ])('answers 422 for %s', (_name, ops) => {
    expect(failure(() => applyJsonPatch(pod(), ops)).status).toMatchObject(UNPROCESSABLE);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stops at the first failing operation without touching the input', () => {
    const doc = pod();
    failure(() =>
      applyJsonPatch(doc, [
        { op: 'replace', path: '/metadata/name', value: 'changed' },
        { op: 'test', path: '/metadata/name', value: 'p' },
      ]),
    );
    expect(doc.metadata.name).toBe('p');
  });

  it('limits a patch to 10000 operations (413)', () => {
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/metadata/name', value: 'p' }));
    expect(failure(() => applyJsonPatch(pod(), ops)).status).toMatchObject({
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    });
    expect(applyJsonPatch(pod(), ops.slice(1))).toEqual(pod());
  });

  it('caps what copy operations may add', () => {
    const ops = [{ op: 'add', path: '/blob', value: 'x'.repeat(1000) }, ...Array.from({ length: 20 }, (_, i) => ({ op: 'copy', from: '/blob', path: `/c${i}` }))];
    expect(failure(() => applyJsonPatch({}, ops, { maxCopyBytes: 10_000 })).code).toBe(413);
    expect(Object.keys(applyJsonPatch({}, ops) as object)).toHaveLength(21);
  });
});
