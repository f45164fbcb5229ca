import { afterEach, describe, expect, it } from 'vitest';
import { echo, serveFilters, type TestServer } from './filter.testing';
import { withMaxInFlight } from './with-max-in-flight';

describe('withMaxInFlight', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('answers 429 with Retry-After past each budget, counting reads and writes apart, and never watches', async () => {
    const held: Array<() => void> = [];
    server = await serveFilters([withMaxInFlight({ maxRequestsInFlight: 1, maxMutatingRequestsInFlight: 1 })], (r) =>
      r.query.has('hold') ? new Promise((resolve) => held.push(() => void echo(r).then(resolve))) : echo(r),
    );
    const slowRead = server.request('GET', '/api/v1/pods?hold');
    const slowWrite = server.request('POST', '/api/v1/namespaces/a/pods?hold');
    while (held.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const read = await server.request('GET', '/api/v1/namespaces');
    expect(read.status).toBe(429);
    expect(read.headers['retry-after']).toBe('1');
    expect(read.json()).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429 });
    expect((await server.request('DELETE', '/api/v1/namespaces/a')).status).toBe(429);
    expect((await server.request('GET', '/api/v1/pods?watch=true')).status).toBe(200);
    for (const release of held) release();
    expect((await slowRead).status).toBe(200);
    expect((await slowWrite).status).toBe(200);
    // The budgets are free again.
    expect((await server.request('GET', '/api/v1/namespaces')).status).toBe(200);
    expect((await server.request('DELETE', '/api/v1/namespaces/a')).status).toBe(200);
  });
});
