import { createDecipheriv, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import protobuf from 'protobufjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startKmsPlugin, type KmsPlugin } from '../../../../../scripts/kms-plugin';
import { EncryptionConfig } from '../encryption.config';
import { EncryptionConfigSource } from '../encryption.source';
import type { ValueTransformer } from '../value.transformer';
import { decodeEncryptedObject, EncryptedDEKSourceType, encodeEncryptedObject, validateEncryptedObject } from './encrypted.object';
import { KUBE_LEGACY, startBase64Plugin } from './kube-fixtures.testing';

const dir = mkdtempSync(join(tmpdir(), 'kmsv2-spec-'));
const secrets = { group: '', resource: 'secrets' };
const ETCD_KEY = '/registry/secrets/default/s1';
const PLAIN = Buffer.from('{"kind":"Secret","apiVersion":"v1","metadata":{"name":"s1"},"data":{"k":"c2VjcmV0"}}');
const FAST = { pollMs: 50, retryMs: 50, writeTtlMs: 180_000, healthyTtlMs: 0, unhealthyTtlMs: 0 };
const configs: EncryptionConfig[] = [];

function kmsConfig(name: string, socket: string, extra: Record<string, unknown> = {}, timings = FAST, providers: unknown[] = []): EncryptionConfig {
  const c = EncryptionConfig.from(
    { kind: 'EncryptionConfiguration', apiVersion: 'apiserver.config.k8s.io/v1', resources: [{ resources: ['secrets'], providers: [{ kms: { apiVersion: 'v2', name, endpoint: `unix://${socket}`, timeout: '500ms', ...extra } }, ...providers] }] },
    'test',
    { kmsTimings: timings },
  );
  configs.push(c);
  return c;
}

/** A read as storage does it: the DEKs fetched first, then the synchronous decode. */
async function read(t: ValueTransformer, value: Buffer, key = ETCD_KEY): Promise<{ data: Buffer; stale: boolean }> {
  await t.prepare?.([value]);
  return t.fromStorage(value, key);
}

async function eventually(check: () => Promise<void> | void, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

afterEach(() => {
  for (const c of configs.splice(0)) c.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('KMS v2 EncryptedObject: kube byte layout', () => {
  it("decodes kube-apiserver's own values and re-encodes them byte for byte", () => {
    for (const [fixture, type] of [
      [KUBE_LEGACY.aesGcmKey, EncryptedDEKSourceType.AES_GCM_KEY],
      [KUBE_LEGACY.seed, EncryptedDEKSourceType.HKDF_SHA256_XNONCE_AES_GCM_SEED],
    ] as const) {
      const stored = Buffer.from(fixture.stored, 'base64');
      expect(stored.subarray(0, KUBE_LEGACY.prefix.length).toString()).toBe(KUBE_LEGACY.prefix);
      const body = stored.subarray(KUBE_LEGACY.prefix.length);
      const o = decodeEncryptedObject(body);
      expect(o.keyID).toBe('1');
      expect(o.encryptedDEKSource.toString()).toBe(fixture.encryptedDEKSource);
      expect(o.annotations).toEqual({ 'local-kek.kms.kubernetes.io': Buffer.from('encrypted-local-kek') });
      expect(o.encryptedDEKSourceType).toBe(type);
      validateEncryptedObject(o);
      // Go's proto.Marshal writes fields in number order, proto3 defaults left out: ours gives the same bytes.
      expect(encodeEncryptedObject(o).equals(body)).toBe(true);
    }
  });

  it("matches kube's api.proto as protobufjs reads it", async () => {
    const root = await protobuf.load(resolve(__dirname, '../../../../../api/proto/k8s.io/apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2/api.proto'));
    const type = root.lookupType('v2.EncryptedObject');
    const ours = encodeEncryptedObject({ encryptedData: Buffer.from('data'), keyID: 'key-1', encryptedDEKSource: Buffer.from('dek'), annotations: { 'b.example.com': Buffer.from('2'), 'a.example.com': Buffer.from('1') }, encryptedDEKSourceType: 1 });
    const decoded = type.toObject(type.decode(ours), { bytes: String, enums: Number }) as Record<string, unknown>;
    expect(decoded).toEqual({ encryptedData: 'ZGF0YQ==', keyID: 'key-1', encryptedDEKSource: 'ZGVr', annotations: { 'a.example.com': 'MQ==', 'b.example.com': 'Mg==' }, encryptedDEKSourceType: 1 });
    const theirs = Buffer.from(type.encode(type.fromObject({ encryptedData: Buffer.from('x'), keyID: 'k', encryptedDEKSource: Buffer.from('d'), encryptedDEKSourceType: 1 })).finish());
    expect(decodeEncryptedObject(theirs)).toMatchObject({ encryptedData: Buffer.from('x'), keyID: 'k', encryptedDEKSource: Buffer.from('d'), encryptedDEKSourceType: 1 });
  });

  it("validates as kube's ValidateEncryptedObject, with its messages", () => {
    const ok = { encryptedData: Buffer.from('d'), keyID: 'k', encryptedDEKSource: Buffer.from('s'), annotations: {}, encryptedDEKSourceType: 1 };
    const cases: Array<[object, string]> = [
      [{ encryptedDEKSourceType: 2 }, 'unknown encryptedDEKSourceType: 2'],
      [{ encryptedData: Buffer.alloc(0) }, 'encrypted data is empty'],
      [{ encryptedDEKSource: Buffer.alloc(0) }, 'failed to validate encrypted DEK source: encrypted DEK source is empty'],
      [{ encryptedDEKSource: Buffer.alloc(1025) }, 'failed to validate encrypted DEK source: encrypted DEK source is 1025 bytes, which exceeds the max size of 1024'],
      [{ keyID: '' }, 'failed to validate key id: keyID is empty'],
      [{ keyID: 'a'.repeat(1025) }, 'failed to validate key id: keyID is 1025 bytes, which exceeds the max size of 1024'],
      [{ annotations: { com: Buffer.from('x') } }, 'failed to validate annotations: annotations: Invalid value: "com": should be a domain with at least two segments separated by dots'],
      [{ annotations: { 'a.com': Buffer.alloc(32 * 1024) } }, 'failed to validate annotations: total size of annotations is 32773, which exceeds the max size of 32768'],
    ];
    for (const [change, message] of cases) expect(() => validateEncryptedObject({ ...ok, ...change })).toThrow(message);
    expect(() => validateEncryptedObject({ ...ok, annotations: { 'dev.k8s.io.': Buffer.from('x'), '10.0.0.1': Buffer.from('y') } })).not.toThrow();
    expect(() => decodeEncryptedObject(Buffer.from([0x0a, 0x05, 0x01]))).toThrow('proto: cannot parse invalid wire-format data');
  });
});

describe('KMS v2 provider with kube test plugin', () => {
  let socket: string;
  let plugin: Awaited<ReturnType<typeof startBase64Plugin>>;

  beforeAll(async () => {
    socket = join(dir, 'base64.sock');
    plugin = await startBase64Plugin(socket);
  });

  afterAll(() => plugin.close());

  it('reads what kube-apiserver 1.27 (plain DEK) and 1.28 (DEK seed) wrote, one Decrypt per DEK source', async () => {
    const config = kmsConfig('kms-provider', socket);
    await config.ready();
    const t = config.transformerFor(secrets)!;
    const before = plugin.decrypts;
    for (const fixture of [KUBE_LEGACY.aesGcmKey, KUBE_LEGACY.seed]) {
      const stored = Buffer.from(fixture.stored, 'base64');
      for (let i = 0; i < 3; i++) {
        const { data, stale } = await read(t, stored, fixture.etcdKey);
        expect(data.subarray(0, 4)).toEqual(Buffer.from('k8s\u0000'));
        expect(data.includes(Buffer.from(KUBE_LEGACY.secretValue))).toBe(true);
        // Key ID "1" is current; the plain-DEK value is stale only by its source type (an update rewrites it with a seed).
        expect(stale).toBe(fixture === KUBE_LEGACY.aesGcmKey);
      }
    }
    expect(plugin.decrypts - before).toBe(2);
    // The etcd key is authenticated: the same bytes under another key do not decrypt.
    expect(() => t.fromStorage(Buffer.from(KUBE_LEGACY.seed.stored, 'base64'), '/registry/secrets/other/x')).toThrow('cipher: message authentication failed');
  });

  it("refuses an invalid key ID from Status as kube's probe does, and rotates when the plugin's key ID changes", async () => {
    plugin.keyID = '';
    try {
      const config = kmsConfig('kms-provider', socket);
      await config.ready();
      await expect(config.checkKmsProviders()).rejects.toThrow('kms-provider-0: kmsv2 Provider kms-provider is not healthy, error: got invalid KMSv2 KeyID hash "": keyID is empty');
      expect(() => config.transformerFor(secrets)!.toStorage(PLAIN, ETCD_KEY)).toThrow('got unexpected nil transformer');
      plugin.keyID = '2';
      await config.checkKmsProviders();
      expect(decodeEncryptedObject(config.transformerFor(secrets)!.toStorage(PLAIN, ETCD_KEY).subarray(KUBE_LEGACY.prefix.length)).keyID).toBe('2');
    } finally {
      plugin.keyID = '1';
    }
  });

  it("writes what kube reads: prefix, EncryptedObject with the seed type, HKDF-SHA256(seed, info) key, the etcd key authenticated", async () => {
    const config = kmsConfig('kms-provider', socket);
    await config.ready();
    const t = config.transformerFor(secrets)!;
    const stored = t.toStorage(PLAIN, ETCD_KEY);
    expect(stored.subarray(0, KUBE_LEGACY.prefix.length).toString()).toBe(KUBE_LEGACY.prefix);
    expect(stored.includes(Buffer.from('c2VjcmV0'))).toBe(false);
    const o = decodeEncryptedObject(stored.subarray(KUBE_LEGACY.prefix.length));
    expect(o).toMatchObject({ keyID: '1', encryptedDEKSourceType: 1, annotations: { 'local-kek.kms.kubernetes.io': Buffer.from('encrypted-local-kek') } });
    // Fields in Go's order (proto.Marshal): what is stored re-encodes to the same bytes.
    expect(encodeEncryptedObject(o).equals(stored.subarray(KUBE_LEGACY.prefix.length))).toBe(true);
    // Decrypted the way kube's code does it, written out here independently of ours.
    const seed = Buffer.from(o.encryptedDEKSource.toString(), 'base64');
    expect(seed.length).toBe(32);
    const info = o.encryptedData.subarray(0, 32);
    const key = createHmac('sha256', seed).update(info).update(Buffer.from([1])).digest();
    const sealed = o.encryptedData.subarray(32);
    const d = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
    d.setAAD(Buffer.from(ETCD_KEY));
    d.setAuthTag(sealed.subarray(sealed.length - 16));
    expect(Buffer.concat([d.update(sealed.subarray(12, sealed.length - 16)), d.final()])).toEqual(PLAIN);
    // One seed for every write: the same encrypted DEK source, a new info (derived key) each time.
    const again = decodeEncryptedObject(t.toStorage(PLAIN, ETCD_KEY).subarray(KUBE_LEGACY.prefix.length));
    expect(again.encryptedDEKSource).toEqual(o.encryptedDEKSource);
    expect(again.encryptedData.subarray(0, 32)).not.toEqual(info);
  });
});

describe('KMS v2 provider with the local plugin (scripts/kms-plugin.ts)', () => {
  let socket: string;
  let keyFile: string;
  let plugin: KmsPlugin | undefined;

  const writeKeys = (...ids: string[]): void => writeFileSync(keyFile, ids.map((id) => `${id} ${Buffer.alloc(32, id.charCodeAt(id.length - 1)).toString('base64')}\n`).join(''));

  beforeAll(() => {
    socket = join(dir, 'local.sock');
    keyFile = join(dir, 'keys');
  });

  afterEach(async () => {
    await plugin?.close();
    plugin = undefined;
  });

  it('encrypts one seed at start, reuses it for every write, and another server decrypts it once', async () => {
    writeKeys('key-1');
    plugin = await startKmsPlugin({ socket, keyFile });
    const writer = kmsConfig('p1', socket).transformerFor(secrets)!;
    await configs[configs.length - 1].ready();
    const values = Array.from({ length: 5 }, (_, i) => writer.toStorage(Buffer.from(`secret-${i}`), `/registry/secrets/default/s${i}`));
    expect(plugin.calls.encrypt).toBe(1);
    // The writer has its own seed cached: no Decrypt.
    for (let i = 0; i < 5; i++) expect((await read(writer, values[i], `/registry/secrets/default/s${i}`)).data.toString()).toBe(`secret-${i}`);
    expect(plugin.calls.decrypt).toBe(0);
    const reader = kmsConfig('p1', socket).transformerFor(secrets)!;
    await configs[configs.length - 1].ready();
    // Five values, one DEK source, read concurrently: one Decrypt.
    await reader.prepare?.(values);
    for (let i = 0; i < 5; i++) expect(reader.fromStorage(values[i], `/registry/secrets/default/s${i}`)).toEqual({ data: Buffer.from(`secret-${i}`), stale: false });
    expect(plugin.calls.decrypt).toBe(1);
  });

  it('rotates to a new seed when Status reports a new key ID; older values read as stale and still decrypt', async () => {
    writeKeys('key-1');
    plugin = await startKmsPlugin({ socket, keyFile });
    const config = kmsConfig('p2', socket);
    await config.ready();
    const t = config.transformerFor(secrets)!;
    const old = t.toStorage(PLAIN, ETCD_KEY);
    writeKeys('key-2', 'key-1');
    plugin.reload();
    await eventually(() => expect(decodeEncryptedObject(t.toStorage(PLAIN, ETCD_KEY).subarray('k8s:enc:kms:v2:p2:'.length)).keyID).toBe('key-2'));
    expect(plugin.calls.encrypt).toBe(2);
    expect(await read(t, old)).toEqual({ data: PLAIN, stale: true });
    expect(await read(t, t.toStorage(PLAIN, ETCD_KEY))).toEqual({ data: PLAIN, stale: false });
  });

  it('with the plugin down: the health check and writes fail with kube messages, then recover when it comes up', async () => {
    writeKeys('key-1');
    const config = kmsConfig('p3', socket, { timeout: '200ms' });
    await config.ready();
    const t = config.transformerFor(secrets)!;
    expect(() => t.toStorage(PLAIN, ETCD_KEY)).toThrow(/^got unexpected nil transformer$/);
    await expect(config.checkKmsProviders()).rejects.toThrow(
      'kms-provider-0: failed to perform status section of the healthz check for KMS Provider p3, error: rpc error: code = DeadlineExceeded desc = context deadline exceeded',
    );
    plugin = await startKmsPlugin({ socket, keyFile });
    await eventually(() => config.checkKmsProviders());
    expect((await read(t, t.toStorage(PLAIN, ETCD_KEY))).data).toEqual(PLAIN);
  });

  it('a DEK it cannot fetch is the read error (kube: failed to decrypt DEK), and a write after the write TTL fails', async () => {
    writeKeys('key-1');
    plugin = await startKmsPlugin({ socket, keyFile });
    const other = kmsConfig('p4', socket);
    await other.ready();
    const foreign = other.transformerFor(secrets)!.toStorage(PLAIN, ETCD_KEY);
    const config = kmsConfig('p4', socket, { timeout: '200ms' }, { ...FAST, pollMs: 3_600_000, writeTtlMs: 2000 });
    await config.ready();
    const t = config.transformerFor(secrets)!;
    const own = t.toStorage(PLAIN, ETCD_KEY);
    await plugin.close();
    plugin = undefined;
    // Its own seed is cached: reads go on without the plugin, and writes until the write TTL ends.
    expect((await read(t, own)).data).toEqual(PLAIN);
    await expect(read(t, foreign)).rejects.toThrow('failed to decrypt DEK, error: rpc error: code = DeadlineExceeded desc = context deadline exceeded');
    await eventually(() => expect(() => t.toStorage(PLAIN, ETCD_KEY)).toThrow(/^encryptedDEKSource with keyID hash "sha256:[0-9a-f]{64}" expired at \S+Z \(current time is \S+Z\)$/));
    expect((await read(t, own)).data).toEqual(PLAIN);
  });

  it('a reloaded file with a kms provider is taken once its plugin answers; until then the current one serves', async () => {
    writeKeys('key-1');
    const file = join(dir, 'reload.yaml');
    const aesgcmOnly = `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n      - aesgcm: {keys: [{name: g, secret: ${Buffer.alloc(32, 7).toString('base64')}}]}\n`;
    const withKms = (sock: string): string => aesgcmOnly.replace('    providers:\n', `    providers:\n      - kms: {apiVersion: v2, name: p6, endpoint: "unix://${sock}", timeout: 200ms}\n`);
    writeFileSync(file, aesgcmOnly);
    const logs: string[] = [];
    const source = EncryptionConfigSource.fromFile(file, { kmsTimings: FAST, log: (m) => logs.push(m) });
    try {
      const prefix = (): string => source.transformerFor(secrets)!.toStorage(PLAIN, ETCD_KEY).subarray(0, 18).toString();
      writeFileSync(file, withKms(join(dir, 'nobody.sock')));
      expect(source.reload()).toBe(false);
      await eventually(() => expect(logs.join('\n')).toContain('its KMS providers are not healthy, keeping the current one: kms-provider-0: failed to perform status section'));
      expect(prefix()).toBe('k8s:enc:aesgcm:v1:');
      plugin = await startKmsPlugin({ socket, keyFile });
      writeFileSync(file, withKms(socket));
      source.reload();
      await eventually(() => expect(prefix()).toBe('k8s:enc:kms:v2:p6:'));
      expect(source.servesKmsHealthCheck).toBe(true);
      await source.checkKmsProviders();
    } finally {
      source.stop();
    }
  });

  it('reads aesgcm values after kms is put first (migration), and marks them stale', async () => {
    writeKeys('key-1');
    plugin = await startKmsPlugin({ socket, keyFile });
    const aesgcm = { aesgcm: { keys: [{ name: 'g', secret: Buffer.alloc(32, 7).toString('base64') }] } };
    const before = EncryptionConfig.from({ kind: 'EncryptionConfiguration', apiVersion: 'apiserver.config.k8s.io/v1', resources: [{ resources: ['secrets'], providers: [aesgcm] }] });
    const old = before.transformerFor(secrets)!.toStorage(PLAIN, ETCD_KEY);
    const config = kmsConfig('p5', socket, {}, FAST, [aesgcm]);
    await config.ready();
    const t = config.transformerFor(secrets)!;
    expect(await read(t, old)).toEqual({ data: PLAIN, stale: true });
    expect(t.toStorage(PLAIN, ETCD_KEY).subarray(0, 18).toString()).toBe('k8s:enc:kms:v2:p5:');
  });
});

describe('KMS v2 configuration', () => {
  const build = (kms: Record<string, unknown>, second?: Record<string, unknown>): EncryptionConfig =>
    EncryptionConfig.from({ kind: 'EncryptionConfiguration', apiVersion: 'apiserver.config.k8s.io/v1', resources: [{ resources: ['secrets'], providers: [{ kms }, ...(second ? [{ kms: second }] : [])] }] }, 'f');

  it("refuses what kube's validation refuses, with its messages", () => {
    const ok = { apiVersion: 'v2', name: 'a', endpoint: 'unix:///tmp/a.sock' };
    expect(() => build({ ...ok, name: '' })).toThrow('f: resources[0].providers[0].kms.name: Required value: name is a mandatory field for a provider');
    expect(() => build({ ...ok, name: 'a:b' })).toThrow(`kms.name: Invalid value: "a:b": invalid KMS provider name a:b, must not contain ':'`);
    expect(() => build(ok, ok)).toThrow('providers[1].kms.name: Invalid value: "a": duplicate KMS provider name a, names must be unique');
    expect(() => build({ ...ok, endpoint: 'tcp://x:1' })).toThrow('kms.endpoint: Invalid value: "tcp://x:1": unsupported scheme "tcp" for KMS provider, only unix is supported');
    expect(() => build({ ...ok, timeout: '0s' })).toThrow('kms.timeout: Invalid value: "0s": timeout should be a positive value');
    expect(() => build({ ...ok, cachesize: 10 })).toThrow('kms.cachesize: Invalid value: 10: cachesize is not supported in v2');
    expect(() => build({ name: 'a', endpoint: 'unix:///tmp/a.sock' })).toThrow('KMSv1 is deprecated and will only receive security updates going forward. Use KMSv2 instead.');
    build(ok).close();
  });

  it("takes kube's documented KMS v2 example unchanged (two plugins, the first writes)", () => {
    const config = EncryptionConfig.parse(`
apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources:
      - secrets
    providers:
      - kms:
          apiVersion: v2
          name: myKmsPluginFoo
          endpoint: unix:///tmp/socketfile-foo.sock
          timeout: 3s
      - kms:
          apiVersion: v2
          name: myKmsPluginBar
          endpoint: unix:///tmp/socketfile-bar.sock
`);
    try {
      expect(config.kmsProviders.map((p) => [p.name, p.prefix.toString(), p.timeoutMs])).toEqual([
        ['myKmsPluginFoo', 'k8s:enc:kms:v2:myKmsPluginFoo:', 3000],
        ['myKmsPluginBar', 'k8s:enc:kms:v2:myKmsPluginBar:', 3000],
      ]);
      expect(config.closeGracePeriodMs).toBe(12_000);
      expect(config.transformerFor(secrets)?.prepare).toBeDefined();
    } finally {
      config.close();
    }
  });
});
