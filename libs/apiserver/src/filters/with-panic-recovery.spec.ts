import { afterEach, describe, expect, it } from 'vitest';
import { Errors } from '@kube/apimachinery';
import { serveFilters, type TestServer } from './filter.testing';
import { withPanicRecovery } from './with-panic-recovery';

describe('withPanicRecovery', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('answers a handler that throws with a 500 Status, and keeps serving', async () => {
    server = await serveFilters([withPanicRecovery], async () => {
      throw new Error('boom');
    });
    const r = await server.request('GET', '/api/v1/pods');
    expect(r.status).toBe(500);
    expect(r.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'InternalError', message: 'Internal error occurred: boom', code: 500 });
    expect((await server.request('GET', '/api/v1/pods')).status).toBe(500);
  });

  it('answers a thrown StatusError with its own code', async () => {
    server = await serveFilters([withPanicRecovery], async () => {
      throw Errors.notFound({ group: '', resource: 'pods' }, 'p');
    });
    const r = await server.request('GET', '/api/v1/namespaces/x/pods/p');
    expect(r.status).toBe(404);
    expect(r.json()).toMatchObject({ reason: 'NotFound', message: 'pods "p" not found' });
  });

  it('cuts a response that had already started instead of appending a Status to it', async () => {
    server = await serveFilters([withPanicRecovery], async (r) => {
      r.res.writeHead(200, { 'Content-Type': 'application/json' });
      r.res.write('{"partial":');
      throw new Error('midway');
    });
    await expect(server.request('GET', '/api/v1/pods')).rejects.toThrow();
  });
});
