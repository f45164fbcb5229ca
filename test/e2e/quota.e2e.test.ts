import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { kubectlSession, type KubectlSession } from '../support/kubectl.session';
import { until } from '../support/until';

// Tests here wait up to a minute for the stack to converge (until(…, 60_000)); on a loaded CI machine such a wait
// and the rest of the test together outgrow the default 60 s.
vi.setConfig({ testTimeout: 180_000 });

/**
 * ResourceQuota and LimitRange with real kubectl: quota charged and enforced at admission with kube's messages,
 * usage kept by the quota controller, LimitRange defaults and limits on Pods.
 */
let stack: StackHarness;
const admin = kubectlSession(undefined, () => stack.kubeconfig);

beforeAll(async () => {
  stack = await startStack();
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

/** The quota's status.used[resource] once the controller (or admission) has recorded it. */
async function used(k: KubectlSession, ns: string, quota: string, resource: string): Promise<string> {
  const escaped = resource.replace(/\./g, '\\.');
  return k.ok(['get', 'quota', quota, '-n', ns, '-o', `jsonpath={.status.used.${escaped}}`]);
}

function pod(name: string, resources?: Record<string, Record<string, string>>): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx:1.25', ...(resources ? { resources } : {}) }] } });
}

describe.each(['1.27', '1.33'])('kubectl %s', (version) => {
  const v = version.replace('.', '');
  const k = kubectlSession(version, () => stack.kubeconfig);

  it('enforces a quota on configmaps with kube\'s message; describe shows usage; deletes release it', async () => {
    const ns = `quota-${v}`;
    await admin.ok(['create', 'namespace', ns]);
    // Every namespace holds the kube-root-ca.crt ConfigMap (the controller-manager publishes it): it counts, as in kube.
    expect(await until(async () => (await k.k(['get', 'configmap', 'kube-root-ca.crt', '-n', ns])).code === 0, 60_000)).toBe(true);
    await k.ok(['create', 'quota', 'q', '--hard=configmaps=4,pods=2', '-n', ns]);
    // The controller fills status.hard and status.used; until then admission answers "status unknown".
    expect(await until(async () => (await used(k, ns, 'q', 'configmaps')) === '1', 60_000)).toBe(true);
    for (const i of [1, 2, 3]) await k.ok(['create', 'configmap', `cm-${i}`, '-n', ns, '--from-literal=a=b']);
    const refused = await k.k(['create', 'configmap', 'cm-4', '-n', ns]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('configmaps "cm-4" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=4, limited: configmaps=4');
    expect(await k.k(['get', 'configmap', 'cm-4', '-n', ns])).toMatchObject({ code: 1 });

    const table = await k.ok(['get', 'quota', '-n', ns]);
    expect(table).toMatch(/^NAME\s+AGE\s+REQUEST\s+LIMIT\s*$/m);
    expect(table).toMatch(/^q\s+\S+\s+configmaps: 4\/4, pods: 0\/2\s*$/m);
    const described = await k.ok(['describe', 'quota', 'q', '-n', ns]);
    expect(described).toMatch(/^Resource\s+Used\s+Hard$/m);
    expect(described).toMatch(/^configmaps\s+4\s+4$/m);
    expect(described).toMatch(/^pods\s+0\s+2$/m);

    // Deleting releases usage (the controller recalculates), and the freed slot can be used again.
    await k.ok(['delete', 'configmap', 'cm-1', '-n', ns]);
    expect(await until(async () => (await used(k, ns, 'q', 'configmaps')) === '3', 60_000)).toBe(true);
    await k.ok(['create', 'configmap', 'cm-5', '-n', ns]);
    expect(await used(k, ns, 'q', 'configmaps')).toBe('4');

    // Dry runs are checked but never charged.
    expect((await k.k(['create', 'configmap', 'cm-6', '-n', ns, '--dry-run=server'])).stderr).toContain('exceeded quota: q');
  });

  it('never lets concurrent creates exceed the quota', async () => {
    const ns = `quota-race-${v}`;
    await admin.ok(['create', 'namespace', ns]);
    expect(await until(async () => (await k.k(['get', 'configmap', 'kube-root-ca.crt', '-n', ns])).code === 0, 60_000)).toBe(true);
    await k.ok(['create', 'quota', 'q', '--hard=configmaps=4', '-n', ns]);
    expect(await until(async () => (await used(k, ns, 'q', 'configmaps')) === '1', 60_000)).toBe(true);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => k.k(['create', 'configmap', `race-${i}`, '-n', ns])));
    const created = results.filter((r) => r.code === 0);
    const refused = results.filter((r) => r.code !== 0);
    expect(created).toHaveLength(3);
    for (const r of refused) expect(r.stderr).toMatch(/is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=4, limited: configmaps=4/);
    const names = (await k.ok(['get', 'configmaps', '-n', ns, '-o', 'name'])).trim().split('\n');
    expect(names).toHaveLength(4);
    expect(await used(k, ns, 'q', 'configmaps')).toBe('4');
  });

  it('applies LimitRange defaults to a Pod, annotates it, and refuses one over the max', async () => {
    const ns = `limits-${v}`;
    await admin.ok(['create', 'namespace', ns]);
    const limitRange = {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'lr' },
      spec: { limits: [{ type: 'Container', max: { cpu: '500m' }, default: { cpu: '200m', memory: '128Mi' }, defaultRequest: { cpu: '0.1' } }] },
    };
    await k.ok(['apply', '-n', ns, '-f', '-'], JSON.stringify(limitRange));
    // Stored with kube's defaulting and canonical quantities.
    const stored = JSON.parse(await k.ok(['get', 'limitrange', 'lr', '-n', ns, '-o', 'json'])) as { spec: { limits: Record<string, unknown>[] } };
    expect(stored.spec.limits[0]).toMatchObject({ defaultRequest: { cpu: '100m', memory: '128Mi' }, default: { cpu: '200m', memory: '128Mi' }, max: { cpu: '500m' } });
    expect(await k.ok(['get', 'limits', '-n', ns])).toMatch(/^NAME\s+CREATED AT\s*\nlr\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\s*$/m);

    await k.ok(['apply', '-n', ns, '-f', '-'], pod('small'));
    expect(await k.ok(['get', 'pod', 'small', '-n', ns, '-o', 'yaml'])).toMatch(/^    kubernetes\.io\/limit-ranger: /m);
    const annotation = await k.ok(['get', 'pod', 'small', '-n', ns, '-o', 'jsonpath={.metadata.annotations.kubernetes\\.io/limit-ranger}']);
    expect(annotation).toBe('LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c');
    const resources = JSON.parse(await k.ok(['get', 'pod', 'small', '-n', ns, '-o', 'jsonpath={.spec.containers[0].resources}']));
    expect(resources).toEqual({ limits: { cpu: '200m', memory: '128Mi' }, requests: { cpu: '100m', memory: '128Mi' } });

    const big = await k.k(['apply', '-n', ns, '-f', '-'], pod('big', { limits: { cpu: '1' } }));
    expect(big.code).toBe(1);
    expect(big.stderr).toContain('pods "big" is forbidden: maximum cpu usage per Container is 500m, but limit is 1');
  });

  it('requires limits on every container when a quota tracks them', async () => {
    const ns = `quota-pods-${v}`;
    await admin.ok(['create', 'namespace', ns]);
    await k.ok(['create', 'quota', 'compute', '--hard=limits.cpu=1,requests.memory=1Gi,pods=1', '-n', ns]);
    expect(await until(async () => (await used(k, ns, 'compute', 'pods')) === '0', 60_000)).toBe(true);
    const bare = await k.k(['apply', '-n', ns, '-f', '-'], pod('bare'));
    expect(bare.stderr).toContain('pods "bare" is forbidden: failed quota: compute: must specify limits.cpu for: c; requests.memory for: c');
    await k.ok(['apply', '-n', ns, '-f', '-'], pod('p1', { limits: { cpu: '600m' }, requests: { memory: '256Mi' } }));
    expect(await used(k, ns, 'compute', 'limits.cpu')).toBe('600m');
    expect(await used(k, ns, 'compute', 'requests.memory')).toBe('256Mi');
    const second = await k.k(['apply', '-n', ns, '-f', '-'], pod('p2', { limits: { cpu: '600m' }, requests: { memory: '256Mi' } }));
    expect(second.stderr).toContain('pods "p2" is forbidden: exceeded quota: compute, requested: limits.cpu=600m,pods=1, used: limits.cpu=600m,pods=1, limited: limits.cpu=1,pods=1');
    const table = await k.ok(['get', 'quota', 'compute', '-n', ns]);
    expect(table).toMatch(/^compute\s+\S+\s+pods: 1\/1, requests.memory: 256Mi\/1Gi\s+limits.cpu: 600m\/1\s*$/m);
  });
});

describe('quota across servers', () => {
  it('counts custom resources served by extensions', async () => {
    const ns = 'quota-crs';
    await admin.ok(['create', 'namespace', ns]);
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.quota.example.com' },
      spec: {
        group: 'quota.example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    await admin.ok(['apply', '-f', '-'], JSON.stringify(crd));
    expect(await until(async () => (await admin.k(['get', 'gadgets', '-n', ns])).code === 0, 60_000)).toBe(true);
    await admin.ok(['create', 'quota', 'q', '--hard=count/gadgets.quota.example.com=1', '-n', ns]);
    expect(await until(async () => (await used(admin, ns, 'q', 'count/gadgets.quota.example.com')) === '0', 60_000)).toBe(true);
    const gadget = (name: string): string => JSON.stringify({ apiVersion: 'quota.example.com/v1', kind: 'Gadget', metadata: { name } });
    await admin.ok(['apply', '-n', ns, '-f', '-'], gadget('g1'));
    const second = await admin.k(['apply', '-n', ns, '-f', '-'], gadget('g2'));
    expect(second.stderr).toContain('gadgets.quota.example.com "g2" is forbidden: exceeded quota: q, requested: count/gadgets.quota.example.com=1, used: count/gadgets.quota.example.com=1, limited: count/gadgets.quota.example.com=1');
    // The controller-manager's quota monitor watches gadgets: the delete releases usage at once, not at the 5-minute resync.
    await admin.ok(['delete', 'gadget', 'g1', '-n', ns]);
    expect(await until(async () => (await used(admin, ns, 'q', 'count/gadgets.quota.example.com')) === '0', 60_000)).toBe(true);
    await admin.ok(['apply', '-n', ns, '-f', '-'], gadget('g2'));
  });
});
