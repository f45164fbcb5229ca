/**
 * `node dist/scripts/tcp-balancer.js --listen HOST:PORT --backend HOST:PORT [--backend HOST:PORT …]`
 *
 * The front door of `KUBE_REPLICAS>1 npm start`: a layer-4 balancer on the front-door port spreading client
 * connections round robin over the aggregator replicas, as a cloud load balancer in front of kube-apiservers
 * does. It never terminates TLS: bytes are piped both ways untouched, so client certificates, ALPN and
 * upgrades reach the aggregator as they left the client. A backend that refuses a connection is marked down
 * and the connection is tried on the next one (the client has sent nothing yet: the first byte is only read
 * once a backend accepted); down backends are probed every second and come back once they accept again.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export interface HostPort {
  readonly host: string;
  readonly port: number;
}

export interface TcpBalancerOptions {
  readonly listen: HostPort;
  readonly backends: readonly HostPort[];
  /** How often a down backend is probed (a TCP connect). */
  readonly probeIntervalMs?: number;
  /** How long a connect may take before the backend counts as down. */
  readonly connectTimeoutMs?: number;
  readonly log?: (line: string) => void;
}

interface Backend extends HostPort {
  readonly name: string;
  up: boolean;
  /** Connections handed to it since start (for tests and the log). */
  connections: number;
}

const PROBE_INTERVAL_MS = 1_000;
const CONNECT_TIMEOUT_MS = 3_000;

export class TcpBalancer {
  private readonly server: Server;
  private readonly backends: Backend[];
  private next = 0;
  private prober?: NodeJS.Timeout;
  /** Open client connections, cut on close(). */
  private readonly clients = new Set<Socket>();
  private readonly log: (line: string) => void;

  constructor(private readonly options: TcpBalancerOptions) {
    if (!options.backends.length) throw new Error('a balancer needs at least one backend');
    this.backends = options.backends.map((b) => ({ ...b, name: `${b.host}:${b.port}`, up: true, connections: 0 }));
    this.log = options.log ?? (() => undefined);
    // pauseOnConnect: nothing is read from the client until a backend accepted, so a refused backend loses nothing.
    this.server = createServer({ pauseOnConnect: true, noDelay: true }, (client) => this.accept(client));
  }

  /** Listens; resolves with the bound port (0 in the options picks a free one). */
  async start(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.listen.port, this.options.listen.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.prober = setInterval(() => this.probeDown(), this.options.probeIntervalMs ?? PROBE_INTERVAL_MS);
    this.prober.unref();
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : this.options.listen.port;
  }

  /** Stops accepting; connections under way are cut. */
  async close(): Promise<void> {
    clearInterval(this.prober);
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.clients.forEach((c) => c.destroy());
    });
  }

  /** Connections handed to each backend so far, by "host:port". */
  get counts(): Record<string, number> {
    return Object.fromEntries(this.backends.map((b) => [b.name, b.connections]));
  }

  private accept(client: Socket): void {
    this.clients.add(client);
    client.once('close', () => this.clients.delete(client));
    client.on('error', () => client.destroy());
    this.dial(client, new Set());
  }

  /** The next backend up after the last one used; all down: the next one anyway (it may be back by now). */
  private pick(tried: ReadonlySet<Backend>): Backend | undefined {
    const n = this.backends.length;
    for (let i = 0; i < n; i++) {
      const b = this.backends[(this.next + i) % n];
      if (b.up && !tried.has(b)) {
        this.next = (this.next + i + 1) % n;
        return b;
      }
    }
    return this.backends.find((b) => !tried.has(b));
  }

  private dial(client: Socket, tried: Set<Backend>): void {
    if (client.destroyed) return;
    const backend = this.pick(tried);
    if (!backend) {
      client.destroy();
      return;
    }
    tried.add(backend);
    const upstream = connect({ host: backend.host, port: backend.port, noDelay: true, timeout: this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS });
    const refused = (err: Error): void => {
      upstream.destroy();
      this.markDown(backend, err.message);
      this.dial(client, tried);
    };
    upstream.once('timeout', () => refused(new Error('connect timeout')));
    upstream.once('error', refused);
    upstream.once('connect', () => {
      upstream.off('error', refused);
      upstream.setTimeout(0);
      upstream.removeAllListeners('timeout');
      backend.connections++;
      // Either side failing or closing takes the other with it; pipe() carries the bytes and the back-pressure.
      upstream.on('error', () => client.destroy());
      upstream.once('close', () => client.destroy());
      client.once('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }

  private markDown(backend: Backend, reason: string): void {
    if (!backend.up) return;
    backend.up = false;
    this.log(`backend ${backend.name} down (${reason}): connections go to the others`);
  }

  private probeDown(): void {
    for (const backend of this.backends) {
      if (backend.up) continue;
      const probe = connect({ host: backend.host, port: backend.port, timeout: this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS });
      probe.once('connect', () => {
        probe.destroy();
        if (backend.up) return;
        backend.up = true;
        this.log(`backend ${backend.name} up`);
      });
      probe.once('timeout', () => probe.destroy());
      probe.once('error', () => probe.destroy());
    }
  }
}

export function parseHostPort(value: string): HostPort {
  const match = /^(.*):(\d+)$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || !match[1] || !Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${value} is not HOST:PORT`);
  return { host: match[1].replace(/^\[(.*)\]$/, '$1'), port };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { listen: { type: 'string' }, backend: { type: 'string', multiple: true } } });
  if (!values.listen || !values.backend?.length) throw new Error('usage: tcp-balancer --listen HOST:PORT --backend HOST:PORT [--backend HOST:PORT …]');
  const log = (line: string): void => console.log(line);
  const balancer = new TcpBalancer({ listen: parseHostPort(values.listen), backends: values.backend.map(parseHostPort), log });
  const port = await balancer.start();
  log(`balancing ${values.listen.replace(/:\d+$/, `:${port}`)} over ${values.backend.join(', ')} (TCP, round robin; TLS passes through)`);
  const stop = (): void => void balancer.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

// Run as a script, not when the spec imports the class.
if (process.argv[1] && resolve(process.argv[1]) === __filename) {
  main().catch((err: Error) => {
    console.error(err.message);
    process.exit(1);
  });
}
