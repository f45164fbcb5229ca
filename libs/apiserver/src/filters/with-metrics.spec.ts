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
      r.resolved = true;
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

  it('keeps labels bounded: unknown resources are "other", verbs and dryRun values normalised as kube does', async () => {
    server = await serveFilters([withMetrics], async (r) => {
      // Only /apis/spec.test/v1/…/gadgets is "installed"; everything else is a 404 of an unknown path.
      r.resolved = r.info.resource === 'gadgets';
      const code = r.resolved ? 200 : 404;
      r.res.writeHead(code).end();
      return code;
    });
    const series = async (): Promise<number> => (await requestTotal.get()).values.length;
    await server.request('GET', '/apis/spec.test/v1/namespaces/a/gadgets');
    await server.request('GET', '/apis/spec.test/v1/namespaces/a/unknown-0/sub-0?dryRun=x0');
    await server.request('PROPFIND', '/api/v1/namespaces/a/unknown-0');
    const before = await series();
    for (let i = 1; i <= 50; i++) {
      await server.request('GET', `/apis/random-${i}.example/v${i}/namespaces/a/unknown-${i}/sub-${i}?dryRun=x${i}`);
      await server.request('PROPFIND', `/api/v1/namespaces/a/unknown-${i}`);
      await server.request('GET', `/apis/random-${i}.example`);
    }
    expect(await series()).toBe(before + 1); // the group-discovery-like path, counted once as a non-resource request
    expect(await count({ resource: 'other', group: '', version: '', subresource: '', dry_run: 'invalid', verb: 'GET', code: '404' })).toBeGreaterThanOrEqual(50);
    expect(await count({ resource: 'other', verb: 'other', code: '404' })).toBeGreaterThanOrEqual(50);
    expect(await count({ resource: 'gadgets', group: 'spec.test', version: 'v1', verb: 'LIST', code: '200' })).toBeGreaterThanOrEqual(1);
  });

  it('reports apply patches as APPLY', async () => {
    server = await serveFilters([withMetrics], async (r) => {
      r.resolved = true;
      r.res.writeHead(200).end();
      return 200;
    });
    const before = await count({ resource: 'applied', verb: 'APPLY' });
    await server.request('PATCH', '/api/v1/namespaces/a/applied/x', { 'Content-Type': 'application/apply-patch+yaml' });
    expect(await count({ resource: 'applied', verb: 'APPLY' })).toBe(before + 1);
  });
});
