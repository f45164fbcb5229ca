/**
 * The stack as `npm start` runs it, each part a separate process on free ports and temp dirs: etcd, nats-server
 * (TLS, a client certificate per service), core-api, extensions, the aggregator, sample-apiserver (wardle,
 * registered through the front door) and the controller-manager, all from their compiled mains
 * (dist/apps/<name>/src/main.js). Any part can be killed with SIGKILL and started again on the same ports and
 * data, without the backoff scripts/start.ts restarts a dead child with, so the test is the supervisor here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { PkiPaths } from '@kube/pki';
import { type EtcdProcess, freePorts, httpStatus, startEtcd, SupervisedProcess, tempDir } from '@kube/testing';
import { type SecuredNats, serverProcessEnv, startSecuredNats } from '@test/support';

const ROOT = join(__dirname, '..', '..');

export const KILLABLE = ['etcd', 'nats', 'core-api', 'extensions', 'aggregator', 'sample-apiserver', 'controller-manager'] as const;
export type Part = (typeof KILLABLE)[number];
type NodePart = Exclude<Part, 'etcd' | 'nats'>;
const NODE_PARTS: readonly NodePart[] = ['core-api', 'extensions', 'aggregator', 'sample-apiserver', 'controller-manager'];

export interface Answer {
  readonly status: number;
  readonly body: string;
}

/** A client identity for HTTPS requests to one of the stack's servers. */
export interface ClientTls {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

export class ProcessStack {
  readonly ports = new Map<NodePart, number>();
  readonly tls: ClientTls;
  private readonly procs = new Map<NodePart, SupervisedProcess>();
  private readonly env = new Map<NodePart, NodeJS.ProcessEnv>();
  /** Short-lived requests reuse connections; a killed server's sockets fail and are replaced. */
  readonly agent: Agent;

  private constructor(
    readonly dir: string,
    readonly etcd: EtcdProcess,
    readonly nats: SecuredNats,
  ) {
    const pki = nats.pki;
    this.tls = { ca: readFileSync(pki.caCert, 'utf8'), cert: readFileSync(pki.adminCert, 'utf8'), key: readFileSync(pki.adminKey, 'utf8') };
    this.agent = new Agent({ keepAlive: true, maxSockets: 32, ...this.tls });
  }

  static async start(): Promise<ProcessStack> {
    if (!existsSync(join(ROOT, 'dist/apps/aggregator/src/main.js'))) throw new Error('run `npm run build` first: the chaos suite runs the compiled mains');
    const dir = tempDir('chaos-stack');
    const [etcd, nats] = await Promise.all([startEtcd({ dataDir: join(dir, 'etcd') }), startSecuredNats(dir)]);
    const stack = new ProcessStack(dir, etcd, nats);
    await stack.boot();
    return stack;
  }

  get pki(): PkiPaths {
    return this.nats.pki;
  }

  url(part: NodePart): string {
    return `https://127.0.0.1:${this.ports.get(part)}`;
  }

  /** SIGKILL: the whole process, no shutdown hooks. */
  async kill(part: Part): Promise<void> {
    if (part === 'etcd') return this.etcd.kill();
    if (part === 'nats') return this.nats.nats.kill();
    await this.procs.get(part)?.kill();
  }

  /** Starts a killed part again with the same ports, data and configuration. */
  async restart(part: Part): Promise<void> {
    if (part === 'etcd') return this.etcd.restart();
    if (part === 'nats') return this.nats.nats.restart();
    this.spawn(part);
  }

  /** Whether `part` itself answers its health check (readyz for the Node services). */
  async partReady(part: Part): Promise<boolean> {
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

  output(part: NodePart): string {
    return this.procs.get(part)?.output() ?? '';
  }

  /** One request as the admin; rejects on a network error or after `timeoutMs`. */
  request(part: NodePart, method: string, path: string, body?: unknown, contentType = 'application/json', timeoutMs = 15_000): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = httpsRequest(
        { host: '127.0.0.1', port: this.ports.get(part), method, path, agent: this.agent, headers: { Accept: 'application/json', ...(payload ? { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(payload) } : {}) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          res.on('error', reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms: ${method} ${path}`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  async stop(): Promise<void> {
    for (const part of [...NODE_PARTS].reverse()) await this.procs.get(part)?.stop();
    this.agent.destroy();
    await this.nats.nats.stop();
    await this.etcd.stop();
  }

  private async boot(): Promise<void> {
    const pki = this.pki;
    const ports = await freePorts(NODE_PARTS.length);
    NODE_PARTS.forEach((part, i) => this.ports.set(part, ports[i]));
    const common = serverProcessEnv(pki, this.etcd.endpoint);
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
    // In start-up order, each once the one before is ready (the aggregated server registers through the front door).
    for (const part of NODE_PARTS) {
      this.env.set(part, { ...common, ...own[part], KUBE_SECURE_PORT: String(this.ports.get(part)) });
      this.spawn(part);
      await this.waitFor(`${part} ready`, () => this.partReady(part));
    }
  }

  private spawn(part: NodePart): void {
    this.procs.set(part, new SupervisedProcess({ name: part, command: process.execPath, args: [join(ROOT, `dist/apps/${part}/src/main.js`)], env: this.env.get(part), keepLines: 400 }));
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
