/**
 * The stack as `npm start` runs it, each part a separate process on free ports and temp dirs: etcd, nats-server
 * (TLS, a client certificate per service), core-api, extensions, the aggregator, sample-apiserver (wardle,
 * registered through the front door) and the controller-manager, all from their compiled mains
 * (dist/apps/<name>/src/main.js). Any part can be killed with SIGKILL and started again on the same ports and
 * data, without the backoff scripts/start.ts restarts a dead child with, so the test is the supervisor here.
 *
 * `replicas: N` runs N instances of core-api, extensions and the aggregator (issue 30): instance 0 keeps the
 * part's name ('core-api'), the others are named 'core-api.1', …; each has its own port. Backend replicas reach
 * every aggregator through their NATS announcements (the aggregator rotates requests over live instances).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { PkiPaths } from '@kube/pki';
import { type EtcdProcess, freePorts, httpStatus, startEtcd, SupervisedProcess, tempDir } from '@kube/testing';
import { type SecuredNats, serverProcessEnv, startSecuredNats, startTcpRelay, type TcpRelay } from '@test/support';

const ROOT = join(__dirname, '..', '..');

export const KILLABLE = ['etcd', 'nats', 'core-api', 'extensions', 'aggregator', 'sample-apiserver', 'controller-manager'] as const;
export type Part = (typeof KILLABLE)[number];
export type NodePart = Exclude<Part, 'etcd' | 'nats'>;
const NODE_PARTS: readonly NodePart[] = ['core-api', 'extensions', 'aggregator', 'sample-apiserver', 'controller-manager'];
/** The parts `replicas` multiplies (sample-apiserver registers one Service endpoint; the controller-manager elects one). */
export const REPLICATED = ['core-api', 'extensions', 'aggregator'] as const;
export type ReplicatedPart = (typeof REPLICATED)[number];
/** One process of the stack: a part's first instance by the part's name, replica i (≥ 1) as `<part>.<i>`. */
export type Instance = NodePart | `${ReplicatedPart}.${number}`;

/** The part an instance belongs to. */
export function partOf(instance: Instance): NodePart {
  return instance.split('.')[0] as NodePart;
}

export interface Answer {
  readonly status: number;
  readonly body: string;
  readonly headers?: IncomingHttpHeaders;
}

/** A client identity for HTTPS requests to one of the stack's servers. */
export interface ClientTls {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

export class ProcessStack {
  readonly ports = new Map<Instance, number>();
  readonly tls: ClientTls;
  private readonly procs = new Map<Instance, SupervisedProcess>();
  private readonly env = new Map<Instance, NodeJS.ProcessEnv>();
  /** Instances that reach etcd through a relay the test can hold (see etcdRelay). */
  private readonly relays = new Map<Instance, TcpRelay>();
  /** Short-lived requests reuse connections; a killed server's sockets fail and are replaced. */
  readonly agent: Agent;

  private constructor(
    readonly dir: string,
    readonly etcd: EtcdProcess,
    readonly nats: SecuredNats,
    /** Instances of each replicated part. */
    readonly replicas: number,
    /** The parts this stack runs. */
    readonly parts: readonly NodePart[],
    /** Added to every Node process's environment (a test's shorter timings). */
    private readonly extraEnv: NodeJS.ProcessEnv = {},
  ) {
    const pki = nats.pki;
    this.tls = { ca: readFileSync(pki.caCert, 'utf8'), cert: readFileSync(pki.adminCert, 'utf8'), key: readFileSync(pki.adminKey, 'utf8') };
    this.agent = new Agent({ keepAlive: true, maxSockets: 32, ...this.tls });
  }

  /**
   * `replicas`: instances of each replicated part; `etcdRelayed`: instances whose etcd traffic goes through a
   * TcpRelay (etcdRelay(instance) holds and releases it), to make one replica's watch cache fall behind;
   * `without`: parts not started (a test that needs no aggregated server or controller-manager); `env`: added to
   * every Node process's environment.
   */
  static async start(opts: { replicas?: number; etcdRelayed?: Instance[]; without?: NodePart[]; env?: NodeJS.ProcessEnv } = {}): Promise<ProcessStack> {
    if (!existsSync(join(ROOT, 'dist/apps/aggregator/src/main.js'))) throw new Error('run `npm run build` first: the chaos suite runs the compiled mains');
    const dir = tempDir('chaos-stack');
    const [etcd, nats] = await Promise.all([startEtcd({ dataDir: join(dir, 'etcd') }), startSecuredNats(dir)]);
    const stack = new ProcessStack(dir, etcd, nats, Math.max(1, opts.replicas ?? 1), NODE_PARTS.filter((p) => !opts.without?.includes(p)), opts.env ?? {});
    for (const instance of opts.etcdRelayed ?? []) stack.relays.set(instance, await startTcpRelay(etcd.endpoint));
    await stack.boot();
    return stack;
  }

  get pki(): PkiPaths {
    return this.nats.pki;
  }

  url(part: Instance): string {
    return `https://127.0.0.1:${this.ports.get(part)}`;
  }

  /** Every instance of a part, the first one first. */
  instances(part: NodePart): Instance[] {
    if (!(REPLICATED as readonly string[]).includes(part)) return [part];
    return Array.from({ length: this.replicas }, (_, i) => (i === 0 ? part : (`${part}.${i}` as Instance)));
  }

  /** Every process of the stack, in start-up order. */
  get allInstances(): Instance[] {
    return this.parts.flatMap((part) => this.instances(part));
  }

  /** The relay between an instance and etcd (started with `etcdRelayed`). */
  etcdRelay(instance: Instance): TcpRelay {
    const relay = this.relays.get(instance);
    if (!relay) throw new Error(`${instance} was not started with an etcd relay`);
    return relay;
  }

  /** The operating-system process id of an instance (to SIGSTOP it, say). */
  pid(instance: Instance): number | undefined {
    return this.procs.get(instance)?.pid;
  }

  /** SIGKILL: the whole process, no shutdown hooks. */
  async kill(part: Part | Instance): Promise<void> {
    if (part === 'etcd') return this.etcd.kill();
    if (part === 'nats') return this.nats.nats.kill();
    await this.procs.get(part)?.kill();
  }

  /** Starts a killed part again with the same ports, data and configuration. */
  async restart(part: Part | Instance): Promise<void> {
    if (part === 'etcd') return this.etcd.restart();
    if (part === 'nats') return this.nats.nats.restart();
    this.spawn(part);
  }

  /** Whether `part` itself answers its health check (readyz for the Node services). */
  async partReady(part: Part | Instance): Promise<boolean> {
    if (part === 'etcd') return (await httpStatus(`${this.etcd.endpoint}/health`)) === 200;
    if (part === 'nats') return (await httpStatus(`http://127.0.0.1:${this.nats.nats.monitorPort}/healthz`)) === 200;
    const proc = this.procs.get(part);
    if (!proc?.running) return false;
    return (await this.request(part, 'GET', '/readyz').catch(() => ({ status: 0 }))).status === 200;
  }

  /** A process that died by itself (not killed by the test): its exit and last lines. */
  crashed(): string | undefined {
    for (const [name, proc] of this.procs) if (!proc.running) return `${proc.describeExit()}; last lines of ${name}:\n${proc.output().split('\n').slice(-15).join('\n')}`;
    return undefined;
  }

  output(part: Instance): string {
    return this.procs.get(part)?.output() ?? '';
  }

  /** One request as the admin; rejects on a network error or after `timeoutMs`. */
  request(part: Instance, method: string, path: string, body?: unknown, contentType = 'application/json', timeoutMs = 30_000): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = httpsRequest(
        { host: '127.0.0.1', port: this.ports.get(part), method, path, agent: this.agent, headers: { Accept: 'application/json', ...(payload ? { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(payload) } : {}) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
          res.on('error', reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms: ${method} ${path}`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A streaming GET (a watch) on its own connection: `onLine` gets each line; `status` resolves with the answer's code. */
  openWatch(part: Instance, path: string, onLine: (line: string) => void): { status: Promise<number>; close(): void } {
    const req = httpsRequest({ host: '127.0.0.1', port: this.ports.get(part), path, agent: false, ...this.tls, headers: { Accept: 'application/json' } });
    const status = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        resolve(res.statusCode ?? 0);
        let partial = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const lines = (partial + chunk).split('\n');
          partial = lines.pop() ?? '';
          lines.filter((l) => l.trim()).forEach(onLine);
        });
        res.on('error', () => undefined);
      });
      req.on('error', reject);
    });
    status.catch(() => undefined);
    req.end();
    return { status, close: () => req.destroy() };
  }

  async stop(): Promise<void> {
    for (const part of [...this.allInstances].reverse()) await this.procs.get(part)?.stop();
    this.agent.destroy();
    await Promise.all([...this.relays.values()].map((r) => r.close()));
    await this.nats.nats.stop();
    await this.etcd.stop();
  }

  private async boot(): Promise<void> {
    const pki = this.pki;
    const instances = this.allInstances;
    const ports = await freePorts(instances.length);
    instances.forEach((instance, i) => this.ports.set(instance, ports[i]));
    const common = { ...serverProcessEnv(pki, this.etcd.endpoint), ...this.extraEnv };
    const front = this.url('aggregator');
    const own: Record<NodePart, NodeJS.ProcessEnv> = {
      'core-api': { ...this.nats.env('core-api'), KUBE_SERVICE_ACCOUNT_KEY_FILE: pki.serviceAccountPub, KUBE_SERVICE_ACCOUNT_SIGNING_KEY_FILE: pki.serviceAccountKey },
      extensions: this.nats.env('extensions'),
      aggregator: {
        ...this.nats.env('aggregator'),
        KUBE_PROXY_CLIENT_CERT_FILE: pki.frontProxyClientCert,
        KUBE_PROXY_CLIENT_KEY_FILE: pki.frontProxyClientKey,
        KUBE_BACKEND_CA_FILE: pki.caCert,
        KUBE_AGGREGATOR_BACKENDS: `core-api=${this.url('core-api')},extensions=${this.url('extensions')}`,
        KUBE_SERVICE_ACCOUNT_KEY_FILE: pki.serviceAccountPub,
      },
      // Its own serving certificate from the cluster CA (kept in its cert dir across restarts), registered as admin.
      'sample-apiserver': {
        KUBE_TLS_CERT_FILE: '',
        KUBE_TLS_PRIVATE_KEY_FILE: '',
        KUBE_SIGNING_CA_CERT_FILE: pki.caCert,
        KUBE_SIGNING_CA_KEY_FILE: pki.caKey,
        KUBE_CERT_DIR: join(this.dir, 'sample-apiserver'),
        KUBE_REGISTER_URL: front,
        KUBE_REGISTER_CERT_FILE: pki.adminCert,
        KUBE_REGISTER_KEY_FILE: pki.adminKey,
        KUBE_REGISTER_CA_FILE: pki.caCert,
      },
      'controller-manager': {
        KUBE_MASTER_URL: front,
        KUBE_CLIENT_CERT_FILE: pki.controllerManagerCert,
        KUBE_CLIENT_KEY_FILE: pki.controllerManagerKey,
        KUBE_ROOT_CA_FILE: pki.caCert,
      },
    };
    // In start-up order, each part once the one before is ready (the aggregated server registers through the front
    // door); a part's replicas together.
    for (const part of this.parts) {
      const replicas = this.instances(part);
      for (const instance of replicas) {
        const relay = this.relays.get(instance);
        this.env.set(instance, { ...common, ...own[part], KUBE_SECURE_PORT: String(this.ports.get(instance)), ...(relay ? { KUBE_ETCD_ENDPOINTS: relay.endpoint } : {}) });
        this.spawn(instance);
      }
      await Promise.all(replicas.map((instance) => this.waitFor(`${instance} ready`, () => this.partReady(instance))));
    }
  }

  private spawn(instance: Instance): void {
    const part = partOf(instance);
    this.procs.set(instance, new SupervisedProcess({ name: instance, command: process.execPath, args: [join(ROOT, `dist/apps/${part}/src/main.js`)], env: this.env.get(instance), keepLines: 400 }));
  }

  private async waitFor(what: string, cond: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const crash = this.crashed();
      if (crash) throw new Error(`${what}: ${crash}`);
      if (await cond()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${what}: not after ${timeoutMs} ms`);
  }
}
