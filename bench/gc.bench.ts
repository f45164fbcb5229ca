/**
 * The garbage collector's speed: one owner ConfigMap with 1,000 dependents (ownerReferences), the owner deleted
 * (background propagation), and the time until no dependent is left, with the controller-manager in its own
 * process talking to the aggregator as every client does. Target ≤ 5 s.
 *
 * Called by bench/run.ts (`npm run bench -- --only gc` runs only this figure).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { PkiPaths } from '@kube/pki';
import { freePort } from '@kube/testing';
import { agentFor, call, type TlsClient } from './load.generator';
import { figure } from './report';

export interface GcBenchTarget {
  root: string;
  aggPort: number;
  pki: PkiPaths;
  tls: TlsClient;
  /** `--quick`: 250 dependents against a target of 5 s per 1,000 (BENCH_GC_DEPENDENTS overrides both). */
  quick?: boolean;
}

async function until(cond: () => Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}

export async function benchGarbageCollector(t: GcBenchTarget): Promise<void> {
  const DEPENDENTS = Number(process.env.BENCH_GC_DEPENDENTS ?? (t.quick ? 250 : 1000));
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
    // --quick waits at most 15 s: a missed figure, not minutes of the run.
    const done = await until(async () => (await list(1)) === 0, t.quick ? 15_000 : 120_000, 100);
    const seconds = (performance.now() - t0) / 1000;
    console.log(figure(`GC ${DEPENDENTS.toLocaleString('en-US')} dependents of one owner`, done ? seconds : NaN, 's', done ? `${seconds.toFixed(2)} s` : `not done after ${seconds.toFixed(0)} s`, `≤ ${(DEPENDENTS / 200).toFixed(DEPENDENTS % 200 ? 2 : 0)} s${DEPENDENTS === 1000 ? '' : ' (5 s per 1,000)'}`));
  } finally {
    agent.destroy();
    manager.kill('SIGTERM');
    await new Promise((r) => (manager.exitCode !== null ? r(null) : manager.once('exit', r)));
  }
}
