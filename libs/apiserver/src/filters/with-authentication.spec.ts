import { afterEach, describe, expect, it } from 'vitest';
import { Authenticator } from '../authentication';
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
});
