import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate, loadCertificateAuthority } from '@kube/pki';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

/**
 * Issue 26 item 5: the Certificates API as kube guards it. Updating `certificatesigningrequests/approval` is not
 * enough to approve a request: the approver needs `approve` on `signers/<signerName>` (CertificateApproval), a
 * write of `status.certificate` needs `sign` (CertificateSigning), and no request for
 * kubernetes.io/kube-apiserver-client may name the system:masters organization (CertificateSubjectRestriction),
 * whoever creates it. Attack: a user allowed to create CSRs and update their approval approves its own request
 * for an O=system:masters client certificate, which the controller-manager then signs with the cluster CA.
 */
const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const SIGNER = 'kubernetes.io/kube-apiserver-client';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';

interface Reply {
  status: number;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

interface Status {
  kind: string;
  code: number;
  reason: string;
  message: string;
}

type Call = (method: string, path: string, body?: unknown) => Promise<Reply>;

let stack: StackHarness;
let ca: Buffer;

/** A client of the front door with a certificate of the cluster CA: CN = user, O = groups. */
async function clientAs(user: string, groups: string[] = []): Promise<Call> {
  const authority = await loadCertificateAuthority(stack.pki.caCert, stack.pki.caKey);
  const { certPem, keyPem } = await issueCertificate(authority, { commonName: user, organizations: groups, usage: 'client' });
  const { hostname, port } = new URL(stack.url);
  return (method, path, body) =>
    new Promise<Reply>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = httpsRequest(
        { host: hostname, port, path, method, ca, cert: certPem, key: keyPem, agent: false, headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...(payload ? { 'Content-Length': String(Buffer.byteLength(payload)) } : {}) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            resolve({ status: res.statusCode ?? 0, body: text, json: <T>() => JSON.parse(text) as T });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
}

/** A PEM certificate request for `subject` (e.g. "CN=mallory, O=system:masters"), base64 as the API carries it. */
async function certificateRequest(subject: string): Promise<string> {
  const alg: webcrypto.EcKeyGenParams & webcrypto.EcdsaParams = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: subject, keys, signingAlgorithm: alg });
  return Buffer.from(csr.toString('pem')).toString('base64');
}

function csr(name: string, request: string, signerName = SIGNER): Record<string, unknown> {
  return { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name }, spec: { request, signerName, usages: ['client auth'], expirationSeconds: 3600 } };
}

/** kubectl certificate approve: the request's conditions plus Approved, through `approval`. */
async function approve(call: Call, name: string): Promise<Reply> {
  const current = (await call('GET', `${CSRS}/${name}`)).json<{ status?: { conditions?: unknown[] } }>();
  const conditions = [...(current.status?.conditions ?? []), { type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'This CSR was approved by kubectl certificate approve.' }];
  return call('PUT', `${CSRS}/${name}/approval`, { ...current, status: { ...current.status, conditions } });
}

function forbidden(reply: Reply, name: string, why: string): void {
  expect(reply.status, reply.body).toBe(403);
  expect(reply.json<Status>()).toMatchObject({ kind: 'Status', code: 403, reason: 'Forbidden', message: `certificatesigningrequests.certificates.k8s.io "${name}" is forbidden: ${why}` });
}

async function grant(name: string, user: string, rules: unknown[]): Promise<void> {
  const role = await stack.request('POST', `${RBAC}/clusterroles`, { body: JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules }) });
  expect(role.status, role.body).toBe(201);
  await bind(name, user);
}

async function bind(role: string, user: string): Promise<void> {
  const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: `${role}-${user}`.replace(/:/g, '-') }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }] };
  const reply = await stack.request('POST', `${RBAC}/clusterrolebindings`, { body: JSON.stringify(binding) });
  expect(reply.status, reply.body).toBe(201);
}

/** Until the front door's RBAC has seen a grant (the informer is fed by a watch). */
async function untilAllowed(probe: () => Promise<Reply>): Promise<void> {
  expect(await until(async () => (await probe()).status !== 403, 10_000)).toBe(true);
}

let mallory: Call;
let approver: Call;

beforeAll(async () => {
  stack = await startStack();
  ca = readFileSync(stack.pki.caCert);
  // mallory may create and read CSRs and write their approval and status: what kube's RBAC checks on the
  // request, and not what approving or signing for a signer takes.
  await grant('csr-requester', 'mallory', [
    { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create', 'get', 'list', 'watch'] },
    { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/approval', 'certificatesigningrequests/status'], verbs: ['update'] },
  ]);
  // An approver as kube sets one up: the approval subresource and the bootstrap approver role of the signer.
  await grant('csr-approval-writer', 'approver', [
    { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/approval'], verbs: ['update'] },
  ]);
  await bind('system:certificates.k8s.io:kube-apiserver-client-approver', 'approver');
  mallory = await clientAs('mallory');
  approver = await clientAs('approver');
  await untilAllowed(() => mallory('GET', CSRS));
  await untilAllowed(() => approver('GET', CSRS));
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('CertificateSigningRequests (issue 26 item 5)', () => {
  it('refuses a self-approval without approve on the signer (CertificateApproval), with kube\'s message', async () => {
    const created = await mallory('POST', CSRS, csr('mallory-self', await certificateRequest('CN=mallory, O=devs')));
    expect(created.status, created.body).toBe(201);
    forbidden(await approve(mallory, 'mallory-self'), 'mallory-self', `user not permitted to approve requests with signerName "${SIGNER}"`);
    const after = (await stack.request('GET', `${CSRS}/mallory-self`)).json<{ status?: { conditions?: unknown[]; certificate?: string } }>();
    expect(after.status?.conditions ?? []).toEqual([]);
  });

  it('refuses a status.certificate write without sign on the signer (CertificateSigning)', async () => {
    const name = 'mallory-signs';
    expect((await mallory('POST', CSRS, csr(name, await certificateRequest('CN=mallory')))).status).toBe(201);
    const current = (await mallory('GET', `${CSRS}/${name}`)).json<Record<string, unknown>>();
    const reply = await mallory('PUT', `${CSRS}/${name}/status`, { ...current, status: { certificate: Buffer.from('-----BEGIN CERTIFICATE-----\n').toString('base64') } });
    forbidden(reply, name, `user not permitted to sign requests with signerName "${SIGNER}"`);
  });

  it('refuses a kube-apiserver-client request for the system:masters organization at creation, even from system:masters (CertificateSubjectRestriction)', async () => {
    const request = await certificateRequest('CN=mallory, O=system:masters');
    forbidden(await mallory('POST', CSRS, csr('mallory-masters', request)), 'mallory-masters', `use of ${SIGNER} signer with system:masters group is not allowed`);
    const admin = await stack.request('POST', CSRS, { body: JSON.stringify(csr('admin-masters', request)) });
    forbidden(admin, 'admin-masters', `use of ${SIGNER} signer with system:masters group is not allowed`);
    // Another signer may issue such a subject (its own policy decides), as in kube.
    const other = await mallory('POST', CSRS, csr('mallory-other-signer', request, 'example.com/signer'));
    expect(other.status, other.body).toBe(201);
  });

  it('lets an approver the signer allows approve, and the controller-manager signs', async () => {
    const name = 'mallory-approved';
    expect((await mallory('POST', CSRS, csr(name, await certificateRequest('CN=mallory, O=devs')))).status).toBe(201);
    const approved = await approve(approver, name);
    expect(approved.status, approved.body).toBe(200);
    let certificate = '';
    expect(
      await until(async () => {
        certificate = (await mallory('GET', `${CSRS}/${name}`)).json<{ status?: { certificate?: string } }>().status?.certificate ?? '';
        return certificate !== '';
      }, 30_000),
    ).toBe(true);
    const issued = new x509.X509Certificate(Buffer.from(certificate, 'base64').toString('utf8'));
    expect(issued.subject).toContain('CN=mallory');
  });

  it('accepts approve on the signer\'s domain wildcard (<domain>/*), as kube\'s IsAuthorizedForSignerName', async () => {
    await grant('csr-domain-approver', 'domain-approver', [
      { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/approval'], verbs: ['update'] },
      { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['get'] },
      { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['example.com/*'], verbs: ['approve'] },
    ]);
    const domainApprover = await clientAs('domain-approver');
    const [example, client] = ['mallory-example', 'mallory-client'];
    expect((await mallory('POST', CSRS, csr(example, await certificateRequest('CN=mallory'), 'example.com/signer'))).status).toBe(201);
    expect((await mallory('POST', CSRS, csr(client, await certificateRequest('CN=mallory')))).status).toBe(201);
    await untilAllowed(() => domainApprover('GET', `${CSRS}/${example}`));
    const reply = await approve(domainApprover, example);
    expect(reply.status, reply.body).toBe(200);
    forbidden(await approve(domainApprover, client), client, `user not permitted to approve requests with signerName "${SIGNER}"`);
  });
});
