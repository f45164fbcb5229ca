import 'reflect-metadata';
import { createPrivateKey, webcrypto, X509Certificate } from 'node:crypto';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueCertificate, parseCertificateAuthority, type CertificateAuthority, type IssuedCertificate } from '@kube/pki';
import { Authenticator, type AuthenticationOptions } from './authentication';
import { CertificatePool } from './certificate-pool.verifier';

const EC: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const SIGN: webcrypto.EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };
const HOUR = 3600_000;

let cluster: CertificateAuthority;
let frontProxy: CertificateAuthority;
let serving: IssuedCertificate;

/** An intermediate CA `parent` really signed. */
async function intermediateCA(parent: CertificateAuthority, cn: string): Promise<CertificateAuthority> {
  const keys = await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '01' + Math.floor(Math.random() * 1e9).toString(16),
    subject: `CN=${cn}`,
    issuer: parent.certificate.subjectName,
    notBefore: new Date(Date.now() - HOUR),
    notAfter: new Date(Date.now() + 24 * HOUR),
    publicKey: keys.publicKey,
    signingKey: parent.signingKey.privateKey,
    signingAlgorithm: parent.signingKey.signingAlgorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(parent.certificate.publicKey),
    ],
  });
  const keyPem = x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  return parseCertificateAuthority(cert.toString('pem'), keyPem);
}

/** `impersonated`'s name and key identifier, `claimedIssuer` as issuer, signed by an attacker's key. */
async function forgedIntermediate(impersonated: CertificateAuthority, claimedIssuer: CertificateAuthority): Promise<string> {
  const keys = await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']);
  const ski = impersonated.certificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const aki = claimedIssuer.certificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '0badc0de',
    subject: impersonated.certificate.subjectName,
    issuer: claimedIssuer.certificate.subjectName,
    notBefore: new Date(Date.now() - HOUR),
    notAfter: new Date(Date.now() + 24 * HOUR),
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      ...(ski ? [new x509.SubjectKeyIdentifierExtension(ski)] : []),
      ...(aki ? [new x509.AuthorityKeyIdentifierExtension(aki)] : []),
    ],
  });
  return cert.toString('pem');
}

const bundle = (...pems: string[]): string => pems.map((p) => `${p.trim()}\n`).join('');

interface Seen {
  user?: { name: string; groups: string[]; extra?: Record<string, string[]> };
  proxy: boolean;
}

/** A real TLS server asking for client certificates as listenHttps does, answering who `authn` says the caller is. */
async function serve(options: AuthenticationOptions): Promise<{ server: Server; ask(client: { cert: string; key: string }, headers?: Record<string, string | string[]>): Promise<Seen> }> {
  const authn = new Authenticator(options);
  const server = createServer({ cert: serving.certPem, key: serving.keyPem, ca: authn.trustedCAs, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const user = authn.authenticate(req) as Seen['user'];
    const extra = user && (user as { extra?: Record<string, string[]> }).extra;
    res.end(JSON.stringify({ user: user && { name: user.name, groups: user.groups, ...(extra && Object.keys(extra).length ? { extra } : {}) }, proxy: authn.viaFrontProxy(req) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const ask = (client: { cert: string; key: string }, headers: Record<string, string | string[]> = {}): Promise<Seen> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/', ca: cluster.certPem, cert: client.cert, key: client.key, agent: false, headers }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve(JSON.parse(body) as Seen));
      });
      req.on('error', reject);
      req.end();
    });
  return { server, ask };
}

const MASTERS = { 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:masters' };

beforeAll(async () => {
  cluster = await createCertificateAuthority({ commonName: 'kubernetes' });
  frontProxy = await createCertificateAuthority({ commonName: 'front-proxy-ca' });
  serving = await issueCertificate(cluster, { commonName: 'kube-apiserver', ipAddresses: ['127.0.0.1'], usage: 'server' });
});

describe('Authenticator: which CA pool vouches for a client certificate', () => {
  let named: Awaited<ReturnType<typeof serve>>;
  let anyName: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    named = await serve({ clientCAPem: cluster.certPem, requestHeader: { caPem: frontProxy.certPem, allowedNames: ['front-proxy-client'] } });
    anyName = await serve({ clientCAPem: cluster.certPem, requestHeader: { caPem: frontProxy.certPem, allowedNames: [] } });
  });

  afterAll(() => {
    named.server.close();
    anyName.server.close();
  });

  it('the front proxy (front-proxy CA, allowed CN) is believed: the user comes from X-Remote-*', async () => {
    const proxy = await issueCertificate(frontProxy, { commonName: 'front-proxy-client', usage: 'client' });
    expect(await named.ask({ cert: proxy.certPem, key: proxy.keyPem }, MASTERS)).toEqual({ proxy: true, user: { name: 'mallory', groups: ['system:masters'] } });
  });

  it("takes one group and one extra value per X-Remote-* line, commas and all (kube's requestheader authenticator)", async () => {
    const proxy = await issueCertificate(frontProxy, { commonName: 'front-proxy-client', usage: 'client' });
    const headers = { 'X-Remote-User': 'user1', 'X-Remote-Group': ['group2', ',,,chameleon', 'a, b', ' '], 'X-Remote-Extra-Scopes%2Fread': ['x,y', 'z'] };
    expect(await named.ask({ cert: proxy.certPem, key: proxy.keyPem }, headers)).toEqual({
      proxy: true,
      user: { name: 'user1', groups: ['group2', ',,,chameleon', 'a, b'], extra: { 'scopes/read': ['x,y', 'z'] } },
    });
  });

  it('a cluster-CA certificate with a forged intermediate naming the front-proxy CA is its own user, never the proxy', async () => {
    const forged = await forgedIntermediate(cluster, frontProxy);
    const allowedCN = await issueCertificate(cluster, { commonName: 'front-proxy-client', usage: 'client' });
    expect(await named.ask({ cert: bundle(allowedCN.certPem, forged), key: allowedCN.keyPem }, MASTERS)).toEqual({ proxy: false, user: { name: 'front-proxy-client', groups: ['system:authenticated'] } });
    // Where any CN is allowed, any cluster-CA certificate would have done.
    const sample = await issueCertificate(cluster, { commonName: 'system:kube-ts:sample-apiserver', usage: 'client' });
    expect(await anyName.ask({ cert: bundle(sample.certPem, forged), key: sample.keyPem }, MASTERS)).toEqual({ proxy: false, user: { name: 'system:kube-ts:sample-apiserver', groups: ['system:authenticated'] } });
  });

  it('a client presenting a certificate and a bearer token is the certificate\'s user (kube tries x509 before tokens)', async () => {
    const withTokens = await serve({ clientCAPem: cluster.certPem, tokens: new Map([['admin-token', { name: 'admin', groups: ['system:masters', 'system:authenticated'] }]]) });
    try {
      const alice = await issueCertificate(cluster, { commonName: 'alice', organizations: ['devs'], usage: 'client' });
      expect(await withTokens.ask({ cert: alice.certPem, key: alice.keyPem }, { Authorization: 'Bearer admin-token' })).toEqual({ proxy: false, user: { name: 'alice', groups: ['devs', 'system:authenticated'] } });
    } finally {
      withTokens.server.close();
    }
  });

  it('a front-proxy-CA certificate with a forged intermediate naming the cluster CA is not a client-CA user', async () => {
    const forged = await forgedIntermediate(frontProxy, cluster);
    const other = await issueCertificate(frontProxy, { commonName: 'system:admin', organizations: ['system:masters'], usage: 'client' });
    expect(await named.ask({ cert: bundle(other.certPem, forged), key: other.keyPem })).toEqual({ proxy: false });
  });

  it('a front-proxy-CA certificate with a CN not allowed is neither the proxy nor a user', async () => {
    const other = await issueCertificate(frontProxy, { commonName: 'someone-else', usage: 'client' });
    expect(await named.ask({ cert: other.certPem, key: other.keyPem }, MASTERS)).toEqual({ proxy: false });
    expect(await anyName.ask({ cert: other.certPem, key: other.keyPem }, MASTERS)).toEqual({ proxy: true, user: { name: 'mallory', groups: ['system:masters'] } });
  });

  it('a real intermediate CA counts for the pool whose CA signed it, and only that one', async () => {
    const clusterSub = await intermediateCA(cluster, 'cluster-intermediate');
    const user = await issueCertificate(clusterSub, { commonName: 'alice', organizations: ['devs'], usage: 'client' });
    expect(await named.ask({ cert: bundle(user.certPem, clusterSub.certPem), key: user.keyPem }, MASTERS)).toEqual({ proxy: false, user: { name: 'alice', groups: ['devs', 'system:authenticated'] } });
    const proxySub = await intermediateCA(frontProxy, 'front-proxy-intermediate');
    const proxy = await issueCertificate(proxySub, { commonName: 'front-proxy-client', usage: 'client' });
    expect(await named.ask({ cert: bundle(proxy.certPem, proxySub.certPem), key: proxy.keyPem }, MASTERS)).toEqual({ proxy: true, user: { name: 'mallory', groups: ['system:masters'] } });
  });
});

describe('CertificatePool', () => {
  const x = (pem: string): X509Certificate => new X509Certificate(pem);
  const none = (): X509Certificate[] => [];

  it('verifies a leaf its CA signed, within its validity period', async () => {
    const pool = new CertificatePool(cluster.certPem);
    const leaf = x((await issueCertificate(cluster, { commonName: 'alice', usage: 'client', days: 1 })).certPem);
    expect(pool.verifies(leaf, none)).toBe(true);
    expect(pool.verifies(leaf, none, Date.now() + 3 * 24 * HOUR)).toBe(false);
    expect(pool.verifies(leaf, none, Date.now() - 2 * 24 * HOUR)).toBe(false);
    expect(new CertificatePool(frontProxy.certPem).verifies(leaf, none)).toBe(false);
    expect(new CertificatePool('').verifies(leaf, none)).toBe(false);
  });

  it('refuses a certificate not meant for client authentication (serverAuth only)', async () => {
    expect(new CertificatePool(cluster.certPem).verifies(x(serving.certPem), none)).toBe(false);
  });

  it('follows an intermediate only when it verifies, and asks for intermediates only when the leaf needs them', async () => {
    const pool = new CertificatePool(cluster.certPem);
    const sub = await intermediateCA(cluster, 'sub');
    const leaf = x((await issueCertificate(sub, { commonName: 'bob', usage: 'client' })).certPem);
    expect(pool.verifies(leaf, none)).toBe(false);
    expect(pool.verifies(leaf, () => [x(sub.certPem)])).toBe(true);
    // The same name and key identifier as `sub`, but another key: the leaf's signature does not verify with it.
    const impostor = x(await forgedIntermediate(sub, cluster));
    expect(pool.verifies(leaf, () => [impostor])).toBe(false);
    // A certificate that is not a CA (basicConstraints CA:FALSE) signs nothing, even with a valid signature.
    const notCA = await issueCertificate(cluster, { commonName: 'dave', usage: 'client' });
    const notCAKey = await webcrypto.subtle.importKey('pkcs8', createPrivateKey(notCA.keyPem).export({ format: 'der', type: 'pkcs8' }), EC, true, ['sign']);
    const keys = await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']);
    const underNotCA = await x509.X509CertificateGenerator.create({
      serialNumber: '0d0d',
      subject: 'CN=erin',
      issuer: new x509.X509Certificate(notCA.certPem).subjectName,
      notBefore: new Date(Date.now() - HOUR),
      notAfter: new Date(Date.now() + HOUR),
      publicKey: keys.publicKey,
      signingKey: notCAKey,
      signingAlgorithm: SIGN,
    });
    expect(x(underNotCA.toString('pem')).verify(x(notCA.certPem).publicKey)).toBe(true);
    expect(pool.verifies(x(underNotCA.toString('pem')), () => [x(notCA.certPem)])).toBe(false);
    let asked = 0;
    const direct = x((await issueCertificate(cluster, { commonName: 'carol', usage: 'client' })).certPem);
    expect(pool.verifies(direct, () => (asked++, []))).toBe(true);
    expect(asked).toBe(0);
  });
});
