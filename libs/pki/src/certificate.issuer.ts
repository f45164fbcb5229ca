import type { webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import { x509 } from './x509.provider';
import type { CertificateAuthority } from './certificate-authority';
import { randomSerialNumber, validityFor } from './certificate.validity';
import { exportPrivateKeyPem, generateKeyPair } from './private-key.codec';

export type CertificateUsage = 'server' | 'client' | 'both';

export interface IssueCertificateOptions {
  readonly commonName: string;
  /** Subject O= values; Kubernetes reads them as the user's groups. */
  readonly organizations?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly usage: CertificateUsage;
  /** Defaults to one year, like kubeadm's leaf certificates. */
  readonly days?: number;
}

/** A freshly issued certificate with its own new key (PKCS#8), both PEM. */
export interface IssuedCertificate {
  readonly certPem: string;
  readonly keyPem: string;
}

const LEAF_DAYS = 365;

const EXTENDED_USAGES: Readonly<Record<CertificateUsage, string[]>> = {
  server: [x509.ExtendedKeyUsage.serverAuth],
  client: [x509.ExtendedKeyUsage.clientAuth],
  both: [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth],
};

export async function issueCertificate(ca: CertificateAuthority, opts: IssueCertificateOptions): Promise<IssuedCertificate> {
  const keys = await generateKeyPair();
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject: subjectName(opts),
    issuer: ca.certificate.subjectName,
    publicKey: keys.publicKey,
    signingKey: ca.signingKey.privateKey,
    signingAlgorithm: ca.signingKey.signingAlgorithm,
    ...validityFor(opts.days ?? LEAF_DAYS),
    extensions: await leafExtensions(ca, keys.publicKey, opts),
  });
  return { certPem: certificate.toString('pem'), keyPem: await exportPrivateKeyPem(keys.privateKey) };
}

function subjectName(opts: IssueCertificateOptions): x509.JsonName {
  // JSON form rather than a "CN=…, O=…" string: names with commas or '=' need no escaping.
  const organizations = opts.organizations ?? [];
  return [...(organizations.length ? [{ O: [...organizations] }] : []), { CN: [opts.commonName] }];
}

async function leafExtensions(
  ca: CertificateAuthority,
  publicKey: webcrypto.CryptoKey,
  opts: IssueCertificateOptions,
): Promise<x509.Extension[]> {
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    // ECDSA keys only sign; keyEncipherment would be wrong for them.
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension(EXTENDED_USAGES[opts.usage]),
    await x509.SubjectKeyIdentifierExtension.create(publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(ca.certificate.publicKey),
  ];
  const altNames = subjectAltNames(opts);
  if (altNames.length) extensions.push(new x509.SubjectAlternativeNameExtension(altNames));
  return extensions;
}

function subjectAltNames(opts: IssueCertificateOptions): x509.JsonGeneralNames {
  const ips = opts.ipAddresses ?? [];
  const invalid = ips.filter((ip) => isIP(ip) === 0);
  if (invalid.length) throw new Error(`not IP addresses: ${invalid.join(', ')}`);
  return [
    ...unique(opts.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...unique(ips).map((value) => ({ type: 'ip' as const, value })),
  ];
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
