/**
 * The kube-ts Helm chart (deploy/helm/kube-ts) against a running kube-ts, as against any cluster: every object it
 * renders — default values, test/deploy/values-custom.yaml, cert-manager mode with ServiceMonitors — is accepted
 * by `kubectl apply --server-side --dry-run=server`, and Helm 4 installs, upgrades and uninstalls it with its
 * defaults (server-side apply). kube-ts stores the Deployments and StatefulSets; no kubelet runs them here.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { locateHelm, tempDir } from '@kube/testing';
import { kubectlSession, startStack, until, type StackHarness } from '../support';

const ROOT = join(__dirname, '..', '..');
const CHART = join(ROOT, 'deploy/helm/kube-ts');
const helm = locateHelm(join(ROOT, '.local', 'tools'));
const NS = 'kube-ts';

/** The CRDs the chart's optional objects need: cert-manager's (certManager mode) and ServiceMonitor. */
function prerequisiteCrds(): string {
  const dir = join(ROOT, 'test/fixtures/real-world');
  const certManager = readdirSync(join(dir, 'cert-manager/crds')).map((f) => readFileSync(join(dir, 'cert-manager/crds', f), 'utf8'));
  const serviceMonitor = readFileSync(join(dir, 'prometheus-operator/crds/monitoring.coreos.com_servicemonitors.yaml'), 'utf8');
  return [...certManager, serviceMonitor].join('\n---\n');
}

describe.skipIf(!helm.path)(`the kube-ts chart installed into kube-ts ${helm.reason ?? ''}`, () => {
  let stack: StackHarness;
  const home = tempDir('helm-home');
  const { k, ok } = kubectlSession('1.33', () => stack.kubeconfig);
  const runHelm = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      const env = { ...process.env, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
      const child = spawn(helm.path as string, [...args, '--kubeconfig', stack.kubeconfig, '--namespace', NS], { env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d));
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

  beforeAll(async () => {
    stack = await startStack();
    await ok(['apply', '--server-side', '-f', '-'], prerequisiteCrds());
    expect(await until(async () => (await k(['get', 'servicemonitors', '-A'])).code === 0 && (await k(['get', 'certificates', '-A'])).code === 0, 30_000)).toBe(true);
    await ok(['create', 'namespace', NS]);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it.each([
    ['default values', []],
    ['values-custom.yaml', ['-f', join(ROOT, 'test/deploy/values-custom.yaml')]],
    ['cert-manager mode with ServiceMonitors and autoscaling', ['--set', 'pki.mode=certManager', '--set', 'metrics.serviceMonitor.enabled=true', '--set', 'coreApi.autoscaling.enabled=true']],
  ] as const)('renders only objects kube-ts accepts with kubectl apply --server-side --dry-run=server (%s)', async (_name, args) => {
    const rendered = spawnSync(helm.path as string, ['template', 'kts', CHART, '-n', NS, ...args], { encoding: 'utf8' });
    expect(rendered.status, rendered.stderr).toBe(0);
    const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as { kind?: string } | null).filter((d): d is { kind: string } => !!d?.kind);
    const kinds = new Set(docs.map((d) => d.kind));
    for (const kind of ['Deployment', 'PodDisruptionBudget', 'NetworkPolicy', 'Service', 'Secret', 'ConfigMap']) expect(kinds, kind).toContain(kind);
    const applied = await k(['apply', '--server-side', '--dry-run=server', '--field-manager=helm-chart-check', '-f', '-'], docs.map((d) => JSON.stringify(d)).join('\n'));
    expect(applied.stderr.replace(/^Warning:.*\n/gm, ''), applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout.trim().split('\n')).toHaveLength(docs.length);
    expect(applied.stdout).toMatch(/deployment\.apps\/\S*aggregator serverside-applied \(server dry run\)/);
  }, 120_000);

  it('installs, upgrades and uninstalls with Helm 4 defaults (server-side apply)', async () => {
    const installed = await runHelm(['install', 'kts', CHART]);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toMatch(/STATUS: deployed/);
    const deployments = JSON.parse(await ok(['get', 'deployments', '-n', NS, '-o', 'json', '--show-managed-fields'])) as { items: Array<{ metadata: { name: string; managedFields: Array<{ manager: string; operation: string }> }; spec: { replicas: number } }> };
    const names = deployments.items.map((d) => d.metadata.name);
    expect(names).toEqual(expect.arrayContaining(['kts-kube-ts-aggregator', 'kts-kube-ts-core-api', 'kts-kube-ts-extensions']));
    const aggregator = deployments.items.find((d) => d.metadata.name === 'kts-kube-ts-aggregator');
    expect(aggregator?.spec.replicas).toBe(2);
    expect(aggregator?.metadata.managedFields.map((f) => `${f.manager}/${f.operation}`)).toContain('helm/Apply');
    expect(await ok(['get', 'statefulsets', '-n', NS, '-o', 'name'])).toContain('statefulset.apps/kts-kube-ts-etcd');

    const upgraded = await runHelm(['upgrade', 'kts', CHART, '--set', 'aggregator.replicas=3']);
    expect(upgraded.code, upgraded.stderr).toBe(0);
    expect((await ok(['get', 'deployment', 'kts-kube-ts-aggregator', '-n', NS, '-o', 'jsonpath={.spec.replicas}'])).trim()).toBe('3');
    expect((await runHelm(['history', 'kts'])).stdout).toMatch(/2\s+.*deployed/);

    const uninstalled = await runHelm(['uninstall', 'kts']);
    expect(uninstalled.code, uninstalled.stderr).toBe(0);
    expect(await until(async () => (await ok(['get', 'deployments,statefulsets,networkpolicies', '-n', NS, '-o', 'name'])).trim() === '', 30_000)).toBe(true);
  }, 180_000);
});
