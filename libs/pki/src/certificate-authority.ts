import { readFile } from 'node:fs/promises';
import { x509 } from './x509.provider';
import { randomSerialNumber, validityFor } from './certificate.validity';
import { ecdsaSigningKey, exportPrivateKeyPem, generateKeyPair, importPrivateKeyPem, type SigningKey } from './private-key.codec';

/** A CA that can sign certificates: its certificate, its key, and both as PEM. */
export interface CertificateAuthority {
  readonly certificate: x509.X509Certificate;
  readonly signingKey: SigningKey;
  readonly certPem: string;
  readonly keyPem: string;
}

export interface CreateCertificateAuthorityOptions {
  readonly commonName: string;
  /** Defaults to 10 years, like kubeadm's CAs. */
  readonly days?: number;
}

const CA_DAYS = 3650;

export async function createCertificateAuthority(opts: CreateCertificateAuthorityOptions): Promise<CertificateAuthority> {
  const keys = await generateKeyPair();
  const signingKey = ecdsaSigningKey(keys.privateKey);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerialNumber(),
    name: [{ CN: [opts.commonName] }],
    keys: keys,
    signingAlgorithm: signingKey.signingAlgorithm,
    ...validityFor(opts.days ?? CA_DAYS),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate, signingKey, certPem: certificate.toString('pem'), keyPem: await exportPrivateKeyPem(keys.privateKey) };
}

export async function parseCertificateAuthority(certPem: string, keyPem: string): Promise<CertificateAuthority> {
  const certificate = new x509.X509Certificate(certPem);
  const basic = certificate.getExtension(x509.BasicConstraintsExtension);
  if (!basic?.ca) throw new Error(`certificate ${certificate.subject} is not a CA (basicConstraints CA:FALSE)`);
  return { certificate, signingKey: await importPrivateKeyPem(keyPem), certPem, keyPem };
}

export async function loadCertificateAuthority(certPath: string, keyPath: string): Promise<CertificateAuthority> {
  const [certPem, keyPem] = await Promise.all([readFile(certPath, 'utf8'), readFile(keyPath, 'utf8')]);
  try {
    return await parseCertificateAuthority(certPem, keyPem);
  } catch (err) {
    throw new Error(`cannot load CA from ${certPath} / ${keyPath}: ${(err as Error).message}`);
  }
}
