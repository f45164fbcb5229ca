import { describe, expect, it } from 'vitest';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import type { ConversionReview } from './conversion-review';
import type { ConversionTransport } from './conversion-webhook.client';
import { WebhookConverter, type WebhookConverterOptions } from './webhook.converter';

const OPTIONS: WebhookConverterOptions = { group: 'stable.example.com', kind: 'CronTab', storageVersion: 'v1', versions: ['v1', 'v2'], conversionReviewVersions: ['v1'] };

type Answer = (review: ConversionReview) => unknown;

/** v1 spec.cronSpec <-> v2 spec.schedule, answering as a well-behaved webhook. */
const renaming: Answer = (review) => {
  const request = review.request!;
  // A copy, as the wire would give: the webhook's answer shares nothing with the objects sent.
  const convertedObjects = structuredClone(request.objects).map((o) => {
    const { cronSpec, schedule, ...rest } = o.spec as Record<string, unknown>;
    const spec = request.desiredAPIVersion.endsWith('/v2') ? { ...rest, schedule: cronSpec } : { ...rest, cronSpec: schedule };
    return { ...o, apiVersion: request.desiredAPIVersion, spec };
  });
  return { apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: request.uid, result: { status: 'Success' }, convertedObjects } };
};

class FakeTransport implements ConversionTransport {
  readonly reviews: ConversionReview[] = [];
  constructor(private readonly answer: Answer) {}

  async post(review: ConversionReview): Promise<unknown> {
    this.reviews.push(structuredClone(review));
    return this.answer(review);
  }
}

function crontab(name: string, version: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: `stable.example.com/${version}`, kind: 'CronTab', metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '5' }, spec };
}

async function failure(p: Promise<unknown>): Promise<{ code: number; reason: string; message: string }> {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err)) return { code: err.code, reason: err.reason, message: err.message };
    throw err;
  }
  throw new Error('expected a failure');
}

describe('WebhookConverter', () => {
  it('converts stored objects to the requested version in one review, keeping order and untouched objects', async () => {
    const transport = new FakeTransport(renaming);
    const converter = new WebhookConverter(OPTIONS, transport);
    const already = crontab('b', 'v2', { schedule: '1 * * * *' });
    const out = await converter.fromStorage([crontab('a', 'v1', { cronSpec: '0 * * * *' }), already, crontab('c', 'v1', { cronSpec: '2 * * * *' })], 'v2');
    expect(out.map((o) => [o.metadata.name, o.apiVersion, o.spec])).toEqual([
      ['a', 'stable.example.com/v2', { schedule: '0 * * * *' }],
      ['b', 'stable.example.com/v2', { schedule: '1 * * * *' }],
      ['c', 'stable.example.com/v2', { schedule: '2 * * * *' }],
    ]);
    expect(out[1]).toBe(already);
    expect(transport.reviews).toHaveLength(1);
    const review = transport.reviews[0];
    expect(review).toMatchObject({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { desiredAPIVersion: 'stable.example.com/v2' } });
    expect(review.request?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(review.request?.objects.map((o) => o.metadata.name)).toEqual(['a', 'c']);
  });

  it('converts a new object to the storage version', async () => {
    const converter = new WebhookConverter(OPTIONS, new FakeTransport(renaming));
    const out = await converter.toStorage(crontab('a', 'v2', { schedule: '0 * * * *' }));
    expect(out).toMatchObject({ apiVersion: 'stable.example.com/v1', spec: { cronSpec: '0 * * * *' } });
  });

  it('does not call the webhook when nothing needs converting', async () => {
    const transport = new FakeTransport(renaming);
    const converter = new WebhookConverter(OPTIONS, transport);
    const obj = crontab('a', 'v1', { cronSpec: '0 * * * *' });
    expect(await converter.toStorage(obj)).toBe(obj);
    expect(await converter.fromStorage([obj], 'v1')).toEqual([obj]);
    expect(await converter.fromStorage([], 'v2')).toEqual([]);
    expect(transport.reviews).toHaveLength(0);
  });

  it('answers 500 with kube message when the webhook cannot be reached', async () => {
    const converter = new WebhookConverter(OPTIONS, {
      post: () => Promise.reject(new Error('Post "https://127.0.0.1:1/convert?timeout=30s": dial tcp 127.0.0.1:1: connect: connection refused')),
    });
    expect(await failure(converter.fromStorage([crontab('a', 'v1', {})], 'v2'))).toEqual({
      code: 500,
      reason: 'InternalError',
      message: 'conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "https://127.0.0.1:1/convert?timeout=30s": dial tcp 127.0.0.1:1: connect: connection refused',
    });
  });

  it('refuses an answer for another uid', async () => {
    const converter = new WebhookConverter(OPTIONS, new FakeTransport((review) => ({ ...(renaming(review) as object), response: { ...(renaming(review) as ConversionReview).response, uid: 'wrong' } })));
    const { message } = await failure(converter.toStorage(crontab('a', 'v2', { schedule: 'x' })));
    expect(message).toMatch(/^conversion webhook for stable\.example\.com\/v2, Kind=CronTab failed: expected response\.uid="[0-9a-f-]{36}", got "wrong"$/);
  });

  it('refuses a different number of objects', async () => {
    const converter = new WebhookConverter(OPTIONS, new FakeTransport((review) => ({ apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: review.request?.uid, result: { status: 'Success' }, convertedObjects: [] } })));
    expect((await failure(converter.fromStorage([crontab('a', 'v1', {})], 'v2'))).message).toBe('conversion webhook for stable.example.com/v1, Kind=CronTab returned 0 objects, expected 1');
  });

  it('words bad objects as kube does for a single object and for list items', async () => {
    const renamed: Answer = (review) => {
      const answer = renaming(review) as ConversionReview;
      const objects = answer.response?.convertedObjects as KubeObject[];
      objects[objects.length - 1].metadata.name = 'renamed';
      return answer;
    };
    const converter = new WebhookConverter(OPTIONS, new FakeTransport(renamed));
    expect((await failure(converter.fromStorage([crontab('a', 'v1', {})], 'v2'))).message).toBe(
      'conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid object: must have the same name: a != renamed',
    );
    expect((await failure(converter.fromStorage([crontab('a', 'v1', {}), crontab('b', 'v1', {})], 'v2'))).message).toBe(
      'conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid converted object at index 2: must have the same name: b != renamed',
    );
  });

  it('keeps metadata except labels and annotations', async () => {
    const relabel: Answer = (review) => {
      const answer = renaming(review) as ConversionReview;
      const [obj] = answer.response?.convertedObjects as KubeObject[];
      obj.metadata = { ...obj.metadata, resourceVersion: '999', labels: { converted: 'true' } };
      return answer;
    };
    const [out] = await new WebhookConverter(OPTIONS, new FakeTransport(relabel)).fromStorage([crontab('a', 'v1', {})], 'v2');
    expect(out.metadata).toEqual({ name: 'a', namespace: 'default', uid: 'uid-a', resourceVersion: '5', labels: { converted: 'true' } });
  });

  it('refuses versions the CRD does not have', async () => {
    const converter = new WebhookConverter(OPTIONS, new FakeTransport(renaming));
    expect((await failure(converter.fromStorage([crontab('a', 'v0', {})], 'v2'))).message).toBe('request to convert CR from an invalid group/version: stable.example.com/v0');
    expect((await failure(converter.fromStorage([crontab('a', 'v1', {})], 'v3'))).message).toBe('request to convert CR to an invalid group/version: stable.example.com/v3');
  });

  it('sends a v1beta1 review when only v1beta1 is listed', async () => {
    const transport = new FakeTransport(renaming);
    await new WebhookConverter({ ...OPTIONS, conversionReviewVersions: ['v1beta1'] }, transport).fromStorage([crontab('a', 'v1', { cronSpec: 'x' })], 'v2');
    expect(transport.reviews[0].apiVersion).toBe('apiextensions.k8s.io/v1beta1');
  });
});
