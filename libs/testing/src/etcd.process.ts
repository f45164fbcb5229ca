import { readFileSync } from 'node:fs';
import { freePorts } from './free-port';
import { LocalServerProcess, startWithFreshPorts, type LocalServerSpec } from './local-server.process';
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
  /**
   * Clients over TLS only, with client-certificate authentication, as every deployment runs etcd: the endpoint
   * becomes https://, and etcd accepts only certificates that trustedCaFile signed. Default: plain HTTP.
   */
  readonly tls?: EtcdServerTls;
}

/** etcd's serving certificate and the CA of the client certificates it accepts (--client-cert-auth). */
export interface EtcdServerTls {
  readonly certFile: string;
  readonly keyFile: string;
  /** --trusted-ca-file: the CA that signs etcd's client certificates (and, here, its serving certificate). */
  readonly trustedCaFile: string;
  /** A client certificate (PEM) the health probe presents: with --client-cert-auth, /health takes one too. */
  readonly probe: { readonly certPem: string; readonly keyPem: string };
}

export interface EtcdProcess {
  /** http://127.0.0.1:PORT (https://localhost:PORT with `tls`), for the etcd3 client's `hosts`. */
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

export async function startEtcd(opts: EtcdOptions = {}): Promise<EtcdProcess> {
  const dataDir = opts.dataDir ?? tempDir('etcd-data');
  const fixedPorts = opts.clientPort !== undefined && opts.peerPort !== undefined;
  return startWithFreshPorts(fixedPorts, async () => {
    const [clientPort, peerPort] = await pickPorts(opts);
    return EtcdInstance.start({ ...opts, dataDir, clientPort, peerPort });
  });
}

async function pickPorts(opts: EtcdOptions): Promise<[number, number]> {
  const [client, peer] = await freePorts(2);
  return [opts.clientPort ?? client, opts.peerPort ?? peer];
}

type ResolvedEtcdOptions = EtcdOptions & { dataDir: string; clientPort: number; peerPort: number };

class EtcdInstance extends LocalServerProcess implements EtcdProcess {
  readonly endpoint: string;

  private constructor(private readonly opts: ResolvedEtcdOptions) {
    super();
    // Over TLS the client dials localhost (a name of the serving certificate): grpc would send an IP address as
    // the TLS server name, which Node warns about.
    this.endpoint = opts.tls ? `https://localhost:${opts.clientPort}` : `http://127.0.0.1:${opts.clientPort}`;
  }

  static async start(opts: ResolvedEtcdOptions): Promise<EtcdInstance> {
    const etcd = new EtcdInstance(opts);
    await etcd.launch();
    return etcd;
  }

  /** Where etcd listens: loopback's IPv4 address (localhost may also resolve to ::1). */
  private get listenUrl(): string {
    return `${this.opts.tls ? 'https' : 'http'}://127.0.0.1:${this.opts.clientPort}`;
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

  protected spec(): LocalServerSpec {
    return {
      name: 'etcd',
      executable: 'etcd',
      installHint: 'install the Debian package etcd-server',
      ports: [this.clientPort, this.peerPort],
      args: this.args(),
      healthUrl: `${this.listenUrl}/health`,
      healthTls: this.opts.tls ? { ca: readFileSync(this.opts.tls.trustedCaFile, 'utf8'), cert: this.opts.tls.probe.certPem, key: this.opts.tls.probe.keyPem } : undefined,
      startTimeoutMs: this.opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
    };
  }

  private args(): string[] {
    const tls = this.opts.tls;
    const peerUrl = `http://127.0.0.1:${this.opts.peerPort}`;
    return [
      '--name=default',
      `--data-dir=${this.opts.dataDir}`,
      `--listen-client-urls=${this.listenUrl}`,
      `--advertise-client-urls=${this.endpoint}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=default=${peerUrl}`,
      // zap at warn keeps test output short; errors such as a port clash are still printed.
      '--logger=zap',
      '--log-outputs=stderr',
      '--log-level=warn',
      ...(tls ? [`--cert-file=${tls.certFile}`, `--key-file=${tls.keyFile}`, `--trusted-ca-file=${tls.trustedCaFile}`, '--client-cert-auth'] : []),
      ...(this.opts.extraArgs ?? []),
    ];
  }
}
