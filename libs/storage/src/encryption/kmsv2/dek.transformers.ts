import { createHmac, randomBytes } from 'node:crypto';
import { AesGcmTransformer } from '../value.transformer';
import { EncryptedDEKSourceType } from './encrypted.object';

/** kube's aes commonSize: seed, info and derived key are 32 bytes. */
export const SEED_SIZE = 32;
const INFO_SIZE = 32;

/** Reads (and, for the current DEK/seed, writes) encryptedData; the etcd key is the authenticated data. */
export interface DekTransformer {
  read(data: Buffer, key: string): Buffer;
  write(data: Buffer, key: string): Buffer;
}

/**
 * kube's NewHKDFExtendedNonceGCMTransformer (KMSv2KDF): every write draws 32 random info bytes, derives a one-use
 * AES-256 key as HKDF-Expand(SHA-256, seed, info) and seals with AES-GCM under a random nonce: info | nonce |
 * sealed | tag. The seed is never used as a key, so it needs no rotation by use count (kube's reasoning: no
 * birthday bound on a key used once), and it is reused across restarts through its encrypted form.
 */
export class SeedTransformer implements DekTransformer {
  constructor(private readonly seed: Buffer) {
    if (seed.length < SEED_SIZE) throw new Error(`invalid seed length ${seed.length} used for key generation`);
  }

  /** A new random seed with its transformer (kube's GenerateKey(MinSeedSizeExtendedNonceGCM)). */
  static generate(): { seed: Buffer; transformer: SeedTransformer } {
    const seed = randomBytes(SEED_SIZE);
    return { seed, transformer: new SeedTransformer(seed) };
  }

  /** HKDF-Expand for one 32-byte block: T(1) = HMAC-SHA256(PRK = seed, info | 0x01). */
  private derive(info: Buffer): AesGcmTransformer {
    return new AesGcmTransformer(createHmac('sha256', this.seed).update(info).update(ONE).digest());
  }

  write(data: Buffer, key: string): Buffer {
    const info = randomBytes(INFO_SIZE);
    return Buffer.concat([info, this.derive(info).toStorage(data, key)]);
  }

  read(data: Buffer, key: string): Buffer {
    if (data.length < INFO_SIZE) throw new Error('the stored data was shorter than the required size');
    return this.derive(data.subarray(0, INFO_SIZE)).fromStorage(data.subarray(INFO_SIZE), key).data;
  }
}

const ONE = Buffer.from([1]);

/**
 * The DEK itself as an AES-GCM key (EncryptedDEKSourceType AES_GCM_KEY, kube 1.27 and 1.28 without KMSv2KDF):
 * nonce | sealed | tag. Read only: kube wrote those with a counter nonce that must never restart from a stored key.
 */
export class DekReader implements DekTransformer {
  private readonly gcm: AesGcmTransformer;

  constructor(key: Buffer) {
    this.gcm = new AesGcmTransformer(key);
  }

  read(data: Buffer, key: string): Buffer {
    return this.gcm.fromStorage(data, key).data;
  }

  write(): Buffer {
    throw new Error('a DEK read from storage is never used to encrypt');
  }
}

/** kube's addTransformerForDecryption: the transformer of a decrypted DEK source of the given type. */
export function dekTransformerFor(type: number, plaintext: Buffer): DekTransformer {
  return type === EncryptedDEKSourceType.HKDF_SHA256_XNONCE_AES_GCM_SEED ? new SeedTransformer(plaintext) : new DekReader(plaintext);
}
