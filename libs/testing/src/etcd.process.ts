import { requireExecutable } from './executable.locator';
import { assertPortsFree, freePorts } from './free-port';
import { httpStatus, isPortClash, waitUntilReady } from './readiness.probe';
import { SupervisedProcess } from './supervised.process';
import { tempDir } from './temp-dir';

export interface EtcdOptions {
  /** Defaults to a fresh temp dir, removed when the test process exits. */
  readonly dataDir?: string;
  /** Default: free ports chosen by the OS. */
  readonly clientPort?: number;
  readonly peerPort?: number;
  /** Extra etcd flags, e.g. ['--auto-compaction-mode=revision', '--auto-compaction-retention=5']. */
  readonly extraArgs?: readonly string[];
  readonly startTimeoutMs?: number;
}

export interface EtcdProcess {
  /** http://127.0.0.1:PORT, for the etcd3 client's `hosts`. */
  readonly endpoint: string;
  readonly clientPort: number;
  readonly peerPort: number;
  readonly dataDir: string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for exit (a crash). */
  kill(): Promise<void>;
  /** Start again on the same ports and data dir (stops it first if running); resolves once healthy. */
  restart(): Promise<void>;
}

const DEFAULT_START_TIMEOUT_MS = 30_000;
const PORT_CLASH_ATTEMPTS = 3;

export async function startEtcd(opts: EtcdOptions = {}): Promise<EtcdProcess> {
  const dataDir = opts.dataDir ?? tempDir('etcd-data');
  const fixedPorts = opts.clientPort !== undefined && opts.peerPort !== undefined;
  for (let attempt = 1; ; attempt++) {
    const [clientPort, peerPort] = await pickPorts(opts);
    try {
      return await EtcdInstance.start({ ...opts, dataDir, clientPort, peerPort });
    } catch (err) {
      // Another process may grab a "free" port before etcd binds it; new ports fix that.
      if (fixedPorts || attempt >= PORT_CLASH_ATTEMPTS || !isPortClash(err)) throw err;
    }
  }
}

async function pickPorts(opts: EtcdOptions): Promise<[number, number]> {
  const [client, peer] = await freePorts(2);
  return [opts.clientPort ?? client, opts.peerPort ?? peer];
}

type ResolvedEtcdOptions = EtcdOptions & { dataDir: string; clientPort: number; peerPort: number };

class EtcdInstance implements EtcdProcess {
  readonly endpoint: string;
  private proc: SupervisedProcess | undefined;

  private constructor(private readonly opts: ResolvedEtcdOptions) {
    this.endpoint = `http://127.0.0.1:${opts.clientPort}`;
  }

  static async start(opts: ResolvedEtcdOptions): Promise<EtcdInstance> {
    const etcd = new EtcdInstance(opts);
    await etcd.launch();
    return etcd;
  }

  get clientPort(): number {
    return this.opts.clientPort;
  }

  get peerPort(): number {
    return this.opts.peerPort;
  }

  get dataDir(): string {
    return this.opts.dataDir;
  }

  async stop(): Promise<void> {
    await this.proc?.stop();
  }

  async kill(): Promise<void> {
    await this.proc?.kill();
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.launch();
  }

  private async launch(): Promise<void> {
    const command = requireExecutable('etcd', 'install the Debian package etcd-server');
    await assertPortsFree('etcd', [this.clientPort, this.peerPort]);
    this.proc = new SupervisedProcess({ name: 'etcd', command, args: this.args() });
    const healthy = async (): Promise<boolean> => (await httpStatus(`${this.endpoint}/health`)) === 200;
    await waitUntilReady(this.proc, healthy, this.opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
  }

  private args(): string[] {
    const peerUrl = `http://127.0.0.1:${this.opts.peerPort}`;
    return [
      '--name=default',
      `--data-dir=${this.opts.dataDir}`,
      `--listen-client-urls=${this.endpoint}`,
      `--advertise-client-urls=${this.endpoint}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=default=${peerUrl}`,
      // zap at warn keeps test output short; errors such as a port clash are still printed.
      '--logger=zap',
      '--log-outputs=stderr',
      '--log-level=warn',
      ...(this.opts.extraArgs ?? []),
    ];
  }
}
