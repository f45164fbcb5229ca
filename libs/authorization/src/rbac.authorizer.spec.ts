import type { AuthorizationAttributes, UserInfo } from '@kube/apiserver';
import { describe, expect, it } from 'vitest';
import { privilegedGroupAuthorizer, unionAuthorizer } from './authorizers';
import { escalationMessage } from './policy.comparator';
import { RbacAuthorizer } from './rbac.authorizer';
import { RbacIndex } from './rbac.index';
import type { ClusterRole, PolicyRule, Role, RoleBinding, Subject } from './rbac.types';

const alice: UserInfo = { name: 'alice', groups: ['dev', 'system:authenticated'] };

function attrs(user: UserInfo, verb: string, resource: string, o: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
  return { user, verb, resourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', resource, subresource: '', namespace: '', name: '', ...o };
}

function nonResource(user: UserInfo, path: string, verb = 'get'): AuthorizationAttributes {
  return { user, verb, resourceRequest: false, path, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' };
}

const clusterRole = (name: string, rules: PolicyRule[]): ClusterRole => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules });
const role = (ns: string, name: string, rules: PolicyRule[]): Role => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name, namespace: ns }, rules });
const crb = (name: string, roleName: string, subjects: Subject[]): RoleBinding => ({ metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName }, subjects });
const rb = (ns: string, name: string, kind: 'Role' | 'ClusterRole', roleName: string, subjects: Subject[]): RoleBinding => ({ metadata: { name, namespace: ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: roleName }, subjects });

function setup(): { index: RbacIndex; authz: RbacAuthorizer } {
  const index = new RbacIndex();
  index.apply('ClusterRole', 'ADDED', clusterRole('view', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'pods/log', 'configmaps'] }]));
  index.apply('ClusterRole', 'ADDED', clusterRole('scaler', [{ verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }]));
  index.apply('ClusterRole', 'ADDED', clusterRole('one-secret', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['token'] }]));
  index.apply('ClusterRole', 'ADDED', clusterRole('metrics', [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/logs/*'] }]));
  index.apply('Role', 'ADDED', role('dev', 'deployer', [{ verbs: ['create'], apiGroups: ['apps'], resources: ['deployments'] }]));
  index.apply('RoleBinding', 'ADDED', rb('dev', 'view-alice', 'ClusterRole', 'view', [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }]));
  index.apply('RoleBinding', 'ADDED', rb('dev', 'deployers', 'Role', 'deployer', [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'dev' }]));
  index.apply('ClusterRoleBinding', 'ADDED', crb('scalers', 'scaler', [{ kind: 'ServiceAccount', name: 'hpa', namespace: 'kube-system' }]));
  index.apply('ClusterRoleBinding', 'ADDED', crb('secret-reader', 'one-secret', [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'dev' }]));
  index.apply('ClusterRoleBinding', 'ADDED', crb('metrics', 'metrics', [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' }]));
  return { index, authz: new RbacAuthorizer(index) };
}

describe('RbacAuthorizer', () => {
  it('allows through a RoleBinding only in its namespace, with kube\'s reason', () => {
    const { authz } = setup();
    expect(authz.authorize(attrs(alice, 'list', 'pods', { namespace: 'dev' }))).toEqual({ decision: 'Allow', reason: 'RBAC: allowed by RoleBinding "view-alice/dev" of ClusterRole "view" to User "alice"' });
    expect(authz.authorize(attrs(alice, 'list', 'pods', { namespace: 'prod' })).decision).toBe('NoOpinion');
    expect(authz.authorize(attrs(alice, 'list', 'pods')).decision).toBe('NoOpinion');
    expect(authz.authorize(attrs(alice, 'create', 'pods', { namespace: 'dev' })).decision).toBe('NoOpinion');
    expect(authz.authorize(attrs(alice, 'create', 'deployments', { namespace: 'dev', apiGroup: 'apps' })).reason).toBe('RBAC: allowed by RoleBinding "deployers/dev" of Role "deployer" to Group "dev"');
  });

  it('matches subresources exactly or through */subresource', () => {
    const { authz } = setup();
    expect(authz.authorize(attrs(alice, 'get', 'pods', { namespace: 'dev', subresource: 'log', name: 'p' })).decision).toBe('Allow');
    expect(authz.authorize(attrs(alice, 'get', 'pods', { namespace: 'dev', subresource: 'exec', name: 'p' })).decision).toBe('NoOpinion');
    const hpa: UserInfo = { name: 'system:serviceaccount:kube-system:hpa', groups: ['system:serviceaccounts'] };
    expect(authz.authorize(attrs(hpa, 'update', 'deployments', { apiGroup: 'apps', subresource: 'scale', name: 'd', namespace: 'x' }))).toEqual({ decision: 'Allow', reason: 'RBAC: allowed by ClusterRoleBinding "scalers" of ClusterRole "scaler" to ServiceAccount "hpa/kube-system"' });
    expect(authz.authorize(attrs(hpa, 'update', 'deployments', { apiGroup: 'apps', name: 'd', namespace: 'x' })).decision).toBe('NoOpinion');
  });

  it('honours resourceNames and non-resource URLs with a trailing *', () => {
    const { authz } = setup();
    expect(authz.authorize(attrs(alice, 'get', 'secrets', { name: 'token', namespace: 'x' })).decision).toBe('Allow');
    expect(authz.authorize(attrs(alice, 'get', 'secrets', { name: 'other', namespace: 'x' })).decision).toBe('NoOpinion');
    expect(authz.authorize(attrs(alice, 'list', 'secrets', { namespace: 'x' })).decision).toBe('NoOpinion');
    expect(authz.authorize(nonResource(alice, '/metrics')).decision).toBe('Allow');
    expect(authz.authorize(nonResource(alice, '/logs/kube.log')).decision).toBe('Allow');
    expect(authz.authorize(nonResource(alice, '/metricsx')).decision).toBe('NoOpinion');
    expect(authz.authorize(nonResource(alice, '/metrics', 'post')).decision).toBe('NoOpinion');
  });

  it('follows changes: a deleted binding stops granting, a role change applies at once, a missing role is the reason', () => {
    const { index, authz } = setup();
    index.apply('ClusterRole', 'MODIFIED', clusterRole('view', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]));
    expect(authz.authorize(attrs(alice, 'list', 'pods', { namespace: 'dev' })).decision).toBe('NoOpinion');
    expect(authz.authorize(attrs(alice, 'get', 'configmaps', { namespace: 'dev', name: 'c' })).decision).toBe('Allow');
    index.apply('ClusterRole', 'DELETED', clusterRole('view', []));
    expect(authz.authorize(attrs(alice, 'get', 'configmaps', { namespace: 'dev', name: 'c' }))).toEqual({ decision: 'NoOpinion', reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "view" not found' });
    index.apply('RoleBinding', 'DELETED', rb('dev', 'view-alice', 'ClusterRole', 'view', []));
    expect(authz.authorize(attrs(alice, 'get', 'configmaps', { namespace: 'dev', name: 'c' }))).toEqual({ decision: 'NoOpinion', reason: '' });
  });

  it('lists the rules of a user for SelfSubjectRulesReview, each binding once', () => {
    const { authz } = setup();
    const rules = authz.rulesFor(alice, 'dev');
    expect(rules.resourceRules.map((r) => r.resources.join(','))).toEqual(['secrets', 'pods,pods/log,configmaps', 'deployments']);
    expect(rules.nonResourceRules).toEqual([{ verbs: ['get'], nonResourceURLs: ['/metrics', '/logs/*'] }]);
  });

  it('system:masters bypasses RBAC in the union', async () => {
    const { authz } = setup();
    const chain = unionAuthorizer([privilegedGroupAuthorizer(), authz]);
    expect(await chain.authorize(attrs({ name: 'admin', groups: ['system:masters'] }, 'delete', 'nodes'))).toEqual({ decision: 'Allow', reason: '' });
    expect((await chain.authorize(attrs({ name: 'bob', groups: [] }, 'delete', 'nodes'))).decision).toBe('NoOpinion');
  });
});

describe('escalationMessage', () => {
  it('lists the missing rules compacted and sorted, as ConfirmNoEscalation words them', () => {
    const owner: PolicyRule[] = [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }];
    expect(escalationMessage(alice, owner, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])).toBeUndefined();
    expect(escalationMessage(alice, owner, [{ verbs: ['get', 'create', 'delete'], apiGroups: [''], resources: ['pods', 'secrets'] }])).toBe(
      'user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["create" "delete"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "create" "delete"]}',
    );
    expect(escalationMessage(alice, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*/scale'] }], [{ verbs: ['update'], apiGroups: ['apps'], resources: ['deployments/scale'] }])).toBeUndefined();
    expect(escalationMessage(alice, [], [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }])).toContain('{NonResourceURLs:["/metrics"], Verbs:["get"]}');
  });
});
