import { afterEach, describe, expect, it } from 'vitest';
import { echo, serveFilters, type TestServer } from './filter.testing';
import { withMaxInFlight } from './with-max-in-flight';
import { withTimeout } from './with-timeout';

// serveFilters always puts withRequestInfo first: these requests see what it parsed.
describe('withRequestInfo', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('parses the verb, group, resource, namespace, name and subresource once', async () => {
    server = await serveFilters([]);
    const r = await server.request('PATCH', '/apis/apps/v1/namespaces/dev/deployments/web/scale?dryRun=All');
    expect(r.json()).toMatchObject({ longRunning: false, info: { isResourceRequest: true, verb: 'patch', group: 'apps', version: 'v1', namespace: 'dev', resource: 'deployments', name: 'web', subresource: 'scale', path: '/apis/apps/v1/namespaces/dev/deployments/web/scale' } });
  });

  it('marks long-running from the verb and subresource alone, as kube\'s BasicLongRunningRequestCheck', async () => {
    server = await serveFilters([]);
    expect((await server.request('GET', '/api/v1/pods?watch=1')).json()).toMatchObject({ longRunning: true, info: { verb: 'watch', resource: 'pods' } });
    expect((await server.request('GET', '/api/v1/watch/pods')).json()).toMatchObject({ longRunning: true, info: { verb: 'watch' } });
    for (const sub of ['exec', 'attach', 'portforward', 'proxy', 'log']) {
      expect((await server.request('POST', `/api/v1/namespaces/d/pods/p/${sub}`)).json(), sub).toMatchObject({ longRunning: true, info: { subresource: sub } });
    }
    expect((await server.request('GET', '/api/v1/namespaces/d/pods/p/exec', { Connection: 'Upgrade', Upgrade: 'SPDY/3.1' })).json()).toMatchObject({ longRunning: true });
    expect((await server.request('GET', '/api/v1/namespaces/d/pods/p/status')).json()).toMatchObject({ longRunning: false });
    expect((await server.request('POST', '/metrics')).json()).toMatchObject({ longRunning: false, info: { isResourceRequest: false, verb: 'post', path: '/metrics' } });
  });

  it('never from headers: an Upgrade header on an ordinary path leaves the request subject to every limit', async () => {
    server = await serveFilters([]);
    const upgrade = { Connection: 'Upgrade', Upgrade: 'websocket' };
    expect((await server.request('GET', '/api/v1', upgrade)).json()).toMatchObject({ longRunning: false });
    expect((await server.request('GET', '/api/v1/namespaces/d/configmaps', upgrade)).json()).toMatchObject({ longRunning: false, info: { verb: 'list' } });
    expect((await server.request('POST', '/api/v1/namespaces/d/configmaps', upgrade)).json()).toMatchObject({ longRunning: false, info: { verb: 'create' } });
  });
});

describe('an Upgrade header on an ordinary path, through the limits', () => {
  let server: TestServer;
  afterEach(() => server.close());
  const upgrade = { Connection: 'Upgrade', Upgrade: 'websocket' };

  it('times out (504) like any request', async () => {
    server = await serveFilters([withTimeout(50)], () => new Promise(() => undefined));
    const r = await server.request('GET', '/api/v1/namespaces/d/configmaps', upgrade);
    expect(r.status).toBe(504);
    expect(r.json()).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504 });
  });

  it('takes a max-in-flight seat: the next request over the budget gets 429', async () => {
    let release: () => void = () => undefined;
    server = await serveFilters([withMaxInFlight({ maxRequestsInFlight: 1 })], (r) => {
      if (r.path !== '/api/v1/namespaces/d/configmaps') return echo(r);
      return new Promise<number>((resolve) => (release = () => void echo(r).then(resolve)));
    });
    const held = server.request('GET', '/api/v1/namespaces/d/configmaps', upgrade);
    await new Promise((r) => setTimeout(r, 100));
    const refused = await server.request('GET', '/api/v1/namespaces/d/secrets', upgrade);
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429 });
    release();
    expect((await held).status).toBe(200);
  });
});
