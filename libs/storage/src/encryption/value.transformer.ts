import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import { recordTransformation } from './encryption.metrics';

/** What a read from storage gives: the plain bytes, and whether they should be rewritten with the current first provider. */
export interface TransformedValue {
  data: Buffer;
  /** kube's `stale`: read by a provider other than the writing one (a rotated or later key), so an update must write even unchanged content. */
  stale: boolean;
}

/**
 * kube's value.Transformer (apiserver/pkg/storage/value): bytes to and from etcd. `key` is the etcd key, the
 * authenticated data of the providers that use one (aesgcm). Synchronous: every provider here is CPU-only.
 */
export interface ValueTransformer {
  toStorage(data: Buffer, key: string): Buffer;
  /** Throws an Error with kube's message when the value cannot be read. */
  fromStorage(data: Buffer, key: string): TransformedValue;
  /**
   * What reading these stored values needs from outside the process, fetched before the synchronous fromStorage
   * (a KMS plugin's Decrypt of a DEK not seen yet). Absent, or undefined returned: nothing to wait for.
   */
  prepare?(values: readonly Buffer[]): Promise<void> | undefined;
}

const AES_BLOCK = 16;
const GCM_NONCE = 12;
const GCM_TAG = 16;
const SECRETBOX_NONCE = 24;

function aesAlgorithm(mode: 'cbc' | 'gcm', key: Buffer): `aes-${128 | 192 | 256}-${'cbc' | 'gcm'}` {
  switch (key.length) {
    case 16:
      return `aes-128-${mode}`;
    case 24:
      return `aes-192-${mode}`;
    case 32:
      return `aes-256-${mode}`;
    default:
      throw new Error(`crypto/aes: invalid key size ${key.length}`);
  }
}

/** kube's aes cbc transformer: a random 16-byte IV, then AES-CBC of the data with PKCS#7 padding; no authenticated data. */
export class AesCbcTransformer implements ValueTransformer {
  private readonly algorithm: string;
  constructor(private readonly key: Buffer) {
    this.algorithm = aesAlgorithm('cbc', key);
  }

  toStorage(data: Buffer): Buffer {
    const iv = randomBytes(AES_BLOCK);
    const cipher = createCipheriv(this.algorithm, this.key, iv);
    // Node's default padding is PKCS#7, as kube's (a whole block of 16 when the data fills its last block).
    return Buffer.concat([iv, cipher.update(data), cipher.final()]);
  }

  fromStorage(data: Buffer): TransformedValue {
    if (data.length < AES_BLOCK) throw new Error('the stored data was shorter than the required size');
    const iv = data.subarray(0, AES_BLOCK);
    const body = data.subarray(AES_BLOCK);
    if (body.length % AES_BLOCK !== 0) throw new Error('the stored data is not a multiple of the block size');
    const decipher = createDecipheriv(this.algorithm, this.key, iv);
    decipher.setAutoPadding(false);
    const result = Buffer.concat([decipher.update(body), decipher.final()]);
    // kube checks the padding itself, with its own messages.
    const pad = result.length ? result[result.length - 1] : 0;
    if (pad === 0 || pad > result.length) throw new Error('invalid PKCS7 data (empty or not padded)');
    for (let i = result.length - pad; i < result.length; i++) if (result[i] !== pad) throw new Error('invalid padding on input');
    return { data: result.subarray(0, result.length - pad), stale: false };
  }
}

/** kube's aes gcm transformer: a random 12-byte nonce, then the sealed data and its 16-byte tag; the etcd key is the authenticated data. */
export class AesGcmTransformer implements ValueTransformer {
  private readonly algorithm: string;
  constructor(private readonly key: Buffer) {
    this.algorithm = aesAlgorithm('gcm', key);
  }

  toStorage(data: Buffer, key: string): Buffer {
    const nonce = randomBytes(GCM_NONCE);
    const cipher = createCipheriv(this.algorithm, this.key, nonce) as import('node:crypto').CipherGCM;
    cipher.setAAD(Buffer.from(key));
    const sealed = Buffer.concat([cipher.update(data), cipher.final()]);
    return Buffer.concat([nonce, sealed, cipher.getAuthTag()]);
  }

  fromStorage(data: Buffer, key: string): TransformedValue {
    if (data.length < GCM_NONCE) throw new Error('the stored data was shorter than the required size');
    if (data.length < GCM_NONCE + GCM_TAG) throw new Error('cipher: message authentication failed');
    const decipher = createDecipheriv(this.algorithm, this.key, data.subarray(0, GCM_NONCE)) as import('node:crypto').DecipherGCM;
    decipher.setAAD(Buffer.from(key));
    decipher.setAuthTag(data.subarray(data.length - GCM_TAG));
    try {
      return { data: Buffer.concat([decipher.update(data.subarray(GCM_NONCE, data.length - GCM_TAG)), decipher.final()]), stale: false };
    } catch {
      // Go's crypto/cipher message for a wrong key, tampered bytes or another etcd key.
      throw new Error('cipher: message authentication failed');
    }
  }
}

/** kube's secretbox transformer: a random 24-byte nonce, then NaCl secretbox (XSalsa20-Poly1305: tag, then ciphertext). */
export class SecretboxTransformer implements ValueTransformer {
  constructor(private readonly key: Buffer) {
    if (key.length !== nacl.secretbox.keyLength) throw new Error(`secretbox key must be ${nacl.secretbox.keyLength} bytes, got ${key.length}`);
  }

  toStorage(data: Buffer): Buffer {
    const nonce = randomBytes(SECRETBOX_NONCE);
    return Buffer.concat([nonce, nacl.secretbox(data, nonce, this.key)]);
  }

  fromStorage(data: Buffer): TransformedValue {
    if (data.length < nacl.secretbox.overheadLength + SECRETBOX_NONCE) throw new Error('the stored data was shorter than the required size');
    const opened = nacl.secretbox.open(data.subarray(SECRETBOX_NONCE), data.subarray(0, SECRETBOX_NONCE), this.key);
    if (!opened) throw new Error('output array was not large enough for encryption');
    return { data: Buffer.from(opened.buffer, opened.byteOffset, opened.byteLength), stale: false };
  }
}

const ENCRYPTED_PREFIX = Buffer.from('k8s:enc:');

/** kube's identity provider with its check: it reads unprefixed data, and refuses data another provider encrypted. */
export class IdentityTransformer implements ValueTransformer {
  toStorage(data: Buffer): Buffer {
    return data;
  }

  fromStorage(data: Buffer): TransformedValue {
    if (data.subarray(0, ENCRYPTED_PREFIX.length).equals(ENCRYPTED_PREFIX)) throw new Error('identity transformer tried to read encrypted data');
    return { data, stale: false };
  }
}

export interface PrefixTransformer {
  /** `k8s:enc:<provider>:v1:<key name>:`; empty for identity. */
  prefix: Buffer;
  transformer: ValueTransformer;
}

/**
 * kube's prefixTransformers: the first one writes (its prefix, then its payload); a read tries, in order, every
 * transformer whose prefix the data starts with, and never stops at a failing one (two keys of one provider share
 * `k8s:enc:aescbc:v1:` up to the key name... and identity's empty prefix matches everything).
 */
export class PrefixTransformers implements ValueTransformer {
  /** kube's transformer_prefix label of each transformer: its prefix. */
  private readonly labels: string[];

  /** Present only when a provider reads through something asynchronous (KMS): the other configurations pay nothing. */
  readonly prepare?: (values: readonly Buffer[]) => Promise<void> | undefined;

  constructor(
    readonly transformers: readonly PrefixTransformer[],
    private readonly noMatch: string = 'no matching prefix found',
  ) {
    if (transformers.length === 0) throw new Error('at least one provider is required');
    this.labels = transformers.map((t) => t.prefix.toString('latin1'));
    const preparing = transformers.filter((t) => t.transformer.prepare && t.prefix.length);
    if (preparing.length) this.prepare = (values) => prepareByPrefix(preparing, values);
  }

  toStorage(data: Buffer, key: string): Buffer {
    const start = process.hrtime.bigint();
    const first = this.transformers[0];
    let payload: Buffer;
    try {
      payload = first.transformer.toStorage(data, key);
    } catch (err) {
      recordTransformation('to_storage', this.labels[0], start, err);
      throw err;
    }
    recordTransformation('to_storage', this.labels[0], start);
    return first.prefix.length ? Buffer.concat([first.prefix, payload]) : payload;
  }

  fromStorage(data: Buffer, key: string): TransformedValue {
    const start = process.hrtime.bigint();
    const errors: Error[] = [];
    for (let i = 0; i < this.transformers.length; i++) {
      const { prefix, transformer } = this.transformers[i];
      if (!startsWith(data, prefix)) continue;
      const label = prefix.length ? this.labels[i] : 'identity';
      try {
        const result = transformer.fromStorage(data.subarray(prefix.length), key);
        recordTransformation('from_storage', label, start);
        return { data: result.data, stale: result.stale || i !== 0 };
      } catch (err) {
        // Identity's refusal of encrypted data must not hide a later provider's answer (migrating away from encryption).
        if (prefix.length === 0) continue;
        recordTransformation('from_storage', label, start, err);
        errors.push(err instanceof Error ? err : new Error(String(err)));
      }
    }
    // Go's utilerrors.Reduce(NewAggregate(errs)): one error as itself, several as "[a, b]".
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new Error(`[${errors.map((e) => e.message).join(', ')}]`);
    recordTransformation('from_storage', 'unknown', start, this.noMatch);
    throw new Error(this.noMatch);
  }
}

/** Hands each value, without its prefix, to the first preparing transformer whose prefix it has. */
function prepareByPrefix(preparing: readonly PrefixTransformer[], values: readonly Buffer[]): Promise<void> | undefined {
  let batches: Map<PrefixTransformer, Buffer[]> | undefined;
  for (const value of values) {
    const match = preparing.find((p) => startsWith(value, p.prefix));
    if (!match) continue;
    batches ??= new Map();
    const batch = batches.get(match);
    if (batch) batch.push(value.subarray(match.prefix.length));
    else batches.set(match, [value.subarray(match.prefix.length)]);
  }
  if (!batches) return undefined;
  let waits: Promise<void>[] | undefined;
  for (const [p, batch] of batches) {
    const w = p.transformer.prepare?.(batch);
    if (w) (waits ??= []).push(w);
  }
  return waits && Promise.all(waits).then(() => undefined);
}

function startsWith(data: Buffer, prefix: Buffer): boolean {
  return data.length >= prefix.length && data.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
}
