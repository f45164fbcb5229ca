import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { startTestAggregatedServer, testAggregatedServerManifests, type TestAggregatedServer } from '../support/test-aggregated.server';
import { until } from '../support/until';

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

describe.each(['1.27', '1.33'])('an aggregated server that serves only legacy discovery, with kubectl %s', (version) => {
  let stack: StackHarness;
  let wardle: TestAggregatedServer;
  const { k, ok } = kubectlSession(version, () => stack.kubeconfig);

  beforeAll(async () => {
    stack = await startStack();
    wardle = await startTestAggregatedServer(stack.pki);
    wardle.legacyDiscoveryOnly = true;
    const manifests = testAggregatedServerManifests(wardle);
    for (const m of manifests) await ok(['apply', '-f', '-'], JSON.stringify(m));
  });

  afterAll(async () => {
    await wardle?.stop();
    await stack?.stop();
  });

  it('appears in aggregated discovery with its converted resources, not Stale', async () => {
    const listed = await until(async () => {
      const r = await stack.request('GET', '/apis', { headers: { Accept: AGGREGATED } });
      const group = r.json<{ items: Array<{ metadata: { name: string }; versions: Array<{ version: string; freshness: string; resources: unknown[] }> }> }>().items.find((g) => g.metadata.name === 'wardle.test');
      return group?.versions[0]?.freshness === 'Current' && group.versions[0].resources.length > 0;
    }, 40_000);
    expect(listed).toBe(true);
    const r = await stack.request('GET', '/apis', { headers: { Accept: AGGREGATED } });
    const group = r.json<{ items: Array<{ metadata: { name: string }; versions: Array<Record<string, unknown>> }> }>().items.find((g) => g.metadata.name === 'wardle.test');
    // The conversion itself is legacy-discovery.converter.spec.ts's: here, that it reaches clients through the merger.
    const [v1] = group?.versions ?? [];
    expect(v1).toMatchObject({ version: 'v1', freshness: 'Current' });
    expect((v1.resources as Array<Record<string, unknown>>).map((r) => [r.resource, r.scope, (r.responseKind as { kind: string }).kind, r.shortNames, (r.subresources as Array<{ subresource: string }>).map((x) => x.subresource)])).toEqual([
      ['flunders', 'Namespaced', 'Flunder', ['fl'], ['status']],
    ]);
  }, 60_000);

  it('kubectl finds the kind, its short name and category, and lists through the aggregator', async () => {
    expect(await until(async () => /^flunders\s+fl\s+wardle\.test\/v1\s+true\s+Flunder$/m.test((await k(['api-resources', '--api-group=wardle.test'])).stdout), 40_000)).toBe(true);
    for (const what of ['flunders', 'flunder', 'fl', 'flunders.wardle.test', 'wardle']) {
      const out = await ok(['get', what, '-n', 'default']);
      expect(out, what).toMatch(/^echo\s/m);
    }
  }, 90_000);
});
