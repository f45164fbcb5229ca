import { describe, expect, it } from 'vitest';
import { x509 } from './x509.provider';
import { createCertificateAuthority } from './certificate-authority';
import { parseCertificateRequest, signCertificateRequest } from './csr.signer';
import { generateKeyPair } from './private-key.codec';

async function requestPem(subject: string): Promise<string> {
  const keys = await generateKeyPair();
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: subject, keys, signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' } });
  return csr.toString('pem');
}

describe('CSR signing', () => {
  it('parses the subject of a PEM request and refuses anything else with kube\'s message', async () => {
    const info = parseCertificateRequest(await requestPem('CN=alice, O=devs, O=ops'));
    expect(info.commonName).toBe('alice');
    expect(info.organizations).toEqual(['devs', 'ops']);
    expect(() => parseCertificateRequest('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')).toThrow('PEM block type must be CERTIFICATE REQUEST');
  });

  it('signs with the CA: the request\'s subject, client auth, not a CA, chained to the CA', async () => {
    const ca = await createCertificateAuthority({ commonName: 'test-ca' });
    const pem = await signCertificateRequest(ca, parseCertificateRequest(await requestPem('CN=alice, O=devs')), { usages: ['digital signature', 'client auth'], durationSeconds: 3600 });
    const cert = new x509.X509Certificate(pem);
    expect(cert.subject).toContain('CN=alice');
    expect(cert.issuer).toBe(ca.certificate.subject);
    expect(await cert.verify({ publicKey: ca.certificate.publicKey })).toBe(true);
    expect(cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual([x509.ExtendedKeyUsage.clientAuth]);
    expect(cert.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(false);
    const lifetime = cert.notAfter.getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(3000 * 1000);
    expect(lifetime).toBeLessThanOrEqual(3600 * 1000);
  });
});
