import type { KubeObject } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { clusterRoleBindingsResource, clusterRolesResource, roleBindingsResource, rolesResource } from './rbac.resources';
import { cells, create, messages, meta, update } from './strategy.testing';

const role = (rules: unknown[]): KubeObject => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: meta('r', 'ns'), rules }) as KubeObject;

describe('Role and ClusterRole validation (pkg/apis/rbac/validation)', () => {
  it('needs verbs, groups and resources; namespaced rules cannot name URLs', () => {
    expect(messages(create(rolesResource, role([{ verbs: [], apiGroups: [''], resources: ['pods'] }])))).toEqual(['rules[0].verbs: Required value: verbs must contain at least one value']);
    expect(messages(create(rolesResource, role([{ verbs: ['get'] }])))).toEqual([
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ]);
    expect(messages(create(rolesResource, role([{ verbs: ['get'], nonResourceURLs: ['/healthz'] }])))).toEqual(['rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs']);
    expect(messages(create(rolesResource, role([{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['a'] }])))).toEqual(['rules[0].resourceNames: Required value: resource names cannot apply to multiple resources']);
    const cr = { ...role([{ verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] }]), kind: 'ClusterRole', metadata: meta('c') };
    expect(messages(create(clusterRolesResource, cr))).toEqual(['rules[0].nonResourceURLs: Invalid value: ["/healthz"]: rules cannot apply to both regular resources and non-resource URLs']);
    expect(messages(create(clusterRolesResource, { ...cr, rules: [], aggregationRule: {} } as KubeObject))).toEqual(['aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil']);
  });

  it('prints NAME and CREATED AT', () => {
    expect(cells(clusterRolesResource, role([]))).toEqual({ 'Created At': '2024-01-01T00:00:00Z' });
    expect(clusterRolesResource.tableAge).toBe(false);
  });
});

describe('RoleBinding and ClusterRoleBinding', () => {
  const binding = (o: Record<string, unknown>): KubeObject => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: meta('b', 'ns'), ...o }) as KubeObject;

  it('defaults the RBAC group and validates roleRef and subjects', () => {
    const b = binding({ roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'builder' }] });
    expect(create(roleBindingsResource, b)).toEqual([]);
    expect(b).toMatchObject({ roleRef: { apiGroup: 'rbac.authorization.k8s.io' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io' }, { kind: 'ServiceAccount' }] });
    expect((b as unknown as { subjects: { apiGroup?: string }[] }).subjects[1].apiGroup).toBeUndefined();
    const cluster = binding({ kind: 'ClusterRoleBinding', metadata: meta('c'), roleRef: { kind: 'Role', name: 'x' }, subjects: [{ kind: 'ServiceAccount', name: 'builder' }, { kind: 'Robot', name: 'r2' }] });
    expect(messages(create(clusterRoleBindingsResource, cluster))).toEqual([
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'subjects[0].namespace: Required value',
      'subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    ]);
  });

  it('keeps roleRef immutable and prints kube\'s columns', () => {
    const old = binding({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' } });
    const changed = binding({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' } });
    expect(messages(update(roleBindingsResource, changed, old))).toEqual(['roleRef: Invalid value: {"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"edit"}: cannot change roleRef']);
    const shown = binding({ roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'a' }, { kind: 'User', name: 'b' }, { kind: 'Group', name: 'g' }, { kind: 'ServiceAccount', name: 's', namespace: 'n' }] });
    expect(cells(roleBindingsResource, shown)).toEqual({ Role: 'ClusterRole/view', Age: '10m', Users: 'a, b', Groups: 'g', ServiceAccounts: 'n/s' });
  });
});
