import { X509Certificate } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority } from '@kube/pki';
import { servingCertificateFromEnv, type ServingIdentity } from './serving-certificate';

const identity: ServingIdentity = { serviceDnsName: 'wardle-server.kube-system.svc', addresses: ['0.0.0.0', '10.1.2.3', ''] };

describe('servingCertificateFromEnv', () => {
  let dir: string;
  let caFiles: { KUBE_SIGNING_CA_CERT_FILE: string; KUBE_SIGNING_CA_KEY_FILE: string };
  let caPem: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'serving-cert-'));
    const ca = await createCertificateAuthority({ commonName: 'test-ca' });
    caPem = ca.certPem;
    caFiles = { KUBE_SIGNING_CA_CERT_FILE: join(dir, 'ca.crt'), KUBE_SIGNING_CA_KEY_FILE: join(dir, 'ca.key') };
    writeFileSync(caFiles.KUBE_SIGNING_CA_CERT_FILE, ca.certPem);
    writeFileSync(caFiles.KUBE_SIGNING_CA_KEY_FILE, ca.keyPem);
  });

  it('issues a certificate for the service name and the concrete addresses, signed by the signing CA', async () => {
    const files = await servingCertificateFromEnv({ ...caFiles, KUBE_CERT_DIR: join(dir, 'certs') }, identity, 'unused');
    expect(files).toEqual({ certFile: join(dir, 'certs', 'apiserver.crt'), keyFile: join(dir, 'certs', 'apiserver.key'), caPem });
    const cert = new X509Certificate(readFileSync(files.certFile));
    expect(cert.subjectAltName).toBe('DNS:wardle-server.kube-system.svc, IP Address:127.0.0.1, IP Address:10.1.2.3');
    expect(cert.checkIssued(new X509Certificate(caPem))).toBe(true);
    expect(readFileSync(files.keyFile, 'utf8')).toContain('PRIVATE KEY');
  });

  it('keeps the issued key private: directory 0700 and key 0600, also when they existed with wider modes', async () => {
    const certs = join(dir, 'wide');
    mkdirSync(certs, { mode: 0o755 });
    writeFileSync(join(certs, 'apiserver.key'), 'old', { mode: 0o644 });
    chmodSync(certs, 0o755);
    const files = await servingCertificateFromEnv({ ...caFiles, KUBE_CERT_DIR: certs }, identity, 'unused');
    expect(statSync(certs).mode & 0o777).toBe(0o700);
    expect(statSync(files.keyFile).mode & 0o777).toBe(0o600);
  });

  it('uses a given certificate as is, with its CA from KUBE_SERVING_CA_FILE', async () => {
    const env = { KUBE_TLS_CERT_FILE: '/etc/wardle/tls.crt', KUBE_TLS_PRIVATE_KEY_FILE: '/etc/wardle/tls.key', KUBE_SERVING_CA_FILE: caFiles.KUBE_SIGNING_CA_CERT_FILE };
    expect(await servingCertificateFromEnv(env, identity, 'unused')).toEqual({ certFile: '/etc/wardle/tls.crt', keyFile: '/etc/wardle/tls.key', caPem });
  });

  it('says what to set when there is neither a certificate nor a CA', async () => {
    await expect(servingCertificateFromEnv({}, identity, 'unused')).rejects.toThrow('set KUBE_TLS_CERT_FILE and KUBE_TLS_PRIVATE_KEY_FILE, or KUBE_SIGNING_CA_CERT_FILE and KUBE_SIGNING_CA_KEY_FILE');
  });
});
