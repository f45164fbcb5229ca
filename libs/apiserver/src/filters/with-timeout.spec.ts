import { afterEach, describe, expect, it } from 'vitest';
import { serveFilters, type TestServer } from './filter.testing';
import { withTimeout } from './with-timeout';

describe('withTimeout', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('answers 504 Timeout when a request does not finish in time, but leaves watches alone', async () => {
    let release: () => void = () => undefined;
    server = await serveFilters([withTimeout(50)], (r) => {
      if (r.longRunning) {
        // A watch answers only after the timeout has long passed.
        return new Promise((resolve) => {
          release = () => {
            r.res.writeHead(200).end('watched');
            resolve(200);
          };
        });
      }
      return new Promise(() => undefined);
    });
    const r = await server.request('GET', '/api/v1/pods');
    expect(r.status).toBe(504);
    expect(r.json()).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504, message: 'Timeout: request did not complete within requested timeout - context deadline exceeded' });
    const watch = server.request('GET', '/api/v1/pods?watch=true');
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    expect((await watch).body).toBe('watched');
  });
});
