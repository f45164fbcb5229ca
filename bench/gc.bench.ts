/**
 * The garbage collector's speed: one owner ConfigMap with 1,000 dependents (ownerReferences), the owner deleted
 * (background propagation), and the time until no dependent is left, with the controller-manager in its own
 * process talking to the aggregator as every client does. Target ≤ 5 s.
 *
 * Called by bench/run.ts; `node dist/bench/gc.bench.js` runs it alone on a fresh stack (etcd, core-api,
 * extensions and the aggregator as child processes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensurePki, type PkiPaths } from '@kube/pki';
import { freePort, startEtcd, tempDir } from '@kube/testing';
import { agentFor, call, type TlsClient } from './load.generator';

export interface GcBenchTarget {
  root: string;
  aggPort: number;
  pki: PkiPaths;
  tls: TlsClient;
}

const DEPENDENTS = Number(process.env.BENCH_GC_DEPENDENTS ?? 1000);

async function until(cond: () => Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}

export async function benchGarbageCollector(t: GcBenchTarget): Promise<void> {
  const port = await freePort();
  const manager = spawn(process.execPath, [join(t.root, 'dist/apps/controller-manager/src/main.js')], {
    env: {
      ...process.env,
      KUBE_MASTER_URL: `https://127.0.0.1:${t.aggPort}`,
      KUBE_CLIENT_CERT_FILE: t.pki.controllerManagerCert,
      KUBE_CLIENT_KEY_FILE: t.pki.controllerManagerKey,
      KUBE_CLIENT_CA_FILE: t.pki.caCert,
      KUBE_BIND_ADDRESS: '127.0.0.1',
      KUBE_SECURE_PORT: String(port),
      KUBE_TLS_CERT_FILE: t.pki.apiserverCert,
      KUBE_TLS_PRIVATE_KEY_FILE: t.pki.apiserverKey,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const agent = agentFor(t.tls, 32);
  const api = (method: string, path: string, body?: unknown) => call(agent, t.aggPort, { method, path, body: body === undefined ? undefined : JSON.stringify(body) });
  try {
    const leading = await until(async () => (await api('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager')).status === 200, 60_000, 200);
    if (!leading) throw new Error('the controller-manager never took the lease');
    await api('POST', '/api/v1/namespaces', { metadata: { name: 'gc-bench' } });
    const owner = JSON.parse((await api('POST', '/api/v1/namespaces/gc-bench/configmaps', { metadata: { name: 'owner' } })).body) as { metadata: { uid: string } };
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid };
    for (let i = 0; i < DEPENDENTS; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, DEPENDENTS - i) }, (_, j) => api('POST', '/api/v1/namespaces/gc-bench/configmaps', { metadata: { name: `dep-${i + j}`, labels: { 'gc-bench': 'dependent' }, ownerReferences: [ref] }, data: { k: 'v' } })));
    }
    const list = async (limit?: number): Promise<number> =>
      (JSON.parse((await api('GET', `/api/v1/namespaces/gc-bench/configmaps?labelSelector=gc-bench%3Ddependent${limit ? `&limit=${limit}` : ''}`)).body) as { items: unknown[] }).items.length;
    if ((await list()) !== DEPENDENTS) throw new Error('not every dependent was created');
    // Let the collector's informers see every dependent before the clock starts (it would otherwise measure watch lag).
    await new Promise((r) => setTimeout(r, 2000));
    const t0 = performance.now();
    await api('DELETE', '/api/v1/namespaces/gc-bench/configmaps/owner');
    // One item per probe: polling must not compete with the collector.
    const done = await until(async () => (await list(1)) === 0, 120_000, 100);
    const seconds = (performance.now() - t0) / 1000;
    console.log(`GC ${DEPENDENTS.toLocaleString('en-US')} dependents of one owner     ${done ? `${seconds.toFixed(2)} s` : `not done after ${seconds.toFixed(0)} s`} (target ≤ 5 s)`);
  } finally {
    agent.destroy();
    manager.kill('SIGTERM');
    await new Promise((r) => (manager.exitCode !== null ? r(null) : manager.once('exit', r)));
  }
}

/** Standalone: a fresh stack of child processes, then the measurement. */
async function main(): Promise<void> {
  const root = resolve(__dirname, '..', '..');
  const etcd = await startEtcd();
  const pki = await ensurePki(join(tempDir('gc-bench'), 'pki'));
  const tls: TlsClient = { ca: readFileSync(pki.caCert), cert: readFileSync(pki.adminCert), key: readFileSync(pki.adminKey) };
  const children: ChildProcess[] = [];
  const common = { KUBE_ETCD_ENDPOINTS: etcd.endpoint, KUBE_TLS_CERT_FILE: pki.apiserverCert, KUBE_TLS_PRIVATE_KEY_FILE: pki.apiserverKey, KUBE_CLIENT_CA_FILE: pki.caCert, KUBE_REQUESTHEADER_CLIENT_CA_FILE: pki.frontProxyCaCert, KUBE_REQUESTHEADER_ALLOWED_NAMES: 'front-proxy-client' };
  const start = async (app: string, env: Record<string, string>): Promise<number> => {
    const port = await freePort();
    const child = spawn(process.execPath, [join(root, `dist/apps/${app}/src/main.js`)], { env: { ...process.env, ...common, ...env, KUBE_SECURE_PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(child);
    const agent = agentFor(tls, 1);
    const ready = await until(async () => (await call(agent, port, { method: 'GET', path: '/readyz' }).catch(() => ({ status: 0 }))).status === 200, 60_000, 200);
    agent.destroy();
    if (!ready) throw new Error(`${app} did not become ready`);
    return port;
  };
  try {
    const core = await start('core-api', {});
    const ext = await start('extensions', {});
    const aggPort = await start('aggregator', {
      KUBE_PROXY_CLIENT_CERT_FILE: pki.frontProxyClientCert,
      KUBE_PROXY_CLIENT_KEY_FILE: pki.frontProxyClientKey,
      KUBE_AGGREGATOR_BACKENDS: `core-api=https://127.0.0.1:${core},extensions=https://127.0.0.1:${ext}`,
    });
    await benchGarbageCollector({ root, aggPort, pki, tls });
  } finally {
    for (const c of children.reverse()) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    await etcd.stop();
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
