/**
 * `node dist/scripts/generate-pki.js <dir> [--san NAME]… [--nats-san NAME]… [--nats-config PATH] [--serving SERVICE=SAN,…]…
 *    [--aggregated SERVER]… [--bundles-dir DIR --bundle SERVICE=FILE,…]… [--encryption-config] [--kubeconfig PATH --server URL] [--owner UID:GID]`
 *
 * The one-shot PKI step of docker-compose.yml (the `pki` service): creates or completes the same PKI that
 * `npm start` uses (libs/pki `ensurePki`: cluster CA, front-proxy CA, serving, admin and front-proxy client
 * certificates; the NATS CA, nats-server's certificate and one NATS client certificate per control-plane
 * service) in <dir>, adding each --san to the serving certificate (the containers reach each other by
 * service name) and each --nats-san to nats-server's, optionally writes nats-server's configuration (TLS,
 * a user per client certificate with its registration permissions) to --nats-config, and optionally writes an
 * admin kubeconfig for the host's kubectl.
 *
 * Least privilege (docker-compose.yml): --serving issues a service a serving certificate of its own
 * (serving-<service>.crt/.key, its SANs plus localhost and 127.0.0.1), and --bundle copies only the files a
 * service needs into <bundles-dir>/<service> (one volume per service): directory 0700, keys and nats.conf 0600,
 * certificates 0644, anything else there removed. A service's container mounts only its bundle.
 * --aggregated gives an aggregated server (a row of scripts/local-aggregated-servers.ts) a client certificate of its
 * own (client-<server>.crt/.key, user system:kube-ts:<server>) and writes its RBAC to <dir>/aggregated-apiservers.yaml,
 * which core-api applies (KUBE_BOOTSTRAP_MANIFESTS): no aggregated server holds the admin's certificate.
 *
 * etcd: the etcd CA, etcd's serving certificate (localhost, 127.0.0.1 and each --etcd-san) and one etcd client
 * certificate per etcd user (etcd-client-<name>.crt/.key, CN = the user, scripts/etcd-access.ts): root's (only the
 * etcd-auth one-shot's bundle holds it), each control-plane server's and each --aggregated server's; and
 * <dir>/etcd-aggregated-servers.json, the aggregated servers whose etcd users etcd-auth applies.
 *
 * --encryption-config writes the default EncryptionConfiguration of `npm start` (scripts/encryption-config.ts:
 * Secrets with a generated aescbc key, then identity) to <dir>/encryption-config.yaml once and never rewrites it;
 * compose puts it in core-api's bundle only (KUBE_ENCRYPTION_PROVIDER_CONFIG).
 *
 * Runs again on every `docker-compose up` and keeps what exists (same CA, kubeconfigs stay valid); it only
 * reissues what is missing or lacks a requested SAN.
 *
 * When run as root (the compose service does, because Docker creates bind-mounted folders as root):
 *  - --owner UID:GID hands every PKI file to the user the API containers run as (keys are 0600);
 *  - the kubeconfig is handed to the owner of the folder it is written into, so the host user who created
 *    ./.local/compose can read it.
 */
import { chmod, chown, copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensurePki, writeKubeconfig } from '@kube/pki';
import { CONTROL_PLANE_REGISTRATION_IDENTITIES, natsServerConfig } from '@kube/registration';
import { ENCRYPTION_CONFIG_FILE, writeDefaultEncryptionConfig } from './encryption-config';
import { aggregatedEtcdClients, CONTROL_PLANE_ETCD_CLIENTS, ETCD_AGGREGATED_FILE, ETCD_ROOT_CLIENT, etcdUser } from './etcd-access';
import { localAggregatedServer, writeAggregatedServerAccess } from './local-aggregated-servers';

/** In <dir>: the RBAC of the --aggregated servers, for core-api's KUBE_BOOTSTRAP_MANIFESTS (put it in core-api's bundle). */
const AGGREGATED_ACCESS_FILE = 'aggregated-apiservers.yaml';

const USAGE =
  'usage: generate-pki <dir> [--san NAME]... [--nats-san NAME]... [--nats-config PATH [--nats-monitor HOST:PORT]] [--serving SERVICE=SAN,...]... [--aggregated SERVER]... [--etcd-san NAME]... [--bundles-dir DIR --bundle SERVICE=FILE,...]... [--encryption-config] [--kubeconfig PATH --server https://HOST:PORT] [--owner UID:GID]';

interface Options {
  readonly dir: string;
  readonly sans: string[];
  readonly natsSans: string[];
  readonly natsConfig?: string;
  /** nats-server's monitoring listener in --nats-config (loopback: it asks nobody for credentials). */
  readonly natsMonitor?: string;
  readonly kubeconfig?: string;
  readonly server?: string;
  readonly owner?: { uid: number; gid: number };
  /** service → SANs of its own serving certificate. */
  readonly serving: Record<string, string[]>;
  /** Aggregated servers (rows of scripts/local-aggregated-servers.ts) given a client certificate and RBAC of their own. */
  readonly aggregated: string[];
  /** Extra names of etcd's serving certificate (how the others reach it). */
  readonly etcdSans: string[];
  readonly bundlesDir?: string;
  /** service → the PKI files (names in <dir>) its bundle holds. */
  readonly bundles: Record<string, string[]>;
  /** Write the default EncryptionConfiguration (<dir>/encryption-config.yaml) if it is missing. */
  readonly encryptionConfig: boolean;
}

function parseOptions(argv: string[]): Options {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      san: { type: 'string', multiple: true, default: [] },
      'nats-san': { type: 'string', multiple: true, default: [] },
      'nats-config': { type: 'string' },
      'nats-monitor': { type: 'string' },
      kubeconfig: { type: 'string' },
      server: { type: 'string' },
      owner: { type: 'string' },
      serving: { type: 'string', multiple: true, default: [] },
      aggregated: { type: 'string', multiple: true, default: [] },
      'etcd-san': { type: 'string', multiple: true, default: [] },
      bundle: { type: 'string', multiple: true, default: [] },
      'bundles-dir': { type: 'string' },
      'encryption-config': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (positionals.length !== 1) throw new Error(USAGE);
  if (values.kubeconfig && !values.server) throw new Error('--kubeconfig needs --server (the URL the host reaches the aggregator at)');
  if (values.server && !/^https:\/\/[^/]+$/.test(values.server)) throw new Error(`--server ${values.server}: expected https://HOST:PORT`);
  if ((values.bundle ?? []).length > 0 && !values['bundles-dir']) throw new Error('--bundle needs --bundles-dir');
  return {
    dir: resolve(positionals[0]),
    sans: values.san ?? [],
    natsSans: values['nats-san'] ?? [],
    natsConfig: values['nats-config'] ? resolve(values['nats-config']) : undefined,
    natsMonitor: values['nats-monitor'],
    kubeconfig: values.kubeconfig ? resolve(values.kubeconfig) : undefined,
    server: values.server,
    owner: values.owner ? parseOwner(values.owner) : undefined,
    serving: serviceLists('--serving', values.serving ?? []),
    aggregated: values.aggregated ?? [],
    etcdSans: values['etcd-san'] ?? [],
    bundlesDir: values['bundles-dir'] ? resolve(values['bundles-dir']) : undefined,
    bundles: serviceLists('--bundle', values.bundle ?? []),
    encryptionConfig: values['encryption-config'] ?? false,
  };
}

/** `SERVICE=A,B,…` options into service → [A, B, …]. */
function serviceLists(option: string, raw: readonly string[]): Record<string, string[]> {
  const lists: Record<string, string[]> = {};
  for (const entry of raw) {
    const m = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)=([^=]+)$/.exec(entry);
    if (!m) throw new Error(`${option} ${entry}: expected SERVICE=ITEM,ITEM,…`);
    lists[m[1]] = [...(lists[m[1]] ?? []), ...m[3].split(',').filter(Boolean)];
  }
  return lists;
}

const SECRET = /\.key$|\.conf$|^encryption-config\.yaml$/;

/**
 * Copies `files` of the PKI into `dir` and removes anything else there, so a grant taken away is gone on the
 * next `up`. Keys, nats.conf (it names them) and encryption-config.yaml 0600, certificates 0644, the directory 0700.
 */
async function writeBundle(pkiDir: string, dir: string, files: readonly string[], owner: Options['owner']): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const wanted = new Set(files.map((f) => basename(f)));
  for (const stale of await readdir(dir)) if (!wanted.has(stale)) await rm(join(dir, stale), { recursive: true, force: true });
  for (const file of wanted) {
    const target = join(dir, file);
    await copyFile(join(pkiDir, file), target);
    await chmod(target, SECRET.test(file) ? 0o600 : 0o644);
  }
  if (owner && isRoot()) await Promise.all([dir, ...[...wanted].map((f) => join(dir, f))].map((p) => chown(p, owner.uid, owner.gid)));
}

function parseOwner(raw: string): { uid: number; gid: number } {
  const m = /^(\d+):(\d+)$/.exec(raw);
  if (!m) throw new Error(`--owner ${raw}: expected UID:GID (numbers)`);
  return { uid: Number(m[1]), gid: Number(m[2]) };
}

const isRoot = (): boolean => process.getuid?.() === 0;

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const natsClients = CONTROL_PLANE_REGISTRATION_IDENTITIES.map((identity) => identity.name);
  await mkdir(opts.dir, { recursive: true, mode: 0o700 });
  const clientCertificates = await writeAggregatedServerAccess(join(opts.dir, AGGREGATED_ACCESS_FILE), opts.aggregated);
  // One etcd user per API server (its own certificate) and root's, for the etcd-auth one-shot alone.
  const aggregatedEtcd = aggregatedEtcdClients(opts.aggregated.map(localAggregatedServer));
  const etcdClients = Object.fromEntries([[ETCD_ROOT_CLIENT, ETCD_ROOT_CLIENT], ...[...CONTROL_PLANE_ETCD_CLIENTS, ...opts.aggregated].map((c) => [c, etcdUser(c)])]);
  const pki = await ensurePki(opts.dir, { extraSans: opts.sans, natsClients, natsSans: opts.natsSans, servingCertificates: opts.serving, clientCertificates, etcdSans: opts.etcdSans, etcdClients });
  await writeFile(join(opts.dir, ETCD_AGGREGATED_FILE), `${JSON.stringify(aggregatedEtcd, null, 2)}\n`, { mode: 0o644 });
  console.log(`[pki] etcd CA, etcd's serving certificate (extra SANs: ${opts.etcdSans.join(', ') || 'none'}), etcd client certificates (${Object.values(etcdClients).join(', ')})`);
  if (opts.aggregated.length) console.log(`[pki] client certificates and RBAC (${AGGREGATED_ACCESS_FILE}) of ${opts.aggregated.join(', ')}`);
  console.log(`[pki] ${opts.dir}: CAs, serving certificate (extra SANs: ${opts.sans.join(', ') || 'none'}), admin and front-proxy client certificates, NATS certificates (${natsClients.join(', ')})`);
  if (opts.natsConfig) {
    const tls = { certFile: pki.natsServerCert, keyFile: pki.natsServerKey, caFile: pki.natsCaCert };
    await writeFile(opts.natsConfig, natsServerConfig({ tls, identities: CONTROL_PLANE_REGISTRATION_IDENTITIES, monitor: opts.natsMonitor }), { mode: 0o600 });
    console.log(`[pki] wrote ${opts.natsConfig} (nats-server: TLS, one user per client certificate)`);
  }

  if (opts.encryptionConfig) {
    const path = join(opts.dir, ENCRYPTION_CONFIG_FILE);
    const wrote = await writeDefaultEncryptionConfig(path);
    console.log(`[pki] ${wrote ? 'wrote' : 'kept'} ${path} (Secrets encrypted at rest: aescbc key1, then identity)`);
  }

  if (opts.owner && isRoot()) {
    const files = await readdir(opts.dir);
    await Promise.all([opts.dir, ...files.map((f) => join(opts.dir, f))].map((p) => chown(p, opts.owner!.uid, opts.owner!.gid)));
    console.log(`[pki] owned by ${opts.owner.uid}:${opts.owner.gid}`);
  }

  if (opts.bundlesDir) {
    for (const [service, files] of Object.entries(opts.bundles)) await writeBundle(opts.dir, join(opts.bundlesDir, service), files, opts.owner);
    console.log(`[pki] bundles in ${opts.bundlesDir}: ${Object.entries(opts.bundles).map(([service, files]) => `${service} (${files.length} files)`).join(', ')}`);
  }

  if (opts.kubeconfig && opts.server) {
    const [caPem, clientCertPem, clientKeyPem] = await Promise.all([pki.caCert, pki.adminCert, pki.adminKey].map((p) => readFile(p, 'utf8')));
    await writeKubeconfig(opts.kubeconfig, { server: opts.server, caPem, clientCertPem, clientKeyPem });
    if (isRoot()) {
      const folder = await stat(dirname(opts.kubeconfig));
      await chown(opts.kubeconfig, folder.uid, folder.gid);
    }
    console.log(`[pki] wrote ${opts.kubeconfig} (server ${opts.server}, user kubernetes-admin)`);
  }
}

main().catch((err: unknown) => {
  console.error(`[pki] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
