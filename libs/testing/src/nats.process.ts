import { requireExecutable } from './executable.locator';
import { assertPortsFree, freePorts } from './free-port';
import { httpStatus, isPortClash, waitUntilReady } from './readiness.probe';
import { SupervisedProcess } from './supervised.process';
import { tempDir } from './temp-dir';

export interface NatsOptions {
  /** JetStream store; defaults to a fresh temp dir, removed when the test process exits. */
  readonly storeDir?: string;
  /** Default: free ports chosen by the OS. */
  readonly port?: number;
  /** HTTP monitoring port (used for the /healthz readiness check). */
  readonly monitorPort?: number;
  readonly extraArgs?: readonly string[];
  readonly startTimeoutMs?: number;
}

export interface NatsProcess {
  /** nats://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  readonly monitorPort: number;
  readonly storeDir: string;
  stop(): Promise<void>;
  kill(): Promise<void>;
  /** Start again on the same ports and store (stops it first if running); resolves once healthy. */
  restart(): Promise<void>;
}

const DEFAULT_START_TIMEOUT_MS = 20_000;
const PORT_CLASH_ATTEMPTS = 3;

export async function startNats(opts: NatsOptions = {}): Promise<NatsProcess> {
  const storeDir = opts.storeDir ?? tempDir('nats-store');
  const fixedPorts = opts.port !== undefined && opts.monitorPort !== undefined;
  for (let attempt = 1; ; attempt++) {
    const [free, freeMonitor] = await freePorts(2);
    const ports = { port: opts.port ?? free, monitorPort: opts.monitorPort ?? freeMonitor };
    try {
      return await NatsInstance.start({ ...opts, ...ports, storeDir });
    } catch (err) {
      if (fixedPorts || attempt >= PORT_CLASH_ATTEMPTS || !isPortClash(err)) throw err;
    }
  }
}

type ResolvedNatsOptions = NatsOptions & { storeDir: string; port: number; monitorPort: number };

class NatsInstance implements NatsProcess {
  readonly url: string;
  private proc: SupervisedProcess | undefined;

  private constructor(private readonly opts: ResolvedNatsOptions) {
    this.url = `nats://127.0.0.1:${opts.port}`;
  }

  static async start(opts: ResolvedNatsOptions): Promise<NatsInstance> {
    const nats = new NatsInstance(opts);
    await nats.launch();
    return nats;
  }

  get port(): number {
    return this.opts.port;
  }

  get monitorPort(): number {
    return this.opts.monitorPort;
  }

  get storeDir(): string {
    return this.opts.storeDir;
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
    const command = requireExecutable('nats-server', 'install the Debian package nats-server');
    await assertPortsFree('nats-server', [this.port, this.monitorPort]);
    const args = ['-a', '127.0.0.1', '-p', String(this.port), '-m', String(this.monitorPort), '-js', '-sd', this.storeDir];
    this.proc = new SupervisedProcess({ name: 'nats-server', command, args: [...args, ...(this.opts.extraArgs ?? [])] });
    // /healthz answers 200 only once JetStream is up, not merely when the port is open.
    const healthy = async (): Promise<boolean> =>
      (await httpStatus(`http://127.0.0.1:${this.monitorPort}/healthz`)) === 200;
    await waitUntilReady(this.proc, healthy, this.opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
  }
}
