import type { UserInfo } from '@kube/apiserver';
import { describe, expect, it } from 'vitest';
import { impersonate } from './impersonation';
import { RbacAuthorizer } from './rbac.authorizer';
import { RbacIndex } from './rbac.index';

const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };

function authorizer(rules: { verbs: string[]; apiGroups: string[]; resources: string[]; resourceNames?: string[] }[]): RbacAuthorizer {
  const index = new RbacIndex();
  index.apply('ClusterRole', 'ADDED', { metadata: { name: 'imp' }, rules } as never);
  index.apply('ClusterRoleBinding', 'ADDED', { metadata: { name: 'imp' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'imp' }, subjects: [{ kind: 'User', name: 'alice' }] } as never);
  return new RbacAuthorizer(index);
}

describe('impersonate', () => {
  it('refuses without the impersonate verb, in kube\'s words', async () => {
    await expect(impersonate({ 'impersonate-user': 'bob' }, alice, authorizer([]))).rejects.toMatchObject({
      status: { code: 403, reason: 'Forbidden', message: 'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope' },
    });
  });

  it('checks users, groups, service accounts, extras and uids separately', async () => {
    const users = authorizer([{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['bob'] }]);
    expect(await impersonate({ 'impersonate-user': 'bob' }, alice, users)).toEqual({ name: 'bob', uid: undefined, groups: ['system:authenticated'], extra: {} });
    await expect(impersonate({ 'impersonate-user': 'bob', 'impersonate-group': 'system:masters' }, alice, users)).rejects.toMatchObject({
      status: { message: 'groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope' },
    });
    await expect(impersonate({ 'impersonate-user': 'bob', 'impersonate-extra-scopes': 'view' }, alice, users)).rejects.toMatchObject({
      status: { message: 'userextras.authentication.k8s.io "view" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope' },
    });
    const sas = authorizer([{ verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'] }]);
    await expect(impersonate({ 'impersonate-user': 'system:serviceaccount:dev:builder' }, alice, authorizer([]))).rejects.toMatchObject({
      status: { message: 'serviceaccounts "builder" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "dev"' },
    });
    expect(await impersonate({ 'impersonate-user': 'system:serviceaccount:dev:builder' }, alice, sas)).toMatchObject({
      name: 'system:serviceaccount:dev:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:dev', 'system:authenticated'],
    });
  });

  it('needs a user when groups are asked for', async () => {
    await expect(impersonate({ 'impersonate-group': 'g' }, alice, authorizer([]))).rejects.toMatchObject({ status: { code: 500 } });
    expect(await impersonate({}, alice, authorizer([]))).toBe(alice);
  });
});
