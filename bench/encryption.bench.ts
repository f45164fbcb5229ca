/**
 * Encryption at rest (`npm run bench -- --only encryption`): GET (watch cache) and CREATE of Secrets through
 * core-api with aesgcm and with KMS v2 (scripts/kms-plugin.ts in its own process on a unix socket), each as a ratio
 * of the same figure with the identity provider, measured in the same run. Each provider gets a fresh core-api on
 * the shared etcd. Also reported: the KMS calls and the from_storage transformations during the GET run (a GET
 * served from the watch cache decrypts nothing: values are decrypted once, when the write reaches the cache).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PkiPaths } from '@kube/pki';
import { freePort } from '@kube/testing';
import { agentFor, call, runLoad, withServerCpu, type LoadResult, type TlsClient } from './load.generator';
import { coreApiEnv, startApp, stopApp, waitReady } from './servers';

export interface EncryptionBenchOptions {
  root: string;
  etcdEndpoint: string;
  pki: PkiPaths;
  tls: TlsClient;
  dir: string;
  seconds: number;
  settle: number;
  line(name: string, ours: LoadResult, base: LoadResult, target: string): string;
}

type Provider = 'identity' | 'aesgcm' | 'kms';

function configYaml(provider: Provider, socket: string): string {
  const first =
    provider === 'identity'
      ? '      - identity: {}\n'
      : provider === 'aesgcm'
        ? `      - aesgcm: {keys: [{name: bench, secret: ${Buffer.alloc(32, 0x42).toString('base64')}}]}\n`
        : `      - kms: {apiVersion: v2, name: bench, endpoint: "unix://${socket}", timeout: 3s}\n`;
  return `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n${first}      - identity: {}\n`;
}

/** Sum of a Prometheus counter's samples whose labels contain every fragment. */
function sample(metrics: string, name: string, ...fragments: string[]): number {
  let total = 0;
  for (const l of metrics.split('\n')) {
    if (!l.startsWith(`${name}{`) || !fragments.every((f) => l.includes(f))) continue;
    total += Number(l.slice(l.lastIndexOf(' ') + 1));
  }
  return total;
}

async function startPlugin(root: string, socket: string, keyFile: string): Promise<ChildProcess> {
  writeFileSync(keyFile, `bench-key ${Buffer.alloc(32, 0x24).toString('base64')}\n`, { mode: 0o600 });
  const child = spawn(process.execPath, [join(root, 'dist/scripts/kms-plugin.js'), '--socket', socket, '--key-file', keyFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + 20_000;
  while (!existsSync(socket)) {
    if (Date.now() > deadline) throw new Error('the KMS plugin did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return child;
}

export async function benchEncryption(o: EncryptionBenchOptions): Promise<void> {
  const socket = join(o.dir, 'kms-bench.sock');
  const plugin = await startPlugin(o.root, socket, join(o.dir, 'kms-bench-keys'));
  const results = new Map<string, { get: LoadResult; create: LoadResult; detail: string }>();
  try {
    // identity first and last: the better of its two runs is the baseline, so that a machine still warming up (or
    // busier later) does not flatter the encrypted figures.
    for (const [run, provider] of [
      ['identity', 'identity'],
      ['aesgcm', 'aesgcm'],
      ['kms', 'kms'],
      ['identity-again', 'identity'],
    ] as const) {
      const configPath = join(o.dir, `encryption-${run}.yaml`);
      writeFileSync(configPath, configYaml(provider, socket), { mode: 0o600 });
      const port = await freePort();
      const api = startApp(o.root, 'core-api', { ...coreApiEnv(o.etcdEndpoint, port, o.pki), KUBE_ENCRYPTION_PROVIDER_CONFIG: configPath });
      const agent = agentFor(o.tls, 64);
      try {
        await waitReady(port, o.tls);
        const ns = `enc-${run}`;
        await call(agent, port, { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: ns } }) });
        const secret = (name: string): string => JSON.stringify({ metadata: { name }, type: 'Opaque', data: { password: Buffer.from('x'.repeat(64)).toString('base64'), other: Buffer.from('y'.repeat(200)).toString('base64') } });
        await call(agent, port, { method: 'POST', path: `/api/v1/namespaces/${ns}/secrets`, body: secret('bench') });
        const get = async (): Promise<boolean> => (await call(agent, port, { method: 'GET', path: `/api/v1/namespaces/${ns}/secrets/bench` })).status === 200;
        await runLoad(32, o.settle, get);
        const before = (await call(agent, port, { method: 'GET', path: '/metrics' })).body;
        const getResult = await withServerCpu(api.pid, () => runLoad(32, o.seconds, get));
        const after = (await call(agent, port, { method: 'GET', path: '/metrics' })).body;
        const create = (prefix: string) => async (i: number) => (await call(agent, port, { method: 'POST', path: `/api/v1/namespaces/${ns}/secrets`, body: secret(`${prefix}-${i}`) })).status === 201;
        await runLoad(64, o.settle, create('warm'));
        const createResult = await withServerCpu(api.pid, () => runLoad(64, o.seconds, create('c')));
        const fromStorage = sample(after, 'apiserver_storage_transformation_operations_total', 'transformation_type="from_storage"') - sample(before, 'apiserver_storage_transformation_operations_total', 'transformation_type="from_storage"');
        const kmsCalls = (m: string, method: string): number => sample(m, 'apiserver_envelope_encryption_kms_operations_latency_seconds_count', `method_name="/v2.KeyManagementService/${method}"`);
        const metrics = (await call(agent, port, { method: 'GET', path: '/metrics' })).body;
        const kms = provider === 'kms' ? `; KMS calls in all: Encrypt ${kmsCalls(metrics, 'Encrypt')}, Decrypt ${kmsCalls(metrics, 'Decrypt')}, Status ${kmsCalls(metrics, 'Status')}` : '';
        results.set(run, { get: getResult, create: createResult, detail: `${fromStorage} from_storage transformations during ${getResult.requests} GETs${kms}` });
      } finally {
        agent.destroy();
        await stopApp(api);
      }
    }
  } finally {
    plugin.kill('SIGTERM');
  }
  const runs = [results.get('identity'), results.get('identity-again')].filter((r) => r !== undefined);
  if (!runs.length) return;
  const best = (pick: (r: (typeof runs)[number]) => LoadResult): LoadResult => runs.map(pick).reduce((a, b) => (b.rps > a.rps ? b : a));
  const identity = { get: best((r) => r.get), create: best((r) => r.create) };
  const cpu = (r: LoadResult): string => ((r as LoadResult & { cpuUsPerRequest?: number }).cpuUsPerRequest ?? NaN).toFixed(0);
  console.log(
    `  identity (better of ${runs.length} runs: GET ${runs.map((r) => `${r.get.rps.toFixed(0)} req/s, ${cpu(r.get)} µs/req`).join('; ')}; CREATE ${runs.map((r) => `${r.create.rps.toFixed(0)} req/s, ${cpu(r.create)} µs/req`).join('; ')}): ${runs[0].detail}`,
  );
  for (const [provider, label] of [
    ['aesgcm', 'aesgcm'],
    ['kms', 'KMS v2'],
  ] as const) {
    const r = results.get(provider);
    if (!r) continue;
    console.log(o.line(`GET secret ${label}`, r.get, identity.get, 'report, vs identity'));
    console.log(o.line(`CREATE secret ${label}`, r.create, identity.create, 'report, vs identity'));
    console.log(`  ${label}: ${r.detail}`);
  }
}
