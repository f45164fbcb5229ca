import { describe, expect, it } from 'vitest';
import type { AuthorizationAttributes } from './authorizer';
import { DelegatingAuthorizer, type SubjectAccessReviewSpec, type SubjectAccessReviewStatus } from './delegating.authorizer';

const list = (user: string, groups: string[] = ['system:authenticated']): AuthorizationAttributes => ({
  user: { name: user, groups },
  verb: 'list',
  resourceRequest: true,
  path: '/apis/wardle.example.com/v1alpha1/namespaces/dev/flunders',
  apiGroup: 'wardle.example.com',
  apiVersion: 'v1alpha1',
  resource: 'flunders',
  subresource: '',
  namespace: 'dev',
  name: '',
});

const get = (path: string, user = 'bob'): AuthorizationAttributes => ({
  user: { name: user, groups: ['system:authenticated'] },
  verb: 'get',
  resourceRequest: false,
  path,
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  namespace: '',
  name: '',
});

/** A SubjectAccessReview endpoint answering from `allowed` (user names), recording every review it gets. */
function fakeEndpoint(allowed: Set<string>, denied = new Set<string>()) {
  const reviews: SubjectAccessReviewSpec[] = [];
  const review = async (spec: SubjectAccessReviewSpec): Promise<SubjectAccessReviewStatus> => {
    reviews.push(spec);
    if (allowed.has(spec.user)) return { allowed: true, reason: 'RBAC: allowed by RoleBinding' };
    return denied.has(spec.user) ? { allowed: false, denied: true, reason: 'explicitly denied' } : { allowed: false };
  };
  return { reviews, review };
}

describe('DelegatingAuthorizer', () => {
  it('sends kube\'s SubjectAccessReview spec and maps allowed / denied / neither to Allow / Deny / NoOpinion', async () => {
    const endpoint = fakeEndpoint(new Set(['alice']), new Set(['mallory']));
    const authorizer = new DelegatingAuthorizer(endpoint.review);
    expect(await authorizer.authorize(list('alice'))).toEqual({ decision: 'Allow', reason: 'RBAC: allowed by RoleBinding' });
    expect(await authorizer.authorize(list('mallory'))).toEqual({ decision: 'Deny', reason: 'explicitly denied' });
    expect(await authorizer.authorize(list('bob'))).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(await authorizer.authorize(get('/metrics'))).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(endpoint.reviews[0]).toEqual({
      user: 'alice',
      uid: undefined,
      groups: ['system:authenticated'],
      extra: undefined,
      resourceAttributes: { namespace: 'dev', verb: 'list', group: 'wardle.example.com', version: 'v1alpha1', resource: 'flunders', subresource: '', name: '' },
    });
    expect(endpoint.reviews[3]).toMatchObject({ user: 'bob', nonResourceAttributes: { path: '/metrics', verb: 'get' } });
    expect(endpoint.reviews[3].resourceAttributes).toBeUndefined();
  });

  it('caches allowed and denied answers for 10 s each (kube\'s delegating defaults), then asks again', async () => {
    let now = 1_000_000;
    const allowed = new Set(['alice']);
    const endpoint = fakeEndpoint(allowed);
    const authorizer = new DelegatingAuthorizer(endpoint.review, { now: () => now });
    expect((await authorizer.authorize(list('alice'))).decision).toBe('Allow');
    expect((await authorizer.authorize(list('bob'))).decision).toBe('NoOpinion');
    // The policy changes at once, the answers only when their TTL runs out.
    allowed.delete('alice');
    allowed.add('bob');
    now += 9_999;
    expect((await authorizer.authorize(list('alice'))).decision).toBe('Allow');
    expect((await authorizer.authorize(list('bob'))).decision).toBe('NoOpinion');
    expect(endpoint.reviews).toHaveLength(2);
    now += 1;
    expect((await authorizer.authorize(list('alice'))).decision).toBe('NoOpinion');
    expect((await authorizer.authorize(list('bob'))).decision).toBe('Allow');
    expect(endpoint.reviews).toHaveLength(4);
    // A different request (another namespace, another group set) is its own review.
    await authorizer.authorize({ ...list('bob'), namespace: 'prod' });
    await authorizer.authorize(list('bob', ['system:authenticated', 'devs']));
    expect(endpoint.reviews).toHaveLength(6);
  });

  it('honours configured TTLs separately for allowed and denied answers', async () => {
    let now = 0;
    const endpoint = fakeEndpoint(new Set(['alice']));
    const authorizer = new DelegatingAuthorizer(endpoint.review, { allowCacheTtlMs: 60_000, denyCacheTtlMs: 1_000, now: () => now });
    await authorizer.authorize(list('alice'));
    await authorizer.authorize(list('bob'));
    now = 1_000;
    await authorizer.authorize(list('alice'));
    await authorizer.authorize(list('bob'));
    expect(endpoint.reviews.map((r) => r.user)).toEqual(['alice', 'bob', 'bob']);
  });

  it('allows /healthz, /readyz, /livez and system:masters without asking', async () => {
    const endpoint = fakeEndpoint(new Set());
    const authorizer = new DelegatingAuthorizer(endpoint.review);
    for (const path of ['/healthz', '/readyz', '/livez']) expect(await authorizer.authorize(get(path))).toEqual({ decision: 'Allow', reason: '' });
    expect(await authorizer.authorize(list('kubernetes-admin', ['system:masters', 'system:authenticated']))).toEqual({ decision: 'Allow', reason: '' });
    expect(endpoint.reviews).toEqual([]);
    // Only those exact paths (kube's path authorizer), and only for non-resource requests.
    await authorizer.authorize(get('/healthz/etcd'));
    await authorizer.authorize({ ...list('bob'), path: '/healthz' });
    expect(endpoint.reviews).toHaveLength(2);
  });

  it('matches configured path prefixes ending in *', async () => {
    const endpoint = fakeEndpoint(new Set());
    const authorizer = new DelegatingAuthorizer(endpoint.review, { alwaysAllowPaths: ['/healthz*'] });
    expect((await authorizer.authorize(get('/healthz/etcd'))).decision).toBe('Allow');
    expect((await authorizer.authorize(get('/readyz'))).decision).toBe('NoOpinion');
  });

  it('fails (the chain answers 500) when the review fails, and does not cache the failure', async () => {
    let up = false;
    const reviews: string[] = [];
    const authorizer = new DelegatingAuthorizer(async (spec) => {
      reviews.push(spec.user);
      if (!up) throw new Error('connection refused');
      return { allowed: true };
    });
    await expect(authorizer.authorize(list('alice'))).rejects.toThrow('connection refused');
    up = true;
    expect((await authorizer.authorize(list('alice'))).decision).toBe('Allow');
    expect(reviews).toEqual(['alice', 'alice']);
  });
});
