/**
 * The review types an SDK server sends the control plane, checked against k8s.io/api's JSON names
 * (authorization/v1 SubjectAccessReview, authentication/v1 TokenReview) with answers shaped as the upstream
 * documentation's examples (webhook authorization and authentication): every field is read from its kube name.
 */
import { describe, expect, it } from 'vitest';
import { DelegatingAuthorizer, subjectAccessReviewSpec, type SubjectAccessReviewStatus } from '../authorization/delegating.authorizer';
import type { AuthorizationAttributes } from '../authorization/authorizer';
import { TokenReviewAuthenticator, type TokenReviewStatus } from './token-review.authenticator';

const SAR_SPEC_FIELDS = ['resourceAttributes', 'nonResourceAttributes', 'user', 'groups', 'extra', 'uid'];
const RESOURCE_ATTRIBUTES_FIELDS = ['namespace', 'verb', 'group', 'version', 'resource', 'subresource', 'name', 'fieldSelector', 'labelSelector'];
const NON_RESOURCE_ATTRIBUTES_FIELDS = ['path', 'verb'];

const jane = { name: 'jane', uid: 'u-42', groups: ['group1', 'group2'], extra: { scopes: ['openid'] } };
const get = (over: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: jane, verb: 'get', resourceRequest: true, path: '/apis/unicorn.example.org/v1/namespaces/kittensandponies/pods', apiGroup: 'unicorn.example.org', apiVersion: 'v1', resource: 'pods', subresource: '', namespace: 'kittensandponies', name: '', ...over,
});

describe('SubjectAccessReview (authorization.k8s.io/v1)', () => {
  it('sends a spec with SubjectAccessReviewSpec\'s JSON names only', () => {
    const spec = JSON.parse(JSON.stringify(subjectAccessReviewSpec(get()))) as Record<string, Record<string, unknown>>;
    for (const key of Object.keys(spec)) expect(SAR_SPEC_FIELDS).toContain(key);
    for (const key of Object.keys(spec.resourceAttributes)) expect(RESOURCE_ATTRIBUTES_FIELDS).toContain(key);
    expect(spec).toMatchObject({ user: 'jane', uid: 'u-42', groups: ['group1', 'group2'], extra: { scopes: ['openid'] }, resourceAttributes: { namespace: 'kittensandponies', verb: 'get', group: 'unicorn.example.org', version: 'v1', resource: 'pods' } });
    const nonResource = JSON.parse(JSON.stringify(subjectAccessReviewSpec(get({ resourceRequest: false, path: '/debug', verb: 'get' })))) as Record<string, Record<string, unknown>>;
    expect(Object.keys(nonResource.nonResourceAttributes).sort()).toEqual([...NON_RESOURCE_ATTRIBUTES_FIELDS].sort());
    expect(nonResource).not.toHaveProperty('resourceAttributes');
  });

  it('reads allowed, denied and reason from the status', async () => {
    const answers: Record<string, SubjectAccessReviewStatus> = {
      allow: { allowed: true, reason: 'rule foo allowed this request' },
      deny: { allowed: false, denied: true, reason: 'user does not have read access to the namespace' },
      none: { allowed: false, reason: 'no opinion', evaluationError: 'partial' },
    };
    // The documentation's review objects, as the control plane answers them: status is read from its JSON name.
    const authz = new DelegatingAuthorizer(async (spec) => (JSON.parse(JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec, status: answers[spec.resourceAttributes?.verb ?? ''] })) as { status: SubjectAccessReviewStatus }).status, { alwaysAllowGroups: [] });
    expect(await authz.authorize(get({ verb: 'allow' }))).toEqual({ decision: 'Allow', reason: 'rule foo allowed this request' });
    expect(await authz.authorize(get({ verb: 'deny' }))).toEqual({ decision: 'Deny', reason: 'user does not have read access to the namespace' });
    expect(await authz.authorize(get({ verb: 'none' }))).toEqual({ decision: 'NoOpinion', reason: 'no opinion' });
  });
});

describe('TokenReview (authentication.k8s.io/v1)', () => {
  it('reads authenticated and the user (username, uid, groups, extra) from the status', async () => {
    const upstream = JSON.parse(`{
      "apiVersion": "authentication.k8s.io/v1",
      "kind": "TokenReview",
      "status": {
        "authenticated": true,
        "user": { "username": "janedoe@example.com", "uid": "42", "groups": ["developers", "qa"], "extra": { "extrafield1": ["extravalue1", "extravalue2"] } },
        "audiences": ["https://myserver.example.com"]
      }
    }`) as { status: TokenReviewStatus };
    const authn = new TokenReviewAuthenticator(async () => upstream.status);
    expect(await authn.authenticate('token')).toEqual({ name: 'janedoe@example.com', uid: '42', groups: ['developers', 'qa'], extra: { extrafield1: ['extravalue1', 'extravalue2'] } });
    const refused = new TokenReviewAuthenticator(async () => (JSON.parse('{"status":{"authenticated":false,"error":"Credentials are expired"}}') as { status: TokenReviewStatus }).status);
    expect(await refused.authenticate('token')).toBeUndefined();
  });
});
