import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate, loadCertificateAuthority } from '@kube/pki';
import { startStack, type StackHarness } from '../support/core-api.harness';

/**
 * Issue 26 item 2: reaching a backend's port gives nothing by itself. Every credential a deployment hands out
 * (a ServiceAccount token, an aggregated server's client certificate, nothing at all) is tried straight
 * against core-api and extensions, bypassing the front door: each server authorizes every request itself, with
 * the same RBAC as the front door and kube's 403 Status.
 */
interface Reply {
  status: number;
  body: string;
}

interface Caller {
  /** The CA the servers' certificates are checked against (default: the main stack's). */
  ca?: Buffer;
  cert?: string;
  key?: string;
  headers?: Record<string, string>;
}

let stack: StackHarness;
let ca: Buffer;
const NS = 'backend-authz';
let saToken = '';
let aggregatedServer: Caller = {};
let admin: Caller = {};
let frontProxy: Caller = {};

function call(url: string, method: string, path: string, who: Caller, body?: string): Promise<Reply> {
  const { hostname, port } = new URL(url);
  const headers: Record<string, string> = { Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } : {}), ...who.headers };
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: hostname, port, path, method, ca: who.ca ?? ca, cert: who.cert, key: who.key, agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const bearer = (token: string): Caller => ({ headers: { Authorization: `Bearer ${token}` } });
const SA_USER = `system:serviceaccount:${NS}:robot`;
const AGG_USER = 'system:kube-ts:sample-apiserver';
const SECRETS = '/api/v1/namespaces/kube-system/secrets';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CONFIGMAP = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'planted' }, data: { a: '1' } });

/** kube's responsewriters.Forbidden text, JSON-escaped as it appears in the Status body. */
function forbidden(user: string, verb: string, resource: string, group: string, where: string): string {
  const gr = group ? `${resource}.${group}` : resource;
  return JSON.stringify(`${gr} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${group}" ${where}`).slice(1, -1);
}

function expectForbidden(r: Reply, message: string): void {
  expect(r.status, r.body).toBe(403);
  expect(JSON.parse(r.body)).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403 });
  expect(r.body).toContain(message);
}

beforeAll(async () => {
  stack = await startStack({ controllerManager: false });
  ca = readFileSync(stack.pki.caCert);
  admin = { cert: readFileSync(stack.pki.adminCert, 'utf8'), key: readFileSync(stack.pki.adminKey, 'utf8') };
  frontProxy = { cert: readFileSync(stack.pki.frontProxyClientCert, 'utf8'), key: readFileSync(stack.pki.frontProxyClientKey, 'utf8') };
  // An aggregated server's own identity, as scripts/local-aggregated-servers.ts issues it from the cluster CA.
  const clusterCA = await loadCertificateAuthority(stack.pki.caCert, stack.pki.caKey);
  const issued = await issueCertificate(clusterCA, { commonName: AGG_USER, usage: 'client' });
  aggregatedServer = { cert: issued.certPem, key: issued.keyPem };
  // A ServiceAccount with no rights and its token (TokenRequest), as any pod of the cluster holds one.
  expect((await stack.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }) })).status).toBe(201);
  expect((await stack.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } }) })).status).toBe(201);
  const tr = await stack.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts/robot/token`, { body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }) });
  expect(tr.status, tr.body).toBe(201);
  saToken = tr.json<{ status: { token: string } }>().status.token;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('core-api authorizes every request itself', () => {
  it('a ServiceAccount token with no rights cannot list kube-system Secrets at core-api (as at the front door)', async () => {
    const message = forbidden(SA_USER, 'list', 'secrets', '', 'in the namespace "kube-system"');
    expectForbidden(await call(stack.core.url, 'GET', SECRETS, bearer(saToken)), message);
    expectForbidden(await call(stack.url, 'GET', SECRETS, bearer(saToken)), message);
    expectForbidden(await call(stack.core.url, 'POST', `/api/v1/namespaces/${NS}/configmaps`, bearer(saToken), CONFIGMAP), forbidden(SA_USER, 'create', 'configmaps', '', `in the namespace "${NS}"`));
  });

  it("an aggregated server's client certificate is its own user at core-api, with its own (no) rights", async () => {
    expectForbidden(await call(stack.core.url, 'GET', SECRETS, aggregatedServer), forbidden(AGG_USER, 'list', 'secrets', '', 'in the namespace "kube-system"'));
    expectForbidden(await call(stack.core.url, 'GET', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', aggregatedServer), forbidden(AGG_USER, 'list', 'clusterrolebindings', 'rbac.authorization.k8s.io', 'at the cluster scope'));
    // Non-resource paths are authorized too (kube: /metrics needs system:monitoring), with kube's path message.
    const metrics = await call(stack.core.url, 'GET', '/metrics', aggregatedServer);
    expect(metrics.status).toBe(403);
    expect(JSON.parse(metrics.body)).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403, message: `forbidden: User "${AGG_USER}" cannot get path "/metrics"` });
  });

  it('nobody (no credential) gets 401, except on the public health and version paths', async () => {
    const anonymous = await call(stack.core.url, 'GET', SECRETS, {});
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body)).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) expect((await call(stack.core.url, 'GET', path, {})).status, path).toBe(200);
  });

  it('discovery stays open to every authenticated user (system:discovery), as at the front door', async () => {
    expect((await call(stack.core.url, 'GET', '/api', aggregatedServer)).status).toBe(200);
    expect((await call(stack.core.url, 'GET', '/apis', bearer(saToken))).status).toBe(200);
    expect((await call(stack.core.url, 'GET', '/api/v1', bearer(saToken))).status).toBe(200);
  });

  it('impersonation at core-api is decided by its authorizer: a user without `impersonate` is refused, the admin acts as the ServiceAccount', async () => {
    const asAdmin = await call(stack.core.url, 'GET', SECRETS, { ...aggregatedServer, headers: { 'Impersonate-User': 'kubernetes-admin', 'Impersonate-Group': 'system:masters' } });
    expect(asAdmin.status).toBe(403);
    expect(asAdmin.body).toContain(`User \\"${AGG_USER}\\" cannot impersonate resource \\"users\\" in API group \\"\\" at the cluster scope`);
    expectForbidden(await call(stack.core.url, 'GET', SECRETS, { ...admin, headers: { 'Impersonate-User': SA_USER } }), forbidden(SA_USER, 'list', 'secrets', '', 'in the namespace "kube-system"'));
  });

  it('the front proxy is authorized as the user in X-Remote-*, not as itself', async () => {
    expectForbidden(await call(stack.core.url, 'GET', SECRETS, { ...frontProxy, headers: { 'X-Remote-User': SA_USER, 'X-Remote-Group': 'system:serviceaccounts' } }), forbidden(SA_USER, 'list', 'secrets', '', 'in the namespace "kube-system"'));
    // The aggregator's own calls (discovery, OpenAPI, availability) as system:kube-aggregator in system:masters.
    expect((await call(stack.core.url, 'GET', SECRETS, { ...frontProxy, headers: { 'X-Remote-User': 'system:kube-aggregator', 'X-Remote-Group': 'system:masters' } })).status).toBe(200);
  });

  it('the admin still gets 200, directly and through the front door; granted rights apply at both', async () => {
    expect((await call(stack.core.url, 'GET', SECRETS, admin)).status).toBe(200);
    expect((await call(stack.url, 'GET', SECRETS, admin)).status).toBe(200);
    expect((await call(stack.core.url, 'GET', '/metrics', admin)).status).toBe(200);
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'configmap-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] };
    const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'robot-reads' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'configmap-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: NS }] };
    expect((await stack.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles`, { body: JSON.stringify(role) })).status).toBe(201);
    expect((await stack.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`, { body: JSON.stringify(binding) })).status).toBe(201);
    // Each server's RBAC informer sees the binding shortly after it is written.
    const configmaps = `/api/v1/namespaces/${NS}/configmaps`;
    const deadline = Date.now() + 10_000;
    let answers: number[] = [];
    while (Date.now() < deadline) {
      answers = [(await call(stack.core.url, 'GET', configmaps, bearer(saToken))).status, (await call(stack.url, 'GET', configmaps, bearer(saToken))).status];
      if (answers.every((s) => s === 200)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(answers).toEqual([200, 200]);
    expectForbidden(await call(stack.core.url, 'GET', SECRETS, bearer(saToken)), forbidden(SA_USER, 'list', 'secrets', '', 'in the namespace "kube-system"'));
  });
});

describe('extensions authorizes every request itself', () => {
  it("an aggregated server's client certificate cannot list or create CRDs at extensions", async () => {
    expectForbidden(await call(stack.extensions.url, 'GET', CRDS, aggregatedServer), forbidden(AGG_USER, 'list', 'customresourcedefinitions', 'apiextensions.k8s.io', 'at the cluster scope'));
    const crd = JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'planted.evil.example.com' }, spec: { group: 'evil.example.com', scope: 'Namespaced', names: { plural: 'planted', singular: 'planted', kind: 'Planted' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] } });
    expectForbidden(await call(stack.extensions.url, 'POST', CRDS, aggregatedServer, crd), forbidden(AGG_USER, 'create', 'customresourcedefinitions', 'apiextensions.k8s.io', 'at the cluster scope'));
    expectForbidden(await call(stack.url, 'GET', CRDS, aggregatedServer), forbidden(AGG_USER, 'list', 'customresourcedefinitions', 'apiextensions.k8s.io', 'at the cluster scope'));
  });

  it('a ServiceAccount token and no credential at all are refused (extensions does not verify ServiceAccount tokens itself)', async () => {
    expect([401, 403]).toContain((await call(stack.extensions.url, 'GET', CRDS, bearer(saToken))).status);
    expect((await call(stack.extensions.url, 'GET', CRDS, {})).status).toBe(401);
    expect((await call(stack.extensions.url, 'GET', '/readyz', {})).status).toBe(200);
  });

  it('the front proxy is authorized as the user in X-Remote-*; the aggregator and the admin keep working', async () => {
    expectForbidden(await call(stack.extensions.url, 'GET', CRDS, { ...frontProxy, headers: { 'X-Remote-User': SA_USER, 'X-Remote-Group': 'system:serviceaccounts' } }), forbidden(SA_USER, 'list', 'customresourcedefinitions', 'apiextensions.k8s.io', 'at the cluster scope'));
    expect((await call(stack.extensions.url, 'GET', CRDS, { ...frontProxy, headers: { 'X-Remote-User': 'system:kube-aggregator', 'X-Remote-Group': 'system:masters' } })).status).toBe(200);
    expect((await call(stack.extensions.url, 'GET', CRDS, admin)).status).toBe(200);
    expect((await call(stack.url, 'GET', CRDS, admin)).status).toBe(200);
    expect((await call(stack.extensions.url, 'GET', '/apis', aggregatedServer)).status).toBe(200);
  });
});

describe('KUBE_AUTHORIZATION_MODE=AlwaysAllow behaves as before in every server', () => {
  let open: StackHarness;

  beforeAll(async () => {
    const before = process.env.KUBE_AUTHORIZATION_MODE;
    process.env.KUBE_AUTHORIZATION_MODE = 'AlwaysAllow';
    try {
      open = await startStack({ controllerManager: false });
    } finally {
      if (before === undefined) delete process.env.KUBE_AUTHORIZATION_MODE;
      else process.env.KUBE_AUTHORIZATION_MODE = before;
    }
  }, 120_000);

  afterAll(async () => {
    await open?.stop();
  });

  it('any authenticated caller is allowed, straight to core-api and extensions', async () => {
    const clusterCA = await loadCertificateAuthority(open.pki.caCert, open.pki.caKey);
    const issued = await issueCertificate(clusterCA, { commonName: AGG_USER, usage: 'client' });
    const openCA = readFileSync(open.pki.caCert);
    const caller = { ca: openCA, cert: issued.certPem, key: issued.keyPem };
    expect((await call(open.core.url, 'GET', SECRETS, caller)).status).toBe(200);
    expect((await call(open.extensions.url, 'GET', CRDS, caller)).status).toBe(200);
    expect((await call(open.url, 'GET', SECRETS, caller)).status).toBe(200);
    expect((await call(open.core.url, 'GET', SECRETS, { ca: openCA })).status).toBe(401);
  });
});
