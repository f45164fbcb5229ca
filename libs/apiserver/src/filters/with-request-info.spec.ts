import { afterEach, describe, expect, it } from 'vitest';
import { serveFilters, type TestServer } from './filter.testing';

// serveFilters always puts withRequestInfo first: these requests see what it parsed.
describe('withRequestInfo', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('parses the verb, group, resource, namespace, name and subresource once', async () => {
    server = await serveFilters([]);
    const r = await server.request('PATCH', '/apis/apps/v1/namespaces/dev/deployments/web/scale?dryRun=All');
    expect(r.json()).toMatchObject({ longRunning: false, info: { isResourceRequest: true, verb: 'patch', group: 'apps', version: 'v1', namespace: 'dev', resource: 'deployments', name: 'web', subresource: 'scale', path: '/apis/apps/v1/namespaces/dev/deployments/web/scale' } });
  });

  it('marks watches and upgrades long-running, and non-resource paths as such', async () => {
    server = await serveFilters([]);
    expect((await server.request('GET', '/api/v1/pods?watch=1')).json()).toMatchObject({ longRunning: true, info: { verb: 'watch', resource: 'pods' } });
    expect((await server.request('GET', '/api/v1/watch/pods')).json()).toMatchObject({ longRunning: true, info: { verb: 'watch' } });
    expect((await server.request('GET', '/api/v1/namespaces/d/pods/p/exec', { Connection: 'Upgrade', Upgrade: 'SPDY/3.1' })).json()).toMatchObject({ longRunning: true });
    expect((await server.request('POST', '/metrics')).json()).toMatchObject({ longRunning: false, info: { isResourceRequest: false, verb: 'post', path: '/metrics' } });
  });
});
