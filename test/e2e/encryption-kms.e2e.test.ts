/**
 * Encryption at rest with a KMS v2 plugin (issue 27, item 1) through the real kubectl (1.33 and 1.27): the plugin is
 * scripts/kms-plugin.ts run as its own process (node dist/scripts/kms-plugin.js) on a unix socket. Secrets are
 * stored as `k8s:enc:kms:v2:<name>:` + kube's EncryptedObject; the plugin's key is rotated to a new key ID and
 * every Secret rewritten under it; Secrets written with aesgcm before kms was put first still read (migration);
 * and a server started while the plugin is down answers kube's InternalError Status, loses nothing, and serves
 * once the plugin is up.
 */
import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@kube/testing';
import { EncryptionConfig, EncryptionConfigSource, EtcdClient, Storage } from '@kube/storage';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

const PLUGIN = resolve(__dirname, '../../dist/scripts/kms-plugin.js');
const PLAINTEXT = 'correct-horse-battery-staple';
const AESGCM = { aesgcm: { keys: [{ name: 'old', secret: Buffer.alloc(32, 0x33).toString('base64') }] } };
// Status polled every half second (kube: every minute), so that a rotation reaches the servers within the test.
const TIMINGS = { pollMs: 500, retryMs: 500, writeTtlMs: 180_000, healthyTtlMs: 200, unhealthyTtlMs: 200 };
const PREFIX = 'k8s:enc:kms:v2:e2e:';

const dir = tempDir('encryption-kms');
const keyFile = join(dir, 'kms-keys');
const socket = join(dir, 'kms.sock');
const plugins: ChildProcess[] = [];
let stack: StackHarness;
let source: EncryptionConfigSource;
let etcd: EtcdClient;
const kubectl = kubectlSession('1.33', () => stack.kubeconfig);
const kubectl127 = kubectlSession('1.27', () => stack.kubeconfig);

function configYaml(sock: string): string {
  return `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - kms: {apiVersion: v2, name: e2e, endpoint: "unix://${sock}", timeout: 1s}
      - aesgcm: {keys: [{name: old, secret: ${AESGCM.aesgcm.keys[0].secret}}]}
      - identity: {}
`;
}

const writeKeys = (...ids: string[]): void => writeFileSync(keyFile, ids.map((id) => `${id} ${Buffer.alloc(32, id.charCodeAt(id.length - 1)).toString('base64')}\n`).join(''), { mode: 0o600 });

/** The built plugin as users run it; resolves once its socket is there. */
async function startPlugin(sock: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [PLUGIN, '--socket', sock, '--key-file', keyFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  plugins.push(child);
  expect(await until(async () => existsSync(sock), 20_000)).toBe(true);
  return child;
}

async function stopPlugin(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const raw = async (key: string): Promise<Buffer> => (await etcd.getKey(key, 'test'))!.value;
/** The key ID a stored KMS v2 value was written under (EncryptedObject field 2, right after field 1). */
function keyIDOf(value: Buffer): string {
  const body = value.subarray(PREFIX.length);
  let pos = 1;
  let len = 0;
  for (let shift = 0; ; shift += 7) {
    const b = body[pos++];
    len += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  pos += len;
  return body.subarray(pos + 2, pos + 2 + body[pos + 1]).toString();
}

let plugin: ChildProcess;

beforeAll(async () => {
  expect(existsSync(PLUGIN), 'npm run build first').toBe(true);
  writeKeys('key-1');
  plugin = await startPlugin(socket);
  const configPath = join(dir, 'encryption-config.yaml');
  writeFileSync(configPath, configYaml(socket), { mode: 0o600 });
  source = EncryptionConfigSource.fromFile(configPath, { kmsTimings: TIMINGS });
  stack = await startStack({ encryption: source, controllerManager: false });
  etcd = new EtcdClient({ endpoints: [stack.etcd.endpoint] });
}, 120_000);

afterAll(async () => {
  source?.stop();
  etcd?.close();
  await stack?.stop();
  for (const p of plugins) await stopPlugin(p);
});

describe('encryption at rest with a KMS v2 plugin, through kubectl', () => {
  it('kubectl create secret stores k8s:enc:kms:v2:<name>: and no plaintext; kubectl 1.33 and 1.27 read it back', async () => {
    await kubectl.ok(['create', 'secret', 'generic', 's1', '-n', 'default', `--from-literal=password=${PLAINTEXT}`]);
    await kubectl127.ok(['create', 'secret', 'generic', 's2', '-n', 'default', `--from-literal=password=${PLAINTEXT}`]);
    for (const name of ['s1', 's2']) {
      const value = await raw(`/registry/secrets/default/${name}`);
      expect(value.subarray(0, PREFIX.length).toString()).toBe(PREFIX);
      expect(keyIDOf(value)).toBe('key-1');
      expect(value.includes(Buffer.from(PLAINTEXT))).toBe(false);
      expect(value.includes(Buffer.from(Buffer.from(PLAINTEXT).toString('base64')))).toBe(false);
      for (const k of [kubectl, kubectl127]) {
        expect(Buffer.from(await k.ok(['get', 'secret', name, '-n', 'default', '-o', 'jsonpath={.data.password}']), 'base64').toString()).toBe(PLAINTEXT);
      }
    }
    // kube's kms-providers check: on healthz and readyz, not on livez.
    const readyz = await stack.core.request('GET', '/readyz?verbose');
    expect(readyz.body).toContain('[+]kms-providers ok');
    expect((await stack.core.request('GET', '/livez?verbose')).body).not.toContain('kms-providers');
  });

  it('reads Secrets written with aesgcm before kms was put first, and kubectl replace moves them to kms (migration)', async () => {
    await kubectl.ok(['create', 'namespace', 'migrate']);
    const before = new Storage({
      endpoints: [stack.etcd.endpoint],
      watchCache: false,
      encryption: EncryptionConfigSource.of(EncryptionConfig.from({ kind: 'EncryptionConfiguration', apiVersion: 'apiserver.config.k8s.io/v1', resources: [{ resources: ['secrets'], providers: [AESGCM] }] })),
    });
    try {
      await before.resource({ group: '', resource: 'secrets' }, 'secrets').create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'old', namespace: 'migrate', uid: 'f3a0e3c2-9a4e-4a53-9a38-5b1f1a1d0c01', creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }, type: 'Opaque', data: { x: Buffer.from('from-aesgcm').toString('base64') } } as never);
    } finally {
      await before.close();
    }
    expect((await raw('/registry/secrets/migrate/old')).subarray(0, 18).toString()).toBe('k8s:enc:aesgcm:v1:');
    for (const k of [kubectl, kubectl127]) expect(Buffer.from(await k.ok(['get', 'secret', 'old', '-n', 'migrate', '-o', 'jsonpath={.data.x}']), 'base64').toString()).toBe('from-aesgcm');
    await kubectl.ok(['replace', '-f', '-'], await kubectl.ok(['get', 'secrets', '-n', 'migrate', '-o', 'json']));
    expect((await raw('/registry/secrets/migrate/old')).subarray(0, PREFIX.length).toString()).toBe(PREFIX);
  });

  it('rotates to a new key ID: the plugin gets a new key first (SIGHUP), the servers follow, kubectl replace rewrites every Secret', async () => {
    writeKeys('key-2', 'key-1');
    plugin.kill('SIGHUP');
    await kubectl.ok(['create', 'namespace', 'rotation']);
    expect(
      await until(async () => {
        await kubectl.k(['delete', 'secret', 'probe', '-n', 'rotation', '--ignore-not-found']);
        await kubectl.ok(['create', 'secret', 'generic', 'probe', '-n', 'rotation', '--from-literal=a=b']);
        return keyIDOf(await raw('/registry/secrets/rotation/probe')) === 'key-2';
      }, 30_000),
    ).toBe(true);
    expect(keyIDOf(await raw('/registry/secrets/default/s1'))).toBe('key-1');
    // An unchanged replace rewrites a value read under the old key ID (stale), as kube's storage migration does.
    await kubectl.ok(['replace', '-f', '-'], await kubectl.ok(['get', 'secrets', '-n', 'default', '-o', 'json']));
    for (const name of ['s1', 's2']) expect(keyIDOf(await raw(`/registry/secrets/default/${name}`))).toBe('key-2');
    expect(Buffer.from(await kubectl127.ok(['get', 'secret', 's1', '-n', 'default', '-o', 'jsonpath={.data.password}']), 'base64').toString()).toBe(PLAINTEXT);
  });

  it('a server started while its plugin is down answers an InternalError Status, loses nothing, and serves once the plugin is up', async () => {
    const downSocket = join(dir, 'down.sock');
    const downPath = join(dir, 'down.yaml');
    writeFileSync(downPath, configYaml(downSocket), { mode: 0o600 });
    const downSource = EncryptionConfigSource.fromFile(downPath, { kmsTimings: TIMINGS });
    const down = await startStack({ etcd: stack.etcd, encryption: downSource, controllerManager: false, readyzExclude: ['kms-providers'] });
    try {
      const k = kubectlSession('1.33', () => down.kubeconfig);
      const before = await raw('/registry/secrets/default/s1');
      const r = await k.k(['get', 'secret', 's1', '-n', 'default', '-o', 'json']);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('Error from server (InternalError): Internal error occurred: got unexpected nil transformer');
      const status = await down.request('GET', '/api/v1/namespaces/default/secrets/s1');
      expect(status.status).toBe(500);
      expect(JSON.parse(status.body)).toMatchObject({ kind: 'Status', code: 500, reason: 'InternalError', message: 'Internal error occurred: got unexpected nil transformer' });
      const created = await k.k(['create', 'secret', 'generic', 'refused', '-n', 'default', '--from-literal=a=b']);
      // kubectl create secret prints the Status message its own way ("error: failed to create secret <message>").
      expect(created.code).not.toBe(0);
      expect(created.stderr).toContain('Internal error occurred: got unexpected nil transformer');
      // The health check's first Status call may still be in flight on a loaded machine: poll until it has failed.
      const kmsDown = '[-]kms-providers failed: kms-provider-0: failed to perform status section of the healthz check for KMS Provider e2e, error: rpc error: code = DeadlineExceeded desc = context deadline exceeded';
      let readyz = await down.core.request('GET', '/readyz?verbose');
      await until(async () => (readyz = await down.core.request('GET', '/readyz?verbose')).body.includes(kmsDown), 30_000);
      expect(readyz.status).toBe(500);
      expect(readyz.body).toContain(kmsDown);
      expect((await raw('/registry/secrets/default/s1')).equals(before)).toBe(true);
      expect(await etcd.getKey('/registry/secrets/default/refused', 'test')).toBeUndefined();

      await startPlugin(downSocket);
      expect(await until(async () => (await k.k(['get', 'secret', 's1', '-n', 'default', '-o', 'jsonpath={.data.password}'])).stdout === Buffer.from(PLAINTEXT).toString('base64'), 30_000)).toBe(true);
      await k.ok(['create', 'secret', 'generic', 'refused', '-n', 'default', '--from-literal=a=b']);
      expect((await down.core.request('GET', '/readyz?verbose')).body).toContain('[+]kms-providers ok');
    } finally {
      downSource.stop();
      await down.stop();
    }
  }, 120_000);
});
