/**
 * kube's audit policy at the front door, with kubectl 1.33: a Metadata rule writes a secret's create without
 * any body, a RequestResponse rule writes a configmap's request and response, a None rule drops a path.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAuditPolicy } from '@kube/apiserver';
import { tempDir } from '@kube/testing';
import { kubectlSession, startStack, userKubeconfig, type StackHarness } from '@test/support';

const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: None
  nonResourceURLs: ["/readyz*", "/livez*"]
- level: RequestResponse
  omitManagedFields: true
  resources:
  - group: ""
    resources: ["configmaps"]
- level: Metadata
`;

interface Line {
  auditID: string;
  level: string;
  stage: string;
  verb: string;
  requestURI: string;
  user: { username?: string };
  objectRef?: Record<string, string>;
  responseStatus?: { code: number };
  requestObject?: { metadata?: Record<string, unknown>; data?: Record<string, string> };
  responseObject?: { metadata?: Record<string, unknown>; data?: Record<string, string> };
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

describe('audit policy through the front door (kubectl 1.33)', () => {
  let stack: StackHarness;
  const auditLogPath = join(tempDir('audit-policy'), 'audit.log');
  const { ok } = kubectlSession('1.33', () => stack.kubeconfig);
  const text = (): string => (existsSync(auditLogPath) ? readFileSync(auditLogPath, 'utf8') : '');
  const lines = (): Line[] => text().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
  /** Audit lines are written by a file stream: wait (generously) for the one that should be there. */
  async function eventually(match: (l: Line) => boolean): Promise<Line> {
    for (let i = 0; i < 500; i++) {
      const found = lines().find(match);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no such audit event in:\n${text()}`);
  }

  beforeAll(async () => {
    stack = await startStack({ auditLogPath, auditPolicy: parseAuditPolicy(POLICY) });
    await ok(['create', 'namespace', 'audited']);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("writes a secret's create at Metadata, with no request or response body", async () => {
    await ok(['create', 'secret', 'generic', 'creds', '-n', 'audited', '--from-literal=password=hunter2-audit']);
    const created = await eventually((l) => l.verb === 'create' && l.objectRef?.resource === 'secrets');
    expect(created).toMatchObject({ level: 'Metadata', stage: 'ResponseComplete', requestURI: '/api/v1/namespaces/audited/secrets?fieldManager=kubectl-create&fieldValidation=Strict', user: { username: 'kubernetes-admin' }, objectRef: { resource: 'secrets', namespace: 'audited', apiVersion: 'v1' }, responseStatus: { code: 201 } });
    expect(created.requestObject).toBeUndefined();
    expect(created.responseObject).toBeUndefined();
    expect(created.stageTimestamp).toMatch(/\.\d{6}Z$/);
    await ok(['get', 'secret', 'creds', '-n', 'audited', '-o', 'json']);
    await eventually((l) => l.verb === 'get' && l.objectRef?.name === 'creds');
    // Neither the create nor the get wrote the secret's value, in plain text or base64.
    expect(text()).not.toContain('hunter2-audit');
    expect(text()).not.toContain(Buffer.from('hunter2-audit').toString('base64'));
  });

  it("writes a configmap's request and response bodies at RequestResponse, without managedFields", async () => {
    await ok(['create', 'configmap', 'settings', '-n', 'audited', '--from-literal=mode=loud']);
    const created = await eventually((l) => l.verb === 'create' && l.objectRef?.resource === 'configmaps' && l.objectRef?.name === 'settings');
    expect(created).toMatchObject({ level: 'RequestResponse', objectRef: { resource: 'configmaps', namespace: 'audited', name: 'settings' }, requestObject: { metadata: { name: 'settings' }, data: { mode: 'loud' } }, responseObject: { metadata: { name: 'settings', namespace: 'audited' }, data: { mode: 'loud' } }, responseStatus: { code: 201 } });
    expect(created.responseObject?.metadata?.uid).toEqual(expect.any(String));
    expect(created.responseObject?.metadata?.managedFields).toBeUndefined();
  });

  it("annotates events with the authorization decision and RBAC's reason, as kube's WithAuthorization does", async () => {
    await ok(['create', 'rolebinding', 'erin-view', '--clusterrole=view', '--user=erin', '-n', 'audited']);
    const kc = await userKubeconfig(stack, 'erin');
    const erin = kubectlSession('1.33', () => kc);
    await erin.ok(['get', 'configmaps', '-n', 'audited']);
    const allowed = await eventually((l) => l.user.username === 'erin' && l.verb === 'list' && l.stage === 'ResponseComplete');
    expect(allowed.annotations).toEqual({
      'authorization.k8s.io/decision': 'allow',
      'authorization.k8s.io/reason': 'RBAC: allowed by RoleBinding "erin-view/audited" of ClusterRole "view" to User "erin"',
    });
    expect((await erin.k(['get', 'secrets', '-n', 'audited'])).code).toBe(1);
    const refused = await eventually((l) => l.user.username === 'erin' && l.objectRef?.resource === 'secrets');
    expect(refused).toMatchObject({ responseStatus: { code: 403 }, annotations: { 'authorization.k8s.io/decision': 'forbid', 'authorization.k8s.io/reason': '' } });
  });

  it('drops a path a None rule names, and audits the rest', async () => {
    expect((await stack.request('GET', '/readyz')).status).toBe(200);
    expect((await stack.request('GET', '/version')).status).toBe(200);
    await eventually((l) => l.requestURI === '/version');
    expect(lines().filter((l) => l.requestURI.startsWith('/readyz'))).toEqual([]);
  });
});
