import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '@kube/testing';
import { AuditLog } from '../logging/audit.log';
import { serveFilters, type TestServer } from './filter.testing';
import { withAudit } from './with-audit';
import { withRequestId } from './with-request-id';

describe('withAudit', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('writes one audit event per finished request with who asked and the answer', async () => {
    const path = join(tempDir('with-audit'), 'audit.log');
    const audit = new AuditLog(path);
    server = await serveFilters([withRequestId({ trusted: () => true }), withAudit(audit)], async (r) => {
      r.user = { name: 'bob', groups: ['ops'] };
      r.res.writeHead(403).end();
      return 403;
    });
    await server.request('PUT', '/api/v1/namespaces/a/configmaps/c', { 'Audit-ID': 'audited-1' });
    audit.close();
    const lines = async (): Promise<Array<Record<string, unknown>>> => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : []);
    for (let i = 0; i < 100 && (await lines()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await lines()).toEqual([expect.objectContaining({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', stage: 'ResponseComplete', requestId: 'audited-1', user: 'bob', groups: ['ops'], verb: 'PUT', uri: '/api/v1/namespaces/a/configmaps/c', code: 403 })]);
  });

  it('is not in the chain at all without an audit log', () => {
    const next = async (): Promise<number> => 200;
    expect(withAudit(undefined)(next)).toBe(next);
    expect(withAudit(new AuditLog(undefined))(next)).toBe(next);
  });
});
