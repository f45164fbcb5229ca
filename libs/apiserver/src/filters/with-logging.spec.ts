import { afterEach, describe, expect, it } from 'vitest';
import { RequestLog } from '../logging/request.log';
import { serveFilters, type TestServer } from './filter.testing';
import { withLogging } from './with-logging';

describe('withLogging', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('writes one line per finished request with its code, user and latency', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = { log: (l: unknown) => lines.push(l as Record<string, unknown>), warn: (l: unknown) => lines.push(l as Record<string, unknown>), error: (l: unknown) => lines.push(l as Record<string, unknown>) };
    server = await serveFilters([withLogging(new RequestLog({ all: true, server: 'spec' }, sink))], async (r) => {
      r.user = { name: 'alice', groups: [] };
      r.res.writeHead(418).end();
      return 418;
    });
    await server.request('DELETE', '/api/v1/namespaces/x');
    expect(lines).toEqual([expect.objectContaining({ server: 'spec', verb: 'DELETE', uri: '/api/v1/namespaces/x', user: 'alice', code: 418 })]);
    expect(typeof lines[0].latencyMs).toBe('number');
  });

  it('logs a failed request as an error by default', async () => {
    const errors: unknown[] = [];
    const sink = { log: () => undefined, warn: () => undefined, error: (l: unknown) => errors.push(l) };
    server = await serveFilters([withLogging(new RequestLog({ server: 'spec' }, sink))], async (r) => {
      r.res.writeHead(503).end();
      return 503;
    });
    await server.request('GET', '/api/v1/pods');
    expect(errors).toEqual([expect.objectContaining({ msg: 'request failed', code: 503 })]);
  });
});
