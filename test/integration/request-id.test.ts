/**
 * One request id across the proxy: the front door's Audit-Id response header, its request line, the id the
 * backend receives and echoes, and the backend's own request line are the same; a client's well-formed
 * Audit-ID is kept, as kube-apiserver keeps it.
 */
import { Logger } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonLogger } from '@kube/apiserver';
import { startStack, type StackHarness } from '@test/support';

describe('request ids across the aggregator', () => {
  let stack: StackHarness;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    stack = await startStack({ requestLog: { all: true } });
    // Everything Nest logs in this process, as JSON lines, as `npm start` writes them.
    Logger.overrideLogger(new JsonLogger('test', ['log', 'warn', 'error'], { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) }));
  });

  afterAll(async () => {
    Logger.overrideLogger(['error', 'warn']);
    await stack?.stop();
  });

  const requestLines = (id: string): Array<Record<string, unknown>> => lines.filter((l) => l.context === 'Request' && l.requestId === id);

  it('names a proxied request by one id in the response, the aggregator and the backend', async () => {
    const r = await stack.request('GET', '/api/v1/namespaces/default');
    expect(r.status).toBe(200);
    const id = r.headers['audit-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const seen = requestLines(id);
    expect(seen.map((l) => l.server).sort()).toEqual(['aggregator', 'core-api']);
    for (const line of seen) expect(line).toMatchObject({ level: 'info', msg: 'request', uri: '/api/v1/namespaces/default', code: 200, user: 'kubernetes-admin' });
  });

  it('keeps the Audit-ID a client sends, and replaces a malformed one', async () => {
    const kept = await stack.request('GET', '/api/v1/namespaces', { headers: { 'Audit-ID': 'client-chosen-42' } });
    expect(kept.headers['audit-id']).toBe('client-chosen-42');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestLines('client-chosen-42').map((l) => l.server).sort()).toEqual(['aggregator', 'core-api']);
    const replaced = await stack.request('GET', '/api/v1/namespaces', { headers: { 'Audit-ID': 'not valid; id' } });
    expect(replaced.headers['audit-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs a failure (an unavailable APIService answers 503) with the id the client saw', async () => {
    const apiService = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1.gone.example.com' }, spec: { group: 'gone.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 15, service: { namespace: 'default', name: 'missing' }, insecureSkipTLSVerify: true } };
    expect((await stack.request('POST', '/apis/apiregistration.k8s.io/v1/apiservices', { body: JSON.stringify(apiService) })).status).toBe(201);
    let r = await stack.request('GET', '/apis/gone.example.com/v1/things');
    for (let i = 0; i < 50 && r.status !== 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      r = await stack.request('GET', '/apis/gone.example.com/v1/things');
    }
    expect(r.status).toBe(503);
    expect(requestLines(r.headers['audit-id'] as string)).toEqual([expect.objectContaining({ level: 'error', msg: 'request failed', server: 'aggregator', code: 503 })]);
  });
});
