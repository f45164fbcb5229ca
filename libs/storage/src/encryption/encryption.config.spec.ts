import { createCipheriv } from 'node:crypto';
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { EncryptionConfig } from './encryption.config';

const KEY1 = Buffer.alloc(32, 1);
const KEY2 = Buffer.alloc(32, 2);
const ETCD_KEY = '/registry/secrets/default/s1';
const PLAIN = Buffer.from('{"kind":"Secret","apiVersion":"v1","metadata":{"name":"s1"},"data":{"k":"c2VjcmV0"}}');

function config(providers: unknown[], resources = ['secrets']): EncryptionConfig {
  return EncryptionConfig.from({ kind: 'EncryptionConfiguration', apiVersion: 'apiserver.config.k8s.io/v1', resources: [{ resources, providers }] });
}

const aescbc = (name: string, key: Buffer) => ({ aescbc: { keys: [{ name, secret: key.toString('base64') }] } });
const aesgcm = (name: string, key: Buffer) => ({ aesgcm: { keys: [{ name, secret: key.toString('base64') }] } });
const secretbox = (name: string, key: Buffer) => ({ secretbox: { keys: [{ name, secret: key.toString('base64') }] } });
const secrets = { group: '', resource: 'secrets' };

describe('EncryptionConfig: kube byte layouts', () => {
  it('aescbc reads a value built as kube builds it: prefix, 16-byte IV, AES-CBC with PKCS#7 (a full block of padding when aligned)', () => {
    for (const plain of [PLAIN, Buffer.alloc(32, 0x61)]) {
      const iv = Buffer.alloc(16, 7);
      const c = createCipheriv('aes-256-cbc', KEY1, iv);
      c.setAutoPadding(false);
      const pad = 16 - (plain.length % 16);
      const body = Buffer.concat([c.update(Buffer.concat([plain, Buffer.alloc(pad, pad)])), c.final()]);
      const stored = Buffer.concat([Buffer.from('k8s:enc:aescbc:v1:key1:'), iv, body]);
      const t = config([aescbc('key1', KEY1)]).transformerFor(secrets);
      expect(t?.fromStorage(stored, ETCD_KEY)).toEqual({ data: plain, stale: false });
      const written = t?.toStorage(plain, ETCD_KEY) as Buffer;
      expect(written.subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key1:');
      expect(written.length).toBe(23 + 16 + plain.length + pad);
    }
  });

  it('aesgcm reads a value built as kube builds it: prefix, 12-byte nonce, sealed data and tag, the etcd key authenticated', () => {
    const nonce = Buffer.alloc(12, 9);
    const c = createCipheriv('aes-256-gcm', KEY1, nonce);
    c.setAAD(Buffer.from(ETCD_KEY));
    const stored = Buffer.concat([Buffer.from('k8s:enc:aesgcm:v1:k:'), nonce, c.update(PLAIN), c.final(), c.getAuthTag()]);
    const t = config([aesgcm('k', KEY1)]).transformerFor(secrets);
    expect(t?.fromStorage(stored, ETCD_KEY).data).toEqual(PLAIN);
    // The same bytes under another etcd key do not authenticate (a value copied to another object).
    expect(() => t?.fromStorage(stored, '/registry/secrets/default/other')).toThrow('cipher: message authentication failed');
    const written = t?.toStorage(PLAIN, ETCD_KEY) as Buffer;
    expect(written.length).toBe('k8s:enc:aesgcm:v1:k:'.length + 12 + PLAIN.length + 16);
  });

  it('secretbox reads a value built as kube builds it: prefix, 24-byte nonce, NaCl secretbox', () => {
    const nonce = new Uint8Array(24).fill(3);
    const stored = Buffer.concat([Buffer.from('k8s:enc:secretbox:v1:sb:'), nonce, nacl.secretbox(PLAIN, nonce, KEY2)]);
    const t = config([secretbox('sb', KEY2)]).transformerFor(secrets);
    expect(t?.fromStorage(stored, ETCD_KEY).data).toEqual(PLAIN);
    expect(t?.toStorage(PLAIN, ETCD_KEY).length).toBe('k8s:enc:secretbox:v1:sb:'.length + 24 + 16 + PLAIN.length);
    // A wrong key: secretbox.go's message.
    expect(() => config([secretbox('sb', KEY1)]).transformerFor(secrets)?.fromStorage(stored, ETCD_KEY)).toThrow(/^output array was not large enough for encryption$/);
  });

  it('round trips with every provider and never stores the plaintext', () => {
    for (const p of [aescbc('a', KEY1), aesgcm('b', Buffer.alloc(16, 4)), secretbox('c', KEY2), { identity: {} }]) {
      const t = config([p]).transformerFor(secrets);
      const stored = t?.toStorage(PLAIN, ETCD_KEY) as Buffer;
      if (!('identity' in p)) expect(stored.includes(Buffer.from('c2VjcmV0'))).toBe(false);
      expect(t?.fromStorage(stored, ETCD_KEY)).toEqual({ data: PLAIN, stale: false });
    }
  });
});

describe('EncryptionConfig: providers in order', () => {
  it('the first provider writes; a read by a later provider or key is stale (rotation rewrites it)', () => {
    const old = config([aescbc('key1', KEY1)]).transformerFor(secrets);
    const stored = old?.toStorage(PLAIN, ETCD_KEY) as Buffer;
    const rotated = config([{ aescbc: { keys: [{ name: 'key2', secret: KEY2.toString('base64') }, { name: 'key1', secret: KEY1.toString('base64') }] } }]).transformerFor(secrets);
    expect(rotated?.fromStorage(stored, ETCD_KEY)).toEqual({ data: PLAIN, stale: true });
    expect((rotated?.toStorage(PLAIN, ETCD_KEY) as Buffer).subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key2:');
  });

  it('identity reads plain data and, listed first, lets the encrypting provider read what it wrote (migration away)', () => {
    const enc = config([aescbc('key1', KEY1)]).transformerFor(secrets);
    const stored = enc?.toStorage(PLAIN, ETCD_KEY) as Buffer;
    const away = config([{ identity: {} }, aescbc('key1', KEY1)]).transformerFor(secrets);
    expect(away?.fromStorage(stored, ETCD_KEY)).toEqual({ data: PLAIN, stale: true });
    expect(away?.fromStorage(PLAIN, ETCD_KEY)).toEqual({ data: PLAIN, stale: false });
    expect(away?.toStorage(PLAIN, ETCD_KEY)).toEqual(PLAIN);
  });

  it("kube's errors: no provider for the prefix, a wrong key, identity alone on encrypted data", () => {
    const stored = config([aescbc('key1', KEY1)]).transformerFor(secrets)?.toStorage(PLAIN, ETCD_KEY) as Buffer;
    expect(() => config([aesgcm('key1', KEY1)]).transformerFor(secrets)?.fromStorage(stored, ETCD_KEY)).toThrow(/^no matching prefix found$/);
    expect(() => config([aescbc('key1', KEY2)]).transformerFor(secrets)?.fromStorage(stored, ETCD_KEY)).toThrow(/invalid (PKCS7 data|padding on input)/);
    expect(() => config([{ identity: {} }]).transformerFor(secrets)?.fromStorage(stored, ETCD_KEY)).toThrow(/^no matching prefix found$/);
  });
});

describe('EncryptionConfig: resources', () => {
  it('matches exact names, group wildcards and *.*, in that order; unnamed resources have no transformer', () => {
    const c = EncryptionConfig.parse(`
apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets, deployments.apps]
    providers: [{aescbc: {keys: [{name: a, secret: ${KEY1.toString('base64')}}]}}]
  - resources: ['*.example.com']
    providers: [{secretbox: {keys: [{name: b, secret: ${KEY2.toString('base64')}}]}}]
  - resources: ['*.']
    providers: [{aesgcm: {keys: [{name: c, secret: ${KEY1.toString('base64')}}]}}]
`);
    const prefixOf = (group: string, resource: string) => c.transformerFor({ group, resource })?.toStorage(PLAIN, ETCD_KEY).subarray(0, 24).toString();
    expect(prefixOf('', 'secrets')).toMatch(/^k8s:enc:aescbc:v1:a:/);
    expect(prefixOf('apps', 'deployments')).toMatch(/^k8s:enc:aescbc:v1:a:/);
    expect(prefixOf('stable.example.com', 'widgets')).toBeUndefined();
    expect(prefixOf('example.com', 'widgets')).toMatch(/^k8s:enc:secretbox:v1:b/);
    expect(prefixOf('', 'configmaps')).toMatch(/^k8s:enc:aesgcm:v1:c:/);
    expect(c.transformerFor({ group: 'apps', resource: 'replicasets' })).toBeUndefined();
    const all = config([aescbc('a', KEY1)], ['*.*']);
    expect(all.transformerFor({ group: 'batch', resource: 'jobs' })).toBeDefined();
  });

  it('refuses invalid files', () => {
    expect(() => config([{ aescbc: { keys: [{ name: 'a', secret: Buffer.alloc(10).toString('base64') }] } }])).toThrow(/expected length/);
    expect(() => config([{ aescbc: { keys: [] } }])).toThrow(/keys is a required field/);
    expect(() => config([{}])).toThrow(/provider/);
    expect(() => EncryptionConfig.from({ kind: 'Other', apiVersion: 'apiserver.config.k8s.io/v1', resources: [] })).toThrow(/kind/);
  });
});

describe('EncryptionConfig: metrics', () => {
  it("records kube's apiserver_storage_transformation_operations_total and _duration_seconds", async () => {
    const { register } = await import('prom-client');
    const t = config([aescbc('metrics', KEY1)]).transformerFor(secrets)!;
    t.fromStorage(t.toStorage(PLAIN, ETCD_KEY), ETCD_KEY);
    expect(() => t.fromStorage(Buffer.from('k8s:enc:aesgcm:v1:x:abc'), ETCD_KEY)).toThrow('no matching prefix found');
    const text = await register.metrics();
    expect(text).toContain('apiserver_storage_transformation_operations_total{transformation_type="to_storage",transformer_prefix="k8s:enc:aescbc:v1:metrics:",status="OK"} 1');
    expect(text).toContain('apiserver_storage_transformation_operations_total{transformation_type="from_storage",transformer_prefix="k8s:enc:aescbc:v1:metrics:",status="OK"} 1');
    expect(text).toContain('transformation_type="from_storage",transformer_prefix="unknown",status="unknown-non-grpc"}');
    expect(text).toMatch(/apiserver_storage_transformation_duration_seconds_count\{transformation_type="from_storage",transformer_prefix="k8s:enc:aescbc:v1:metrics:"\} 1/);
  });
});
