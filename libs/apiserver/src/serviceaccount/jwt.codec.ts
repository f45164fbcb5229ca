import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/** The JOSE algorithms kube signs service-account tokens with (pkg/serviceaccount/jwt.go: RS256 and ES256/384/512). */
export type JwsAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export type JwtClaims = Record<string, unknown>;

/** A key that verifies tokens, with kube's key id: base64url(sha256(PKIX DER of the public key)). */
export interface VerificationKey {
  readonly kid: string;
  readonly alg: JwsAlgorithm;
  readonly key: KeyObject;
}

export interface SigningKeyPair extends VerificationKey {
  readonly privateKey: KeyObject;
}

const EC_ALGORITHMS: Readonly<Record<string, JwsAlgorithm>> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };
const HASHES: Readonly<Record<JwsAlgorithm, string>> = { RS256: 'sha256', ES256: 'sha256', ES384: 'sha384', ES512: 'sha512' };

function algorithmOf(key: KeyObject): JwsAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  const alg = key.asymmetricKeyType === 'ec' ? EC_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''] : undefined;
  if (!alg) throw new Error(`unsupported service account key type ${key.asymmetricKeyType ?? 'unknown'}`);
  return alg;
}

function keyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

/** Every key of a PEM file (kube's --service-account-key-file: public keys or private keys, several allowed). */
export function verificationKeys(pem: string): VerificationKey[] {
  const blocks = pem.match(/-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----/g) ?? [];
  return blocks.map((block) => {
    const key = /PRIVATE KEY/.test(block) ? createPublicKey(createPrivateKey(block)) : createPublicKey(block);
    return { kid: keyId(key), alg: algorithmOf(key), key };
  });
}

/** The private key of a PEM file (kube's --service-account-signing-key-file). */
export function signingKeyPair(pem: string): SigningKeyPair {
  const privateKey = createPrivateKey(pem);
  const key = createPublicKey(privateKey);
  return { kid: keyId(key), alg: algorithmOf(key), key, privateKey };
}

const encodePart = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS: header {alg, kid}, the claims, the signature (ECDSA as r||s, as JOSE wants). */
export function signJwt(claims: JwtClaims, key: SigningKeyPair): string {
  const input = `${encodePart({ alg: key.alg, kid: key.kid })}.${encodePart(claims)}`;
  const signature = sign(HASHES[key.alg], Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

function decodePart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The unverified claims of something shaped like a JWT (kube peeks at `iss` to pick its authenticator). */
export function peekClaims(token: string): JwtClaims | undefined {
  const parts = token.split('.');
  return parts.length === 3 ? decodePart(parts[1]) : undefined;
}

/**
 * The claims of a token signed by one of `keys` (the header's kid picks it when present), or undefined for a
 * malformed token or a bad signature. Time and audience are the caller's to check.
 */
export function verifyJwt(token: string, keys: readonly VerificationKey[]): JwtClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const header = decodePart(parts[0]);
  if (!header || typeof header.alg !== 'string') return undefined;
  const signature = Buffer.from(parts[2], 'base64url');
  const input = Buffer.from(`${parts[0]}.${parts[1]}`);
  for (const k of keys) {
    if (k.alg !== header.alg || (typeof header.kid === 'string' && header.kid !== k.kid)) continue;
    if (verify(HASHES[k.alg], input, { key: k.key, dsaEncoding: 'ieee-p1363' }, signature)) return decodePart(parts[1]);
  }
  return undefined;
}
