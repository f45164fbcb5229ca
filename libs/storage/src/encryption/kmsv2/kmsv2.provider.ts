import { createHash, randomUUID } from 'node:crypto';
import type { TransformedValue, ValueTransformer } from '../value.transformer';
import { dekTransformerFor, type DekTransformer, SeedTransformer } from './dek.transformers';
import { decodeEncryptedObject, dekCacheKey, EncryptedDEKSourceType, type EncryptedObject, encodeEncryptedObject, keyIDError, validateEncryptedObject } from './encrypted.object';
import type { KmsService } from './kms.service';
import { keyIDHash, recordCacheMiss, recordDekSourceCacheSize, recordInvalidKeyIDFromStatus, recordKeyID, recordKeyIDFromStatus } from './kmsv2.metrics';

/** kube's KMS v2 timings (encryptionconfig/config.go), overridable for tests. */
export interface KmsV2Timings {
  /** Status poll while healthy (kmsv2PluginHealthzPositiveInterval, 1 min). */
  pollMs: number;
  /** Status poll while failing (kmsv2PluginHealthzNegativeInterval, 10 s). */
  retryMs: number;
  /** How long writes may use the DEK/seed after the last successful Status (kmsv2PluginWriteDEKSourceMaxTTL, 3 min). */
  writeTtlMs: number;
  /** How long a health check answer is reused (kmsPluginHealthzPositiveTTL 20 s, NegativeTTL 3 s). */
  healthyTtlMs: number;
  unhealthyTtlMs: number;
}

export const KMS_V2_TIMINGS: KmsV2Timings = { pollMs: 60_000, retryMs: 10_000, writeTtlMs: 180_000, healthyTtlMs: 20_000, unhealthyTtlMs: 3_000 };

/** kube's DEK cache TTL: a decrypted DEK/seed is kept for a day after its last use by a write (reads get expired entries too). */
const DEK_CACHE_TTL_MS = 24 * 3_600_000;

/** The DEK/seed writes use now, with what is stored beside each value (kube's envelopekmsv2.State). */
interface WriteState {
  transformer: DekTransformer;
  keyID: string;
  keyIDHash: string;
  encryptedDEKSource: Buffer;
  annotations: Record<string, Buffer>;
  type: EncryptedDEKSourceType;
  cacheKey: string;
  uid: string;
  /** Fields 2 to 5 of the EncryptedObject as Go marshals them (after field 1, encryptedData): the same for every write. */
  encodedTail: Buffer;
  /** Writes fail after this (the plugin has not confirmed the key ID for writeTtlMs). */
  expiresAt: number;
}

/** Go's time.Format(time.RFC3339) of a UTC instant. */
function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The cache key as a Map key: its SHA-256, as kube's simpleCache keys it (bounded size, whatever the annotations). */
function cacheKeyOf(o: Pick<EncryptedObject, 'encryptedDEKSourceType' | 'encryptedDEKSource' | 'keyID' | 'annotations'>): string {
  return createHash('sha256').update(dekCacheKey(o)).digest('base64');
}

/** An error a caller may label with the gRPC code behind it (kube's transformation metrics use status.Code(err)). */
export class KmsError extends Error {
  constructor(
    message: string,
    readonly grpcCode?: string,
  ) {
    super(message);
  }
}

/**
 * One `kms` provider with `apiVersion: v2`: kube's kmsv2PluginProbe (Status polling, DEK/seed rotation, the health
 * check) and envelopeTransformer (the value transformer with its DEK cache) over one plugin connection.
 *
 * Writes use one seed, generated at start (Encrypt by the plugin once) and replaced when Status reports another
 * key ID; every value gets its own derived key (SeedTransformer), so nothing is rotated by use count. Reads look
 * the value's DEK/seed up by its encrypted form; one not seen yet is decrypted by the plugin before the read
 * (prepare), once for every value sharing it.
 */
export class KmsV2Provider {
  readonly prefix: Buffer;
  readonly transformer: KmsV2Transformer;
  private state?: WriteState;
  private version = '';
  private last: { err?: Error; at: number } = { at: -Infinity };
  private answerTtlMs: number;
  private checking?: Promise<void>;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  private primed?: Promise<void>;
  /** Decrypted DEKs/seeds by (hashed) cache key, with their expiry. */
  private readonly cache = new Map<string, { transformer: DekTransformer; expiresAt: number }>();
  private readonly inflight = new Map<string, Promise<void>>();
  /** The last Decrypt failure per cache key, which a read that finds no DEK reports. */
  private readonly failures = new Map<string, Error>();
  private readonly hashes = new Map<string, string>();

  constructor(
    readonly name: string,
    private readonly service: KmsService,
    /** The configured call timeout; kube waits twice the sum of them before closing a replaced configuration. */
    readonly timeoutMs: number,
    private readonly timings: KmsV2Timings = KMS_V2_TIMINGS,
    private readonly log: (message: string) => void = () => undefined,
  ) {
    this.prefix = Buffer.from(`k8s:enc:kms:v2:${name}:`);
    this.transformer = new KmsV2Transformer(this);
    this.answerTtlMs = timings.unhealthyTtlMs;
  }

  /**
   * kube's primeAndProbeKMSv2: one check now (resolved when it has answered, whatever it answered), then a check
   * every pollMs; a failing plugin is retried every retryMs until it answers.
   */
  start(): Promise<void> {
    this.primed ??= this.probe().then((ok) => {
      if (!ok) void this.retryUntilHealthy();
      void this.pollLoop();
    });
    return this.primed;
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.service.close();
  }

  // ---- health and rotation (kube's kmsv2PluginProbe) ----

  /** kube's kmsv2PluginProbe.check: Status (its answer reused for a short TTL), then a rotation if the key ID changed. */
  check(): Promise<void> {
    if (performance.now() - this.last.at < this.answerTtlMs) return this.last.err ? Promise.reject(this.last.err) : Promise.resolve();
    this.checking ??= this.runCheck().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async runCheck(): Promise<void> {
    let status;
    try {
      status = await this.service.status();
    } catch (err) {
      this.answer(err as Error);
      throw new KmsError(`failed to perform status section of the healthz check for KMS Provider ${this.name}, error: ${(err as Error).message}`, (err as KmsError).grpcCode ?? (err as { code?: string }).code);
    }
    try {
      await this.healthyAndMaybeRotate(status);
    } catch (err) {
      this.answer(err as Error);
      throw err;
    }
    this.answer();
  }

  private answer(err?: Error): void {
    this.last = { err, at: performance.now() };
    this.answerTtlMs = err ? this.timings.unhealthyTtlMs : this.timings.healthyTtlMs;
  }

  /** kube's isKMSv2ProviderHealthyAndMaybeRotateDEK, with its messages. */
  private async healthyAndMaybeRotate(status: { version: string; healthz: string; keyID: string }): Promise<void> {
    const errs: string[] = [];
    if (status.healthz !== 'ok') errs.push(`got unexpected healthz status: ${status.healthz}`);
    if (status.version !== 'v2' && status.version !== 'v2beta1') {
      errs.push(`expected KMSv2 API version v2, got ${status.version}`);
    } else {
      if (!this.version) this.version = status.version;
      if (this.version !== status.version) errs.push(`KMSv2 API version should not change after the initial status response version ${this.version}, got ${status.version}`);
    }
    const invalid = keyIDError(status.keyID);
    if (invalid) {
      recordInvalidKeyIDFromStatus(this.name, invalid.code);
      errs.push(`got invalid KMSv2 KeyID hash "${keyIDHash(status.keyID)}": ${invalid.message}`);
    } else {
      recordKeyIDFromStatus(this.name, status.keyID);
      try {
        await this.rotateOnKeyIDChange(status.keyID, randomUUID());
      } catch (err) {
        errs.push((err as Error).message);
      }
    }
    if (errs.length) throw new Error(`kmsv2 Provider ${this.name} is not healthy, error: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`);
  }

  /**
   * kube's rotateDEKOnKeyIDChange: the same key ID extends the current seed's write expiry; another one (or none
   * yet) gets a new seed encrypted by the plugin, taken only if Encrypt reports the key ID Status did. On failure
   * the current seed stays usable until it expires.
   */
  private async rotateOnKeyIDChange(statusKeyID: string, uid: string): Promise<void> {
    const state = this.state;
    const expiresAt = Date.now() + this.timings.writeTtlMs;
    if (state && state.keyID === statusKeyID) {
      this.state = { ...state, expiresAt };
      return;
    }
    let generated: { transformer: SeedTransformer; object: EncryptedObject; cacheKey: string } | undefined;
    let errGen: Error | undefined;
    try {
      generated = await this.generate(uid);
    } catch (err) {
      errGen = err as Error;
    }
    if (generated && generated.object.keyID === statusKeyID) {
      const o = generated.object;
      this.state = {
        transformer: generated.transformer,
        keyID: o.keyID,
        keyIDHash: keyIDHash(o.keyID),
        encryptedDEKSource: o.encryptedDEKSource,
        annotations: { ...o.annotations },
        type: EncryptedDEKSourceType.HKDF_SHA256_XNONCE_AES_GCM_SEED,
        cacheKey: generated.cacheKey,
        uid,
        encodedTail: encodeEncryptedObject({ ...o, encryptedData: Buffer.alloc(0) }),
        expiresAt,
      };
      this.remember(generated.cacheKey, generated.transformer);
      this.log(`kms provider ${this.name}: new DEK seed for key ID hash ${keyIDHash(o.keyID)}${state ? ` (was ${state.keyIDHash})` : ''}`);
      return;
    }
    const errState = state ? '<nil>' : 'got unexpected nil transformer';
    throw new Error(
      `failed to rotate DEK uid="${uid}", useSeed=true, errState=${errState}, errGen=${errGen?.message ?? '<nil>'}, statusKeyIDHash="${keyIDHash(statusKeyID)}", encryptKeyIDHash="${keyIDHash(generated?.object.keyID ?? '')}", stateKeyIDHash="${keyIDHash(state?.keyID ?? '')}", expirationTimestamp=${state ? rfc3339(state.expiresAt) : '0001-01-01T00:00:00Z'}`,
    );
  }

  /** kube's GenerateTransformer with a seed: a random seed, encrypted by the plugin. */
  private async generate(uid: string): Promise<{ transformer: SeedTransformer; object: EncryptedObject; cacheKey: string }> {
    const { seed, transformer } = SeedTransformer.generate();
    let resp;
    try {
      resp = await this.service.encrypt(uid, seed);
    } catch (err) {
      throw new Error(`failed to encrypt DEK, error: ${(err as Error).message}`);
    }
    const object: EncryptedObject = {
      keyID: resp.keyID,
      encryptedDEKSource: resp.ciphertext,
      encryptedData: Buffer.from([0]),
      annotations: resp.annotations,
      encryptedDEKSourceType: EncryptedDEKSourceType.HKDF_SHA256_XNONCE_AES_GCM_SEED,
    };
    validateEncryptedObject(object);
    return { transformer, object, cacheKey: cacheKeyOf(object) };
  }

  /** kube's getCurrentState: the write state, or why there is none (reads need it too, for staleness). */
  currentState(): WriteState {
    if (!this.state) throw new Error('got unexpected nil transformer');
    return this.state;
  }

  /** kube's ValidateEncryptCapability. */
  writableState(): WriteState {
    const state = this.currentState();
    const now = Date.now();
    if (now > state.expiresAt) throw new Error(`encryptedDEKSource with keyID hash "${state.keyIDHash}" expired at ${rfc3339(state.expiresAt)} (current time is ${rfc3339(now)})`);
    return state;
  }

  get hasState(): boolean {
    return this.state !== undefined;
  }

  private async probe(): Promise<boolean> {
    try {
      await this.check();
      return true;
    } catch (err) {
      this.log(`kms plugin failed health check probe: ${(err as Error).message}`);
      return false;
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      t.unref();
      this.timers.add(t);
    });
  }

  private async retryUntilHealthy(): Promise<void> {
    while (!this.closed) {
      await this.sleep(this.timings.retryMs);
      if (this.closed || (await this.probe())) return;
    }
  }

  private async pollLoop(): Promise<void> {
    while (!this.closed) {
      await this.sleep(this.timings.pollMs);
      if (this.closed) return;
      // A failure switches to the fast poll until the plugin answers, so the seed's write expiry is rarely reached.
      if (!(await this.probe())) await this.retryUntilHealthy();
    }
  }

  // ---- the DEK cache (kube's simpleCache) ----

  private remember(key: string, transformer: DekTransformer): void {
    const now = Date.now();
    const had = this.cache.has(key);
    this.cache.set(key, { transformer, expiresAt: now + DEK_CACHE_TTL_MS });
    if (!had) {
      // Expired entries go when new ones come (kube's expiring cache collects on set).
      for (const [k, e] of this.cache) if (e.expiresAt < now) this.cache.delete(k);
      recordDekSourceCacheSize(this.name, this.cache.size);
    }
  }

  /** Keeps the current seed in the cache while writes use it (kube sets it on every write). */
  keepWriting(state: WriteState): void {
    const entry = this.cache.get(state.cacheKey);
    if (entry) entry.expiresAt = Date.now() + DEK_CACHE_TTL_MS;
    else this.remember(state.cacheKey, state.transformer);
  }

  cached(key: string): DekTransformer | undefined {
    return this.cache.get(key)?.transformer;
  }

  /** Starts (or joins) the plugin's Decrypt of one DEK source; never rejects: a failure is kept for the read to report. */
  fetch(key: string, o: EncryptedObject): Promise<void> {
    let pending = this.inflight.get(key);
    if (pending) return pending;
    recordCacheMiss();
    pending = this.service
      .decrypt(randomUUID(), { ciphertext: o.encryptedDEKSource, keyID: o.keyID, annotations: o.annotations })
      .then(
        (plaintext) => {
          this.remember(key, dekTransformerFor(o.encryptedDEKSourceType, plaintext));
          this.failures.delete(key);
        },
        (err: Error) => void this.failures.set(key, new KmsError(`failed to decrypt DEK, error: ${err.message}`, (err as { code?: string }).code)),
      )
      .catch((err: Error) => void this.failures.set(key, err))
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, pending);
    return pending;
  }

  failure(key: string): Error | undefined {
    return this.failures.get(key);
  }

  hashOf(keyID: string): string {
    let h = this.hashes.get(keyID);
    if (h === undefined) {
      if (this.hashes.size > 100) this.hashes.clear();
      h = keyIDHash(keyID);
      this.hashes.set(keyID, h);
    }
    return h;
  }
}

/** Field 1 (encryptedData) of an EncryptedObject: its tag and length. */
function encryptedDataField(data: Buffer): Buffer {
  const header = [0x0a];
  let n = data.length;
  while (n >= 0x80) {
    header.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  header.push(n);
  return Buffer.concat([Buffer.from(header), data]);
}

/** kube's envelopeTransformer for KMS v2: what follows the provider's prefix is a protobuf EncryptedObject. */
export class KmsV2Transformer implements ValueTransformer {
  constructor(private readonly provider: KmsV2Provider) {}

  toStorage(data: Buffer, key: string): Buffer {
    const state = this.provider.writableState();
    this.provider.keepWriting(state);
    const encryptedData = state.transformer.write(data, key);
    recordKeyID('to_storage', this.provider.name, state.keyIDHash);
    // encodeEncryptedObject's bytes, built from the part that changes and the tail encoded once per seed.
    return Buffer.concat([encryptedDataField(encryptedData), state.encodedTail]);
  }

  fromStorage(data: Buffer, key: string): TransformedValue {
    const o = decodeEncryptedObject(data);
    validateEncryptedObject(o);
    const state = this.provider.currentState();
    const cacheKey = cacheKeyOf(o);
    const transformer = this.provider.cached(cacheKey);
    if (!transformer) throw this.provider.failure(cacheKey) ?? new Error('failed to decrypt DEK, error: the DEK was not fetched before the read');
    const plain = transformer.read(o.encryptedData, key);
    recordKeyID('from_storage', this.provider.name, this.provider.hashOf(o.keyID));
    // Stale when written under another key ID or DEK source type than writes use now: an update rewrites it.
    return { data: plain, stale: o.keyID !== state.keyID || o.encryptedDEKSourceType !== state.type };
  }

  /**
   * Fetches from the plugin the DEKs/seeds these values need and the cache lacks (one Decrypt per DEK source,
   * shared by concurrent reads). Undefined when there is nothing to wait for; values it cannot parse are left
   * to fromStorage, which reports them.
   */
  prepare(values: readonly Buffer[]): Promise<void> | undefined {
    // Without a state kube fails reads before any Decrypt ("got unexpected nil transformer"): nothing to wait for.
    if (!this.provider.hasState) return undefined;
    let waits: Promise<void>[] | undefined;
    for (const value of values) {
      let o: EncryptedObject;
      try {
        o = decodeEncryptedObject(value);
        validateEncryptedObject(o);
      } catch {
        continue;
      }
      const cacheKey = cacheKeyOf(o);
      if (this.provider.cached(cacheKey)) continue;
      (waits ??= []).push(this.provider.fetch(cacheKey, o));
    }
    return waits && (waits.length === 1 ? waits[0] : Promise.all(waits).then(() => undefined));
  }
}
