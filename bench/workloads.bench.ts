/**
 * Workloads on simulated nodes: a Deployment scaled 0 → N → 0 (N = 1,000; --quick 250; BENCH_WORKLOAD_REPLICAS
 * overrides) with the controller-manager in its own process running the deployment and replicaset controllers and
 * KUBE_SIMULATED_NODES nodes (110 pods each, enough for N), pods Ready 1 s after binding, containers that stop at
 * once: the time until all N are Ready and until none is left, the controller-manager's CPU per pod (its
 * controllers, scheduler and kubelets together), and a rolling update of 100 replicas (--quick 50).
 *
 * Called by bench/run.ts (`node dist/bench/run.js --only workloads` runs only this figure).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { PkiPaths } from '@kube/pki';
import { freePort } from '@kube/testing';
import { agentFor, call, cpuMs, type TlsClient } from './load.generator';
import { figure } from './report';

export interface WorkloadsBenchTarget {
  root: string;
  aggPort: number;
  pki: PkiPaths;
  tls: TlsClient;
  quick?: boolean;
}

async function until(cond: () => Promise<boolean>, timeoutMs: number, everyMs = 250): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}

interface DeploymentStatus {
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
}

const deployment = (name: string, replicas: number): unknown => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] } },
  },
});

export async function benchWorkloads(t: WorkloadsBenchTarget): Promise<void> {
  const replicas = Number(process.env.BENCH_WORKLOAD_REPLICAS ?? (t.quick ? 250 : 1000));
  const rolloutReplicas = t.quick ? 50 : 100;
  const nodes = Math.max(3, Math.ceil(replicas / 100));
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
      KUBE_SIMULATED_NODES: String(nodes),
      KUBE_SIMULATED_POD_READY_DELAY: '1s',
      KUBE_SIMULATED_POD_DELETE_DELAY: '0s',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const agent = agentFor(t.tls, 16);
  const api = (method: string, path: string, body?: unknown, contentType = 'application/json') =>
    call(agent, t.aggPort, { method, path, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'Content-Type': contentType } });
  const ns = '/apis/apps/v1/namespaces/workloads-bench/deployments';
  const status = async (name: string): Promise<{ generation: number; spec: number; status: DeploymentStatus }> => {
    const d = JSON.parse((await api('GET', `${ns}/${name}`)).body) as { metadata: { generation: number }; spec: { replicas: number }; status?: DeploymentStatus };
    return { generation: d.metadata.generation, spec: d.spec.replicas, status: d.status ?? {} };
  };
  const complete = async (name: string): Promise<boolean> => {
    const d = await status(name);
    const s = d.status;
    return (s.observedGeneration ?? 0) >= d.generation && (s.updatedReplicas ?? 0) === d.spec && (s.replicas ?? 0) === d.spec && (s.availableReplicas ?? 0) === d.spec && (s.readyReplicas ?? 0) === d.spec;
  };
  const podsLeft = async (): Promise<number> => (JSON.parse((await api('GET', '/api/v1/namespaces/workloads-bench/pods?limit=1')).body) as { items: unknown[] }).items.length;
  const scale = (name: string, n: number) => api('PATCH', `${ns}/${name}/scale`, { spec: { replicas: n } }, 'application/merge-patch+json');
  try {
    const leading = await until(async () => (await api('GET', `/api/v1/nodes/sim-node-${nodes - 1}`)).status === 200, 60_000, 200);
    if (!leading) throw new Error('the controller-manager never registered its simulated nodes');
    await api('POST', '/api/v1/namespaces', { metadata: { name: 'workloads-bench' } });
    // Pods wait for the namespace's default ServiceAccount (its controller runs in the same process).
    await until(async () => (await api('GET', '/api/v1/namespaces/workloads-bench/serviceaccounts/default')).status === 200, 30_000, 100);
    await api('POST', ns, deployment('big', 0));
    await until(() => complete('big'), 30_000);
    const timeout = t.quick ? 180_000 : 600_000;
    const cpu0 = cpuMs(manager.pid);
    let t0 = performance.now();
    await scale('big', replicas);
    const up = await until(() => complete('big'), timeout);
    const upSeconds = (performance.now() - t0) / 1000;
    console.log(figure(`WORKLOADS 0 → ${replicas.toLocaleString('en-US')} pods Ready`, up ? upSeconds : NaN, 's', up ? `${upSeconds.toFixed(1)} s (${(replicas / upSeconds).toFixed(0)} pods/s, ${nodes} simulated nodes)` : `not done after ${upSeconds.toFixed(0)} s`));
    t0 = performance.now();
    await scale('big', 0);
    const down = await until(async () => (await podsLeft()) === 0 && (await complete('big')), timeout);
    const downSeconds = (performance.now() - t0) / 1000;
    const cpu = cpuMs(manager.pid) - cpu0;
    console.log(figure(`WORKLOADS ${replicas.toLocaleString('en-US')} → 0 pods`, down ? downSeconds : NaN, 's', down ? `${downSeconds.toFixed(1)} s` : `not done after ${downSeconds.toFixed(0)} s`));
    console.log(figure('WORKLOADS controller-manager CPU per pod', cpu / (2 * replicas), 'ms', `${(cpu / (2 * replicas)).toFixed(2)} ms per pod created or deleted (controllers, scheduler and kubelets of the simulated nodes)`));
    await api('POST', ns, deployment('roll', rolloutReplicas));
    await until(() => complete('roll'), timeout);
    t0 = performance.now();
    await api('PATCH', `${ns}/roll`, { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } }, 'application/strategic-merge-patch+json');
    await until(async () => (await status('roll')).generation > 1, 10_000, 50);
    const rolled = await until(() => complete('roll'), timeout);
    const rollSeconds = (performance.now() - t0) / 1000;
    console.log(figure(`WORKLOADS rollout of ${rolloutReplicas} replicas`, rolled ? rollSeconds : NaN, 's', rolled ? `${rollSeconds.toFixed(1)} s (maxSurge 25%, maxUnavailable 25%)` : `not done after ${rollSeconds.toFixed(0)} s`));
  } finally {
    await api('DELETE', '/api/v1/namespaces/workloads-bench').catch(() => undefined);
    agent.destroy();
    manager.kill('SIGTERM');
    await new Promise((r) => (manager.exitCode !== null ? r(null) : manager.once('exit', r)));
  }
}
