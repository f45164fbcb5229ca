/**
 * One request id across the proxy: the front door's Audit-Id response header, its audit line, its request line,
 * the id the backend receives and echoes, and the backend's own request line are the same; a client's
 * well-formed Audit-ID is kept, as kube-apiserver keeps it, while a backend takes an id only from the front proxy.
 */
import { existsSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonLogger } from '@kube/apiserver';
import { tempDir } from '@kube/testing';
import { startStack, type StackHarness } from '@test/support';

/** A GET to core-api over the front-proxy client certificate, as the aggregator sends it; resolves the Audit-Id answered. */
function viaFrontProxy(stack: StackHarness, path: string, headers: Record<string, string>): Promise<string | undefined> {
  const url = new URL(stack.core.url);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: url.hostname, port: url.port, path, method: 'GET', ca: readFileSync(stack.pki.caCert), cert: readFileSync(stack.pki.frontProxyClientCert), key: readFileSync(stack.pki.frontProxyClientKey), headers: { 'X-Remote-User': 'kubernetes-admin', 'X-Remote-Group': 'system:masters', ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(res.headers['audit-id'] as string | undefined) : reject(new Error(`status ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('request ids across the aggregator', () => {
  let stack: StackHarness;
  const lines: Array<Record<string, unknown>> = [];
  const auditLogPath = join(tempDir('request-id'), 'audit.log');
  const auditLines = (id: string): Array<Record<string, unknown>> =>
    existsSync(auditLogPath) ? readFileSync(auditLogPath, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.auditID === id) : [];

  beforeAll(async () => {
    stack = await startStack({ requestLog: { all: true }, auditLogPath });
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
    // The audit line (written by a file stream: give it a moment) names the request by the same id.
    for (let i = 0; i < 50 && auditLines(id).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(auditLines(id)).toEqual([expect.objectContaining({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', auditID: id, user: expect.objectContaining({ username: 'kubernetes-admin' }), requestURI: '/api/v1/namespaces/default', responseStatus: { metadata: {}, code: 200 } })]);
  });

  it('has a backend echo the id of the front proxy only, not of any other caller', async () => {
    expect(await viaFrontProxy(stack, '/api/v1/namespaces/default', { 'Audit-ID': 'from-the-proxy-7' })).toBe('from-the-proxy-7');
    const direct = await stack.core.request('GET', '/api/v1/namespaces/default', { headers: { 'Audit-ID': 'made-up-by-a-client' } });
    expect(direct.status).toBe(200);
    expect(direct.headers['audit-id']).toMatch(/^[0-9a-f-]{36}$/);
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
