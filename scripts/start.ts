/**
 * `npm start`: the local stack. Starts etcd (TLS only, client certificates of its own CA, its RBAC: one user per API
 * server, scripts/etcd-access.ts) and nats-server as child processes (data under .local/), then
 * every API service in API_SERVICES and the controller-manager, waits until each is ready, writes .local/kubeconfig, and on Ctrl-C or
 * SIGTERM stops the services in reverse order (API first, then nats, then etcd). The next start reuses the data.
 * KUBE_REPLICAS=N (or KUBE_<SERVICE>_REPLICAS) runs N processes of each service on ports one KUBE_REPLICA_PORT_STEP
 * apart; with more than one aggregator, scripts/tcp-balancer.ts holds the front-door port (docs/operations.md, Replicas).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { AggregatedServerAccess } from '@kube/apiserver';
import { type ClientIdentity, clientCertPaths, ensurePki, etcdClientPaths, natsClientPaths, type PkiPaths, servingCertPaths, writeKubeconfig } from '@kube/pki';
import type { EtcdTls } from '@kube/storage';
import { CONTROL_PLANE_REGISTRATION_IDENTITIES, natsServerConfig } from '@kube/registration';
import { localControllerManagerEnv } from '../apps/controller-manager/src/controller-manager.config';
import { type BinaryPaths, ensureBinaries } from './ensure-binaries';
import { ENCRYPTION_CONFIG_FILE, KMS_ENCRYPTION_CONFIG_FILE, KMS_KEYS_FILE, writeDefaultEncryptionConfig, writeDefaultKmsKeys, writeKmsEncryptionConfig } from './encryption-config';
import { aggregatedEtcdClients, applyEtcdAccess, ETCD_ROOT_CLIENT, etcdUser } from './etcd-access';
import { localAggregatedServer, writeAggregatedServerAccess } from './local-aggregated-servers';

/** An API service the launcher runs with `node <main>`; each one listens on its own HTTPS port. */
interface ApiServiceSpec {
  readonly name: string;
  /** Compiled entry point, relative to the repository root. */
  readonly main: string;
  /** Environment variable that overrides this service's port (the child always receives it as KUBE_SECURE_PORT). */
  readonly portEnv: string;
  readonly defaultPort: number;
  /** The service kubectl talks to (the aggregator, once it exists). Exactly one. */
  readonly frontDoor?: boolean;
  /**
   * An aggregated API server reached through its own APIService, not one of the aggregator's local backends:
   * it issues its serving certificate from the local CA and registers itself through the front door, which
   * must therefore be started before it.
   */
  readonly aggregated?: boolean;
  /** An aggregated server's `<service>.<namespace>.svc` (its APIService's), the name the aggregator verifies; default `<name>.kube-system.svc`. */
  readonly serviceDnsName?: string;
}

/** Started in this order, each once the previous one is ready; stopped in reverse. */
const API_SERVICES: readonly ApiServiceSpec[] = [
  { name: 'core-api', main: 'dist/apps/core-api/src/main.js', portEnv: 'KUBE_CORE_API_PORT', defaultPort: 6444 },
  { name: 'extensions', main: 'dist/apps/extensions/src/main.js', portEnv: 'KUBE_EXTENSIONS_PORT', defaultPort: 6445 },
  { name: 'aggregator', main: 'dist/apps/aggregator/src/main.js', portEnv: 'KUBE_SECURE_PORT', defaultPort: 6443, frontDoor: true },
  { name: 'sample-apiserver', main: 'dist/apps/sample-apiserver/src/main.js', portEnv: 'KUBE_SAMPLE_APISERVER_PORT', defaultPort: 6446, aggregated: true, serviceDnsName: 'wardle-server.kube-system.svc' },
  { name: 'counts-apiserver', main: 'dist/apps/counts-apiserver/src/main.js', portEnv: 'KUBE_COUNTS_APISERVER_PORT', defaultPort: 6447, aggregated: true },
  // new-apiserver: rows of scaffolded servers go above this line.
];

const CONTROLLER_MANAGER = 'controller-manager';
const ROOT = resolve(__dirname, '..', '..');
/** KUBE_LOCAL_DIR: where the data, certificates and kubeconfig live (a soak run keeps its stack apart from yours). */
const LOCAL = process.env.KUBE_LOCAL_DIR ? resolve(process.env.KUBE_LOCAL_DIR) : join(ROOT, '.local');
/** How long a service has to get ready during start-up before the launcher gives up (a first start on a busy 2-core machine took over 60 s). */
const READY_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 15_000;
const POLL_MS = 250;
const TAIL_LINES = 30;
/** A child that dies once the stack is up is restarted after 1 s, 2 s, 4 s … at most 30 s (the kubelet's
 * CrashLoopBackOff, shorter); a child that ran for 60 s starts again from 1 s. */
const RESTART_BASE_MS = 1_000;
const RESTART_MAX_MS = 30_000;
const RESTART_RESET_MS = 60_000;

/** Everything the launcher needs to know about one child before spawning it. */
interface ChildSpec {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** Ports that must be free before the start, with the variable that changes each. */
  readonly ports: ReadonlyArray<{ port: number; env: string }>;
  readonly describe: string;
  ready(): Promise<boolean>;
  /** Run once it is first ready, before the next child starts (not after a restart). */
  afterReady?(): Promise<void>;
}

export interface Ports {
  readonly etcd: number;
  readonly etcdPeer: number;
  readonly nats: number;
  /** Each API service's base port: its only replica's, or the first one's (the front door's: the balancer's). */
  readonly api: ReadonlyMap<string, number>;
  readonly controllerManager: number;
  /** Processes per service (API services and the controller-manager), by name; 1 when absent. */
  readonly replicas?: ReadonlyMap<string, number>;
  /** Replica i listens on base + i × step (the aggregator's replicas on base + (i + 1) × step behind the balancer). */
  readonly replicaStep?: number;
}

class StartupError extends Error {}

function log(line: string): void {
  console.log(`[start] ${line}`);
}

// ---------------------------------------------------------------------------------------------------------
// Configuration

function envPort(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new StartupError(`${name}=${raw} is not a TCP port`);
  return port;
}

function readPorts(): Ports {
  return {
    etcd: envPort('KUBE_ETCD_PORT', 2379),
    etcdPeer: envPort('KUBE_ETCD_PEER_PORT', 2380),
    nats: envPort('KUBE_NATS_PORT', 4222),
    api: new Map(API_SERVICES.map((s) => [s.name, envPort(s.portEnv, s.defaultPort)])),
    controllerManager: envPort('KUBE_CONTROLLER_MANAGER_PORT', 10257),
    replicas: new Map([...API_SERVICES.map((s) => s.name), CONTROLLER_MANAGER].map((name) => [name, replicasOf(name)])),
    replicaStep: envCount('KUBE_REPLICA_PORT_STEP', DEFAULT_REPLICA_PORT_STEP),
  };
}

const DEFAULT_REPLICA_PORT_STEP = 100;

function envCount(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new StartupError(`${name}=${raw} is not a whole number from 1 to 1000`);
  return n;
}

/** KUBE_<SERVICE>_REPLICAS (e.g. KUBE_CORE_API_REPLICAS), else KUBE_REPLICAS, else 1. */
export function replicasOf(name: string, env: NodeJS.ProcessEnv = process.env): number {
  return envCount(`KUBE_${name.toUpperCase().replace(/\W/g, '_')}_REPLICAS`, envCount('KUBE_REPLICAS', 1, env), env);
}

function replicaCount(ports: Ports, name: string): number {
  return ports.replicas?.get(name) ?? 1;
}

/** Whether the front door runs as several aggregators behind the TCP balancer (which then holds its port). */
function balanced(ports: Ports): boolean {
  return replicaCount(ports, frontDoor().name) > 1;
}

/**
 * Where replica `i` of a service listens: base + i × step; the aggregators, when balanced, one step further up
 * (the balancer keeps the base port, the address every client and kubeconfig names).
 */
export function replicaPort(ports: Ports, name: string, i: number): number {
  const base = name === CONTROLLER_MANAGER ? ports.controllerManager : (ports.api.get(name) as number);
  const shift = name === frontDoor().name && balanced(ports) ? 1 : 0;
  const port = base + (i + shift) * (ports.replicaStep ?? DEFAULT_REPLICA_PORT_STEP);
  if (port > 65535) throw new StartupError(`replica ${i} of ${name} would listen on port ${port}: lower KUBE_REPLICA_PORT_STEP or the replicas`);
  return port;
}

/** A replica's name in the log and errors: the service's own with one replica, `<service>-<i>` with several. */
function replicaName(ports: Ports, name: string, i: number): string {
  return replicaCount(ports, name) > 1 ? `${name}-${i}` : name;
}

/**
 * etcd serves clients over TLS only and takes only client certificates of the etcd CA (--client-cert-auth): the CN
 * is the etcd user. Once ready, its users and roles are applied and authentication enabled (applyEtcdAccess, as
 * root: only the launcher holds that certificate). The peer URL stays plain on loopback (one member).
 */
function etcdSpec(binaries: BinaryPaths, ports: Ports, pki: PkiPaths, root: EtcdTls): ChildSpec {
  const client = `https://127.0.0.1:${ports.etcd}`;
  const peer = `http://127.0.0.1:${ports.etcdPeer}`;
  return {
    name: 'etcd',
    command: binaries['etcd'],
    args: [
      '--name=default',
      `--data-dir=${join(LOCAL, 'etcd')}`,
      `--listen-client-urls=${client}`,
      `--advertise-client-urls=${client}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=default=${peer}`,
      // Without compaction the revision history, and with it the database, grows forever.
      '--auto-compaction-mode=periodic',
      '--auto-compaction-retention=1h',
      // etcd keeps this many raft entries in memory between snapshots (3.4/3.5 default 100,000, which makes its RSS
      // climb for half an hour under churn); kubeadm and etcd 3.6 use 10,000.
      '--snapshot-count=10000',
      `--cert-file=${pki.etcdServerCert}`,
      `--key-file=${pki.etcdServerKey}`,
      `--trusted-ca-file=${pki.etcdCaCert}`,
      '--client-cert-auth',
      '--logger=zap',
      '--log-outputs=stderr',
      '--log-level=warn',
    ],
    ports: [
      { port: ports.etcd, env: 'KUBE_ETCD_PORT' },
      { port: ports.etcdPeer, env: 'KUBE_ETCD_PEER_PORT' },
    ],
    describe: `${client} (TLS, client certificates, RBAC; data ${displayPath(join(LOCAL, 'etcd'))})`,
    ready: async () => (await httpStatus(httpsGet, `${client}/health`, { ca: root.caPem as string, cert: root.certPem as string, key: root.keyPem as string })) === 200,
    afterReady: () => applyEtcdAccess({ endpoints: [etcdEndpoint(ports)], tls: root, aggregated: aggregatedEtcdClients(localAggregatedServers()), log: (line) => log(`etcd: ${line}`) }),
  };
}

/** The etcd user of each API server (its own client certificate of the etcd CA) and root's, for ensurePki. */
function etcdClients(): Record<string, string> {
  return Object.fromEntries([[ETCD_ROOT_CLIENT, ETCD_ROOT_CLIENT], ...API_SERVICES.map((s) => [s.name, etcdUser(s.name)])]);
}

/** The launcher's aggregated servers as their access rows (scripts/local-aggregated-servers.ts). */
function localAggregatedServers(): AggregatedServerAccess[] {
  return API_SERVICES.filter((s) => s.aggregated).map((s) => localAggregatedServer(s.name));
}

/**
 * What etcd's clients dial: localhost, a name of its serving certificate (grpc would send an IP address as the TLS
 * server name, which Node warns about in every service's log). etcd listens on 127.0.0.1.
 */
function etcdEndpoint(ports: Ports): string {
  return `https://localhost:${ports.etcd}`;
}

/** etcd over TLS as this service's own etcd user: its client certificate only, never root's or another's. */
function etcdEnv(service: ApiServiceSpec, ports: Ports, pki: PkiPaths): Record<string, string> {
  const own = etcdClientPaths(pki, service.name);
  return { KUBE_ETCD_ENDPOINTS: etcdEndpoint(ports), KUBE_ETCD_CAFILE: pki.etcdCaCert, KUBE_ETCD_CERTFILE: own.cert, KUBE_ETCD_KEYFILE: own.key };
}

async function loadEtcdRootTls(pki: PkiPaths): Promise<EtcdTls> {
  const root = etcdClientPaths(pki, ETCD_ROOT_CLIENT);
  const [caPem, certPem, keyPem] = await Promise.all([pki.etcdCaCert, root.cert, root.key].map((p) => readFile(p, 'utf8')));
  return { caPem, certPem, keyPem };
}

const NATS_CONFIG = join(LOCAL, 'nats.conf');

/**
 * nats-server's configuration: TLS, and one user per service certificate with its registration permissions. No
 * monitoring listener: nats-server asks its monitoring clients for no credentials (not even over HTTPS), and on
 * this machine's loopback every local process would reach it; readiness is probed on the client port instead.
 */
export function natsConfigFor(ports: Pick<Ports, 'nats'>, pki: PkiPaths, local: string = LOCAL): string {
  return natsServerConfig({
    listen: `127.0.0.1:${ports.nats}`,
    jetStreamStoreDir: join(local, 'nats'),
    tls: { certFile: pki.natsServerCert, keyFile: pki.natsServerKey, caFile: pki.natsCaCert },
    identities: CONTROL_PLANE_REGISTRATION_IDENTITIES,
  });
}

async function writeNatsConfig(ports: Ports, pki: PkiPaths): Promise<void> {
  await writeFile(NATS_CONFIG, natsConfigFor(ports, pki), { mode: 0o600 });
  await chmod(NATS_CONFIG, 0o600);
}

/** A service with a NATS identity gets its client certificate; the others do not talk to NATS. */
function natsEnv(service: ApiServiceSpec, ports: Ports, pki: PkiPaths): Record<string, string> {
  if (!CONTROL_PLANE_REGISTRATION_IDENTITIES.some((identity) => identity.name === service.name)) return {};
  const client = natsClientPaths(pki, service.name);
  return { KUBE_NATS_URL: `nats://127.0.0.1:${ports.nats}`, KUBE_NATS_CA_FILE: pki.natsCaCert, KUBE_NATS_CERT_FILE: client.cert, KUBE_NATS_KEY_FILE: client.key };
}

function natsSpec(binaries: BinaryPaths, ports: Ports, pki: PkiPaths): ChildSpec {
  const probe = natsClientPaths(pki, CONTROL_PLANE_REGISTRATION_IDENTITIES[0].name);
  return {
    name: 'nats',
    command: binaries['nats-server'],
    args: ['-c', NATS_CONFIG],
    ports: [{ port: ports.nats, env: 'KUBE_NATS_PORT' }],
    describe: `nats://127.0.0.1:${ports.nats} (TLS, client certificates; JetStream store ${displayPath(join(LOCAL, 'nats'))})`,
    ready: () => natsReady(ports.nats, { ca: pki.natsCaCert, cert: probe.cert, key: probe.key }),
  };
}

/**
 * nats-server accepts clients only once JetStream is up, and says so in the INFO line it sends before TLS. The
 * probe then completes the TLS handshake with a NATS client certificate (it sends no CONNECT, so it acts as
 * nobody), so that the server logs no failed handshake.
 */
function natsReady(port: number, files: { ca: string; cert: string; key: string }): Promise<boolean> {
  return new Promise((resolveReady) => {
    const socket = connect({ host: '127.0.0.1', port });
    let settled = false;
    const done = (ready: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolveReady(ready);
    };
    const timer = setTimeout(() => done(false), 2_000);
    socket.once('error', () => done(false));
    let line = '';
    const onData = (chunk: Buffer): void => {
      line += chunk.toString('latin1');
      const end = line.indexOf('\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      let info: { jetstream?: boolean } = {};
      try {
        info = line.startsWith('INFO ') ? (JSON.parse(line.slice(5, end)) as typeof info) : {};
      } catch {
        // not nats-server
      }
      if (!info.jetstream) return done(false);
      void Promise.all([files.ca, files.cert, files.key].map((f) => readFile(f))).then(([ca, cert, key]) => {
        const secure = tlsConnect({ socket, ca, cert, key, servername: 'localhost' }, () => {
          secure.end();
          done(secure.authorized);
        });
        secure.once('error', () => done(false));
      }, () => done(false));
    };
    socket.on('data', onData);
  });
}

/** What the launcher sets in an API service's environment (on top of its own), credentials included. */
function apiServiceEnv(service: ApiServiceSpec, ports: Ports, pki: PkiPaths, replica = 0): Record<string, string> {
  const port = replicaPort(ports, service.name, replica);
  return {
    ...serviceUrls(ports),
    ...etcdEnv(service, ports, pki),
    ...natsEnv(service, ports, pki),
    KUBE_BIND_ADDRESS: '127.0.0.1',
    KUBE_SECURE_PORT: String(port),
    ...servingEnv(service, pki),
    KUBE_CLIENT_CA_FILE: pki.caCert,
    KUBE_REQUESTHEADER_CLIENT_CA_FILE: pki.frontProxyCaCert,
    KUBE_REQUESTHEADER_ALLOWED_NAMES: 'front-proxy-client',
    // Local aggregated servers listen on loopback; real clusters keep kube's refusal.
    KUBE_ALLOW_LOOPBACK_ENDPOINTS: 'true',
    ...(service.frontDoor ? frontDoorEnv(ports, pki, replica) : {}),
    ...serviceAccountEnv(service, pki),
    ...(service.name === 'core-api' ? { KUBE_BOOTSTRAP_MANIFESTS: BOOTSTRAP_MANIFESTS } : {}),
    ...(service.aggregated ? aggregatedServerEnv(service, ports, pki) : {}),
    ...encryptionEnv(service, pki),
    ...auditWebhookEnv(service),
    ...authorizationConfigEnv(service),
    ...authenticationConfigEnv(service),
    ...tracingEnv(pki),
  };
}

/**
 * KUBE_AUTHENTICATION_CONFIG (kube's --authentication-config) of the caller's, for the two servers that
 * authenticate bearer tokens as kube-apiserver would: the front door and core-api (its TokenReview, which the
 * aggregated servers ask). The others get it empty: they see users the front door authenticated.
 */
function authenticationConfigEnv(service: ApiServiceSpec): Record<string, string> {
  const path = process.env.KUBE_AUTHENTICATION_CONFIG;
  if (!path) return {};
  return { KUBE_AUTHENTICATION_CONFIG: service.frontDoor || service.name === 'core-api' ? resolve(path) : '' };
}

/**
 * KUBE_AUTHORIZATION_CONFIG (kube's --authorization-config) of the caller's, as an absolute path, for every server
 * that authorizes with the control plane's chain: the front door, core-api (also for the review APIs the aggregated
 * servers delegate to) and extensions. Aggregated servers delegate and get none.
 */
function authorizationConfigEnv(service: ApiServiceSpec): Record<string, string> {
  const path = process.env.KUBE_AUTHORIZATION_CONFIG;
  if (!path) return {};
  return { KUBE_AUTHORIZATION_CONFIG: service.aggregated ? '' : resolve(path) };
}

/**
 * KUBE_AUDIT_WEBHOOK_CONFIG_FILE (kube's --audit-webhook-config-file) of the caller's, as an absolute path, for the
 * front door alone, the one server that audits: the kubeconfig may hold the webhook's client key or token.
 */
function auditWebhookEnv(service: ApiServiceSpec): Record<string, string> {
  const path = process.env.KUBE_AUDIT_WEBHOOK_CONFIG_FILE;
  if (!path) return {};
  return { KUBE_AUDIT_WEBHOOK_CONFIG_FILE: service.frontDoor ? resolve(path) : '' };
}

/**
 * Encryption at rest by default (beyond kube's default): core-api, the only server that stores or reads Secrets,
 * is handed the aescbc key generated beside the PKI; the others never touch a Secret in etcd and get no key. A
 * KUBE_ENCRYPTION_PROVIDER_CONFIG of the caller's wins (empty: no encryption).
 */
function encryptionEnv(service: ApiServiceSpec, pki: PkiPaths): Record<string, string> {
  if (service.name !== 'core-api' || process.env.KUBE_ENCRYPTION_PROVIDER_CONFIG !== undefined) return {};
  return { KUBE_ENCRYPTION_PROVIDER_CONFIG: KMS_PLUGIN ? join(pki.dir, KMS_ENCRYPTION_CONFIG_FILE) : encryptionConfigPath(pki) };
}

/** KUBE_KMS_PLUGIN=true: Secrets go through KMS v2, to scripts/kms-plugin.ts run as part of the stack (docs/security.md). */
const KMS_PLUGIN = process.env.KUBE_KMS_PLUGIN === 'true';

function kmsSocket(): string {
  return join(LOCAL, 'kms.sock');
}

/** The example KMS v2 plugin on a unix socket in .local, with its key file beside the PKI; started before the API servers. */
function kmsPluginSpec(pki: PkiPaths): ChildSpec {
  const keys = join(pki.dir, KMS_KEYS_FILE);
  return {
    name: 'kms-plugin',
    command: process.execPath,
    args: [join(ROOT, 'dist/scripts/kms-plugin.js'), '--socket', kmsSocket(), '--key-file', keys],
    ports: [],
    describe: `unix://${displayPath(kmsSocket())} (KMS v2, keys in ${displayPath(keys)})`,
    // Something accepts on the socket (a stale socket file left by a crash does not count).
    ready: () =>
      new Promise<boolean>((resolveReady) => {
        if (!existsSync(kmsSocket())) return resolveReady(false);
        const socket = connect({ path: kmsSocket() });
        socket.once('connect', () => (socket.destroy(), resolveReady(true)));
        socket.once('error', () => resolveReady(false));
      }),
  };
}

function encryptionConfigPath(pki: PkiPaths): string {
  return join(pki.dir, ENCRYPTION_CONFIG_FILE);
}

/** The default EncryptionConfiguration beside the PKI, written once (scripts/encryption-config.ts); none when the caller set KUBE_ENCRYPTION_PROVIDER_CONFIG. */
export async function ensureEncryptionConfig(pki: PkiPaths): Promise<string | undefined> {
  if (process.env.KUBE_ENCRYPTION_PROVIDER_CONFIG !== undefined) return undefined;
  const path = encryptionConfigPath(pki);
  await writeDefaultEncryptionConfig(path);
  if (!KMS_PLUGIN) return path;
  await writeDefaultKmsKeys(join(pki.dir, KMS_KEYS_FILE));
  const kms = join(pki.dir, KMS_ENCRYPTION_CONFIG_FILE);
  await writeKmsEncryptionConfig(kms, path, kmsSocket());
  return kms;
}

function apiSpec(service: ApiServiceSpec, ports: Ports, pki: PkiPaths, tls: ClientTls, replica = 0): ChildSpec {
  const port = replicaPort(ports, service.name, replica);
  return {
    name: replicaName(ports, service.name, replica),
    command: process.execPath,
    args: [join(ROOT, service.main)],
    env: { ...process.env, ...apiServiceEnv(service, ports, pki, replica) },
    ports: [{ port, env: replica || (service.frontDoor && balanced(ports)) ? 'KUBE_REPLICA_PORT_STEP' : service.portEnv }],
    describe: `https://127.0.0.1:${port}`,
    ready: async () => (await httpStatus(httpsGet, `https://127.0.0.1:${port}/readyz`, tls)) === 200,
  };
}

/**
 * kube-controller-manager: started last, it talks to the front door as system:kube-controller-manager (its own
 * client certificate), signs approved kube-apiserver-client CSRs with the cluster CA and serves /healthz,
 * /readyz and /metrics on its own port.
 */
function controllerManagerEnv(ports: Ports, pki: PkiPaths, replica = 0): Record<string, string> {
  return {
    ...localControllerManagerEnv(pki, `https://127.0.0.1:${ports.api.get(frontDoor().name)}`, replicaPort(ports, CONTROLLER_MANAGER, replica)),
    // Its own serving certificate rather than the front door's (least privilege).
    KUBE_TLS_CERT_FILE: servingCertPaths(pki, CONTROLLER_MANAGER).cert,
    KUBE_TLS_PRIVATE_KEY_FILE: servingCertPaths(pki, CONTROLLER_MANAGER).key,
    ...tracingEnv(pki),
  };
}

/**
 * KUBE_TRACING=true: every service samples every request and exports its spans to `npm run traces` on
 * 127.0.0.1:4317 (docs/operations.md, Tracing), through a TracingConfiguration written beside the PKI. A
 * KUBE_TRACING_CONFIG_FILE of the caller's wins (every child inherits it).
 */
function tracingEnv(pki: PkiPaths): Record<string, string> {
  if (process.env.KUBE_TRACING !== 'true' || process.env.KUBE_TRACING_CONFIG_FILE !== undefined) return {};
  return { KUBE_TRACING_CONFIG_FILE: join(pki.dir, TRACING_CONFIG_FILE) };
}

const TRACING_CONFIG_FILE = 'tracing-config.yaml';

/** The TracingConfiguration KUBE_TRACING=true hands out, written on every start; undefined when tracing is not asked for. */
export async function ensureTracingConfig(pki: PkiPaths): Promise<string | undefined> {
  const path = tracingEnv(pki).KUBE_TRACING_CONFIG_FILE;
  if (path) await writeFile(path, 'apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nendpoint: 127.0.0.1:4317\nsamplingRatePerMillion: 1000000\n', { mode: 0o600 });
  return path;
}

/**
 * What the launcher puts into each service's environment (the controller-manager's included), by service name,
 * without the environment every child inherits: docs/security.md's table of who holds which credential is checked
 * against it (test/deploy/security-credentials.test.ts).
 */
export function launcherEnvironments(pki: PkiPaths, ports: Ports = readPorts()): Record<string, Record<string, string>> {
  return Object.fromEntries([...API_SERVICES.map((s) => [s.name, apiServiceEnv(s, ports, pki)] as const), [CONTROLLER_MANAGER, controllerManagerEnv(ports, pki)] as const]);
}

function controllerManagerSpec(ports: Ports, pki: PkiPaths, tls: ClientTls, replica = 0): ChildSpec {
  const port = replicaPort(ports, CONTROLLER_MANAGER, replica);
  return {
    name: replicaName(ports, CONTROLLER_MANAGER, replica),
    command: process.execPath,
    args: [join(ROOT, 'dist/apps/controller-manager/src/main.js')],
    env: { ...process.env, ...controllerManagerEnv(ports, pki, replica) },
    ports: [{ port, env: replica ? 'KUBE_REPLICA_PORT_STEP' : 'KUBE_CONTROLLER_MANAGER_PORT' }],
    describe: `https://127.0.0.1:${port} (health and metrics)`,
    ready: async () => (await httpStatus(httpsGet, `https://127.0.0.1:${port}/readyz`, tls)) === 200,
  };
}

/**
 * With several aggregators, the front-door port is a TCP balancer's (scripts/tcp-balancer.ts): it spreads client
 * connections over the aggregators and passes TLS through, so client certificates and ALPN reach them unchanged.
 * Ready once a request through it reaches an aggregator's /readyz.
 */
function balancerSpec(ports: Ports, tls: ClientTls): ChildSpec {
  const door = frontDoor();
  const port = ports.api.get(door.name) as number;
  const backends = Array.from({ length: replicaCount(ports, door.name) }, (_, i) => `--backend=127.0.0.1:${replicaPort(ports, door.name, i)}`);
  return {
    name: 'balancer',
    command: process.execPath,
    args: [join(ROOT, 'dist/scripts/tcp-balancer.js'), `--listen=127.0.0.1:${port}`, ...backends],
    ports: [{ port, env: door.portEnv }],
    describe: `https://127.0.0.1:${port} (TCP, round robin over ${backends.length} aggregators; TLS passes through)`,
    ready: async () => (await httpStatus(httpsGet, `https://127.0.0.1:${port}/readyz`, tls)) === 200,
  };
}

/**
 * Least privilege: each service is given only its own keys (docs/registration.md, threat model). The front door
 * serves kube-apiserver's certificate (apiserver.crt, with kube's names); every other service one of its own.
 * (All of them run as the same user here, so this limits what each is configured with, not what it could read:
 * docker-compose and the Helm chart separate the files too.)
 */
function servingEnv(service: ApiServiceSpec, pki: PkiPaths): Record<string, string> {
  if (service.frontDoor) return { KUBE_TLS_CERT_FILE: pki.apiserverCert, KUBE_TLS_PRIVATE_KEY_FILE: pki.apiserverKey };
  const own = servingCertPaths(pki, service.name);
  return { KUBE_TLS_CERT_FILE: own.cert, KUBE_TLS_PRIVATE_KEY_FILE: own.key };
}

/** The serving certificates ensurePki issues: one per service but the front door, for the names it is reached by. */
function servingCertificates(): Record<string, string[]> {
  const own = API_SERVICES.filter((s) => !s.frontDoor).map((s) => [s.name, s.aggregated ? [s.serviceDnsName ?? `${s.name}.kube-system.svc`] : []]);
  return Object.fromEntries([...own, [CONTROLLER_MANAGER, []]]);
}

/** Read by the front door only: its front-proxy client certificate and the backends it fronts. */
function frontDoorEnv(ports: Ports, pki: PkiPaths, replica: number): Record<string, string> {
  return {
    KUBE_PROXY_CLIENT_CERT_FILE: pki.frontProxyClientCert,
    KUBE_PROXY_CLIENT_KEY_FILE: pki.frontProxyClientKey,
    KUBE_BACKEND_CA_FILE: pki.caCert,
    KUBE_AGGREGATOR_BACKENDS: API_SERVICES.filter((s) => !s.frontDoor && !s.aggregated)
      .map((s) => `${s.name}=https://127.0.0.1:${ports.api.get(s.name)}`)
      .join(','),
    // The caller's path (empty: no log), else beside the PKI; KUBE_AUDIT_LOG_MAX* and the rest are inherited.
    KUBE_AUDIT_LOG_PATH: replicaAuditLog(process.env.KUBE_AUDIT_LOG_PATH ?? join(LOCAL, 'audit.log'), replica),
  };
}

/** Each aggregator replica writes (and rotates) a log of its own: audit.log, audit-1.log, … ('' and '-', stdout, stay). */
export function replicaAuditLog(path: string, replica: number): string {
  if (replica === 0 || path === '' || path === '-') return path;
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') ? `${path.slice(0, dot)}-${replica}${path.slice(dot)}` : `${path}-${replica}`;
}

/** Service-account token keys (core-api signs TokenRequests and verifies, the front door verifies) */
function serviceAccountEnv(service: ApiServiceSpec, pki: PkiPaths): Record<string, string> {
  if (service.frontDoor) return { KUBE_SERVICE_ACCOUNT_KEY_FILE: pki.serviceAccountPub };
  if (service.name === 'core-api') return { KUBE_SERVICE_ACCOUNT_KEY_FILE: pki.serviceAccountPub, KUBE_SERVICE_ACCOUNT_SIGNING_KEY_FILE: pki.serviceAccountKey };
  return {};
}

/**
 * An aggregated server: its serving certificate (issued by ensurePki, so it needs no CA key) with the CA for its
 * APIService's caBundle, and its own client certificate (system:kube-ts:<name>), with which it registers itself
 * and reads the control plane under the RBAC core-api applies from BOOTSTRAP_MANIFESTS. Never the admin's.
 */
function aggregatedServerEnv(service: ApiServiceSpec, ports: Ports, pki: PkiPaths): Record<string, string> {
  const own = clientCertPaths(pki, service.name);
  return {
    KUBE_SERVING_CA_FILE: pki.caCert,
    KUBE_REGISTER_URL: `https://127.0.0.1:${ports.api.get(frontDoor().name)}`,
    KUBE_REGISTER_CERT_FILE: own.cert,
    KUBE_REGISTER_KEY_FILE: own.key,
    KUBE_REGISTER_CA_FILE: pki.caCert,
    // Replicas write the same Endpoints, every replica's port in it, rather than each its own over the others'.
    ...(replicaCount(ports, service.name) > 1 ? { KUBE_REGISTER_REPLICA_PORTS: Array.from({ length: replicaCount(ports, service.name) }, (_, i) => replicaPort(ports, service.name, i)).join(',') } : {}),
  };
}

/** Where core-api finds the RBAC of the aggregated servers (KUBE_BOOTSTRAP_MANIFESTS), rewritten at every start. */
const BOOTSTRAP_MANIFESTS = join(LOCAL, 'bootstrap-manifests');

/** Each aggregated server's own client certificate, and the RBAC core-api grants its user. */
async function aggregatedServerAccess(): Promise<Record<string, ClientIdentity>> {
  await mkdir(BOOTSTRAP_MANIFESTS, { recursive: true, mode: 0o700 });
  return writeAggregatedServerAccess(join(BOOTSTRAP_MANIFESTS, 'aggregated-apiservers.yaml'), API_SERVICES.filter((s) => s.aggregated).map((s) => s.name));
}

/** Every service learns where the others listen, e.g. KUBE_CORE_API_URL, so an aggregator can find its backends. */
function serviceUrls(ports: Ports): Record<string, string> {
  return Object.fromEntries(
    API_SERVICES.map((s) => [`KUBE_${s.name.toUpperCase().replace(/\W/g, '_')}_URL`, `https://127.0.0.1:${ports.api.get(s.name)}`]),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Probes

interface ClientTls {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

type Getter = typeof httpGet | typeof httpsGet;

/** Status of GET url, or undefined when nothing (or nothing valid) answers. */
function httpStatus(get: Getter, url: string, tls?: ClientTls): Promise<number | undefined> {
  return new Promise((resolveStatus) => {
    const req = get(url, { ...tls, agent: false, timeout: 2_000 }, (res: IncomingMessage) => {
      res.resume();
      resolveStatus(res.statusCode);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolveStatus(undefined));
  });
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: 1_000 });
    const done = (answers: boolean): void => {
      socket.destroy();
      resolveAnswer(answers);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

async function assertPortsFree(specs: readonly ChildSpec[]): Promise<void> {
  // Replicas' ports are computed (base + i × step): two children must not be planned on one port.
  const planned = new Map<number, string>();
  for (const spec of specs) {
    for (const { port, env } of spec.ports) {
      const other = planned.get(port);
      if (other) throw new StartupError(`port ${port} would be both ${other}'s and ${spec.name}'s: change ${env}, or ${other}'s port`);
      planned.set(port, spec.name);
    }
  }
  for (const spec of specs) {
    for (const { port, env } of spec.ports) {
      if (await portAnswers(port)) {
        throw new StartupError(
          `port ${port} (${spec.name}) is already in use — is another stack running? Stop it, or set ${env} to another port.`,
        );
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Children

/** A running child: its output goes to our stdout prefixed with its name; the last lines are kept for errors. */
class Child {
  readonly exited: Promise<void>;
  readonly startedAt = Date.now();
  private readonly lines: string[] = [];
  private exitDescription: string | undefined;
  private readonly process: ChildProcess;

  constructor(
    readonly spec: ChildSpec,
    labelWidth: number,
  ) {
    // Own process group: a terminal Ctrl-C reaches only the launcher, which then stops children in order.
    // Through sh for RAISE_NOFILE; `exec` leaves the child itself with this pid.
    this.process = spawn('/bin/sh', ['-c', RAISE_NOFILE, spec.command, ...spec.args], { cwd: ROOT, env: spec.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const label = `${spec.name.padEnd(labelWidth)} |`;
    for (const stream of [this.process.stdout, this.process.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', (line) => this.print(label, line));
    }
    this.exited = new Promise((resolveExit) => {
      this.process.once('error', (err) => this.print(label, `failed to start: ${err.message}`));
      this.process.once('close', (code, signal) => {
        this.exitDescription = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        resolveExit();
      });
    });
  }

  get running(): boolean {
    return this.exitDescription === undefined;
  }

  describeExit(): string {
    return `${this.spec.name} ${this.exitDescription ?? 'is running'}; its last lines:\n${this.lines.join('\n') || '(no output)'}`;
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.signal('SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }

  signal(signal: NodeJS.Signals): void {
    if (this.running) this.process.kill(signal);
  }

  private print(label: string, line: string): void {
    console.log(`${label} ${line}`);
    this.lines.push(line);
    if (this.lines.length > TAIL_LINES) this.lines.shift();
  }
}

/** Starts children one by one, watches for early exits, and stops them all in reverse order. */
class Stack {
  private readonly children: Child[] = [];
  /** Restarts in a row per service, for the backoff. */
  private readonly restarts = new Map<string, number>();
  private stopping = false;
  private up = false;

  constructor(private readonly labelWidth: number) {
    // Last resort when the launcher dies some other way: children must not outlive it.
    process.on('exit', () => this.children.forEach((child) => child.signal('SIGKILL')));
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  async start(spec: ChildSpec): Promise<void> {
    if (this.stopping) throw new StartupError('shutting down');
    log(`starting ${spec.name} on ${spec.describe}`);
    const child = new Child(spec, this.labelWidth);
    this.children.push(child);
    void child.exited.then(() => this.onExit(child));
    await this.waitUntilReady(child);
    await spec.afterReady?.();
  }

  /** From now on a child that exits is restarted (with backoff) instead of failing the start. */
  markUp(): void {
    this.up = true;
  }

  /** Stops every child, newest first, and waits for each before stopping the next. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    for (const child of [...this.children].reverse()) {
      if (!child.running) continue;
      log(`stopping ${child.spec.name}`);
      await child.stop();
    }
  }

  killAll(): void {
    this.stopping = true;
    this.children.forEach((child) => child.signal('SIGKILL'));
  }

  private async waitUntilReady(child: Child): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline) {
      // Any child, not only the new one: the API cannot get ready once etcd is gone.
      const dead = this.children.find((c) => !c.running);
      if (dead) throw new StartupError(dead.describeExit());
      if (this.stopping) throw new StartupError('shutting down');
      if (await child.spec.ready()) return;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    throw new StartupError(`${child.spec.name} not ready after ${READY_TIMEOUT_MS / 1000} s; ${child.describeExit()}`);
  }

  /**
   * A service that dies while the stack runs is restarted with backoff, as a supervisor or the kubelet would; the
   * rest of the stack keeps serving (the aggregator answers 503 for the dead service's groups meanwhile).
   */
  private onExit(child: Child): void {
    if (!this.up || this.stopping) return;
    const name = child.spec.name;
    const inARow = Date.now() - child.startedAt >= RESTART_RESET_MS ? 0 : (this.restarts.get(name) ?? 0);
    this.restarts.set(name, inARow + 1);
    const delay = Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** inARow);
    console.error(`[start] ${child.describeExit()}`);
    log(`restarting ${name} in ${delay / 1000} s (restart ${inARow + 1} in a row)`);
    setTimeout(() => this.respawn(child), delay);
  }

  private respawn(dead: Child): void {
    if (this.stopping) return;
    const child = new Child(dead.spec, this.labelWidth);
    this.children[this.children.indexOf(dead)] = child;
    void child.exited.then(() => this.onExit(child));
    log(`restarted ${child.spec.name}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Main

async function fail(err: unknown, stack?: Stack): Promise<never> {
  console.error(`[start] ${err instanceof Error ? err.message : String(err)}`);
  if (stack) await stack.stopAll();
  process.exit(1);
}

function handleSignals(stack: Stack): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled) {
      log(`${signal} again: killing everything`);
      stack.killAll();
      process.exit(1);
    }
    signalled = true;
    log(`${signal}: shutting down (press Ctrl-C again to kill)`);
    void stack.stopAll().then(() => {
      log('stopped');
      process.exit(0);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

async function loadClientTls(pki: PkiPaths): Promise<ClientTls> {
  const [ca, cert, key] = await Promise.all([pki.caCert, pki.adminCert, pki.adminKey].map((p) => readFile(p, 'utf8')));
  return { ca, cert, key };
}

function frontDoor(): ApiServiceSpec {
  const doors = API_SERVICES.filter((s) => s.frontDoor);
  if (doors.length !== 1) throw new Error(`API_SERVICES must mark exactly one frontDoor, found ${doors.length}`);
  return doors[0];
}

/**
 * .local holds every key, the admin kubeconfig, etcd's data and the audit log: owner-only (0700), also when an
 * older version created it 0755. (The audit log itself is 0600: libs/apiserver's AuditLog.)
 */
export async function prepareLocalDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

/** What main starts, in order: each group's first child once the previous group is ready, then the rest of the group. */
function startGroups(ports: Ports, pki: PkiPaths, tls: ClientTls, infrastructure: ChildSpec[]): ChildSpec[][] {
  const replicas = <T>(name: string, spec: (i: number) => T): T[] => Array.from({ length: replicaCount(ports, name) }, (_, i) => spec(i));
  const groups: ChildSpec[][] = infrastructure.map((spec) => [spec]);
  for (const service of API_SERVICES) {
    groups.push(replicas(service.name, (i) => apiSpec(service, ports, pki, tls, i)));
    // Right after the aggregators: the aggregated servers (after them in API_SERVICES) register through it.
    if (service.frontDoor && balanced(ports)) groups.push([balancerSpec(ports, tls)]);
  }
  groups.push(replicas(CONTROLLER_MANAGER, (i) => controllerManagerSpec(ports, pki, tls, i)));
  return groups;
}

/**
 * Every child starts with its open-file soft limit raised to the hard limit (a shell's `ulimit -n`, as Node cannot
 * set rlimits): each watch through the aggregator holds two descriptors, and 1,024, a common soft default, would
 * stop it at ~500 watchers. Node and Go (etcd, nats-server) raise their own at start-up too; this covers any other
 * binary. What the hard limit allows is all a user process gets: say so when that is low.
 */
const RAISE_NOFILE = 'ulimit -S -n "$(ulimit -H -n)" 2>/dev/null; exec "$0" "$@"';
const LOW_NOFILE = 65_536;

function warnOnLowDescriptorLimit(): void {
  const hard = execFileSync('/bin/sh', ['-c', 'ulimit -H -n'], { encoding: 'utf8' }).trim();
  if (hard !== 'unlimited' && Number(hard) < LOW_NOFILE) {
    log(`the open-file hard limit is ${hard}: each service may hold about ${Math.floor(Number(hard) / 2)} watches through the aggregator; raise it (as root: ulimit -Hn, limits.conf's nofile, systemd's LimitNOFILE=) for more`);
  }
}

async function main(): Promise<void> {
  const ports = readPorts();
  log('checking etcd and nats-server');
  const binaries = ensureBinaries({ log });

  log(`preparing certificates in ${displayPath(join(LOCAL, 'pki'))}`);
  await prepareLocalDir(LOCAL);
  const clientCertificates = await aggregatedServerAccess();
  const pki = await ensurePki(join(LOCAL, 'pki'), { natsClients: CONTROL_PLANE_REGISTRATION_IDENTITIES.map((identity) => identity.name), servingCertificates: servingCertificates(), clientCertificates, etcdClients: etcdClients() });
  const tls = await loadClientTls(pki);
  const encryption = await ensureEncryptionConfig(pki);
  if (encryption) log(`Secrets are encrypted at rest ${KMS_PLUGIN ? 'through the KMS v2 plugin,' : 'with the key'} in ${displayPath(encryption)} (KUBE_ENCRYPTION_PROVIDER_CONFIG= npm start switches this off)`);
  await writeNatsConfig(ports, pki);
  const tracing = await ensureTracingConfig(pki);
  if (tracing) log(`every service exports its spans to 127.0.0.1:4317 (${displayPath(tracing)}): see them with npm run traces`);

  const groups = startGroups(ports, pki, tls, [etcdSpec(binaries, ports, pki, await loadEtcdRootTls(pki)), natsSpec(binaries, ports, pki), ...(KMS_PLUGIN ? [kmsPluginSpec(pki)] : [])]);
  const specs = groups.flat();
  await assertPortsFree(specs);
  warnOnLowDescriptorLimit();

  const stack = new Stack(Math.max(...specs.map((s) => s.name.length)));
  handleSignals(stack);
  try {
    // A service's first replica alone (it may bootstrap), then its other replicas together.
    for (const [first, ...others] of groups) {
      await stack.start(first);
      await Promise.all(others.map((spec) => stack.start(spec)));
    }
  } catch (err) {
    // After Ctrl-C during start-up the signal handler is already stopping everything and will exit.
    if (!stack.isStopping) await fail(err, stack);
    return;
  }
  stack.markUp();

  const kubeconfig = join(LOCAL, 'kubeconfig');
  const server = `https://127.0.0.1:${ports.api.get(frontDoor().name)}`;
  await writeKubeconfig(kubeconfig, { server, caPem: tls.ca, clientCertPem: tls.cert, clientKeyPem: tls.key });
  log(`wrote ${displayPath(kubeconfig)} (server ${server}, user kubernetes-admin)`);
  console.log(`Ready. Try: kubectl --kubeconfig ${displayPath(kubeconfig)} get namespaces`);
}

// Run as a script (node dist/scripts/start.js), not when a test imports its pure parts.
if (process.argv[1] && resolve(process.argv[1]) === __filename) main().catch((err) => fail(err));
