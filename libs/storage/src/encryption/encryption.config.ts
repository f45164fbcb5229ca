import type { GroupResource } from '@kube/apimachinery';
import { parse } from 'yaml';
import { parseGoDuration } from '../compactor';
import { GrpcKmsService, grpcTargetOf, type KmsService } from './kmsv2/kms.service';
import { KMS_V2_TIMINGS, KmsV2Provider, type KmsV2Timings } from './kmsv2/kmsv2.provider';
import { AesCbcTransformer, AesGcmTransformer, IdentityTransformer, type PrefixTransformer, PrefixTransformers, SecretboxTransformer, type ValueTransformer } from './value.transformer';

/** A key of an aescbc, aesgcm or secretbox provider (apiserver.config.k8s.io/v1 Key). */
export interface EncryptionKey {
  name: string;
  /** base64 of the key bytes. */
  secret: string;
}

/** A `kms` provider (apiserver.config.k8s.io/v1 KMSConfiguration); only `apiVersion: v2` is served (kube's KMSv1 gate is off by default). */
export interface KmsConfiguration {
  /** Default v1, as kube's defaulting (refused: KMS v1 is deprecated). */
  apiVersion?: string;
  /** Unique across the file; part of the stored prefix `k8s:enc:kms:v2:<name>:`. */
  name: string;
  /** `unix:///path/to/socket` (or `unix:///@abstract`). */
  endpoint: string;
  /** A Go duration bounding each call to the plugin (default 3s). */
  timeout?: string;
  /** KMS v1 only. */
  cachesize?: number;
}

/** One provider of a resource rule (apiserver.config.k8s.io/v1 ProviderConfiguration). */
export interface EncryptionProvider {
  identity?: Record<string, never>;
  aescbc?: { keys: EncryptionKey[] };
  aesgcm?: { keys: EncryptionKey[] };
  secretbox?: { keys: EncryptionKey[] };
  kms?: KmsConfiguration;
}

export interface EncryptionConfigOptions {
  log?: (message: string) => void;
  /** KMS v2 poll and expiry timings (tests shorten them); kube's by default. */
  kmsTimings?: KmsV2Timings;
  /** The plugin connection of a kms provider; gRPC on its endpoint by default. */
  kmsService?: (endpoint: string, name: string, timeoutMs: number) => KmsService;
}

/** What building one file collects across its rules. */
interface BuildContext {
  kms: KmsV2Provider[];
  options: EncryptionConfigOptions;
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
  private constructor(
    private readonly byResource: ReadonlyMap<string, ValueTransformer>,
    /** The KMS v2 providers, in file order (kube's kms-provider-<index>); their plugin connections are open. */
    readonly kmsProviders: readonly KmsV2Provider[] = [],
  ) {}

  static parse(text: string, source = 'encryption provider configuration', options: EncryptionConfigOptions = {}): EncryptionConfig {
    let doc: unknown;
    try {
      doc = parse(text);
    } catch (err) {
      throw new Error(`error while parsing file ${source}: ${(err as Error).message}`);
    }
    return EncryptionConfig.from(doc, source, options);
  }

  /**
   * Builds the transformers; KMS v2 providers connect to their plugins and start priming (await ready()). An
   * invalid file throws, and closes whatever it had opened.
   */
  static from(doc: unknown, source = 'encryption provider configuration', options: EncryptionConfigOptions = {}): EncryptionConfig {
    const ctx: BuildContext = { kms: [], options };
    try {
      return EncryptionConfig.build(doc, source, ctx);
    } catch (err) {
      for (const p of ctx.kms) p.close();
      throw err;
    }
  }

  private static build(doc: unknown, source: string, ctx: BuildContext): EncryptionConfig {
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
      const transformers = rule.providers.flatMap((p, j) => providerTransformers(p, `${source}: ${field}.providers[${j}]`, ctx));
      // kube appends the providers of every rule naming the same group/resource.
      for (const name of rule.resources) {
        const key = groupResourceKey(name);
        lists.set(key, [...(lists.get(key) ?? []), ...transformers]);
      }
    });
    const byResource = new Map<string, ValueTransformer>();
    for (const [key, list] of lists) byResource.set(key, new PrefixTransformers(list));
    for (const p of ctx.kms) void p.start();
    return new EncryptionConfig(byResource, ctx.kms);
  }

  /** Resolves once every KMS provider's first Status (and seed) has been answered, well or not: kube primes them inline at start. */
  async ready(): Promise<void> {
    await Promise.all(this.kmsProviders.map((p) => p.start()));
  }

  /**
   * kube's `kms-providers` health check (healthz, readyz): each KMS v2 provider's Status, in order; the failing
   * ones reported as `kms-provider-<index>: <error>`.
   */
  async checkKmsProviders(): Promise<void> {
    const errs: string[] = [];
    for (let i = 0; i < this.kmsProviders.length; i++) {
      try {
        await this.kmsProviders[i].check();
      } catch (err) {
        errs.push(`kms-provider-${i}: ${(err as Error).message}`);
      }
    }
    if (errs.length) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  }

  /** The longest a read or write through this configuration can wait on a plugin: kube's KMSCloseGracePeriod (twice the sum of the timeouts). */
  get closeGracePeriodMs(): number {
    return 2 * this.kmsProviders.reduce((sum, p) => sum + p.timeoutMs, 0);
  }

  /** Closes the KMS plugin connections and stops their polls. */
  close(): void {
    for (const p of this.kmsProviders) p.close();
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

function providerTransformers(provider: EncryptionProvider, field: string, ctx: BuildContext): PrefixTransformer[] {
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
      return [kmsTransformer(provider.kms as KmsConfiguration, `${field}.kms`, ctx)];
  }
}

/** kube's validateKMSConfiguration and kmsPrefixTransformer, with their messages. */
function kmsTransformer(kms: KmsConfiguration, field: string, ctx: BuildContext): PrefixTransformer {
  const apiVersion = kms.apiVersion || 'v1';
  const name = kms.name ?? '';
  if (!name) throw new Error(`${field}.name: Required value: name is a mandatory field for a provider`);
  if (apiVersion !== 'v1' && name.includes(':')) throw new Error(`${field}.name: Invalid value: ${JSON.stringify(name)}: invalid KMS provider name ${name}, must not contain ':'`);
  if (ctx.kms.some((p) => p.name === name)) throw new Error(`${field}.name: Invalid value: ${JSON.stringify(name)}: duplicate KMS provider name ${name}, names must be unique`);
  const timeout = kms.timeout ?? '3s';
  let timeoutMs: number;
  try {
    timeoutMs = parseGoDuration(String(timeout));
  } catch (err) {
    throw new Error(`${field}.timeout: Invalid value: ${JSON.stringify(timeout)}: ${(err as Error).message}`);
  }
  if (!(timeoutMs > 0)) throw new Error(`${field}.timeout: Invalid value: ${JSON.stringify(timeout)}: timeout should be a positive value`);
  if (!kms.endpoint) throw new Error(`${field}.endpoint: Invalid value: "": endpoint is a mandatory field for a kms`);
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(kms.endpoint)?.[1] ?? '';
  if (scheme !== 'unix') throw new Error(`${field}.endpoint: Invalid value: ${JSON.stringify(kms.endpoint)}: unsupported scheme ${JSON.stringify(scheme)} for KMS provider, only unix is supported`);
  if (apiVersion === 'v2' && kms.cachesize !== undefined) throw new Error(`${field}.cachesize: Invalid value: ${kms.cachesize}: cachesize is not supported in v2`);
  if (apiVersion === 'v1') throw new Error(`${field}: KMSv1 is deprecated and will only receive security updates going forward. Use KMSv2 instead.  Set --feature-gates=KMSv1=true to use the deprecated KMSv1 feature.`);
  if (apiVersion !== 'v2') throw new Error(`${field}.apiVersion: Invalid value: ${JSON.stringify(apiVersion)}: unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported`);
  grpcTargetOf(kms.endpoint);
  const log = ctx.options.log ?? (() => undefined);
  const service = ctx.options.kmsService ? ctx.options.kmsService(kms.endpoint, name, timeoutMs) : new GrpcKmsService(kms.endpoint, name, timeoutMs);
  const provider = new KmsV2Provider(name, service, timeoutMs, ctx.options.kmsTimings ?? KMS_V2_TIMINGS, log);
  ctx.kms.push(provider);
  return { prefix: provider.prefix, transformer: provider.transformer };
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
