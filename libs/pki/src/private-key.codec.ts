import { createPrivateKey, webcrypto } from 'node:crypto';
import { x509 } from './x509.provider';

/** A private key ready to sign, with the WebCrypto algorithm that signing with it needs. */
export interface SigningKey {
  readonly privateKey: webcrypto.CryptoKey;
  readonly signingAlgorithm: webcrypto.EcdsaParams | webcrypto.Algorithm;
}

/** Every key we generate: ECDSA P-256, signatures with SHA-256. */
const EC_P256: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const ECDSA_SHA256: webcrypto.EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };
const RSA_SHA256: webcrypto.RsaHashedImportParams = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };

/** OpenSSL curve names (what Node reports) → WebCrypto curve names. */
const CURVES: Readonly<Record<string, string>> = {
  prime256v1: 'P-256',
  secp384r1: 'P-384',
  secp521r1: 'P-521',
};

export function generateKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
}

export function ecdsaSigningKey(privateKey: webcrypto.CryptoKey): SigningKey {
  return { privateKey, signingAlgorithm: ECDSA_SHA256 };
}

/** PKCS#8 "PRIVATE KEY" PEM: the form Node's tls, Go and kubectl all accept. */
export async function exportPrivateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/**
 * Imports a PEM private key of any common encoding (PKCS#8, SEC1 "EC PRIVATE KEY", PKCS#1 "RSA PRIVATE KEY"),
 * so a CA made by kubeadm or openssl can be loaded as well as ours.
 */
export async function importPrivateKeyPem(pem: string): Promise<SigningKey> {
  const keyObject = createPrivateKey(pem);
  const der = keyObject.export({ format: 'der', type: 'pkcs8' });
  if (keyObject.asymmetricKeyType === 'ec') {
    const curve = CURVES[keyObject.asymmetricKeyDetails?.namedCurve ?? ''];
    if (!curve) throw new Error(`unsupported EC curve ${keyObject.asymmetricKeyDetails?.namedCurve}`);
    const privateKey = await webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: curve }, true, ['sign']);
    return ecdsaSigningKey(privateKey);
  }
  if (keyObject.asymmetricKeyType === 'rsa') {
    const privateKey = await webcrypto.subtle.importKey('pkcs8', der, RSA_SHA256, true, ['sign']);
    return { privateKey, signingAlgorithm: RSA_SHA256 };
  }
  throw new Error(`unsupported private key type ${keyObject.asymmetricKeyType}`);
}
