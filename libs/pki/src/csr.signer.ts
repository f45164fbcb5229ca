import { x509 } from './x509.provider';
import type { CertificateAuthority } from './certificate-authority';
import { randomSerialNumber } from './certificate.validity';

/** A parsed, signature-checked PKCS#10 request. */
export interface CertificateRequestInfo {
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly request: x509.Pkcs10CertificateRequest;
}

const KEY_USAGES: Readonly<Record<string, number>> = {
  'digital signature': x509.KeyUsageFlags.digitalSignature,
  'key encipherment': x509.KeyUsageFlags.keyEncipherment,
  'content commitment': x509.KeyUsageFlags.nonRepudiation,
  'key agreement': x509.KeyUsageFlags.keyAgreement,
  'data encipherment': x509.KeyUsageFlags.dataEncipherment,
  'cert sign': x509.KeyUsageFlags.keyCertSign,
  'crl sign': x509.KeyUsageFlags.cRLSign,
};

const EXTENDED_KEY_USAGES: Readonly<Record<string, string>> = {
  'client auth': x509.ExtendedKeyUsage.clientAuth,
  'server auth': x509.ExtendedKeyUsage.serverAuth,
  'code signing': x509.ExtendedKeyUsage.codeSigning,
  'email protection': x509.ExtendedKeyUsage.emailProtection,
  'timestamping': x509.ExtendedKeyUsage.timeStamping,
  'ocsp signing': x509.ExtendedKeyUsage.ocspSigning,
};

/** Parses a PEM "CERTIFICATE REQUEST" (kube's certificates.ParseCSR); throws with kube's wording otherwise. */
export function parseCertificateRequest(pem: string): CertificateRequestInfo {
  const match = /-----BEGIN CERTIFICATE REQUEST-----([\s\S]*?)-----END CERTIFICATE REQUEST-----/.exec(pem);
  if (!match || !pem.trimStart().startsWith('-----BEGIN CERTIFICATE REQUEST-----')) throw new Error('PEM block type must be CERTIFICATE REQUEST');
  const request = new x509.Pkcs10CertificateRequest(match[0]);
  const name = request.subjectName.toJSON();
  const values = (key: string): string[] => name.flatMap((rdn) => rdn[key] ?? []);
  return { commonName: values('CN')[0] ?? '', organizations: values('O'), request };
}

export interface SignRequestOptions {
  /** kube's certificates/v1 usages ("digital signature", "client auth", …). */
  readonly usages: readonly string[];
  readonly durationSeconds: number;
}

/**
 * Signs a parsed request with the CA as kube's signer does (pkg/controller/certificates/signer): the request's
 * subject and public key (its signature checked), the requested usages, not a CA; returns the certificate PEM. Backdated five minutes
 * for clock skew, as kube does.
 */
export async function signCertificateRequest(ca: CertificateAuthority, info: CertificateRequestInfo, opts: SignRequestOptions): Promise<string> {
  if (!(await info.request.verify())) throw new Error('the request\'s signature does not verify');
  const keyUsage = opts.usages.reduce((flags, u) => flags | (KEY_USAGES[u] ?? 0), 0);
  const extended = opts.usages.map((u) => EXTENDED_KEY_USAGES[u]).filter((u): u is string => !!u);
  const notBefore = new Date(Date.now() - 5 * 60_000);
  const caNotAfter = ca.certificate.notAfter.getTime();
  const notAfter = new Date(Math.min(Date.now() + opts.durationSeconds * 1000, caNotAfter));
  const publicKey = await info.request.publicKey.export();
  const extensions: x509.Extension[] = [new x509.BasicConstraintsExtension(false, undefined, true), await x509.AuthorityKeyIdentifierExtension.create(ca.certificate.publicKey)];
  if (keyUsage) extensions.push(new x509.KeyUsagesExtension(keyUsage, true));
  if (extended.length) extensions.push(new x509.ExtendedKeyUsageExtension(extended));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject: info.request.subjectName,
    issuer: ca.certificate.subjectName,
    publicKey,
    signingKey: ca.signingKey.privateKey,
    signingAlgorithm: ca.signingKey.signingAlgorithm,
    notBefore,
    notAfter,
    extensions,
  });
  return cert.toString('pem');
}
