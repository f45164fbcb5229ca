import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SampleApiServerModule } from '../../apps/sample-apiserver/src/sample-apiserver.module';
import { bootAggregatedServer } from '../support/aggregated-server.boot';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { kubectlSession, type KubectlSession } from '../support/kubectl.session';
import { until } from '../support/until';
import { userKubeconfig } from '../support/user.kubeconfig';

/** RBAC through the front door with real kubectl: users by client certificates from the stack's CA. */
let stack: StackHarness;
let sample: { close(): Promise<void> } | undefined;
const admin = kubectlSession(undefined, () => stack.kubeconfig);

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.rbac.example.com' },
  spec: {
    group: 'rbac.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

beforeAll(async () => {
  stack = await startStack();
  sample = await bootAggregatedServer(stack, { component: 'sample-apiserver', serviceDnsName: 'wardle-server.kube-system.svc', module: (options) => SampleApiServerModule.forRoot(options) });
  await admin.ok(['apply', '-f', '-'], JSON.stringify(crd));
  expect(await until(async () => (await admin.k(['get', 'widgets', '-A'])).code === 0 && (await admin.k(['get', 'flunders', '-A'])).code === 0, 60_000)).toBe(true);
}, 180_000);

afterAll(async () => {
  await sample?.close();
  await stack?.stop();
});

describe('bootstrap policy', () => {
  it('serves kube\'s default roles and bindings, with kube\'s columns', async () => {
    const roles = await admin.ok(['get', 'clusterroles']);
    expect(roles).toMatch(/^NAME\s+CREATED AT$/m);
    for (const name of ['cluster-admin', 'admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:public-info-viewer', 'system:auth-delegator']) expect(roles).toMatch(new RegExp(`^${name}\\s+\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$`, 'm'));
    const bindings = await admin.ok(['get', 'clusterrolebindings', '-o', 'wide']);
    expect(bindings).toMatch(/^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS$/m);
    expect(bindings).toMatch(/^system:public-info-viewer\s+ClusterRole\/system:public-info-viewer\s+\S+\s+system:authenticated, system:unauthenticated\s*$/m);
    expect(await admin.ok(['get', 'role', '-n', 'kube-system', 'extension-apiserver-authentication-reader', '-o', 'jsonpath={.rules[0].resourceNames}'])).toBe('["extension-apiserver-authentication"]');
    // edit and view are aggregated from the system:aggregate-to-* roles.
    expect(await until(async () => (await admin.ok(['get', 'clusterrole', 'view', '-o', 'jsonpath={.rules[*].resources}'])).includes('pods/log'))).toBe(true);
    const explained = await admin.ok(['explain', 'clusterrole.aggregationRule']);
    expect(explained).toMatch(/AggregationRule describes how to locate ClusterRoles to aggregate/);
  });
});

describe.each(['1.27', '1.33'])('kubectl %s as a user', (version) => {
  const v = version.replace('.', '');
  const user = `alice-${v}`;
  const ns = `rbac-${v}`;
  let kc = '';
  const alice: KubectlSession = kubectlSession(version, () => kc);
  const asAdmin: KubectlSession = kubectlSession(version, () => stack.kubeconfig);

  beforeAll(async () => {
    kc = await userKubeconfig(stack, user);
    await admin.ok(['create', 'namespace', ns]);
  });

  it('is forbidden without bindings, with kube\'s message', async () => {
    const r = await alice.k(['get', 'configmaps', '-n', ns]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error from server (Forbidden): configmaps is forbidden: User "${user}" cannot list resource "configmaps" in API group "" in the namespace "${ns}"`);
    expect((await alice.k(['get', 'widgets', '-n', ns])).stderr).toContain(`widgets.rbac.example.com is forbidden: User "${user}" cannot list resource "widgets" in API group "rbac.example.com" in the namespace "${ns}"`);
    expect((await alice.k(['get', 'flunders', '-n', ns])).stderr).toContain(`flunders.wardle.example.com is forbidden: User "${user}" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "${ns}"`);
    expect((await alice.k(['get', '--raw', '/metrics'])).stderr).toContain(`Error from server (Forbidden): forbidden: User "${user}" cannot get path "/metrics"`);
    // Discovery and health stay open to every authenticated user (system:discovery, system:public-info-viewer).
    expect((await alice.k(['get', '--raw', '/healthz'])).stdout).toBe('ok');
    expect((await alice.k(['api-versions'])).code).toBe(0);
  });

  it('reads but cannot write through a RoleBinding to view; can-i answers as a cluster does', async () => {
    await admin.ok(['create', 'rolebinding', 'alice-view', '--clusterrole=view', `--user=${user}`, '-n', ns]);
    expect(await until(async () => (await alice.k(['get', 'configmaps', '-n', ns])).code === 0)).toBe(true);
    const create = await alice.k(['create', 'configmap', 'x', '-n', ns]);
    expect(create.stderr).toContain(`configmaps is forbidden: User "${user}" cannot create resource "configmaps" in API group "" in the namespace "${ns}"`);
    expect((await alice.k(['auth', 'can-i', 'list', 'configmaps', '-n', ns])).stdout).toBe('yes\n');
    expect((await alice.k(['auth', 'can-i', 'create', 'configmaps', '-n', ns])).stdout).toBe('no\n');
    expect((await alice.k(['auth', 'can-i', 'get', 'pods', '--subresource=log', '-n', ns])).stdout).toBe('yes\n');
    expect((await alice.k(['auth', 'can-i', 'create', 'pods', '--subresource=exec', '-n', ns])).stdout).toBe('no\n');
    expect((await alice.k(['auth', 'can-i', 'get', '/healthz'])).stdout).toBe('yes\n');
    expect((await alice.k(['auth', 'can-i', 'get', '/metrics'])).stdout).toBe('no\n');
    expect((await asAdmin.k(['auth', 'can-i', 'list', 'configmaps', '-n', ns, '--as', user])).stdout).toBe('yes\n');
    expect((await asAdmin.k(['auth', 'can-i', 'delete', 'configmaps', '-n', ns, '--as', user])).stdout).toBe('no\n');
    const list = await alice.ok(['auth', 'can-i', '--list', '-n', ns]);
    expect(list).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
    expect(list).toMatch(/^configmaps\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(list).toMatch(/^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
    expect(list).toMatch(/^\s+\[\/healthz\]\s+\[\]\s+\[get\]$/m);
  });

  it('says who it is (auth whoami)', async () => {
    const who = await alice.ok(['auth', 'whoami']);
    expect(who).toMatch(new RegExp(`^Username\\s+${user}$`, 'm'));
    expect(who).toMatch(/^Groups\s+\[system:authenticated\]$/m);
    expect(await asAdmin.ok(['auth', 'whoami', '--as', 'bob', '--as-group', 'devs', '-o', 'jsonpath={.status.userInfo.groups}'])).toBe('["devs","system:authenticated"]');
  });

  it('cannot grant what it does not hold, nor impersonate without the right', async () => {
    await admin.ok(['create', 'role', 'role-maker', '--verb=create,get', '--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io', '-n', ns]);
    await admin.ok(['create', 'rolebinding', 'alice-role-maker', '--role=role-maker', `--user=${user}`, '-n', ns]);
    expect(await until(async () => (await alice.k(['auth', 'can-i', 'create', 'roles', '-n', ns])).stdout === 'yes\n')).toBe(true);
    const escalate = await alice.k(['create', 'role', 'sneaky', '--verb=create', '--resource=secrets', '-n', ns]);
    expect(escalate.stderr).toContain(
      `roles.rbac.authorization.k8s.io "sneaky" is forbidden: user "${user}" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["create"]}`,
    );
    expect(await alice.ok(['create', 'role', 'reader', '--verb=get', '--resource=configmaps', '-n', ns])).toBe('role.rbac.authorization.k8s.io/reader created\n');
    const bind = await alice.k(['create', 'rolebinding', 'alice-admin', '--clusterrole=admin', `--user=${user}`, '-n', ns]);
    expect(bind.stderr).toContain(`rolebindings.rbac.authorization.k8s.io "alice-admin" is forbidden: user "${user}" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:`);
    const impersonate = await alice.k(['get', 'configmaps', '-n', ns, '--as', 'bob']);
    expect(impersonate.stderr).toContain(`users "bob" is forbidden: User "${user}" cannot impersonate resource "users" in API group "" at the cluster scope`);
  });
});

describe('ClusterRole aggregation', () => {
  it('edit (and admin through it) pick up a new role labelled aggregate-to-edit, and drop it when it goes', async () => {
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'widget-editor', labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } },
      rules: [{ apiGroups: ['rbac.example.com'], resources: ['widgets'], verbs: ['create', 'delete'] }],
    };
    await admin.ok(['apply', '-f', '-'], JSON.stringify(role));
    const has = async (name: string): Promise<boolean> => (await admin.ok(['get', 'clusterrole', name, '-o', 'jsonpath={.rules[*].resources}'])).includes('widgets');
    expect(await until(async () => (await has('edit')) && (await has('admin')))).toBe(true);
    expect(await has('view')).toBe(false);
    await admin.ok(['delete', 'clusterrole', 'widget-editor']);
    expect(await until(async () => !(await has('edit')) && !(await has('admin')))).toBe(true);
  });
});
