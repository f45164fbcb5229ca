import type { INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountsApiServerModule } from '../../apps/counts-apiserver/src/counts-apiserver.module';
import { bootAggregatedServer } from '../support/aggregated-server.boot';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

describe.each(['1.27', '1.33'])('the computed counts-apiserver through the aggregator with kubectl %s', (version) => {
  let stack: StackHarness;
  let counts: INestApplicationContext;
  const { k, ok } = kubectlSession(version, () => stack.kubeconfig);
  const configmaps = async (ns: string): Promise<number> => JSON.parse(await ok(['get', 'objectcount', ns, '-o', 'json'])).counts.configmaps;

  beforeAll(async () => {
    // Exact counts: no controller-manager adding kube-root-ca.crt and the default ServiceAccount to each namespace.
    stack = await startStack({ controllerManager: false });
    counts = await bootAggregatedServer(stack, {
      component: 'counts-apiserver',
      serviceDnsName: 'counts-apiserver.kube-system.svc',
      module: (options) => CountsApiServerModule.forRoot({ ...options, coreApi: options.admin }),
    });
  });

  afterAll(async () => {
    await counts?.close();
    await stack?.stop();
  });

  it('registers v1alpha1.counts.example.com and serves a read-only resource', async () => {
    expect(await until(async () => /\bTrue\b/.test((await k(['get', 'apiservice', 'v1alpha1.counts.example.com'])).stdout))).toBe(true);
    const resources = await ok(['api-resources', '--api-group=counts.example.com', '-o', 'wide']);
    expect(resources).toMatch(/^objectcounts\s+counts\.example\.com\/v1alpha1\s+false\s+ObjectCount\s+(get,list|\[get list\])\s*$/m);
  });

  it('answers with live numbers that follow writes to the core API', async () => {
    await ok(['create', 'namespace', 'counted']);
    expect(await configmaps('counted')).toBe(0);
    for (const name of ['one', 'two', 'three']) await ok(['create', 'configmap', name, '-n', 'counted', `--from-literal=k=${name}`]);
    expect(await configmaps('counted')).toBe(3);
    await ok(['delete', 'configmap', 'two', '-n', 'counted']);
    expect(await configmaps('counted')).toBe(2);
    const table = await ok(['get', 'objectcounts', 'counted']);
    expect(table).toMatch(/^NAME\s+CONFIGMAPS\s+SECRETS\s+SERVICES\s+TOTAL\s+AGE$/m);
    expect(table).toMatch(/^counted\s+2\s+0\s+0\s+2\s+\d+s$/m);
    const wide = await ok(['get', 'objectcounts', 'counted', '-o', 'wide']);
    expect(wide).toMatch(/^NAME\s+CONFIGMAPS\s+SECRETS\s+SERVICEACCOUNTS\s+SERVICES\s+PODS\s+TOTAL\s+AGE$/m);
  });

  it('lists every namespace and filters by the namespace labels', async () => {
    const names = (await ok(['get', 'objectcounts', '-o', 'name'])).trim().split('\n');
    expect(names).toEqual(expect.arrayContaining(['objectcount.counts.example.com/counted', 'objectcount.counts.example.com/default', 'objectcount.counts.example.com/kube-system']));
    await ok(['label', 'namespace', 'counted', 'team=blue']);
    expect((await ok(['get', 'objectcounts', '-l', 'team=blue', '-o', 'name'])).trim()).toBe('objectcount.counts.example.com/counted');
  });

  it('refuses writes with 405 and answers 404 for a missing namespace', async () => {
    const missing = await k(['get', 'objectcount', 'no-such-namespace']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('Error from server (NotFound): objectcounts.counts.example.com "no-such-namespace" not found');
    const write = await k(['create', '-f', '-'], JSON.stringify({ apiVersion: 'counts.example.com/v1alpha1', kind: 'ObjectCount', metadata: { name: 'x' } }));
    expect(write.code).not.toBe(0);
    expect(write.stderr).toMatch(/MethodNotAllowed|method not allowed|not supported/i);
    const explain = await ok(['explain', 'objectcounts.counts']);
    expect(explain).toContain('Objects in the namespace, by resource');
  });
});
