/**
 * The stack the replica, CR and namespace scale figures run on (bench/scale.replicas.ts, scale.crs.ts,
 * scale.namespaces.ts): etcd, nats-server with TLS and a client certificate per service (as `npm start`), and any
 * number of core-api, extensions and aggregator processes on their own ports, each announcing itself over NATS so
 * the aggregators spread requests over every live instance; optionally the controller-manager. Every process the
 * stack starts gets a raised open-file limit, and can be pinned to CPUs (taskset) to keep the load generator and
 * etcd off the servers' cores.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePki, natsClientPaths, type PkiPaths } from '@kube/pki';
import { CONTROL_PLANE_REGISTRATION_IDENTITIES, natsServerConfig } from '@kube/registration';
import { freePort, startEtcd, startNats, tempDir, type EtcdProcess, type NatsProcess } from '@kube/testing';
import { cpuMs, type TlsClient } from './load.generator';
import { coreApiEnv, openFileLimit, startApp, stopApp, waitReady } from './servers';

export type ScalePart = 'core-api' | 'extensions' | 'aggregator' | 'controller-manager';

export interface ScaleServer {
  readonly part: ScalePart;
  readonly port: number;
  readonly child: ChildProcess;
  readonly pid: number | undefined;
}

/** What every process the stack starts may open: 10,000 watches are two sockets each in an aggregator. */
export const SCALE_OPEN_FILES = 65_536;

/**
 * Raises a process's open-file limit to `wanted` when it is lower (prlimit; past the hard limit only with
 * CAP_SYS_RESOURCE). Returns the limit it has now and how it changed, for the figures' details.
 */
export function raiseOpenFiles(pid: number | undefined, wanted: number): { limit: number; text: string } {
  const before = openFileLimit(pid);
  if (!(before < wanted)) return { limit: before, text: before.toLocaleString('en-US') };
  try {
    execFileSync('prlimit', ['--pid', String(pid), `--nofile=${wanted}:${wanted}`], { stdio: 'ignore' });
  } catch {
    // Not allowed here (no CAP_SYS_RESOURCE): then up to the hard limit only.
    try {
      const hard = Number(/Max open files\s+\d+\s+(\d+)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1]);
      if (hard > before) execFileSync('prlimit', ['--pid', String(pid), `--nofile=${hard}:${hard}`], { stdio: 'ignore' });
    } catch {
      // leave it
    }
  }
  const after = openFileLimit(pid);
  return { limit: after, text: after === before ? `${before.toLocaleString('en-US')} (could not raise it)` : `${before.toLocaleString('en-US')} → ${after.toLocaleString('en-US')}` };
}

/** Open descriptors of a process (entries of /proc/<pid>/fd); NaN where /proc is missing. */
export function openFiles(pid: number | undefined): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}

/** Pins every thread of `pid` to `cpus` ("0", "1-3"); false where taskset is missing or refused. */
export function pin(pid: number | undefined, cpus: string): boolean {
  if (pid === undefined) return false;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The pid of the `binary` whose command line names `marker` (etcd's data dir, nats-server's store), for CPU figures. */
function pidOf(binary: string, marker: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.includes(binary) && cmd.includes(marker)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

export class ScaleStack {
  readonly servers: ScaleServer[] = [];
  readonly tls: TlsClient;
  readonly etcdPid: number | undefined;
  readonly natsPid: number | undefined;

  private constructor(
    private readonly root: string,
    readonly dir: string,
    readonly etcd: EtcdProcess,
    private readonly nats: NatsProcess,
    readonly pki: PkiPaths,
  ) {
    this.tls = { ca: readFileSync(pki.caCert), cert: readFileSync(pki.adminCert), key: readFileSync(pki.adminKey) };
    this.etcdPid = pidOf('etcd', etcd.dataDir);
    this.natsPid = pidOf('nats-server', nats.storeDir);
  }

  static async start(root: string, label: string): Promise<ScaleStack> {
    const dir = tempDir(`bench-${label}`);
    const pki = await ensurePki(join(dir, 'pki'), { natsClients: CONTROL_PLANE_REGISTRATION_IDENTITIES.map((i) => i.name) });
    const conf = join(dir, 'nats.conf');
    await writeFile(conf, natsServerConfig({ tls: { certFile: pki.natsServerCert, keyFile: pki.natsServerKey, caFile: pki.natsCaCert }, identities: CONTROL_PLANE_REGISTRATION_IDENTITIES }), { mode: 0o600 });
    const [etcd, nats] = await Promise.all([startEtcd({ dataDir: join(dir, 'etcd') }), startNats({ extraArgs: ['-c', conf] })]);
    return new ScaleStack(root, dir, etcd, nats, pki);
  }

  of(part: ScalePart): ScaleServer[] {
    return this.servers.filter((s) => s.part === part);
  }

  /** The pids of every API server the stack runs (the CPU per request sums them). */
  serverPids(): Array<number | undefined> {
    return this.servers.filter((s) => s.part !== 'controller-manager').map((s) => s.pid);
  }

  /** CPU (ms) the API servers (or those of `part`) have used so far, summed. */
  serversCpuMs(part?: ScalePart): number {
    const pids = part ? this.of(part).map((s) => s.pid) : this.serverPids();
    return pids.reduce((sum: number, pid) => sum + cpuMs(pid), 0);
  }

  private natsEnv(service: string): NodeJS.ProcessEnv {
    const client = natsClientPaths(this.pki, service);
    return { KUBE_NATS_URL: this.nats.url, KUBE_NATS_CA_FILE: this.pki.natsCaCert, KUBE_NATS_CERT_FILE: client.cert, KUBE_NATS_KEY_FILE: client.key };
  }

  /**
   * Starts one more process of `part` and waits for its /readyz. `nodeArgs`/`env` add to it (a heap probe);
   * `cpus` pins it.
   */
  async add(part: ScalePart, opts: { nodeArgs?: string[]; env?: NodeJS.ProcessEnv; cpus?: string } = {}): Promise<ScaleServer> {
    const port = await freePort();
    const pki = this.pki;
    const base = { ...coreApiEnv(this.etcd.endpoint, port, pki), KUBE_BIND_ADDRESS: '127.0.0.1' };
    const first = (p: ScalePart): string | undefined => this.of(p)[0] && `${p}=https://127.0.0.1:${this.of(p)[0].port}`;
    const env: Record<ScalePart, NodeJS.ProcessEnv> = {
      'core-api': { ...base, ...this.natsEnv('core-api') },
      extensions: { ...base, ...this.natsEnv('extensions') },
      aggregator: {
        ...base,
        ...this.natsEnv('aggregator'),
        KUBE_PROXY_CLIENT_CERT_FILE: pki.frontProxyClientCert,
        KUBE_PROXY_CLIENT_KEY_FILE: pki.frontProxyClientKey,
        KUBE_BACKEND_CA_FILE: pki.caCert,
        // The first instances until the announcements arrive; then every announced instance.
        KUBE_AGGREGATOR_BACKENDS: [first('core-api'), first('extensions')].filter(Boolean).join(','),
      },
      'controller-manager': {
        KUBE_MASTER_URL: `https://127.0.0.1:${this.of('aggregator')[0]?.port}`,
        KUBE_CLIENT_CERT_FILE: pki.controllerManagerCert,
        KUBE_CLIENT_KEY_FILE: pki.controllerManagerKey,
        KUBE_CLIENT_CA_FILE: pki.caCert,
        KUBE_ROOT_CA_FILE: pki.caCert,
        KUBE_BIND_ADDRESS: '127.0.0.1',
        KUBE_SECURE_PORT: String(port),
        KUBE_TLS_CERT_FILE: pki.apiserverCert,
        KUBE_TLS_PRIVATE_KEY_FILE: pki.apiserverKey,
      },
    };
    const child = part === 'controller-manager' ? spawnManager(this.root, { ...env[part], ...opts.env }) : startApp(this.root, part, { ...env[part], ...opts.env }, opts.nodeArgs);
    raiseOpenFiles(child.pid, SCALE_OPEN_FILES);
    if (opts.cpus) pin(child.pid, opts.cpus);
    const server: ScaleServer = { part, port, child, pid: child.pid };
    this.servers.push(server);
    if (part !== 'controller-manager') await waitReady(port, this.tls, 600_000);
    return server;
  }

  /** Stops one process (SIGTERM) and forgets it. */
  async remove(server: ScaleServer): Promise<void> {
    this.servers.splice(this.servers.indexOf(server), 1);
    await stopApp(server.child);
  }

  async stop(): Promise<void> {
    for (const s of [...this.servers].reverse()) await stopApp(s.child);
    this.servers.length = 0;
    await this.nats.stop();
    await this.etcd.stop();
  }
}

/** The controller-manager's main (stdout drained). */
function spawnManager(root: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [join(root, 'dist/apps/controller-manager/src/main.js')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout?.resume();
  return child;
}
