import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate, loadCertificateAuthority, type CertificateAuthority } from '@kube/pki';
import { startStack, type StackHarness } from '../support/core-api.harness';

/**
 * Issue 26 item 6: the front proxy is recognised by its certificate, verified against the request-header CA
 * alone. Attack: a client certificate the cluster CA signed (any identity a deployment hands out), sent together
 * with a forged "intermediate" that carries the cluster CA's name and key identifier but names the front-proxy CA
 * as its issuer (the attacker's own key signs it). TLS verifies the leaf against the cluster CA and is satisfied;
 * a server that walks the peer-supplied chain to its root finds the front-proxy CA and believes X-Remote-*.
 */
let stack: StackHarness;
let clusterCA: CertificateAuthority;
let frontProxyCA: x509.X509Certificate;
let ca: Buffer;

interface Reply {
  status: number;
  body: string;
}

function get(url: string, path: string, client: { cert: string; key: string }, headers: Record<string, string> = {}): Promise<Reply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: hostname, port, path, method: 'GET', ca, cert: client.cert, key: client.key, agent: false, headers: { Accept: 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

const EC: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const SIGN: webcrypto.EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };

/**
 * A certificate with `subject`'s name and subject key identifier, claiming `issuer` as its issuer, but signed by
 * a key of the attacker's: what a chain walk that matches names and key identifiers (not signatures) accepts.
 */
async function forgedIntermediate(subject: x509.X509Certificate, issuer: x509.X509Certificate): Promise<string> {
  const keys = await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']);
  const ski = subject.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const issuerSki = issuer.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '0badc0de01',
    subject: subject.subjectName,
    issuer: issuer.subjectName,
    notBefore: new Date(Date.now() - 3600_000),
    notAfter: new Date(Date.now() + 86400_000),
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true),
      ...(ski ? [new x509.SubjectKeyIdentifierExtension(ski)] : []),
      ...(issuerSki ? [new x509.AuthorityKeyIdentifierExtension(issuerSki)] : []),
    ],
  });
  return cert.toString('pem');
}

beforeAll(async () => {
  stack = await startStack({ controllerManager: false });
  clusterCA = await loadCertificateAuthority(stack.pki.caCert, stack.pki.caKey);
  frontProxyCA = new x509.X509Certificate(readFileSync(stack.pki.frontProxyCaCert, 'utf8'));
  ca = readFileSync(stack.pki.caCert);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const MASTERS = { 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:masters' };
const SECRETS = '/api/v1/namespaces/kube-system/secrets';

describe('a forged chain is not the front proxy', () => {
  for (const backend of ['core', 'extensions'] as const) {
    it(`${backend}: a cluster-CA client certificate with a forged front-proxy-CA intermediate is its own user, not mallory of system:masters`, async () => {
      // CN front-proxy-client from the cluster CA: what its kube-apiserver-client signer issues on any approved CSR
      // (and with an empty allowed-names list, any cluster-CA certificate at all would do).
      const leaf = await issueCertificate(clusterCA, { commonName: 'front-proxy-client', usage: 'client' });
      const forged = await forgedIntermediate(clusterCA.certificate, frontProxyCA);
      const client = { cert: `${leaf.certPem.trim()}\n${forged.trim()}\n`, key: leaf.keyPem };
      const path = backend === 'core' ? SECRETS : '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
      const r = await get(stack[backend].url, path, client, MASTERS);
      expect(r.status).toBe(403);
      expect(r.body).not.toContain('mallory');
      expect(JSON.parse(r.body)).toMatchObject({ kind: 'Status', code: 403, reason: 'Forbidden' });
      expect(r.body).toContain('User \\"front-proxy-client\\" cannot list resource');
    });
  }

  it('the forged intermediate alone (signed by nobody the server trusts) is refused by TLS verification: 401', async () => {
    const keys = await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']);
    // A leaf "issued" by the forged intermediate, i.e. signed with the attacker's key, naming the cluster CA.
    const leaf = await x509.X509CertificateGenerator.create({
      serialNumber: '0badc0de02',
      subject: 'CN=front-proxy-client',
      issuer: clusterCA.certificate.subjectName,
      notBefore: new Date(Date.now() - 3600_000),
      notAfter: new Date(Date.now() + 86400_000),
      publicKey: keys.publicKey,
      signingKey: keys.privateKey,
      signingAlgorithm: SIGN,
      extensions: [new x509.BasicConstraintsExtension(false, undefined, true)],
    });
    const key = x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
    const r = await get(stack.core.url, SECRETS, { cert: leaf.toString('pem'), key }, MASTERS);
    expect(r.status).toBe(401);
  });

  it('a front-proxy-CA certificate whose CN is not an allowed name is not the front proxy', async () => {
    const proxyCA = await loadCertificateAuthority(stack.pki.frontProxyCaCert, stack.pki.frontProxyCaKey);
    const other = await issueCertificate(proxyCA, { commonName: 'not-the-front-proxy', usage: 'client' });
    const r = await get(stack.core.url, SECRETS, { cert: other.certPem, key: other.keyPem }, MASTERS);
    expect(r.status).toBe(401);
  });

  it('the real front proxy (front-proxy-client from the front-proxy CA) is still believed', async () => {
    const proxy = { cert: readFileSync(stack.pki.frontProxyClientCert, 'utf8'), key: readFileSync(stack.pki.frontProxyClientKey, 'utf8') };
    const r = await get(stack.core.url, SECRETS, proxy, MASTERS);
    expect(r.status).toBe(200);
    const asUser = await get(stack.core.url, SECRETS, proxy, { 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:authenticated' });
    expect(asUser.status).toBe(403);
    expect(asUser.body).toContain('User \\"mallory\\" cannot list resource \\"secrets\\" in API group \\"\\" in the namespace \\"kube-system\\"');
  });
});
