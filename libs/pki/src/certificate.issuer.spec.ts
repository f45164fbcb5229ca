import { X509Certificate, createPrivateKey } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '@kube/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CertificateAuthority, createCertificateAuthority, loadCertificateAuthority } from './certificate-authority';
import { issueCertificate } from './certificate.issuer';

describe('issueCertificate', () => {
  let ca: CertificateAuthority;

  beforeAll(async () => {
    ca = await createCertificateAuthority({ commonName: 'test-ca' });
  });

  it('issues a certificate for both server and client use with the requested names', async () => {
    const issued = await issueCertificate(ca, {
      commonName: 'sample-apiserver',
      organizations: ['a, b', 'c'],
      dnsNames: ['api.sample.svc', 'api.sample.svc'],
      ipAddresses: ['10.0.0.7', 'fd00::7'],
      usage: 'both',
      days: 2,
    });
    const cert = new X509Certificate(issued.certPem);
    expect(cert.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    expect(cert.subjectAltName).toBe('DNS:api.sample.svc, IP Address:10.0.0.7, IP Address:FD00:0:0:0:0:0:0:7');
    expect(cert.subject).toContain('CN=sample-apiserver');
    expect(cert.subject).toContain('O=a\\, b');
    expect(new Date(cert.validTo).getTime() - Date.now()).toBeLessThan(2.1 * 24 * 3600 * 1000);
    expect(cert.ca).toBe(false);
  });

  it('rejects IP SANs that are not addresses', async () => {
    await expect(issueCertificate(ca, { commonName: 'x', ipAddresses: ['not-an-ip'], usage: 'server' })).rejects.toThrow(
      /not IP addresses: not-an-ip/,
    );
  });
});

describe('loadCertificateAuthority', () => {
  const dir = tempDir('ca-spec');

  it('loads a CA whose key is SEC1 ("EC PRIVATE KEY", as openssl writes it) and signs with it', async () => {
    const created = await createCertificateAuthority({ commonName: 'sec1-ca' });
    const sec1 = createPrivateKey(created.keyPem).export({ format: 'pem', type: 'sec1' }).toString();
    await writeFile(join(dir, 'ca.crt'), created.certPem);
    await writeFile(join(dir, 'ca.key'), sec1);
    const loaded = await loadCertificateAuthority(join(dir, 'ca.crt'), join(dir, 'ca.key'));
    const issued = await issueCertificate(loaded, { commonName: 'client', usage: 'client' });
    expect(new X509Certificate(issued.certPem).checkIssued(new X509Certificate(created.certPem))).toBe(true);
  });

  it('refuses a certificate that is not a CA', async () => {
    const ca = await createCertificateAuthority({ commonName: 'ca' });
    const leaf = await issueCertificate(ca, { commonName: 'leaf', usage: 'server' });
    await writeFile(join(dir, 'leaf.crt'), leaf.certPem);
    await writeFile(join(dir, 'leaf.key'), leaf.keyPem);
    await expect(loadCertificateAuthority(join(dir, 'leaf.crt'), join(dir, 'leaf.key'))).rejects.toThrow(/is not a CA/);
  });
});
