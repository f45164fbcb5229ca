import { isDNS1123Label, isDNS1123Subdomain } from '@kube/apimachinery';

/**
 * kube's v2.EncryptedDEKSourceType (apiserver/pkg/storage/value/encrypt/envelope/kmsv2/v2/api.proto, kept in
 * api/proto): what the plaintext of encryptedDEKSource is.
 */
export const EncryptedDEKSourceType = {
  /** The DEK itself (AES-GCM); what kube 1.27 wrote, read here and never written. */
  AES_GCM_KEY: 0,
  /** A seed fed to HKDF-SHA256 expand with the first 32 bytes of encryptedData as info (KMSv2KDF, kube's default since 1.29). */
  HKDF_SHA256_XNONCE_AES_GCM_SEED: 1,
} as const;
export type EncryptedDEKSourceType = (typeof EncryptedDEKSourceType)[keyof typeof EncryptedDEKSourceType];

/** kube's v2.EncryptedObject: what follows `k8s:enc:kms:v2:<name>:` in etcd. */
export interface EncryptedObject {
  encryptedData: Buffer;
  keyID: string;
  encryptedDEKSource: Buffer;
  /** Plugin-provided metadata, stored in plaintext. */
  annotations: Readonly<Record<string, Buffer>>;
  encryptedDEKSourceType: number;
}

const ANNOTATIONS_MAX_SIZE = 32 * 1024;
export const KEY_ID_MAX_SIZE = 1024;
const ENCRYPTED_DEK_SOURCE_MAX_SIZE = 1024;

// ---- protobuf wire format: a hand-written codec for one five-field message (no reflection on the hot path) ----

function varintLength(n: number): number {
  let len = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    len++;
  }
  return len;
}

function writeVarint(buf: Buffer, pos: number, n: number): number {
  while (n >= 0x80) {
    buf[pos++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  buf[pos++] = n;
  return pos;
}

function bytesFieldLength(len: number): number {
  return 1 + varintLength(len) + len;
}

function writeBytesField(buf: Buffer, pos: number, tag: number, data: Uint8Array): number {
  buf[pos++] = tag;
  pos = writeVarint(buf, pos, data.length);
  buf.set(data, pos);
  return pos + data.length;
}

/** proto.Marshal of an EncryptedObject: fields in number order, proto3 defaults left out, map entries sorted by key. */
export function encodeEncryptedObject(o: EncryptedObject): Buffer {
  const keyID = Buffer.from(o.keyID);
  const entries = Object.keys(o.annotations)
    .sort()
    .map((k) => {
      const key = Buffer.from(k);
      const value = o.annotations[k];
      const inner = (key.length ? bytesFieldLength(key.length) : 0) + (value.length ? bytesFieldLength(value.length) : 0);
      return { key, value, inner };
    });
  let size = 0;
  if (o.encryptedData.length) size += bytesFieldLength(o.encryptedData.length);
  if (keyID.length) size += bytesFieldLength(keyID.length);
  if (o.encryptedDEKSource.length) size += bytesFieldLength(o.encryptedDEKSource.length);
  for (const e of entries) size += bytesFieldLength(e.inner);
  if (o.encryptedDEKSourceType) size += 1 + varintLength(o.encryptedDEKSourceType);
  const buf = Buffer.allocUnsafe(size);
  let pos = 0;
  if (o.encryptedData.length) pos = writeBytesField(buf, pos, 0x0a, o.encryptedData);
  if (keyID.length) pos = writeBytesField(buf, pos, 0x12, keyID);
  if (o.encryptedDEKSource.length) pos = writeBytesField(buf, pos, 0x1a, o.encryptedDEKSource);
  for (const e of entries) {
    buf[pos++] = 0x22;
    pos = writeVarint(buf, pos, e.inner);
    if (e.key.length) pos = writeBytesField(buf, pos, 0x0a, e.key);
    if (e.value.length) pos = writeBytesField(buf, pos, 0x12, e.value);
  }
  if (o.encryptedDEKSourceType) {
    buf[pos++] = 0x28;
    pos = writeVarint(buf, pos, o.encryptedDEKSourceType);
  }
  return buf;
}

/** Go protobuf's message for bytes it cannot parse. */
const INVALID_WIRE = 'proto: cannot parse invalid wire-format data';

class Cursor {
  pos = 0;
  constructor(
    readonly buf: Buffer,
    readonly end = buf.length,
    start = 0,
  ) {
    this.pos = start;
  }

  varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Error(INVALID_WIRE);
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
    throw new Error(INVALID_WIRE);
  }

  bytes(): Buffer {
    const len = this.varint();
    if (len > this.end - this.pos) throw new Error(INVALID_WIRE);
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.varint();
        return;
      case 1:
        this.advance(8);
        return;
      case 2:
        this.bytes();
        return;
      case 5:
        this.advance(4);
        return;
      default:
        throw new Error(INVALID_WIRE);
    }
  }

  private advance(n: number): void {
    if (n > this.end - this.pos) throw new Error(INVALID_WIRE);
    this.pos += n;
  }
}

/** proto.Unmarshal of an EncryptedObject; unknown fields are skipped, as Go's decoder does. */
export function decodeEncryptedObject(data: Buffer): EncryptedObject {
  const c = new Cursor(data);
  const o: { -readonly [K in keyof EncryptedObject]: EncryptedObject[K] } = { encryptedData: Buffer.alloc(0), keyID: '', encryptedDEKSource: Buffer.alloc(0), annotations: {}, encryptedDEKSourceType: 0 };
  const annotations: Record<string, Buffer> = {};
  while (c.pos < c.end) {
    const tag = c.varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (field === 0) throw new Error(INVALID_WIRE);
    if (field === 5 && wire === 0) {
      // An enum is an int32: only its low 32 bits count.
      o.encryptedDEKSourceType = c.varint() % 2 ** 32 | 0;
    } else if (wire !== 2 || field > 4) {
      c.skip(wire);
    } else if (field === 1) {
      o.encryptedData = c.bytes();
    } else if (field === 2) {
      const s = c.bytes();
      if (!isUtf8(s)) throw new Error('string field contains invalid UTF-8');
      o.keyID = s.toString();
    } else if (field === 3) {
      o.encryptedDEKSource = c.bytes();
    } else {
      const entry = c.bytes();
      const e = new Cursor(entry);
      let key = '';
      let value: Buffer = Buffer.alloc(0);
      while (e.pos < e.end) {
        const t = e.varint();
        if (t === 0x0a) {
          const k = e.bytes();
          if (!isUtf8(k)) throw new Error('string field contains invalid UTF-8');
          key = k.toString();
        } else if (t === 0x12) value = e.bytes();
        else e.skip(t & 7);
      }
      annotations[key] = value;
    }
  }
  o.annotations = annotations;
  return o;
}

function isUtf8(b: Buffer): boolean {
  return Buffer.from(b.toString('utf8')).equals(b);
}

// ---- kube's validation, with its messages ----

/** kube's ValidateEncryptedObject. */
export function validateEncryptedObject(o: EncryptedObject): void {
  if (o.encryptedDEKSourceType !== EncryptedDEKSourceType.AES_GCM_KEY && o.encryptedDEKSourceType !== EncryptedDEKSourceType.HKDF_SHA256_XNONCE_AES_GCM_SEED) {
    throw new Error(`unknown encryptedDEKSourceType: ${o.encryptedDEKSourceType}`);
  }
  if (o.encryptedData.length === 0) throw new Error('encrypted data is empty');
  const dek = encryptedDEKSourceError(o.encryptedDEKSource);
  if (dek) throw new Error(`failed to validate encrypted DEK source: ${dek}`);
  const keyID = keyIDError(o.keyID);
  if (keyID) throw new Error(`failed to validate key id: ${keyID.message}`);
  const annotations = annotationsError(o.annotations);
  if (annotations) throw new Error(`failed to validate annotations: ${annotations}`);
}

function encryptedDEKSourceError(source: Buffer): string | undefined {
  if (source.length === 0) return 'encrypted DEK source is empty';
  if (source.length > ENCRYPTED_DEK_SOURCE_MAX_SIZE) return `encrypted DEK source is ${source.length} bytes, which exceeds the max size of ${ENCRYPTED_DEK_SOURCE_MAX_SIZE}`;
  return undefined;
}

/** kube's ValidateKeyID, with its metric error code ("empty", "too_long"). */
export function keyIDError(keyID: string): { code: 'empty' | 'too_long'; message: string } | undefined {
  if (keyID.length === 0) return { code: 'empty', message: 'keyID is empty' };
  const size = Buffer.byteLength(keyID);
  if (size > KEY_ID_MAX_SIZE) return { code: 'too_long', message: `keyID is ${size} bytes, which exceeds the max size of ${KEY_ID_MAX_SIZE}` };
  return undefined;
}

function annotationsError(annotations: Readonly<Record<string, Buffer>>): string | undefined {
  const errs: string[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations)) {
    const err = fullyQualifiedDomainNameError(k);
    if (err) errs.push(err);
    total += Buffer.byteLength(k) + v.length;
  }
  if (total > ANNOTATIONS_MAX_SIZE) errs.push(`total size of annotations is ${total}, which exceeds the max size of ${ANNOTATIONS_MAX_SIZE}`);
  // utilerrors.NewAggregate: one error as itself, several as "[a, b]".
  if (errs.length === 0) return undefined;
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

/** kube's validation.IsFullyQualifiedDomainName on the path `annotations`. */
function fullyQualifiedDomainNameError(name: string): string | undefined {
  if (name.length === 0) return 'annotations: Required value';
  const n = name.endsWith('.') ? name.slice(0, -1) : name;
  const sub = isDNS1123Subdomain(n);
  if (sub.length) return `annotations: Invalid value: ${JSON.stringify(n)}: ${sub.join(',')}`;
  const labels = n.split('.');
  if (labels.length < 2) return `annotations: Invalid value: ${JSON.stringify(n)}: should be a domain with at least two segments separated by dots`;
  for (const label of labels) {
    const errs = isDNS1123Label(label);
    if (errs.length) return `annotations: Invalid value: ${JSON.stringify(label)}: ${errs.join(',')}`;
  }
  return undefined;
}

/**
 * kube's generateCacheKey: the key of a decrypted DEK/seed in the DEK cache, built as cryptobyte does (big-endian):
 * uint32 source type, uint16-prefixed encrypted DEK source, uint16-prefixed key ID, then (with annotations) their
 * uint32 count and each key and value, sorted by key, uint16-prefixed.
 */
export function dekCacheKey(o: Pick<EncryptedObject, 'encryptedDEKSourceType' | 'encryptedDEKSource' | 'keyID' | 'annotations'>): Buffer {
  const keyID = Buffer.from(o.keyID);
  const keys = Object.keys(o.annotations).sort();
  const parts: Buffer[] = [];
  const u32 = (n: number): Buffer => {
    const b = Buffer.allocUnsafe(4);
    b.writeUInt32BE(n >>> 0);
    return b;
  };
  const u16Prefixed = (data: Buffer): void => {
    const b = Buffer.allocUnsafe(2);
    b.writeUInt16BE(data.length);
    parts.push(b, data);
  };
  parts.push(u32(o.encryptedDEKSourceType));
  u16Prefixed(o.encryptedDEKSource);
  u16Prefixed(keyID);
  if (keys.length) {
    parts.push(u32(keys.length));
    for (const k of keys) {
      u16Prefixed(Buffer.from(k));
      u16Prefixed(o.annotations[k]);
    }
  }
  return Buffer.concat(parts);
}
