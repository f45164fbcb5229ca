import { alwaysAllowAuthorizer, type AuthorizationAttributes, type UserInfo } from '@kube/apiserver';
import { describe, expect, it } from 'vitest';
import type { AuthorizationSet } from './authorization.mode';
import { privilegedGroupAuthorizer, unionAuthorizer } from './authorizers';
import { RbacAuthorizer } from './rbac.authorizer';
import { RbacIndex } from './rbac.index';
import { authorizedImpersonation, servingAuthorizer } from './serving.authorizer';

const anonymous: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
const robot: UserInfo = { name: 'system:serviceaccount:ns:robot', groups: ['system:serviceaccounts', 'system:authenticated'] };
const admin: UserInfo = { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };

const path = (user: UserInfo, p: string, verb = 'get'): AuthorizationAttributes => ({ user, verb, resourceRequest: false, path: p, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' });
const secrets = (user: UserInfo): AuthorizationAttributes => ({ user, verb: 'list', resourceRequest: true, path: '/api/v1/namespaces/kube-system/secrets', apiGroup: '', apiVersion: 'v1', resource: 'secrets', subresource: '', namespace: 'kube-system', name: '' });

/** An AuthorizationSet as buildAuthorization makes it, on an index with no RBAC objects yet (a fresh etcd). */
function emptySet(mode: AuthorizationSet['mode']): AuthorizationSet & { started: boolean } {
  const index = new RbacIndex();
  const rbac = new RbacAuthorizer(index);
  const chain = unionAuthorizer([privilegedGroupAuthorizer(), rbac]);
  const set = { mode, rbac, authorizer: { authorize: chain.authorize, rulesFor: rbac.rulesFor.bind(rbac) }, started: false } as unknown as AuthorizationSet & { started: boolean };
  set.start = () => ((set.started = true), Promise.resolve());
  return set;
}

describe('servingAuthorizer', () => {
  it('AlwaysAllow: the allow-all authorizer (the filter stays off the request path), RBAC not even listed', async () => {
    const set = emptySet('AlwaysAllow');
    expect(await servingAuthorizer(set)).toBe(alwaysAllowAuthorizer);
    expect(set.started).toBe(false);
  });

  it('RBAC: listed first; public info paths for anyone, system:masters for everything, nothing else without a binding', async () => {
    const set = emptySet('RBAC');
    const authz = await servingAuthorizer(set);
    expect(set.started).toBe(true);
    for (const p of ['/healthz', '/livez', '/readyz', '/version', '/version/']) expect(await authz.authorize(path(anonymous, p))).toMatchObject({ decision: 'Allow' });
    expect(await authz.authorize(path(anonymous, '/readyz/etcd'))).toMatchObject({ decision: 'NoOpinion' });
    expect(await authz.authorize(path(anonymous, '/readyz', 'post'))).toMatchObject({ decision: 'NoOpinion' });
    expect(await authz.authorize(path(robot, '/metrics'))).toMatchObject({ decision: 'NoOpinion' });
    expect(await authz.authorize(secrets(robot))).toMatchObject({ decision: 'NoOpinion' });
    expect(await authz.authorize(secrets(admin))).toMatchObject({ decision: 'Allow' });
  });

  it('impersonation asks the same authorizer', async () => {
    const authz = await servingAuthorizer(emptySet('RBAC'));
    const impersonate = authorizedImpersonation(authz);
    await expect(impersonate({ 'impersonate-user': 'alice' }, robot)).rejects.toMatchObject({ status: { code: 403 } });
    expect(await impersonate({ 'impersonate-user': 'alice' }, admin)).toMatchObject({ name: 'alice', groups: ['system:authenticated'] });
  });
});
