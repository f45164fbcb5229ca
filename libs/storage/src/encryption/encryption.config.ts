import type { GroupResource } from '@kube/apimachinery';
import { parse } from 'yaml';
import { AesCbcTransformer, AesGcmTransformer, IdentityTransformer, type PrefixTransformer, PrefixTransformers, SecretboxTransformer, type ValueTransformer } from './value.transformer';

/** A key of an aescbc, aesgcm or secretbox provider (apiserver.config.k8s.io/v1 Key). */
export interface EncryptionKey {
  name: string;
  /** base64 of the key bytes. */
  secret: string;
}

/** One provider of a resource rule (apiserver.config.k8s.io/v1 ProviderConfiguration; kms is not supported yet). */
export interface EncryptionProvider {
  identity?: Record<string, never>;
  aescbc?: { keys: EncryptionKey[] };
  aesgcm?: { keys: EncryptionKey[] };
  secretbox?: { keys: EncryptionKey[] };
  kms?: unknown;
}

/** kube's `apiserver.config.k8s.io/v1` EncryptionConfiguration (the file of --encryption-provider-config). */
export interface EncryptionConfiguration {
  kind: 'EncryptionConfiguration';
  apiVersion: string;
  resources: Array<{ resources: string[]; providers: EncryptionProvider[] }>;
}

const API_VERSIONS = new Set(['apiserver.config.k8s.io/v1', 'apiserver.k8s.io/v1']);
const AES_KEY_SIZES = new Set([16, 24, 32]);

/**
 * The transformers of an EncryptionConfiguration per group/resource, looked up as kube's DynamicTransformers do:
 * the exact resource (`secrets`, `deployments.apps`), then its group's wildcard (`*.apps`, `*.` for the core
 * group), then `*.*`. A resource no rule names has no transformer: it is stored as plain JSON on the unchanged path.
 */
export class EncryptionConfig {
  private constructor(private readonly byResource: ReadonlyMap<string, ValueTransformer>) {}

  static parse(text: string, source = 'encryption provider configuration'): EncryptionConfig {
    let doc: unknown;
    try {
      doc = parse(text);
    } catch (err) {
      throw new Error(`error while parsing file ${source}: ${(err as Error).message}`);
    }
    return EncryptionConfig.from(doc, source);
  }

  static from(doc: unknown, source = 'encryption provider configuration'): EncryptionConfig {
    const config = doc as Partial<EncryptionConfiguration> | null;
    if (!config || typeof config !== 'object') throw new Error(`${source}: empty encryption configuration`);
    if (config.kind !== 'EncryptionConfiguration') throw new Error(`${source}: kind ${JSON.stringify(config.kind)}, expected EncryptionConfiguration`);
    if (!config.apiVersion || !API_VERSIONS.has(config.apiVersion)) throw new Error(`${source}: apiVersion ${JSON.stringify(config.apiVersion)}, expected apiserver.config.k8s.io/v1`);
    if (!Array.isArray(config.resources) || config.resources.length === 0) throw new Error(`${source}: resources: Required value: resources is a required field`);
    const lists = new Map<string, PrefixTransformer[]>();
    config.resources.forEach((rule, i) => {
      const field = `resources[${i}]`;
      if (!Array.isArray(rule?.resources) || rule.resources.length === 0) throw new Error(`${source}: ${field}.resources: Required value: resources is a required field`);
      if (!Array.isArray(rule.providers) || rule.providers.length === 0) throw new Error(`${source}: ${field}.providers: Required value: provider does not contain any of the expected providers: KMS, secretbox, aesgcm, aescbc or identity`);
      const transformers = rule.providers.flatMap((p, j) => providerTransformers(p, `${source}: ${field}.providers[${j}]`));
      // kube appends the providers of every rule naming the same group/resource.
      for (const name of rule.resources) {
        const key = groupResourceKey(name);
        lists.set(key, [...(lists.get(key) ?? []), ...transformers]);
      }
    });
    const byResource = new Map<string, ValueTransformer>();
    for (const [key, list] of lists) byResource.set(key, new PrefixTransformers(list));
    return new EncryptionConfig(byResource);
  }

  /** The transformer of a group/resource, or undefined when no rule names it (plain storage). */
  transformerFor(resource: GroupResource): ValueTransformer | undefined {
    const group = resource.group ?? '';
    return this.byResource.get(`${resource.resource}.${group}`) ?? this.byResource.get(`*.${group}`) ?? this.byResource.get('*.*');
  }
}

/** kube's schema.ParseGroupResource: the resource before the first dot, the group after it (none: the core group). */
function groupResourceKey(name: string): string {
  const dot = name.indexOf('.');
  return dot < 0 ? `${name}.` : `${name.slice(0, dot)}.${name.slice(dot + 1)}`;
}

function providerTransformers(provider: EncryptionProvider, field: string): PrefixTransformer[] {
  const set = (['identity', 'aescbc', 'aesgcm', 'secretbox', 'kms'] as const).filter((k) => provider?.[k] !== undefined && provider[k] !== null);
  if (set.length !== 1) throw new Error(`${field}: Invalid value: more than one provider specified in a single element, should split into different list elements (or none: one of kms, secretbox, aesgcm, aescbc or identity is required)`);
  switch (set[0]) {
    case 'identity':
      return [{ prefix: Buffer.alloc(0), transformer: new IdentityTransformer() }];
    case 'aescbc':
      return keyed('aescbc', provider.aescbc?.keys, field, (k) => new AesCbcTransformer(k), AES_KEY_SIZES);
    case 'aesgcm':
      return keyed('aesgcm', provider.aesgcm?.keys, field, (k) => new AesGcmTransformer(k), AES_KEY_SIZES);
    case 'secretbox':
      return keyed('secretbox', provider.secretbox?.keys, field, (k) => new SecretboxTransformer(k), new Set([32]));
    default:
      throw new Error(`${field}.kms: Unsupported value: KMS providers are not supported by this server yet`);
  }
}

function keyed(provider: string, keys: EncryptionKey[] | undefined, field: string, make: (key: Buffer) => ValueTransformer, sizes: ReadonlySet<number>): PrefixTransformer[] {
  if (!Array.isArray(keys) || keys.length === 0) throw new Error(`${field}.${provider}.keys: Required value: keys is a required field`);
  return keys.map((k, i) => {
    const at = `${field}.${provider}.keys[${i}]`;
    if (!k?.name) throw new Error(`${at}.name: Required value: key's name is a required field`);
    if (k.name.includes(':')) throw new Error(`${at}.name: Invalid value: ${JSON.stringify(k.name)}: name must not contain ':'`);
    if (!k.secret) throw new Error(`${at}.secret: Required value: key's secret is a required field`);
    const bytes = Buffer.from(k.secret, 'base64');
    if (bytes.toString('base64').replace(/=+$/, '') !== k.secret.replace(/=+$/, '').trim()) throw new Error(`${at}.secret: Invalid value: "REDACTED": secrets must be base64 encoded`);
    if (!sizes.has(bytes.length)) throw new Error(`${at}.secret: Invalid value: "REDACTED": secret is not of the expected length, got ${bytes.length}, expected one of ${[...sizes].join(', ')}`);
    return { prefix: Buffer.from(`k8s:enc:${provider}:v1:${k.name}:`), transformer: make(bytes) };
  });
}
