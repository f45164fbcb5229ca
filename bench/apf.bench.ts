/**
 * API Priority and Fairness: one noisy user floods LIST (one flow, far more requests in flight than its priority
 * level has seats) while a quiet user GETs one configmap on one connection, both through the front door. The
 * figure is the quiet user's p99 under noise against its own unloaded p99 in the same run (target ≤ 2×); the same
 * pair measured straight at core-api (max-in-flight, no fairness) shows what APF changes.
 * The profile line says where the time goes under noise: the seats APF let the level have (borrowing), what a
 * LIST was estimated at, the mean wait in APF's queues, and the CPU each process spent per noisy LIST and per
 * second (2.0 s/s is both cores).
 * Run alone: `npm run build && node dist/bench/apf.bench.js` (BENCH_SECONDS, default 5). APF_BENCH_PIN=1 runs the
 * servers on CPU 0 and the load generator on CPU 1 (taskset), so the client's own work cannot delay the servers.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensurePki, issueCertificate, loadCertificateAuthority, type PkiPaths } from '@kube/pki';
import { freePort, startEtcd, tempDir } from '@kube/testing';
import { agentFor, call, cpuMs, runLoad, warmupSeconds, type LoadResult, type TlsClient } from './load.generator';
import { figure } from './report';

export interface ApfBenchTarget {
  root: string;
  etcdEndpoint: string;
  pki: PkiPaths;
  tls: TlsClient;
  seconds: number;
}

/**
 * The front door's server concurrency limit, sized to a small machine (kube's 600 is for many cores): 12 seats,
 * of which global-default gets ceil(12 × 20/245) = 1, so one noisy flow saturates its level and has to queue.
 */
const MAX_REQUESTS_INFLIGHT = Number(process.env.APF_BENCH_MAX_INFLIGHT ?? 8);
const MAX_MUTATING_REQUESTS_INFLIGHT = Number(process.env.APF_BENCH_MAX_MUTATING_INFLIGHT ?? 4);
const NOISY_CONCURRENCY = 48;
const LISTED = 200;

/** APF_BENCH_PIN=1: servers on CPU 0, this process (the load generator) on CPU 1. */
const PIN = process.env.APF_BENCH_PIN === '1';

function start(root: string, app: string, env: NodeJS.ProcessEnv): ChildProcess {
  const main = join(root, `dist/apps/${app}/src/main.js`);
  const [cmd, args] = PIN ? ['taskset', ['-c', '0', process.execPath, main]] : [process.execPath, [main]];
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return child;
}

/** The sum of a metric's series whose labels include `match`, from a Prometheus exposition. */
function metricSum(text: string, name: string, match: Record<string, string>): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(match).every(([k, v]) => line.includes(`${k}="${v}"`))) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

interface NoiseProfile {
  /** APF figures of global-default (both users' level) over the noisy phase. */
  currentLimitSeats: number;
  estimatedSeatsPerRequest: number;
  meanWaitMs: number;
  /** CPU ms per noisy LIST, and CPU seconds per second, by process. */
  cpu: Array<{ name: string; msPerList: number; perSecond: number }>;
}

async function ready(port: number, tls: TlsClient, path = '/readyz'): Promise<void> {
  const agent = agentFor(tls, 1);
  const deadline = Date.now() + 60_000;
  try {
    while (Date.now() < deadline) {
      if ((await call(agent, port, { method: 'GET', path }).catch(() => ({ status: 0 }))).status === 200) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`port ${port} did not become ready`);
  } finally {
    agent.destroy();
  }
}

/** The quiet user's p99 alone, then while the noisy user floods LIST: both on `port`; `during` wraps the noisy phase. */
async function measure(
  port: number,
  quiet: TlsClient,
  noisy: TlsClient,
  seconds: number,
  during: <T>(phase: () => Promise<T>) => Promise<T> = (phase) => phase(),
  quietPort = port,
): Promise<{ alone: LoadResult; underNoise: LoadResult; noise: LoadResult }> {
  const quietAgent = agentFor(quiet, 1);
  const noisyAgent = agentFor(noisy, NOISY_CONCURRENCY);
  const get = async (): Promise<boolean> => (await call(quietAgent, quietPort, { method: 'GET', path: '/api/v1/namespaces/apf-bench/configmaps/quiet' })).status === 200;
  const list = async (): Promise<boolean> => (await call(noisyAgent, port, { method: 'GET', path: '/api/v1/namespaces/apf-bench/configmaps' })).status === 200;
  await runLoad(1, warmupSeconds(seconds), get);
  await runLoad(NOISY_CONCURRENCY, warmupSeconds(seconds), list);
  const alone = await runLoad(1, seconds, get);
  const [underNoise, noise] = await during(() => Promise.all([runLoad(1, seconds, get), runLoad(NOISY_CONCURRENCY, seconds, list)]));
  quietAgent.destroy();
  noisyAgent.destroy();
  return { alone, underNoise, noise };
}

function report(name: string, m: { alone: LoadResult; underNoise: LoadResult; noise: LoadResult }, target: string): void {
  const ratio = m.underNoise.p99ms / m.alone.p99ms;
  const detail = `quiet GET p99 ${m.underNoise.p99ms.toFixed(2)} ms under noise vs ${m.alone.p99ms.toFixed(2)} ms alone = ${ratio.toFixed(2)}× (noisy LIST ${m.noise.rps.toFixed(0)} req/s, ${m.noise.errors} refused; quiet errors ${m.underNoise.errors})`;
  console.log(figure(name, ratio, '×', detail, target));
}

export async function benchPriorityAndFairness(t: ApfBenchTarget): Promise<void> {
  const ca = await loadCertificateAuthority(t.pki.caCert, t.pki.caKey);
  const client = async (user: string): Promise<TlsClient> => {
    const c = await issueCertificate(ca, { commonName: user, usage: 'client' });
    return { ca: t.tls.ca, cert: Buffer.from(c.certPem), key: Buffer.from(c.keyPem) };
  };
  const [quiet, noisy] = [await client('quiet'), await client('noisy')];
  const common = {
    KUBE_ETCD_ENDPOINTS: t.etcdEndpoint,
    KUBE_TLS_CERT_FILE: t.pki.apiserverCert,
    KUBE_TLS_PRIVATE_KEY_FILE: t.pki.apiserverKey,
    KUBE_CLIENT_CA_FILE: t.pki.caCert,
    // Fairness is what is measured, not RBAC: both users may read everything.
    KUBE_AUTHORIZATION_MODE: 'AlwaysAllow',
  };
  const apiPort = await freePort();
  const api = start(t.root, 'core-api', { ...common, KUBE_SECURE_PORT: String(apiPort), KUBE_REQUESTHEADER_CLIENT_CA_FILE: t.pki.frontProxyCaCert, KUBE_REQUESTHEADER_ALLOWED_NAMES: 'front-proxy-client' });
  const children = [api];
  try {
    await ready(apiPort, t.tls);
    const aggPort = await freePort();
    children.push(
      start(t.root, 'aggregator', {
        ...common,
        KUBE_SECURE_PORT: String(aggPort),
        KUBE_PROXY_CLIENT_CERT_FILE: t.pki.frontProxyClientCert,
        KUBE_PROXY_CLIENT_KEY_FILE: t.pki.frontProxyClientKey,
        KUBE_AGGREGATOR_BACKENDS: `core-api=https://127.0.0.1:${apiPort}`,
        KUBE_MAX_REQUESTS_INFLIGHT: String(MAX_REQUESTS_INFLIGHT),
        KUBE_MAX_MUTATING_REQUESTS_INFLIGHT: String(MAX_MUTATING_REQUESTS_INFLIGHT),
      }),
    );
    // /version answers once the front door listens; the routes to core-api follow its first discovery.
    await ready(aggPort, t.tls, '/api/v1/namespaces/default');
    const admin = agentFor(t.tls, 16);
    await call(admin, apiPort, { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: 'apf-bench' } }) });
    await call(admin, apiPort, { method: 'POST', path: '/api/v1/namespaces/apf-bench/configmaps', body: JSON.stringify({ metadata: { name: 'quiet' }, data: { key: 'value' } }) });
    for (let i = 0; i < LISTED; i += 20) {
      await Promise.all(Array.from({ length: 20 }, (_, j) => call(admin, apiPort, { method: 'POST', path: '/api/v1/namespaces/apf-bench/configmaps', body: JSON.stringify({ metadata: { name: `noise-${i + j}` }, data: { key: 'x'.repeat(100) } }) })));
    }
    admin.destroy();
    const metricsAgent = agentFor(t.tls, 1);
    const scrape = async (): Promise<string> => (await call(metricsAgent, aggPort, { method: 'GET', path: '/metrics' })).body;
    const pids = [
      { name: 'bench', pid: process.pid },
      { name: 'aggregator', pid: children[1].pid },
      { name: 'core-api', pid: api.pid },
    ];
    let profile: NoiseProfile | undefined;
    // The noisy phase's APF figures and CPU by process (metrics and /proc read before and after it).
    const profiled = async <T>(phase: () => Promise<T>): Promise<T> => {
      const m0 = await scrape();
      const cpu0 = pids.map((p) => cpuMs(p.pid));
      const t0 = performance.now();
      const result = await phase();
      const elapsed = (performance.now() - t0) / 1000;
      const cpu1 = pids.map((p) => cpuMs(p.pid));
      const m1 = await scrape();
      const gd = { priority_level: 'global-default' };
      const delta = (name: string, labels: Record<string, string>): number => metricSum(m1, name, labels) - metricSum(m0, name, labels);
      const lists = Math.max(1, (result as unknown as [LoadResult, LoadResult])[1].requests);
      profile = {
        currentLimitSeats: metricSum(m1, 'apiserver_flowcontrol_current_limit_seats', gd),
        estimatedSeatsPerRequest: delta('apiserver_flowcontrol_work_estimated_seats_sum', gd) / Math.max(1, delta('apiserver_flowcontrol_work_estimated_seats_count', gd)),
        meanWaitMs: (1000 * delta('apiserver_flowcontrol_request_wait_duration_seconds_sum', { ...gd, execute: 'true' })) / Math.max(1, delta('apiserver_flowcontrol_request_wait_duration_seconds_count', { ...gd, execute: 'true' })),
        cpu: pids.map((p, i) => ({ name: p.name, msPerList: (cpu1[i] - cpu0[i]) / lists, perSecond: (cpu1[i] - cpu0[i]) / 1000 / elapsed })),
      };
      return result;
    };
    const fair = await measure(aggPort, quiet, noisy, t.seconds, profiled);
    metricsAgent.destroy();
    report('APF: quiet user vs LIST flood', fair, '≤ 2×');
    if (profile) {
      const p = profile;
      const cpu = p.cpu.map((c) => `${c.name} ${c.msPerList.toFixed(2)} ms/LIST ${c.perSecond.toFixed(2)} s/s`).join(', ');
      console.log(
        figure(
          '  profile under noise',
          p.meanWaitMs,
          'ms',
          `global-default ${p.currentLimitSeats} seats (borrowed), ${p.estimatedSeatsPerRequest.toFixed(2)} seats/request estimated, mean APF wait ${p.meanWaitMs.toFixed(2)} ms; CPU: ${cpu}${PIN ? ' (servers on CPU 0, client on CPU 1)' : ''}`,
        ),
      );
    }
    // The quiet user straight at core-api while the flood still goes through APF: what the servers' shared CPU
    // costs it with no queue of APF's in its way (close to the figure above: the bound is the CPU, not APF).
    const bypass = await measure(aggPort, quiet, noisy, t.seconds, undefined, apiPort);
    report('  quiet at core-api, flood via APF', bypass, 'report, the CPU share of it');
    const unfair = await measure(apiPort, quiet, noisy, t.seconds);
    report('  core-api direct (max-in-flight)', unfair, 'report, what APF changes');
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
  }
}

if (require.main === module) {
  void (async () => {
    // etcd is started on the servers' CPU (it inherits this process's), then the load generator moves to the other.
    if (PIN) execFileSync('taskset', ['-cp', '0', String(process.pid)], { stdio: 'ignore' });
    const etcd = await startEtcd();
    if (PIN) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
    try {
      const pki = await ensurePki(join(tempDir('apf-bench'), 'pki'));
      const tls: TlsClient = { ca: readFileSync(pki.caCert), cert: readFileSync(pki.adminCert), key: readFileSync(pki.adminKey) };
      await benchPriorityAndFairness({ root: resolve(__dirname, '..', '..'), etcdEndpoint: etcd.endpoint, pki, tls, seconds: Number(process.env.BENCH_SECONDS ?? 5) });
    } finally {
      await etcd.stop();
    }
  })().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
