/**
 * The serving certificate of an aggregated server. Given KUBE_TLS_CERT_FILE it is used as is (its CA comes from
 * KUBE_SERVING_CA_FILE, for the APIService caBundle). Otherwise, with a signing CA (the local PKI's), one is
 * issued at every start for `<service>.<namespace>.svc` and the listen address, and written to KUBE_CERT_DIR
 * as kube-apiserver writes its generated pair to --cert-dir.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { issueCertificate, loadCertificateAuthority } from '@kube/pki';

type Env = Readonly<Record<string, string | undefined>>;

export interface ServingCertificateFiles {
  certFile: string;
  keyFile: string;
  /** PEM of the CA that signed the certificate, if known: the APIService's caBundle. */
  caPem?: string;
}

export interface ServingIdentity {
  /** The in-cluster name clients verify: `<service>.<namespace>.svc`. */
  serviceDnsName: string;
  /** Addresses the certificate must also cover (loopback is always included). */
  addresses: readonly string[];
}

const LOOPBACK = '127.0.0.1';

export async function issueServingCertificate(caCertFile: string, caKeyFile: string, identity: ServingIdentity): Promise<{ certPem: string; keyPem: string; caPem: string }> {
  const ca = await loadCertificateAuthority(caCertFile, caKeyFile);
  const ipAddresses = [LOOPBACK, ...identity.addresses.filter((a) => isIP(a) !== 0 && a !== '0.0.0.0' && a !== '::')];
  const cert = await issueCertificate(ca, { commonName: identity.serviceDnsName, dnsNames: [identity.serviceDnsName], ipAddresses, usage: 'server' });
  return { ...cert, caPem: ca.certPem };
}

/** Resolves (issuing if needed) the certificate files; throws with the variables to set when neither is given. */
export async function servingCertificateFromEnv(env: Env, identity: ServingIdentity, defaultCertDir: string): Promise<ServingCertificateFiles> {
  const certFile = env.KUBE_TLS_CERT_FILE;
  if (certFile) {
    const caFile = env.KUBE_SERVING_CA_FILE;
    return { certFile, keyFile: env.KUBE_TLS_PRIVATE_KEY_FILE ?? '', caPem: caFile ? await readFile(caFile, 'utf8') : undefined };
  }
  const caCert = env.KUBE_SIGNING_CA_CERT_FILE;
  const caKey = env.KUBE_SIGNING_CA_KEY_FILE;
  if (!caCert || !caKey) {
    throw new Error('no serving certificate: set KUBE_TLS_CERT_FILE and KUBE_TLS_PRIVATE_KEY_FILE, or KUBE_SIGNING_CA_CERT_FILE and KUBE_SIGNING_CA_KEY_FILE to issue one');
  }
  const issued = await issueServingCertificate(caCert, caKey, identity);
  const dir = env.KUBE_CERT_DIR || defaultCertDir;
  // Only this server reads its key: the directory 0700, the key 0600 (chmod too: a mode applies only on create).
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const files = { certFile: join(dir, 'apiserver.crt'), keyFile: join(dir, 'apiserver.key') };
  await writeFile(files.certFile, issued.certPem);
  await writeFile(files.keyFile, issued.keyPem, { mode: 0o600 });
  await chmod(files.keyFile, 0o600);
  return { ...files, caPem: issued.caPem };
}
