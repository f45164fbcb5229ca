/**
 * The two scripts the containers run besides the apps: dist/scripts/generate-pki.js (compose's one-shot `pki`
 * service) and dist/scripts/healthcheck.js (every API container's probe). They run compiled, from a copy of the
 * image's /app as the Dockerfile lays it out (dist/apps, dist/libs and only the scripts it copies), so a script that
 * needs a file the image lacks fails here and not first in a container.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, stat, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import { EncryptionConfig } from '@kube/storage';
import { type EtcdProcess, startEtcd, tempDir } from '@kube/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './deploy.helpers';

/** The dist/scripts files the Dockerfile's runtime stage copies into the image. */
function imageScripts(dockerfile: string): string[] {
  const line = dockerfile.split('\n').find((l) => /^COPY --from=build .*\.\/dist\/scripts\/\s*$/.test(l));
  if (!line) throw new Error('the Dockerfile copies no dist/scripts files into the image');
  return line.split(/\s+/).filter((w) => w.startsWith('/src/dist/scripts/')).map((w) => w.slice('/src/dist/scripts/'.length));
}

/** /app as the image holds it: the compiled apps and libs, node_modules and only the scripts the Dockerfile copies. */
const APP = tempDir('image-app');
const GENERATE_PKI = join(APP, 'dist/scripts/generate-pki.js');
const ETCD_AUTH = join(APP, 'dist/scripts/etcd-auth.js');
const HEALTHCHECK = join(APP, 'dist/scripts/healthcheck.js');

beforeAll(async () => {
  const scripts = imageScripts(await readFile(join(ROOT, 'Dockerfile'), 'utf8'));
  expect(scripts).toEqual(expect.arrayContaining(['generate-pki.js', 'etcd-auth.js', 'healthcheck.js']));
  await mkdir(join(APP, 'dist/scripts'), { recursive: true });
  for (const dir of ['dist/apps', 'dist/libs', 'node_modules']) await symlink(join(ROOT, dir), join(APP, dir), 'dir');
  // Copied, not linked: Node resolves a linked script's imports beside its target, where every script is.
  for (const script of scripts) await copyFile(join(ROOT, 'dist/scripts', script), join(APP, 'dist/scripts', script));
});

function run(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (!existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` (npm test does it first)`);
  // cwd is the image's working directory, /app.
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: APP });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('generate-pki', () => {
  const dir = tempDir('generate-pki');
  const pki = join(dir, 'pki');
  const kubeconfig = join(dir, 'out', 'kubeconfig');

  it('creates the PKI with extra SANs and an admin kubeconfig, and keeps both on a second run', async () => {
    const args = [pki, '--san=aggregator', '--san=wardle-server.kube-system.svc', `--kubeconfig=${kubeconfig}`, '--server=https://127.0.0.1:6443'];
    const first = await run(GENERATE_PKI, args);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const serving = new X509Certificate(await readFile(join(pki, 'apiserver.crt')));
    expect(serving.checkHost('aggregator')).toBe('aggregator');
    expect(serving.checkHost('wardle-server.kube-system.svc')).toBe('wardle-server.kube-system.svc');
    const config = parse(await readFile(kubeconfig, 'utf8'));
    expect(config.clusters[0].cluster.server).toBe('https://127.0.0.1:6443');
    expect((await stat(kubeconfig)).mode & 0o777).toBe(0o600);

    const ca = await readFile(join(pki, 'ca.crt'), 'utf8');
    const second = await run(GENERATE_PKI, args);
    expect(second.code).toBe(0);
    expect(await readFile(join(pki, 'ca.crt'), 'utf8')).toBe(ca);
    expect(new X509Certificate(await readFile(join(pki, 'apiserver.crt'))).fingerprint256).toBe(serving.fingerprint256);
  });

  it('issues the NATS certificates and writes nats-server\'s configuration with one user per service', async () => {
    const conf = join(dir, 'nats.conf');
    const r = await run(GENERATE_PKI, [pki, '--nats-san=nats', `--nats-config=${conf}`]);
    expect(r.code).toBe(0);
    expect(new X509Certificate(await readFile(join(pki, 'nats-server.crt'))).checkHost('nats')).toBe('nats');
    const natsCa = new X509Certificate(await readFile(join(pki, 'nats-ca.crt')));
    for (const name of ['core-api', 'extensions', 'aggregator']) {
      const client = new X509Certificate(await readFile(join(pki, `nats-client-${name}.crt`)));
      expect(client.subject).toBe(`CN=${name}`);
      expect(client.verify(natsCa.publicKey)).toBe(true);
      expect((await stat(join(pki, `nats-client-${name}.key`))).mode & 0o777).toBe(0o600);
    }
    expect((await stat(conf)).mode & 0o777).toBe(0o600);
    const config = JSON.parse(await readFile(conf, 'utf8'));
    expect(config.tls).toMatchObject({ ca_file: join(pki, 'nats-ca.crt'), verify_and_map: true });
    expect(config.authorization.users.map((u: { user: string }) => u.user)).toEqual(['CN=core-api', 'CN=extensions', 'CN=aggregator']);
  });

  it('issues per-service serving certificates and copies to each bundle only its files (keys 0600, folder 0700), removing what was taken away', async () => {
    const bundles = join(dir, 'bundles');
    const args = (extensions: string): string[] => [pki, '--serving=core-api=core-api', '--serving=extensions=extensions', `--bundles-dir=${bundles}`, '--bundle=core-api=ca.crt,ca.key,serving-core-api.crt,serving-core-api.key', `--bundle=extensions=${extensions}`];
    const r = await run(GENERATE_PKI, args('ca.crt,serving-extensions.crt,serving-extensions.key,admin.key'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((await readdir(join(bundles, 'core-api'))).sort()).toEqual(['ca.crt', 'ca.key', 'serving-core-api.crt', 'serving-core-api.key']);
    expect((await stat(join(bundles, 'core-api'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(bundles, 'core-api', 'serving-core-api.key'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(bundles, 'core-api', 'ca.crt'))).mode & 0o777).toBe(0o644);
    const own = new X509Certificate(await readFile(join(bundles, 'extensions', 'serving-extensions.crt')));
    expect(own.checkHost('extensions')).toBe('extensions');
    expect(own.checkHost('core-api')).toBeUndefined();
    expect(own.verify(new X509Certificate(await readFile(join(pki, 'ca.crt'))).publicKey)).toBe(true);
    // A second run with a smaller grant: admin.key is gone from the bundle, the certificate kept.
    expect((await run(GENERATE_PKI, args('ca.crt,serving-extensions.crt,serving-extensions.key'))).code).toBe(0);
    expect((await readdir(join(bundles, 'extensions'))).sort()).toEqual(['ca.crt', 'serving-extensions.crt', 'serving-extensions.key']);
    expect(new X509Certificate(await readFile(join(bundles, 'extensions', 'serving-extensions.crt'))).fingerprint256).toBe(own.fingerprint256);
    const refused = await run(GENERATE_PKI, [pki, '--bundle=core-api=ca.crt']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--bundle needs --bundles-dir/);
  });

  it('writes the default EncryptionConfiguration once with --encryption-config (aescbc, a 32-byte key, then identity; 0600), into the bundles that list it', async () => {
    const own = join(tempDir('generate-pki-encryption'), 'pki');
    const bundles = join(own, '..', 'bundles');
    const none = await run(GENERATE_PKI, [own]);
    expect(none.code).toBe(0);
    expect(existsSync(join(own, 'encryption-config.yaml')), 'written without --encryption-config').toBe(false);
    const args = [own, '--encryption-config', `--bundles-dir=${bundles}`, '--bundle=core-api=ca.crt,encryption-config.yaml', '--bundle=extensions=ca.crt'];
    const r = await run(GENERATE_PKI, args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const text = await readFile(join(own, 'encryption-config.yaml'), 'utf8');
    expect((await stat(join(own, 'encryption-config.yaml'))).mode & 0o777).toBe(0o600);
    // kube's format, as core-api reads it (KUBE_ENCRYPTION_PROVIDER_CONFIG): Secrets only, aescbc first.
    const config = EncryptionConfig.parse(text);
    expect(config.transformerFor({ group: '', resource: 'secrets' })).toBeDefined();
    expect(config.transformerFor({ group: '', resource: 'configmaps' })).toBeUndefined();
    const doc = parse(text) as { resources: Array<{ resources: string[]; providers: Array<Record<string, { keys?: Array<{ name: string; secret: string }> }>> }> };
    expect(doc.resources.map((r) => r.resources)).toEqual([['secrets']]);
    expect(doc.resources[0].providers.map((p) => Object.keys(p)[0])).toEqual(['aescbc', 'identity']);
    expect(Buffer.from(doc.resources[0].providers[0].aescbc.keys?.[0].secret ?? '', 'base64')).toHaveLength(32);
    // Only the bundle that lists it, owner-only.
    expect(await readFile(join(bundles, 'core-api', 'encryption-config.yaml'), 'utf8')).toBe(text);
    expect((await stat(join(bundles, 'core-api', 'encryption-config.yaml'))).mode & 0o777).toBe(0o600);
    expect(await readdir(join(bundles, 'extensions'))).toEqual(['ca.crt']);
    // Never rewritten: a new key would make every Secret stored with the old one unreadable.
    expect((await run(GENERATE_PKI, args)).code).toBe(0);
    expect(await readFile(join(own, 'encryption-config.yaml'), 'utf8')).toBe(text);
  });

  it('refuses incomplete arguments', async () => {
    expect((await run(GENERATE_PKI, [])).code).toBe(1);
    const r = await run(GENERATE_PKI, [pki, `--kubeconfig=${kubeconfig}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--kubeconfig needs --server/);
  });
});

describe('etcd-auth', () => {
  const dir = tempDir('etcd-auth');
  const pki = join(dir, 'pki');
  let etcd: EtcdProcess | undefined;
  afterAll(() => etcd?.stop());

  it("applies the users and roles generate-pki's etcd certificates are for, enables authentication, and changes nothing on a second run", async () => {
    const generated = await run(GENERATE_PKI, [pki, '--etcd-san=etcd', '--aggregated=sample-apiserver']);
    expect(generated.stderr).toBe('');
    expect(generated.code).toBe(0);
    expect(JSON.parse(await readFile(join(pki, 'etcd-aggregated-servers.json'), 'utf8'))).toEqual([{ component: 'sample-apiserver', group: 'wardle.example.com' }]);
    expect(new X509Certificate(await readFile(join(pki, 'etcd-server.crt'))).checkHost('etcd')).toBe('etcd');
    for (const [file, cn] of [['etcd-client-root.crt', 'root'], ['etcd-client-core-api.crt', 'kube-ts:core-api'], ['etcd-client-sample-apiserver.crt', 'kube-ts:sample-apiserver']]) {
      expect(new X509Certificate(await readFile(join(pki, file))).subject, file).toBe(`CN=${cn}`);
    }
    const root = { certPem: await readFile(join(pki, 'etcd-client-root.crt'), 'utf8'), keyPem: await readFile(join(pki, 'etcd-client-root.key'), 'utf8') };
    etcd = await startEtcd({ tls: { certFile: join(pki, 'etcd-server.crt'), keyFile: join(pki, 'etcd-server.key'), trustedCaFile: join(pki, 'etcd-ca.crt'), probe: root } });
    const args = [`--endpoints=${etcd.endpoint}`, `--ca=${join(pki, 'etcd-ca.crt')}`, `--cert=${join(pki, 'etcd-client-root.crt')}`, `--key=${join(pki, 'etcd-client-root.key')}`, `--aggregated-file=${join(pki, 'etcd-aggregated-servers.json')}`];
    const first = await run(ETCD_AUTH, args);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('[etcd-auth] role kube-ts:sample-apiserver: granted readwrite /registry/wardle.example.com/*');
    const second = await run(ETCD_AUTH, args);
    expect(second.stdout).toMatch(/etcd authentication enabled; users kube-ts:core-api, kube-ts:extensions, kube-ts:aggregator, kube-ts:sample-apiserver \(unchanged\)/);
    // Plain HTTP endpoints are refused before anything is sent.
    const plain = await run(ETCD_AUTH, [...args.slice(1), '--endpoints=http://127.0.0.1:2379']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/etcd is reached over TLS only/);
  }, 60_000);
});

describe('healthcheck', () => {
  const dir = tempDir('healthcheck');
  const pki = join(dir, 'pki');
  let server: Server;
  let base: string;
  let readyStatus = 200;

  beforeAll(async () => {
    expect((await run(GENERATE_PKI, [pki])).code).toBe(0);
    const file = (name: string): Promise<string> => readFile(join(pki, name), 'utf8');
    // Like our API servers: client certificates of the cluster CA, anything else 401.
    server = createServer({ cert: await file('apiserver.crt'), key: await file('apiserver.key'), ca: await file('ca.crt'), requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const socket = req.socket as TLSSocket;
      if (!socket.authorized) return void res.writeHead(401).end('Unauthorized');
      if (req.url === '/readyz') return void res.writeHead(readyStatus).end(readyStatus === 200 ? 'ok' : '[-]etcd failed: reason withheld\nreadyz check failed');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const tls = (): string[] => [`--ca=${join(pki, 'ca.crt')}`, `--cert=${join(pki, 'admin.crt')}`, `--key=${join(pki, 'admin.key')}`];

  it('exits 0 when /readyz answers 200 to the client certificate', async () => {
    readyStatus = 200;
    const r = await run(HEALTHCHECK, [...tls(), `${base}/readyz`]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('exits 1 with the failed checks when not ready, without a certificate, or with nothing listening', async () => {
    readyStatus = 500;
    const notReady = await run(HEALTHCHECK, [...tls(), `${base}/readyz`]);
    expect(notReady.code).toBe(1);
    expect(notReady.stderr).toMatch(/500\n\[-\]etcd failed/);

    readyStatus = 200;
    const anonymous = await run(HEALTHCHECK, [`--ca=${join(pki, 'ca.crt')}`, `${base}/readyz`]);
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toMatch(/401/);

    const closed = await run(HEALTHCHECK, [...tls(), 'https://127.0.0.1:1/readyz']);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toMatch(/ECONNREFUSED/);
  });

  it('verifies the server certificate unless told not to', async () => {
    readyStatus = 200;
    const client = [`--cert=${join(pki, 'admin.crt')}`, `--key=${join(pki, 'admin.key')}`];
    // No --ca: the system CAs, which did not sign our server.
    const unverified = await run(HEALTHCHECK, [...client, `${base}/readyz`]);
    expect(unverified.code).toBe(1);
    expect(unverified.stderr).toMatch(/self[- ]signed|unable to verify|certificate/i);
    const skipped = await run(HEALTHCHECK, ['--insecure-skip-tls-verify', ...client, `${base}/readyz`]);
    expect(skipped.stderr).toBe('');
    expect(skipped.code).toBe(0);
  });
});
