import { generateKeyPairSync } from 'node:crypto';
import { access, chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { x509 } from './x509.provider';
import { type CertificateAuthority, createCertificateAuthority, loadCertificateAuthority } from './certificate-authority';
import { type CertificateUsage, type IssueCertificateOptions, issueCertificate } from './certificate.issuer';

/** Absolute or relative (as given) paths of every file ensurePki manages. */
export interface PkiPaths {
  readonly dir: string;
  readonly caCert: string;
  readonly caKey: string;
  readonly frontProxyCaCert: string;
  readonly frontProxyCaKey: string;
  readonly apiserverCert: string;
  readonly apiserverKey: string;
  readonly adminCert: string;
  readonly adminKey: string;
  readonly frontProxyClientCert: string;
  readonly frontProxyClientKey: string;
  /** The controller-manager's client certificate (CN system:kube-controller-manager, kubeadm's controller-manager.conf). */
  readonly controllerManagerCert: string;
  readonly controllerManagerKey: string;
  /** The service-account signing key pair (kubeadm's sa.key / sa.pub). */
  readonly serviceAccountKey: string;
  readonly serviceAccountPub: string;
  /** The NATS CA: signs nats-server's certificate and the services' NATS client certificates, nothing else. */
  readonly natsCaCert: string;
  readonly natsCaKey: string;
  readonly natsServerCert: string;
  readonly natsServerKey: string;
  /**
   * The etcd CA (kubeadm's etcd/ca): signs etcd's serving certificate and the etcd client certificates, nothing
   * else, so that no Kubernetes or NATS identity is an etcd user and no etcd user a Kubernetes one.
   */
  readonly etcdCaCert: string;
  readonly etcdCaKey: string;
  readonly etcdServerCert: string;
  readonly etcdServerKey: string;
}

export interface EnsurePkiOptions {
  /** Extra DNS names or IP addresses for the apiserver serving certificate. */
  readonly extraSans?: readonly string[];
  /** NATS identities to issue client certificates for (subject CN=<name>; see natsClientPaths). */
  readonly natsClients?: readonly string[];
  /** Extra DNS names or IP addresses for nats-server's certificate (it always has localhost, 127.0.0.1, ::1). */
  readonly natsSans?: readonly string[];
  /**
   * Serving certificates of their own (cluster CA), by name → DNS names or IP addresses (localhost and
   * 127.0.0.1 are always added): each service of a deployment then holds only its own serving key
   * (servingCertPaths). Reissued when missing, when a SAN is missing or when the cluster CA was just created.
   */
  readonly servingCertificates?: Readonly<Record<string, readonly string[]>>;
  /**
   * Client certificates of their own (cluster CA), by name → the user they authenticate as: a service then holds
   * its own identity instead of the admin's (clientCertPaths). Reissued when missing, when the user differs or
   * when the cluster CA was just created.
   */
  readonly clientCertificates?: Readonly<Record<string, ClientIdentity>>;
  /** Extra DNS names or IP addresses for etcd's serving certificate (it always has localhost, 127.0.0.1, ::1). */
  readonly etcdSans?: readonly string[];
  /**
   * etcd client certificates (etcd CA), by name → the etcd user they authenticate as (their CN, which etcd's
   * --client-cert-auth takes as the user): see etcdClientPaths. Reissued when missing, when the user differs or
   * when the etcd CA was just created.
   */
  readonly etcdClients?: Readonly<Record<string, string>>;
}

/** A Kubernetes user as a client certificate carries it: CN the user name, O the groups. */
export interface ClientIdentity {
  readonly user: string;
  readonly groups?: readonly string[];
}

const OWN_SERVING_SANS: readonly string[] = ['localhost', '127.0.0.1'];

const NATS_SERVER_SANS: readonly string[] = ['localhost', '127.0.0.1', '::1'];

const ETCD_SERVER_SANS: readonly string[] = ['localhost', '127.0.0.1', '::1'];

/** The names kube-apiserver's serving certificate carries (kubeadm's list, service CIDR 10.96.0.0/12). */
export const APISERVER_DNS_NAMES: readonly string[] = [
  'localhost',
  'kubernetes',
  'kubernetes.default',
  'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local',
];
export const APISERVER_IP_ADDRESSES: readonly string[] = ['127.0.0.1', '::1', '10.96.0.1'];

interface FilePair {
  readonly cert: string;
  readonly key: string;
}

export function pkiPaths(dir: string): PkiPaths {
  const file = (name: string): string => join(dir, name);
  return {
    dir,
    caCert: file('ca.crt'),
    caKey: file('ca.key'),
    frontProxyCaCert: file('front-proxy-ca.crt'),
    frontProxyCaKey: file('front-proxy-ca.key'),
    apiserverCert: file('apiserver.crt'),
    apiserverKey: file('apiserver.key'),
    adminCert: file('admin.crt'),
    adminKey: file('admin.key'),
    frontProxyClientCert: file('front-proxy-client.crt'),
    frontProxyClientKey: file('front-proxy-client.key'),
    controllerManagerCert: file('controller-manager.crt'),
    controllerManagerKey: file('controller-manager.key'),
    serviceAccountKey: file('sa.key'),
    serviceAccountPub: file('sa.pub'),
    natsCaCert: file('nats-ca.crt'),
    natsCaKey: file('nats-ca.key'),
    natsServerCert: file('nats-server.crt'),
    natsServerKey: file('nats-server.key'),
    etcdCaCert: file('etcd-ca.crt'),
    etcdCaKey: file('etcd-ca.key'),
    etcdServerCert: file('etcd-server.crt'),
    etcdServerKey: file('etcd-server.key'),
  };
}

/** The etcd client certificate and key ensurePki issues for `name` (EnsurePkiOptions.etcdClients). */
export function etcdClientPaths(pki: Pick<PkiPaths, 'dir'>, name: string): { readonly cert: string; readonly key: string } {
  return { cert: join(pki.dir, `etcd-client-${name}.crt`), key: join(pki.dir, `etcd-client-${name}.key`) };
}

/** The NATS client certificate and key of identity `name` in the PKI of `pki`. */
export function natsClientPaths(pki: Pick<PkiPaths, 'dir'>, name: string): { readonly cert: string; readonly key: string } {
  return { cert: join(pki.dir, `nats-client-${name}.crt`), key: join(pki.dir, `nats-client-${name}.key`) };
}

/** The client certificate and key ensurePki issues for `name` (EnsurePkiOptions.clientCertificates). */
export function clientCertPaths(pki: Pick<PkiPaths, 'dir'>, name: string): { readonly cert: string; readonly key: string } {
  return { cert: join(pki.dir, `client-${name}.crt`), key: join(pki.dir, `client-${name}.key`) };
}

/** The serving certificate and key ensurePki issues for `name` (EnsurePkiOptions.servingCertificates). */
export function servingCertPaths(pki: Pick<PkiPaths, 'dir'>, name: string): { readonly cert: string; readonly key: string } {
  return { cert: join(pki.dir, `serving-${name}.crt`), key: join(pki.dir, `serving-${name}.key`) };
}

/**
 * Creates whatever is missing of the local PKI in `dir` and keeps what exists, so restarts reuse the same CA
 * and kubeconfigs stay valid. A leaf is (re)issued when either of its files is missing, when its CA was just
 * created (the old leaf could not chain to it), or — for the serving certificate — when it lacks a requested SAN.
 */
export async function ensurePki(dir: string, opts: EnsurePkiOptions = {}): Promise<PkiPaths> {
  const paths = pkiPaths(dir);
  await mkdir(dir, { recursive: true, mode: 0o700 });

  const cluster = await ensureCa({ cert: paths.caCert, key: paths.caKey }, 'kubernetes');
  const frontProxy = await ensureCa({ cert: paths.frontProxyCaCert, key: paths.frontProxyCaKey }, 'front-proxy-ca');

  const { dnsNames, ipAddresses } = splitSans([...APISERVER_DNS_NAMES, ...APISERVER_IP_ADDRESSES, ...(opts.extraSans ?? [])]);
  const serving = { cert: paths.apiserverCert, key: paths.apiserverKey };
  const stale = cluster.created || !(await coversSans(serving.cert, dnsNames, ipAddresses));
  await ensureLeaf(serving, cluster.ca, stale, { commonName: 'kube-apiserver', dnsNames, ipAddresses, usage: 'server' });
  await ensureLeaf({ cert: paths.adminCert, key: paths.adminKey }, cluster.ca, cluster.created, {
    commonName: 'kubernetes-admin',
    organizations: ['system:masters'],
    usage: 'client',
  });
  await ensureLeaf({ cert: paths.controllerManagerCert, key: paths.controllerManagerKey }, cluster.ca, cluster.created, {
    commonName: 'system:kube-controller-manager',
    usage: 'client',
  });
  await ensureLeaf({ cert: paths.frontProxyClientCert, key: paths.frontProxyClientKey }, frontProxy.ca, frontProxy.created, {
    commonName: 'front-proxy-client',
    usage: 'client',
  });
  for (const [name, sans] of Object.entries(opts.servingCertificates ?? {})) {
    const own = splitSans([...OWN_SERVING_SANS, ...sans]);
    const files = servingCertPaths(paths, name);
    const reissue = cluster.created || !(await coversSans(files.cert, own.dnsNames, own.ipAddresses));
    await ensureLeaf(files, cluster.ca, reissue, { commonName: name, ...own, usage: 'server' });
  }
  for (const [name, identity] of Object.entries(opts.clientCertificates ?? {})) {
    const files = clientCertPaths(paths, name);
    const reissue = cluster.created || !(await hasSubject(files.cert, identity));
    await ensureLeaf(files, cluster.ca, reissue, { commonName: identity.user, organizations: [...(identity.groups ?? [])], usage: 'client' });
  }
  await ensureServiceAccountKey({ cert: paths.serviceAccountPub, key: paths.serviceAccountKey });
  await ensureNatsPki(paths, opts);
  await ensureEtcdPki(paths, opts);
  return paths;
}

/**
 * A CA of its own for etcd: its serving certificate, and one client certificate per etcd user (CN = the user), so
 * that reaching etcd takes a certificate this CA signed, and each API server holds only its own user's.
 */
async function ensureEtcdPki(paths: PkiPaths, opts: EnsurePkiOptions): Promise<void> {
  const etcd = await ensureCa({ cert: paths.etcdCaCert, key: paths.etcdCaKey }, 'etcd-ca');
  const { dnsNames, ipAddresses } = splitSans([...ETCD_SERVER_SANS, ...(opts.etcdSans ?? [])]);
  const server = { cert: paths.etcdServerCert, key: paths.etcdServerKey };
  const stale = etcd.created || !(await coversSans(server.cert, dnsNames, ipAddresses));
  // Client usage too, as kubeadm's etcd/server: etcd's own gRPC gateway dials etcd with this certificate, which
  // --client-cert-auth then verifies. Its CN is no etcd user, so it grants nothing.
  const usable = !stale && (await hasUsage(server.cert, 'both'));
  await ensureLeaf(server, etcd.ca, !usable, { commonName: 'etcd-server', dnsNames, ipAddresses, usage: 'both' });
  for (const [name, user] of Object.entries(opts.etcdClients ?? {})) {
    const files = etcdClientPaths(paths, name);
    const reissue = etcd.created || !(await hasSubject(files.cert, { user }));
    await ensureLeaf(files, etcd.ca, reissue, { commonName: user, usage: 'client' });
  }
}

/**
 * A CA of its own for NATS, so that no Kubernetes client certificate (signed by the cluster CA) is a NATS
 * identity and no NATS identity is a Kubernetes user.
 */
async function ensureNatsPki(paths: PkiPaths, opts: EnsurePkiOptions): Promise<void> {
  const nats = await ensureCa({ cert: paths.natsCaCert, key: paths.natsCaKey }, 'nats-ca');
  const { dnsNames, ipAddresses } = splitSans([...NATS_SERVER_SANS, ...(opts.natsSans ?? [])]);
  const server = { cert: paths.natsServerCert, key: paths.natsServerKey };
  const stale = nats.created || !(await coversSans(server.cert, dnsNames, ipAddresses));
  await ensureLeaf(server, nats.ca, stale, { commonName: 'nats-server', dnsNames, ipAddresses, usage: 'server' });
  for (const name of unique(opts.natsClients ?? [])) {
    await ensureLeaf(natsClientPaths(paths, name), nats.ca, nats.created, { commonName: name, usage: 'client' });
  }
}

/** The key pair service-account tokens are signed with (ECDSA P-256 → ES256); kept across restarts so issued tokens stay valid. */
async function ensureServiceAccountKey(files: FilePair): Promise<void> {
  if (await pairExists(files)) return;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  await writePair(files, publicKey.export({ type: 'spki', format: 'pem' }).toString(), privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
}

async function ensureCa(files: FilePair, commonName: string): Promise<{ ca: CertificateAuthority; created: boolean }> {
  if (await pairExists(files)) return { ca: await loadCertificateAuthority(files.cert, files.key), created: false };
  const ca = await createCertificateAuthority({ commonName });
  await writePair(files, ca.certPem, ca.keyPem);
  return { ca, created: true };
}

async function ensureLeaf(
  files: FilePair,
  ca: CertificateAuthority,
  forceReissue: boolean,
  opts: IssueCertificateOptions,
): Promise<void> {
  if (!forceReissue && (await pairExists(files))) return;
  const issued = await issueCertificate(ca, opts);
  await writePair(files, issued.certPem, issued.keyPem);
}

async function coversSans(certPath: string, dnsNames: readonly string[], ipAddresses: readonly string[]): Promise<boolean> {
  if (!(await exists(certPath))) return false;
  const san = new x509.X509Certificate(await readFile(certPath, 'utf8')).getExtension(x509.SubjectAlternativeNameExtension);
  const present = new Set((san?.names.toJSON() ?? []).map((name) => `${name.type}:${normalizeIp(name.value)}`));
  return [...dnsNames.map((n) => `dns:${n}`), ...ipAddresses.map((ip) => `ip:${normalizeIp(ip)}`)].every((n) => present.has(n));
}

/** Whether the certificate carries exactly the extended key usages of `usage`. */
async function hasUsage(certPath: string, usage: CertificateUsage): Promise<boolean> {
  if (!(await exists(certPath))) return false;
  const want = usage === 'both' ? ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2'] : [usage === 'server' ? '1.3.6.1.5.5.7.3.1' : '1.3.6.1.5.5.7.3.2'];
  const eku = new x509.X509Certificate(await readFile(certPath, 'utf8')).getExtension(x509.ExtendedKeyUsageExtension);
  return [...(eku?.usages ?? [])].map(String).sort().join() === want.join();
}

async function hasSubject(certPath: string, identity: ClientIdentity): Promise<boolean> {
  if (!(await exists(certPath))) return false;
  const cert = new x509.X509Certificate(await readFile(certPath, 'utf8'));
  const cn = cert.subjectName.getField('CN');
  const o = cert.subjectName.getField('O');
  return cn.length === 1 && cn[0] === identity.user && [...o].sort().join() === [...(identity.groups ?? [])].sort().join();
}

function splitSans(sans: readonly string[]): { dnsNames: string[]; ipAddresses: string[] } {
  const isIp = (s: string): boolean => isIP(s) !== 0;
  return { dnsNames: unique(sans.filter((s) => !isIp(s))), ipAddresses: unique(sans.filter(isIp)) };
}

/** IPv6 addresses print in several forms ("::1" vs "0:0:…:1"); compare a canonical one. */
function normalizeIp(value: string): string {
  if (!value.includes(':')) return value;
  try {
    return new URL(`http://[${value}]/`).hostname;
  } catch {
    return value;
  }
}

async function writePair(files: FilePair, certPem: string, keyPem: string): Promise<void> {
  // The key first: a crash in between leaves a missing cert, which the next run simply reissues.
  await writeFile(files.key, keyPem, { mode: 0o600 });
  await chmod(files.key, 0o600);
  await writeFile(files.cert, certPem, { mode: 0o644 });
}

async function pairExists(files: FilePair): Promise<boolean> {
  return (await exists(files.cert)) && (await exists(files.key));
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
