import { afterEach, describe, expect, it } from 'vitest';
import { serveFilters, type TestServer } from './filter.testing';
import { withRequestId } from './with-request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('withRequestId', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('keeps a trusted caller\'s Audit-ID and forwards it in the request headers', async () => {
    server = await serveFilters([withRequestId({ trusted: () => true, forward: true })]);
    const r = await server.request('GET', '/version', { 'Audit-ID': 'session-7' });
    expect(r.headers['audit-id']).toBe('session-7');
    expect(r.json()).toMatchObject({ requestId: 'session-7', headers: { 'audit-id': 'session-7', 'x-request-id': 'session-7' } });
  });

  it('gives an untrusted caller a new id and forwards nothing unless asked', async () => {
    server = await serveFilters([withRequestId({ trusted: () => false })]);
    const r = await server.request('GET', '/version', { 'X-Request-Id': 'made-up' });
    expect(r.headers['audit-id']).toMatch(UUID);
    expect(r.json<{ requestId: string; headers: Record<string, string> }>()).toMatchObject({ requestId: r.headers['audit-id'], headers: { 'x-request-id': 'made-up' } });
  });
});
