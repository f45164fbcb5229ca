import { afterEach, describe, expect, it } from 'vitest';
import { requestTotal } from '../apiserver.metrics';
import { echo, serveFilters, type TestServer } from './filter.testing';
import { withMetrics } from './with-metrics';

async function count(labels: Record<string, string>): Promise<number> {
  const { values } = await requestTotal.get();
  return values.filter((v) => Object.entries(labels).every(([k, want]) => (v.labels as Record<string, unknown>)[k] === want)).reduce((sum, v) => sum + v.value, 0);
}

describe('withMetrics', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('counts API requests by kube\'s verb, resource, scope and code', async () => {
    server = await serveFilters([withMetrics], async (r) => {
      r.res.writeHead(201).end();
      return 201;
    });
    const before = await count({ resource: 'metricspecwidgets', verb: 'POST', code: '201', scope: 'namespace', dry_run: 'All' });
    await server.request('POST', '/apis/spec.test/v1/namespaces/a/metricspecwidgets?dryRun=All');
    expect(await count({ resource: 'metricspecwidgets', verb: 'POST', code: '201', scope: 'namespace', dry_run: 'All', group: 'spec.test', version: 'v1' })).toBe(before + 1);
  });

  it('leaves out plain paths and requests proxied to another server', async () => {
    server = await serveFilters([withMetrics], async (r) => {
      if (r.path.includes('proxied')) r.proxied = true;
      return echo(r);
    });
    const total = async (): Promise<number> => (await requestTotal.get()).values.reduce((s, v) => s + v.value, 0);
    const before = await total();
    await server.request('GET', '/healthz');
    await server.request('GET', '/api/v1/namespaces/a/proxiedthings');
    expect(await total()).toBe(before);
    await server.request('GET', '/api/v1/namespaces/a/localthings');
    expect(await total()).toBe(before + 1);
  });
});
