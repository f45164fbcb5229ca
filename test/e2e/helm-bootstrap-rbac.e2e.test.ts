/**
 * The Helm chart's aggregated API servers register themselves through the front door with their own
 * certificates (CN system:kube-ts:<component>), which start with no rights under RBAC. The chart hands core-api
 * the RBAC they need as bootstrap manifests (KUBE_BOOTSTRAP_MANIFESTS): here the ConfigMap `helm template`
 * renders is given to a stack's core-api, and the real wardle sample-apiserver registers and serves as
 * system:kube-ts:sample-apiserver — no more than that identity needs.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { locateHelm, tempDir } from '@kube/testing';
import { SampleApiServerModule } from '../../apps/sample-apiserver/src/sample-apiserver.module';
import { bootAggregatedServer, kubectlSession, startStack, until, type StackHarness } from '../support';

const ROOT = join(__dirname, '..', '..');
const helm = locateHelm(join(ROOT, '.local', 'tools'));
const SAMPLE = 'system:kube-ts:sample-apiserver';

/** The bootstrap-manifests ConfigMap as `helm template` renders it, its files written to a directory. */
function renderBootstrapManifests(values: string): string {
  const valuesFile = join(tempDir('helm-values'), 'values.yaml');
  writeFileSync(valuesFile, values);
  const out = spawnSync(helm.path as string, ['template', 'kt', join(ROOT, 'deploy/helm/kube-ts'), '-f', valuesFile, '--show-only', 'templates/core-api/bootstrap-manifests-configmap.yaml'], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`helm template failed: ${out.stderr}`);
  const configMap = parseAllDocuments(out.stdout).map((d) => d.toJS() as { kind?: string; data?: Record<string, string> }).find((d) => d?.kind === 'ConfigMap');
  const dir = tempDir('bootstrap-manifests');
  for (const [file, text] of Object.entries(configMap?.data ?? {})) writeFileSync(join(dir, file), text);
  return dir;
}

// A team's binding given as coreApi.bootstrapManifests, and one object core-api cannot apply (skipped, logged).
const VALUES = `
coreApi:
  bootstrapManifests:
    - apiVersion: v1
      kind: Namespace
      metadata: {name: team-a}
    - apiVersion: rbac.authorization.k8s.io/v1
      kind: RoleBinding
      metadata: {name: team-a-admins, namespace: team-a}
      roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: admin}
      subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: team-a}]
    - apiVersion: example.com/v1
      kind: Widget
      metadata: {name: not-served}
`;

describe.skipIf(!helm.path)(`the chart's bootstrap RBAC for self-registering aggregated servers ${helm.reason ?? ''}`, () => {
  let stack: StackHarness;
  let wardle: INestApplicationContext | undefined;
  const { k, ok } = kubectlSession('1.33', () => stack.kubeconfig);
  const can = async (user: string, ...args: string[]): Promise<string> => (await k(['auth', 'can-i', ...args, '--as', user])).stdout.trim().split(/\s/)[0];

  beforeAll(async () => {
    stack = await startStack({ bootstrapManifests: renderBootstrapManifests(VALUES) });
  });

  afterAll(async () => {
    await wardle?.close();
    await stack?.stop();
  });

  it('grants each server what registration and delegated authn/authz need, and nothing more', async () => {
    // Readiness waited for the manifests: the bindings are there.
    expect(await can(SAMPLE, 'create', 'apiservices.apiregistration.k8s.io')).toBe('yes');
    expect(await can(SAMPLE, 'patch', 'apiservices.apiregistration.k8s.io/v1alpha1.wardle.example.com')).toBe('yes');
    expect(await can(SAMPLE, 'patch', 'apiservices.apiregistration.k8s.io/v1.apps')).toBe('no');
    expect(await can(SAMPLE, 'patch', 'endpoints/wardle-server', '-n', 'kube-system')).toBe('yes');
    expect(await can(SAMPLE, 'patch', 'endpoints/kubernetes', '-n', 'default')).toBe('no');
    expect(await can(SAMPLE, 'create', 'subjectaccessreviews.authorization.k8s.io')).toBe('yes');
    expect(await can(SAMPLE, 'get', 'configmaps/extension-apiserver-authentication', '-n', 'kube-system')).toBe('yes');
    expect(await can(SAMPLE, 'get', 'secrets', '-n', 'kube-system')).toBe('no');
    expect(await can(SAMPLE, 'delete', 'apiservices.apiregistration.k8s.io/v1alpha1.wardle.example.com')).toBe('no');
    // Its admission reads webhook configurations, policies and namespaces through the front door.
    expect(await can(SAMPLE, 'watch', 'validatingwebhookconfigurations.admissionregistration.k8s.io')).toBe('yes');
    expect(await can(SAMPLE, 'list', 'namespaces')).toBe('yes');
    expect(await can(SAMPLE, 'update', 'validatingwebhookconfigurations.admissionregistration.k8s.io')).toBe('no');
    // aggregatedApiservers[].rules: counts-apiserver lists what it counts.
    expect(await can('system:kube-ts:counts-apiserver', 'list', 'pods', '-A')).toBe('yes');
    expect(await can('system:kube-ts:counts-apiserver', 'get', 'secrets/x', '-n', 'default')).toBe('no');
  });

  it('applies coreApi.bootstrapManifests with the kube-ts-bootstrap field manager and skips what it cannot apply', async () => {
    const binding = JSON.parse(await ok(['get', 'rolebinding', 'team-a-admins', '-n', 'team-a', '-o', 'json', '--show-managed-fields']));
    expect(binding.roleRef.name).toBe('admin');
    expect(binding.metadata.managedFields.map((f: { manager: string; operation: string }) => `${f.manager}/${f.operation}`)).toContain('kube-ts-bootstrap/Apply');
    expect(await until(async () => (await can('someone', 'create', 'configmaps', '-n', 'team-a', '--as-group', 'team-a')) === 'yes')).toBe(true);
    expect(await can('someone', 'create', 'configmaps', '-n', 'default', '--as-group', 'team-a')).toBe('no');
  });

  it('lets the real wardle server register itself and serve under its own identity', async () => {
    wardle = await bootAggregatedServer(stack, { component: 'sample-apiserver', serviceDnsName: 'wardle-server.kube-system.svc', user: SAMPLE, module: (o) => SampleApiServerModule.forRoot(o) });
    const available = await until(async () => /\sTrue\s/.test((await k(['get', 'apiservice', 'v1alpha1.wardle.example.com', '--no-headers'])).stdout), 30_000);
    expect(available).toBe(true);
    await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'f1', namespace: 'default' }, spec: {} }));
    expect(await ok(['get', 'flunders', '-o', 'name'])).toContain('flunder.wardle.example.com/f1');
    // Its SubjectAccessReviews (as system:kube-ts:sample-apiserver) decide for other users.
    const denied = await k(['get', 'flunders', '--as', 'nobody']);
    expect(denied.stderr).toMatch(/forbidden: User "nobody" cannot list resource "flunders"/);
  });
});
