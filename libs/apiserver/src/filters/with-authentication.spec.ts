import { afterEach, describe, expect, it } from 'vitest';
import { Authenticator } from '../authentication';
import { StructuredAuthentication } from '../authentication/structured.authentication';
import { serveFilters, type TestServer } from './filter.testing';
import { withAuthentication } from './with-authentication';

describe('withAuthentication', () => {
  let server: TestServer;
  afterEach(() => server.close());
  const authenticator = new Authenticator({ tokens: new Map([['secret', { name: 'alice', groups: ['dev', 'system:authenticated'] }]]) });

  it('passes on who the authenticator says is asking', async () => {
    server = await serveFilters([withAuthentication(authenticator)]);
    expect((await server.request('GET', '/api/v1/pods', { Authorization: 'Bearer secret' })).json()).toMatchObject({ user: { name: 'alice', groups: ['dev', 'system:authenticated'] } });
  });

  it('answers 401 to unknown callers, but lets anonymous ones read health and version', async () => {
    server = await serveFilters([withAuthentication(authenticator)]);
    const refused = await server.request('GET', '/api/v1/pods', { Authorization: 'Bearer wrong' });
    expect(refused.status).toBe(401);
    expect(refused.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    expect((await server.request('GET', '/api/v1/pods')).status).toBe(401);
    expect((await server.request('GET', '/readyz')).json()).toMatchObject({ user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } });
    expect((await server.request('GET', '/version')).status).toBe(200);
  });

  it("follows the authentication configuration's anonymous section instead of the default", async () => {
    const config = (anonymous: string): StructuredAuthentication => StructuredAuthentication.fromText(`apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\n${anonymous}`);
    const some = config('anonymous:\n  enabled: true\n  conditions:\n  - path: /livez\n');
    server = await serveFilters([withAuthentication(new Authenticator({ structured: some }))]);
    expect((await server.request('GET', '/livez')).json()).toMatchObject({ user: { name: 'system:anonymous' } });
    expect((await server.request('GET', '/readyz')).status).toBe(401);
    // A bearer token that fails is 401 even where anonymous requests are allowed (kube's bearer-token authenticator).
    expect((await server.request('GET', '/livez', { Authorization: 'Bearer wrong' })).status).toBe(401);
    await server.close();
    server = await serveFilters([withAuthentication(new Authenticator({ structured: config('anonymous:\n  enabled: true\n') }))]);
    expect((await server.request('GET', '/api/v1/pods')).json()).toMatchObject({ user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } });
    await server.close();
    server = await serveFilters([withAuthentication(new Authenticator({ structured: config('anonymous:\n  enabled: false\n') }))]);
    expect((await server.request('GET', '/healthz')).status).toBe(401);
  });
});
