import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '@kube/testing';
import type { AuditPolicy } from '../audit/audit.policy';
import { AuditLog } from '../logging/audit.log';
import { auditRequestsRejectedTotal } from '../audit/audit.metrics';
import { RecordingBackend } from '../audit/audit.testing';
import type { Filter, RequestHandler } from './api-request';
import { MemoryAudit, serveFilters, type TestServer } from './filter.testing';
import { withAudit, withFailedAuthenticationAudit } from './with-audit';
import { withRequestId } from './with-request-id';
import { chunkedSocket } from '../chunked.socket';

/** Authentication, as far as these specs need it: bob with a token, else 401. */
const asBob: Filter = (next) => async (r) => {
  if (!r.req.headers.authorization) {
    r.res.writeHead(401).end();
    return 401;
  }
  r.user = { name: 'bob', uid: 'u-1', groups: ['ops', 'system:authenticated'] };
  return next(r);
};

/** Reads the request body and answers it back as the created object, with managedFields, or a Status for "fail". */
const created: RequestHandler = async (r) => {
  const chunks: Buffer[] = [];
  for await (const c of r.req) chunks.push(c as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { metadata?: { name?: string } };
  if (body.metadata?.name === 'fail') {
    r.res.writeHead(409, { 'Content-Type': 'application/json' }).end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "fail" already exists', reason: 'AlreadyExists', details: { name: 'fail', kind: 'configmaps' }, code: 409 }));
    return 409;
  }
  r.res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ...body, metadata: { ...body.metadata, uid: 'x', managedFields: [{ manager: 'kubectl' }] } }));
  return 201;
};

const policy = (rules: AuditPolicy['rules'], extra: Partial<AuditPolicy> = {}): AuditPolicy => ({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules, ...extra });
const headers = { Authorization: 'Bearer x', 'Audit-ID': 'audit-1', 'User-Agent': 'kubectl/v1.33.0', 'Content-Type': 'application/json' };
const MICRO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

describe('withAudit', () => {
  let server: TestServer;
  afterEach(() => server.close());

  async function serve(audit: AuditLog, handler: RequestHandler = created): Promise<TestServer> {
    server = await serveFilters([withRequestId({ trusted: () => true }), withFailedAuthenticationAudit(audit), asBob, withAudit(audit)], handler);
    return server;
  }

  it("writes kube's audit.k8s.io/v1 Event at Metadata: who, what, the answer, and no bodies", async () => {
    const audit = new MemoryAudit(policy([{ level: 'Metadata' }]));
    await serve(audit);
    expect((await server.request('POST', '/api/v1/namespaces/a/configmaps', headers, JSON.stringify({ metadata: { name: 'c' }, data: { k: 'v' } }))).status).toBe(201);
    expect(audit.events.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    const e = audit.events[1];
    expect(Object.keys(JSON.parse(JSON.stringify(e)) as object)).toEqual(['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs', 'userAgent', 'objectRef', 'responseStatus', 'requestReceivedTimestamp', 'stageTimestamp']);
    expect(e).toMatchObject({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: 'audit-1', stage: 'ResponseComplete', requestURI: '/api/v1/namespaces/a/configmaps', verb: 'create', user: { username: 'bob', uid: 'u-1', groups: ['ops', 'system:authenticated'] }, sourceIPs: ['127.0.0.1'], userAgent: 'kubectl/v1.33.0', objectRef: { resource: 'configmaps', namespace: 'a', apiVersion: 'v1' }, responseStatus: { metadata: {}, code: 201 } });
    expect(e.requestObject).toBeUndefined();
    expect(e.responseObject).toBeUndefined();
    expect(e.requestReceivedTimestamp).toMatch(MICRO);
    expect(e.stageTimestamp).toMatch(MICRO);
    expect(e.requestReceivedTimestamp <= e.stageTimestamp).toBe(true);
    expect(audit.events[0].responseStatus).toBeUndefined();
  });

  it('records the bodies at RequestResponse, without managedFields when the rule omits them, and a failure as its Status', async () => {
    const audit = new MemoryAudit(policy([{ level: 'RequestResponse', omitManagedFields: true }], { omitStages: ['RequestReceived'] }));
    await serve(audit);
    await server.request('POST', '/api/v1/namespaces/a/configmaps', headers, JSON.stringify({ metadata: { name: 'c' }, data: { k: 'v' } }));
    await server.request('POST', '/api/v1/namespaces/a/configmaps', headers, JSON.stringify({ metadata: { name: 'fail' } }));
    expect(audit.events.map((e) => e.stage)).toEqual(['ResponseComplete', 'ResponseComplete']);
    expect(audit.events[0]).toMatchObject({ objectRef: { name: 'c' }, requestObject: { metadata: { name: 'c' }, data: { k: 'v' } }, responseObject: { metadata: { name: 'c', uid: 'x' }, data: { k: 'v' } } });
    expect((audit.events[0].responseObject as { metadata: Record<string, unknown> }).metadata.managedFields).toBeUndefined();
    expect(audit.events[1].responseStatus).toEqual({ metadata: {}, status: 'Failure', message: 'configmaps "fail" already exists', reason: 'AlreadyExists', details: { name: 'fail', kind: 'configmaps' }, code: 409 });
  });

  it('keeps the Status of a failure at Metadata too, but never its body', async () => {
    const audit = new MemoryAudit(policy([{ level: 'Metadata' }], { omitStages: ['RequestReceived'] }));
    await serve(audit);
    await server.request('POST', '/api/v1/namespaces/a/configmaps', headers, JSON.stringify({ metadata: { name: 'fail' } }));
    expect(audit.events[0].responseStatus).toMatchObject({ status: 'Failure', reason: 'AlreadyExists', code: 409 });
    expect(audit.events[0].responseObject).toBeUndefined();
  });

  it("never records a secret's request body below RequestResponse, while a configmap's is at Request", async () => {
    const audit = new MemoryAudit(policy([{ level: 'Request' }], { omitStages: ['RequestReceived'] }));
    await serve(audit);
    await server.request('POST', '/api/v1/namespaces/a/secrets', headers, JSON.stringify({ metadata: { name: 's' }, stringData: { password: 'hunter2' } }));
    await server.request('POST', '/api/v1/namespaces/a/configmaps', headers, JSON.stringify({ metadata: { name: 'c' } }));
    expect(JSON.stringify(audit.events[0])).not.toContain('hunter2');
    expect(audit.events[0]).toMatchObject({ level: 'Request', objectRef: { resource: 'secrets' } });
    expect(audit.events[1]).toMatchObject({ level: 'Request', requestObject: { metadata: { name: 'c' } } });
    expect(audit.events[1].responseObject).toBeUndefined();
  });

  it('writes nothing for a request at None, and ResponseStarted for a watch', async () => {
    const audit = new MemoryAudit(policy([{ level: 'None', resources: [{ resources: ['configmaps'] }] }, { level: 'Metadata' }], { omitStages: ['RequestReceived'] }));
    await serve(audit, async (r) => {
      r.res.writeHead(200, { 'Content-Type': 'application/json' });
      r.res.end('{}');
      return 200;
    });
    await server.request('GET', '/api/v1/namespaces/a/configmaps', headers);
    expect(audit.events).toEqual([]);
    await server.request('GET', '/api/v1/namespaces/a/secrets?watch=true', headers);
    expect(audit.events.map((e) => [e.stage, e.verb, e.responseStatus?.code])).toEqual([
      ['ResponseStarted', 'watch', 200],
      ['ResponseComplete', 'watch', 200],
    ]);
  });

  it('leaves a watch that started well with unwrapped writes (its events may go straight to the socket), and still copies a failed one', async () => {
    const audit = new MemoryAudit(policy([{ level: 'RequestResponse' }]));
    const relayable: boolean[] = [];
    await serve(audit, async (r) => {
      const failed = r.query.get('fail') === 'true';
      r.res.writeHead(failed ? 500 : 200, { 'Content-Type': 'application/json' });
      r.res.flushHeaders();
      relayable.push(chunkedSocket(r.res) !== undefined);
      r.res.end(failed ? JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'boom', reason: 'InternalError', code: 500 }) : '{"type":"ADDED","object":{}}\n');
      return failed ? 500 : 200;
    });
    await server.request('GET', '/api/v1/namespaces/a/configmaps?watch=true', headers);
    await server.request('GET', '/api/v1/namespaces/a/configmaps?watch=true&fail=true', headers);
    expect(relayable).toEqual([true, false]);
    const complete = audit.events.filter((e) => e.stage === 'ResponseComplete');
    expect(complete.map((e) => e.responseStatus?.code)).toEqual([200, 500]);
    expect(complete[1].responseStatus).toMatchObject({ message: 'boom', reason: 'InternalError' });
  });

  it('audits a request refused by authentication, without a user', async () => {
    const audit = new MemoryAudit(policy([{ level: 'Metadata' }]));
    await serve(audit);
    await server.request('GET', '/api/v1/pods', { 'Audit-ID': 'nobody' });
    expect(audit.events).toEqual([expect.objectContaining({ stage: 'ResponseStarted', auditID: 'nobody', user: {}, responseStatus: expect.objectContaining({ code: 401 }) })]);
  });

  it('writes JSON lines to its file, one event per finished request without a policy', async () => {
    const path = join(tempDir('with-audit'), 'audit.log');
    const audit = new AuditLog(path);
    await serve(audit);
    await server.request('PUT', '/api/v1/namespaces/a/configmaps/c', headers, '{}');
    audit.close();
    const lines = (): Array<Record<string, unknown>> => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : []);
    for (let i = 0; i < 100 && lines().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines()).toEqual([expect.objectContaining({ kind: 'Event', level: 'Metadata', stage: 'ResponseComplete', auditID: 'audit-1', verb: 'update', objectRef: { resource: 'configmaps', namespace: 'a', name: 'c', apiVersion: 'v1' } })]);
  });

  it('blocking-strict: a request whose RequestReceived event the backend failed is refused with a 500 Status and counted', async () => {
    const backend = new RecordingBackend(false, 10);
    await serve(new AuditLog(backend, policy([{ level: 'Metadata' }])));
    const before = (await auditRequestsRejectedTotal.get()).values[0]?.value ?? 0;
    const r = await server.request('POST', '/api/v1/namespaces/a/configmaps', headers, JSON.stringify({ metadata: { name: 'c' } }));
    expect(r.status).toBe(500);
    expect(JSON.parse(r.body)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'InternalError', code: 500, message: 'Internal Server Error: "/api/v1/namespaces/a/configmaps": failed to store audit event' });
    expect(backend.batches.map((b) => b[0].stage)).toEqual(['RequestReceived']);
    expect(((await auditRequestsRejectedTotal.get()).values[0]?.value ?? 0) - before).toBe(1);
  });

  it('blocking: the request waits for each stage the backend handles and is served', async () => {
    const backend = new RecordingBackend(true, 10);
    await serve(new AuditLog(backend, policy([{ level: 'Metadata' }])));
    expect((await server.request('POST', '/api/v1/namespaces/a/configmaps', headers, JSON.stringify({ metadata: { name: 'c' } }))).status).toBe(201);
    expect(backend.batches.map((b) => b[0].stage)).toEqual(['RequestReceived', 'ResponseComplete']);
  });

  it('is not in the chain at all without an audit log', () => {
    const next = async (): Promise<number> => 200;
    expect(withAudit(undefined)(next)).toBe(next);
    expect(withAudit(new AuditLog(undefined))(next)).toBe(next);
    expect(withFailedAuthenticationAudit(undefined)(next)).toBe(next);
  });
});
