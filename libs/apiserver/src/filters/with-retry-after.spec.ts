import { afterEach, describe, expect, it } from 'vitest';
import { serveFilters, type TestServer } from './filter.testing';
import { withRetryAfter } from './with-retry-after';

describe('withRetryAfter', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('serves everything until shutdown, then answers 429 with Retry-After and Connection: close, except probes', async () => {
    let stopping = false;
    server = await serveFilters([withRetryAfter(() => stopping)]);
    expect((await server.request('GET', '/api/v1/pods')).status).toBe(200);
    stopping = true;
    const refused = await server.request('GET', '/api/v1/pods');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers.connection).toBe('close');
    expect(refused.json()).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', message: 'The apiserver is shutting down, please try again later.' });
    expect((await server.request('GET', '/readyz')).status).toBe(200);
    expect((await server.request('GET', '/livez/ping')).status).toBe(200);
  });
});
