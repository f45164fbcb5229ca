import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, unlink } from 'node:fs/promises';
import { request, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCertPaths, ensurePki, etcdClientPaths, type PkiPaths, servingCertPaths } from './pki.bootstrap';

const read = (path: string): Promise<string> => readFile(path, 'utf8');
const cert = async (path: string): Promise<X509Certificate> => new X509Certificate(await read(path));

describe('ensurePki', () => {
  let dir: string;
  let paths: PkiPaths;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pki-spec-'));
    paths = await ensurePki(join(dir, 'pki'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('creates two distinct CAs and leaves that chain to the right one', async () => {
    const ca = await cert(paths.caCert);
    const frontProxyCa = await cert(paths.frontProxyCaCert);
    expect(ca.ca).toBe(true);
    expect(frontProxyCa.ca).toBe(true);
    expect(ca.fingerprint256).not.toBe(frontProxyCa.fingerprint256);

    for (const leaf of [paths.apiserverCert, paths.adminCert]) {
      expect((await cert(leaf)).verify(ca.publicKey)).toBe(true);
    }
    const frontProxyClient = await cert(paths.frontProxyClientCert);
    expect(frontProxyClient.verify(frontProxyCa.publicKey)).toBe(true);
    expect(frontProxyClient.verify(ca.publicKey)).toBe(false);
    expect(frontProxyClient.subject).toBe('CN=front-proxy-client');
  });

  it('issues the serving certificate for every kubernetes name and address', async () => {
    const serving = await cert(paths.apiserverCert);
    for (const host of ['localhost', 'kubernetes', 'kubernetes.default.svc.cluster.local']) {
      expect(serving.checkHost(host)).toBe(host);
    }
    for (const ip of ['127.0.0.1', '::1', '10.96.0.1']) expect(serving.checkIP(ip)).toBe(ip);
    expect(serving.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
  });

  it('issues the admin certificate as kubernetes-admin in system:masters', async () => {
    const admin = await cert(paths.adminCert);
    expect(admin.subject.split('\n').sort()).toEqual(['CN=kubernetes-admin', 'O=system:masters']);
    expect(admin.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
  });

  it('writes PKCS#8 private keys readable only by the owner', async () => {
    const keyPem = await read(paths.adminKey);
    expect(keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(createPrivateKey(keyPem).asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect((await stat(paths.caKey)).mode & 0o777).toBe(0o600);
  });

  it('keeps existing files and recreates only missing ones', async () => {
    const before = await Promise.all([paths.caKey, paths.apiserverCert, paths.adminCert].map(read));
    await unlink(paths.frontProxyClientKey);
    await ensurePki(paths.dir);
    const after = await Promise.all([paths.caKey, paths.apiserverCert, paths.adminCert].map(read));
    expect(after).toEqual(before);
    expect(await read(paths.frontProxyClientKey)).toMatch(/PRIVATE KEY/);
  });

  it('reissues the serving certificate when extra SANs are asked for', async () => {
    const caBefore = await read(paths.caCert);
    await ensurePki(paths.dir, { extraSans: ['api.example.test', '192.0.2.10'] });
    const serving = await cert(paths.apiserverCert);
    expect(serving.checkHost('api.example.test')).toBe('api.example.test');
    expect(serving.checkIP('192.0.2.10')).toBe('192.0.2.10');
    expect(await read(paths.caCert)).toBe(caBefore);
  });

  it('issues a serving certificate of its own per service, for its names only, and keeps it across runs', async () => {
    await ensurePki(paths.dir, { servingCertificates: { 'core-api': ['core-api'], extensions: ['extensions', '192.0.2.11'] } });
    const core = servingCertPaths(paths, 'core-api');
    const own = await cert(core.cert);
    expect(own.checkHost('core-api')).toBe('core-api');
    expect(own.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(own.checkHost('extensions')).toBeUndefined();
    expect(own.verify((await cert(paths.caCert)).publicKey)).toBe(true);
    expect((await stat(core.key)).mode & 0o777).toBe(0o600);
    expect((await cert(servingCertPaths(paths, 'extensions').cert)).checkIP('192.0.2.11')).toBe('192.0.2.11');
    const before = await read(core.key);
    await ensurePki(paths.dir, { servingCertificates: { 'core-api': ['core-api'] } });
    expect(await read(core.key)).toBe(before);
  });
  it('issues a client certificate of its own per service, as its user, and reissues it when the user changes', async () => {
    await ensurePki(paths.dir, { clientCertificates: { 'sample-apiserver': { user: 'system:kube-ts:sample-apiserver' } } });
    const files = clientCertPaths(paths, 'sample-apiserver');
    const own = await cert(files.cert);
    expect(own.subject).toBe('CN=system:kube-ts:sample-apiserver');
    expect(own.verify((await cert(paths.caCert)).publicKey)).toBe(true);
    expect((await stat(files.key)).mode & 0o777).toBe(0o600);
    const before = await read(files.key);
    await ensurePki(paths.dir, { clientCertificates: { 'sample-apiserver': { user: 'system:kube-ts:sample-apiserver' } } });
    expect(await read(files.key)).toBe(before);
    await ensurePki(paths.dir, { clientCertificates: { 'sample-apiserver': { user: 'wardle', groups: ['team-a'] } } });
    expect((await cert(files.cert)).subject.split('\n').sort()).toEqual(['CN=wardle', 'O=team-a']);
  });

  it('issues etcd certificates from a CA of its own: the server for its names, one client per etcd user (CN = user)', async () => {
    await ensurePki(paths.dir, { etcdSans: ['etcd'], etcdClients: { 'core-api': 'kube-ts:core-api', root: 'root' } });
    const etcdCa = await cert(paths.etcdCaCert);
    const clusterCa = await cert(paths.caCert);
    expect(etcdCa.ca).toBe(true);
    const server = await cert(paths.etcdServerCert);
    for (const host of ['localhost', 'etcd']) expect(server.checkHost(host)).toBe(host);
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    // Server and client: etcd's gateway dials etcd itself with it (kubeadm's etcd/server has both too).
    expect(server.keyUsage?.sort()).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    expect(server.verify(etcdCa.publicKey)).toBe(true);
    const core = etcdClientPaths(paths, 'core-api');
    const client = await cert(core.cert);
    expect(client.subject).toBe('CN=kube-ts:core-api');
    expect(client.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(client.verify(etcdCa.publicKey)).toBe(true);
    // No cluster identity is an etcd user, and no etcd user a cluster identity.
    expect(client.verify(clusterCa.publicKey)).toBe(false);
    expect((await cert(paths.adminCert)).verify(etcdCa.publicKey)).toBe(false);
    expect((await stat(core.key)).mode & 0o777).toBe(0o600);
    expect((await cert(etcdClientPaths(paths, 'root').cert)).subject).toBe('CN=root');
    const before = await read(core.key);
    await ensurePki(paths.dir, { etcdSans: ['etcd'], etcdClients: { 'core-api': 'kube-ts:core-api' } });
    expect(await read(core.key)).toBe(before);
    await ensurePki(paths.dir, { etcdClients: { 'core-api': 'kube-ts:core-api-2' } });
    expect((await cert(core.cert)).subject).toBe('CN=kube-ts:core-api-2');
  });
});

describe('mutual TLS with the issued certificates', () => {
  let dir: string;
  let paths: PkiPaths;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pki-tls-'));
    paths = await ensurePki(dir);
    server = createServer(
      {
        cert: await read(paths.apiserverCert),
        key: await read(paths.apiserverKey),
        ca: await read(paths.caCert),
        requestCert: true,
        rejectUnauthorized: true,
      },
      (req, res) => res.end((req.socket as TLSSocket).getPeerCertificate().subject.CN),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  const get = async (certPath: string, keyPath: string): Promise<string> => {
    const [ca, cert, key] = await Promise.all([read(paths.caCert), read(certPath), read(keyPath)]);
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/', ca, cert, key }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });
  };

  it('accepts the admin client certificate', async () => {
    expect(await get(paths.adminCert, paths.adminKey)).toBe('kubernetes-admin');
  });

  it('rejects the front-proxy client certificate (signed by the other CA)', async () => {
    await expect(get(paths.frontProxyClientCert, paths.frontProxyClientKey)).rejects.toThrow();
  });
});
