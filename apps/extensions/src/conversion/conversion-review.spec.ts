import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { ConvertedObjectError, acceptConvertedObject, conversionReview, convertedObjectsOf, reviewVersionFor, restoreObjectMeta } from './conversion-review';

const UID = '6c7c8a3e-0000-4000-8000-000000000001';

function stored(): KubeObject {
  return {
    apiVersion: 'stable.example.com/v1',
    kind: 'CronTab',
    metadata: { name: 'a', namespace: 'default', uid: 'u-1', resourceVersion: '7', generation: 2, labels: { app: 'x' }, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { cronSpec: '* * * * *' },
  };
}

function answer(response: Record<string, unknown>, apiVersion = 'apiextensions.k8s.io/v1'): unknown {
  return { apiVersion, kind: 'ConversionReview', response };
}

function checkOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return err instanceof ConvertedObjectError ? `${err.check}: ${err.message}` : `error: ${(err as Error).message}`;
  }
  return 'passed';
}

describe('reviewVersionFor', () => {
  it('takes the first listed version this server speaks, as kube does', () => {
    expect(reviewVersionFor(['v1', 'v1beta1'])).toBe('v1');
    expect(reviewVersionFor(['v2', 'v1beta1', 'v1'])).toBe('v1beta1');
    expect(reviewVersionFor(['v1beta1'])).toBe('v1beta1');
  });

  it('refuses lists without v1 or v1beta1', () => {
    expect(() => reviewVersionFor(['v2'])).toThrow('no supported conversion review versions');
  });
});

describe('conversionReview', () => {
  it('builds the request kube posts', () => {
    const review = conversionReview('v1', { uid: UID, desiredAPIVersion: 'stable.example.com/v2', objects: [stored()] });
    expect(review).toEqual({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: UID, desiredAPIVersion: 'stable.example.com/v2', objects: [stored()] } });
    expect(conversionReview('v1beta1', { uid: UID, desiredAPIVersion: 'x/v1', objects: [] }).apiVersion).toBe('apiextensions.k8s.io/v1beta1');
  });
});

describe('convertedObjectsOf', () => {
  const ok = { uid: UID, result: { status: 'Success' }, convertedObjects: [{ kind: 'CronTab' }] };

  it('returns the converted objects of a successful v1 answer', () => {
    expect(convertedObjectsOf('v1', UID, answer(ok))).toEqual([{ kind: 'CronTab' }]);
  });

  it('checks the kind of review a v1 answer is', () => {
    expect(() => convertedObjectsOf('v1', UID, answer(ok, 'apiextensions.k8s.io/v1beta1'))).toThrow(
      'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview',
    );
  });

  it('needs a response with our uid', () => {
    expect(() => convertedObjectsOf('v1', UID, { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' })).toThrow('no response provided');
    expect(() => convertedObjectsOf('v1', UID, answer({ ...ok, uid: 'other' }))).toThrow(`expected response.uid="${UID}", got "other"`);
  });

  it("passes a webhook's failure message on, or says the status was not Success", () => {
    expect(() => convertedObjectsOf('v1', UID, answer({ uid: UID, result: { status: 'Failure', message: 'cannot convert spec' } }))).toThrow(/^cannot convert spec$/);
    expect(() => convertedObjectsOf('v1', UID, answer({ uid: UID, result: { status: 'Failure' } }))).toThrow("response.result.status was 'Failure', not 'Success'");
    expect(() => convertedObjectsOf('v1', UID, answer({ uid: UID }))).toThrow("response.result.status was '', not 'Success'");
  });

  it('does not check the kind or uid of a v1beta1 answer (kube keeps that for compatibility)', () => {
    expect(convertedObjectsOf('v1beta1', UID, answer({ ...ok, uid: 'other' }, 'apiextensions.k8s.io/v1beta1'))).toHaveLength(1);
  });
});

describe('acceptConvertedObject', () => {
  const converted = (patch: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Record<string, unknown> => ({
    apiVersion: 'stable.example.com/v2',
    kind: 'CronTab',
    metadata: { name: 'a', namespace: 'default', uid: 'u-1', ...meta },
    spec: { schedule: '* * * * *' },
    ...patch,
  });

  it('keeps the converted body and restores the original metadata', () => {
    const out = acceptConvertedObject(stored(), converted({}, { generation: 99, resourceVersion: '1', labels: { app: 'x' } }), 'stable.example.com/v2');
    expect(out).toEqual({ ...converted(), metadata: stored().metadata });
  });

  it('takes labels and annotations from the webhook, including their removal', () => {
    const out = acceptConvertedObject(stored(), converted({}, { labels: { app: 'y' }, annotations: { note: 'v2' } }), 'stable.example.com/v2');
    expect(out.metadata.labels).toEqual({ app: 'y' });
    expect(out.metadata.annotations).toEqual({ note: 'v2' });
    expect(acceptConvertedObject(stored(), converted(), 'stable.example.com/v2').metadata.labels).toBeUndefined();
  });

  it('refuses another apiVersion or kind', () => {
    expect(checkOf(() => acceptConvertedObject(stored(), converted({ apiVersion: 'stable.example.com/v1' }), 'stable.example.com/v2'))).toBe(
      'type: invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v1)',
    );
    expect(checkOf(() => acceptConvertedObject(stored(), converted({ kind: 'Other' }), 'stable.example.com/v2'))).toBe('type: invalid kind (expected CronTab, received Other)');
  });

  it('refuses a changed name, namespace or uid', () => {
    const check = (meta: Record<string, unknown>): string => checkOf(() => acceptConvertedObject(stored(), converted({}, meta), 'stable.example.com/v2'));
    expect(check({ name: 'b' })).toBe('identity: must have the same name: a != b');
    expect(check({ namespace: 'other' })).toBe('identity: must have the same namespace: default != other');
    expect(check({ uid: 'u-2' })).toBe('identity: must have the same UID: u-1 != u-2');
  });

  it('refuses what does not decode as an object with a kind', () => {
    expect(checkOf(() => acceptConvertedObject(stored(), 'text', 'stable.example.com/v2'))).toBe('decode: json: cannot unmarshal string into Go value of type map[string]interface {}');
    expect(checkOf(() => acceptConvertedObject(stored(), { apiVersion: 'stable.example.com/v2' }, 'stable.example.com/v2'))).toBe(
      `decode: Object 'Kind' is missing in '{"apiVersion":"stable.example.com/v2"}'`,
    );
  });
});

describe('restoreObjectMeta', () => {
  it('needs metadata in the converted object', () => {
    expect(checkOf(() => restoreObjectMeta(stored().metadata, undefined))).toBe('metadata: missing metadata in converted object');
    expect(checkOf(() => restoreObjectMeta(stored().metadata, 'x'))).toBe('metadata: invalid metadata of type string in converted object');
  });

  it('needs string maps for labels and annotations', () => {
    expect(checkOf(() => restoreObjectMeta(stored().metadata, { labels: ['a'] }))).toBe('metadata: invalid metadata.labels of type []interface {} in converted object');
    expect(checkOf(() => restoreObjectMeta(stored().metadata, { annotations: { n: 1 } }))).toBe('metadata: metadata.annotations[n] must be a string, but is float64 in converted object');
  });

  it('validates changed labels', () => {
    expect(checkOf(() => restoreObjectMeta(stored().metadata, { labels: { app: 'not valid!' } }))).toMatch(/^metadata: metadata\.labels: Invalid value: "not valid!"/);
  });

  it('does not share structure with the original', () => {
    const original = stored().metadata;
    const restored = restoreObjectMeta(original, { labels: { app: 'x' } });
    expect(restored).toEqual(original);
    expect(restored.labels).not.toBe(original.labels);
  });
});
