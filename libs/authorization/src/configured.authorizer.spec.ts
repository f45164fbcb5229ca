import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { register } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthorizationAttributes, UserInfo } from '@kube/apiserver';
import { tempDir } from '@kube/testing';
import { startAuthorizationWebhook, type TestAuthorizationWebhook } from '../../../test/support/authorization-webhook';
import { ConfiguredAuthorizer } from './configured.authorizer';
import { RbacAuthorizer } from './rbac.authorizer';
import { RbacIndex } from './rbac.index';

const dir = tempDir('authz-configured');
let hook: TestAuthorizationWebhook;
const index = new RbacIndex();
const rbac = new RbacAuthorizer(index);

const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
const bob: UserInfo = { name: 'bob', groups: ['system:authenticated'] };
const admin: UserInfo = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };
const getPods = (user: UserInfo): AuthorizationAttributes => ({ user, verb: 'get', resourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', namespace: 'default', name: '' });

const file = (authorizers: string): string => `apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n${authorizers}`;
const webhook = (name: string): string => `- type: Webhook\n  name: ${name}\n  webhook:\n    timeout: 2s\n    subjectAccessReviewVersion: v1\n    failurePolicy: NoOpinion\n    connectionInfo:\n      type: KubeConfigFile\n      kubeConfigFile: ${hook.kubeconfigPath}\n`;
const RBAC = '- type: RBAC\n  name: rbac\n';

async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const values = ((await register.getSingleMetric(name)?.get())?.values ?? []) as Array<{ labels: Record<string, string>; value: number }>;
  return values.filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x)).reduce((a, v) => a + v.value, 0);
}

beforeAll(async () => {
  hook = await startAuthorizationWebhook(dir, (r) => (r.body.spec.user === 'alice' ? { allowed: true } : r.body.spec.user === 'bob' ? { denied: true, reason: 'bob is banned' } : {}));
  // RBAC lets bob read pods.
  index.apply('ClusterRole', 'ADDED', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'pod-reader' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] } as never);
  index.apply('ClusterRoleBinding', 'ADDED', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'bob' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }] } as never);
});

afterAll(() => hook?.close());

describe('ConfiguredAuthorizer', () => {
  it('composes as kube\'s union: a webhook first allows whom RBAC does not, and its Deny ends the chain before RBAC', async () => {
    const path = join(dir, 'first.yaml');
    writeFileSync(path, file(webhook('policy') + RBAC));
    const authz = ConfiguredAuthorizer.fromFile(path, rbac);
    const denied = await metric('apiserver_authorization_decisions_total', { type: 'Webhook', name: 'policy', decision: 'denied' });
    expect((await authz.authorize(getPods(alice))).decision).toBe('Allow');
    expect(await authz.authorize(getPods(bob))).toEqual({ decision: 'Deny', reason: 'bob is banned' });
    expect(await metric('apiserver_authorization_decisions_total', { type: 'Webhook', name: 'policy', decision: 'denied' })).toBe(denied + 1);
    // system:masters is decided before any configured authorizer: the webhook never hears of it.
    const before = hook.reviews.length;
    expect((await authz.authorize(getPods(admin))).decision).toBe('Allow');
    expect(hook.reviews.length).toBe(before);
    // Rules: RBAC's, and the webhook's incomplete answer.
    expect(authz.rulesFor(bob, 'default')).toMatchObject({ incomplete: true, errors: ['webhook authorizer does not support user rule resolution'] });
    authz.stop();
  });

  it('RBAC first: bob is allowed by RBAC before the webhook can deny him', async () => {
    const path = join(dir, 'rbac-first.yaml');
    writeFileSync(path, file(RBAC + webhook('policy')));
    const authz = ConfiguredAuthorizer.fromFile(path, rbac);
    expect((await authz.authorize(getPods(bob))).decision).toBe('Allow');
    authz.stop();
  });

  it('Node has no opinion (no kubelets here); AlwaysDeny denies; ABAC is refused', async () => {
    const path = join(dir, 'node.yaml');
    writeFileSync(path, file('- type: Node\n  name: node\n- type: AlwaysDeny\n  name: alwaysdeny\n'));
    const authz = ConfiguredAuthorizer.fromFile(path, rbac);
    expect(await authz.authorize(getPods({ name: 'system:node:n1', groups: ['system:nodes'] }))).toEqual({ decision: 'Deny', reason: 'Everything is forbidden.' });
    authz.stop();
    writeFileSync(path, file('- type: ABAC\n  name: abac\n'));
    expect(() => ConfiguredAuthorizer.fromFile(path, rbac)).toThrow('authorizer type ABAC is not allowed if it was not enabled at initial server startup');
  });

  it('reloads a changed file; a file that does not load keeps the chain in use, counted as a failure', async () => {
    const path = join(dir, 'reload.yaml');
    writeFileSync(path, file(RBAC));
    const logs: string[] = [];
    const authz = ConfiguredAuthorizer.fromFile(path, rbac, { apiServerId: 'test-server', log: (m) => logs.push(m) });
    expect((await authz.authorize(getPods(alice))).decision).toBe('NoOpinion');
    writeFileSync(path, file(RBAC + webhook('policy')));
    expect(authz.reload()).toBe(true);
    expect((await authz.authorize(getPods(alice))).decision).toBe('Allow');
    const failures = await metric('apiserver_authorization_config_controller_automatic_reloads_total', { status: 'failure' });
    writeFileSync(path, file('- type: AlwaysAllow\n  name: alwaysallow\n'));
    expect(authz.reload()).toBe(false);
    expect(logs.at(-1)).toContain('missing required types: [RBAC]');
    expect(await metric('apiserver_authorization_config_controller_automatic_reloads_total', { status: 'failure' })).toBe(failures + 1);
    expect((await authz.authorize(getPods(alice))).decision).toBe('Allow');
    authz.stop();
  });
});
