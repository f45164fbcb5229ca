import { freePorts } from './free-port';
import { LocalServerProcess, startWithFreshPorts, type LocalServerSpec } from './local-server.process';
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

export async function startNats(opts: NatsOptions = {}): Promise<NatsProcess> {
  const storeDir = opts.storeDir ?? tempDir('nats-store');
  const fixedPorts = opts.port !== undefined && opts.monitorPort !== undefined;
  return startWithFreshPorts(fixedPorts, async () => {
    const [free, freeMonitor] = await freePorts(2);
    return NatsInstance.start({ ...opts, port: opts.port ?? free, monitorPort: opts.monitorPort ?? freeMonitor, storeDir });
  });
}

type ResolvedNatsOptions = NatsOptions & { storeDir: string; port: number; monitorPort: number };

class NatsInstance extends LocalServerProcess implements NatsProcess {
  readonly url: string;

  private constructor(private readonly opts: ResolvedNatsOptions) {
    super();
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

  protected spec(): LocalServerSpec {
    return {
      name: 'nats-server',
      executable: 'nats-server',
      installHint: 'install the Debian package nats-server',
      ports: [this.port, this.monitorPort],
      args: ['-a', '127.0.0.1', '-p', String(this.port), '-m', String(this.monitorPort), '-js', '-sd', this.storeDir, ...(this.opts.extraArgs ?? [])],
      // /healthz answers 200 only once JetStream is up, not merely when the port is open.
      healthUrl: `http://127.0.0.1:${this.monitorPort}/healthz`,
      startTimeoutMs: this.opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
    };
  }
}
