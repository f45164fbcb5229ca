/**
 * API Priority and Fairness: one noisy user floods LIST (one flow, far more requests in flight than its priority
 * level has seats) while a quiet user GETs one configmap on one connection, both through the front door. The
 * figure is the quiet user's p99 under noise against its own unloaded p99 in the same run (target ≤ 2×); the same
 * pair measured straight at core-api (max-in-flight, no fairness) shows what APF changes.
 * The profile line says where the time goes under noise: the seats APF let the level have (borrowing), what a
 * LIST was estimated at, the mean wait in APF's queues, and the CPU each process spent per noisy LIST and per
 * second (2.0 s/s is both cores).
 * The quiet user's client has its own event loop (a worker thread), and alone and under noise alternate in slices
 * of the run (APF_BENCH_ROUNDS, default 5), so both sides of the ratio see the same machine.
 * Run alone: `npm run build && node dist/bench/apf.bench.js` (BENCH_SECONDS, default 5). APF_BENCH_PIN=1 runs the
 * servers on CPU 0 and the load generator and etcd on CPU 1 (taskset), so the client's own work cannot delay the
 * servers; APF_BENCH_PIN=front-door gives the aggregator CPU 0 alone.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { ensurePki, issueCertificate, loadCertificateAuthority, type PkiPaths } from '@kube/pki';
import { freePort, startEtcd, tempDir } from '@kube/testing';
import type { Agent } from 'node:https';
import { agentFor, call, cpuMs, percentile, runLoad, runQueueWaitMs, warmupSeconds, type LoadResult, type TlsClient } from './load.generator';
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
/**
 * The quiet user's own FlowSchema, at global-default like everyone's: APF treats it as before (same level, same
 * seats, its own flow), and its wait metrics then show the quiet user's time in APF's queues apart.
 */
const QUIET_FLOW_SCHEMA = 'apf-bench-quiet';
const LISTED = 200;

/**
 * The quiet user's client runs on its own event loop (a worker thread), as a real second user would: on the
 * noisy client's loop its GETs' responses waited behind the flood's LIST bodies being read, which is the load
 * generator's latency, not the servers'. APF_BENCH_SHARED_CLIENT=1 puts it back on the noisy client's loop.
 */
const QUIET_IN_WORKER = process.env.APF_BENCH_SHARED_CLIENT !== '1';

interface QuietJob {
  apfQuiet: true;
  tls: TlsClient;
  port: number;
}

/** A quiet run's latencies (ms, in order) and errors: phases are pooled before their percentiles are taken. */
interface QuietRun {
  latencies: number[];
  errors: number;
}

/** The quiet user's GET loop for `seconds` at concurrency 1 on `agent`. */
async function quietLoad(port: number, seconds: number, agent: Agent): Promise<QuietRun> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const t0 = performance.now();
    const ok = await call(agent, port, { method: 'GET', path: '/api/v1/namespaces/apf-bench/configmaps/quiet' }).then((r) => r.status === 200, () => false);
    latencies.push(performance.now() - t0);
    if (!ok) errors++;
  }
  return { latencies, errors };
}

/** A worker running the quiet user's loop: each message (seconds) runs it once and answers the QuietRun. */
class QuietClient {
  private readonly worker: Worker;
  constructor(tls: TlsClient, port: number) {
    this.worker = new Worker(__filename, { workerData: { apfQuiet: true, tls, port } satisfies QuietJob });
  }
  run(seconds: number): Promise<QuietRun> {
    return new Promise((resolve, reject) => {
      const done = (r: QuietRun): void => {
        this.worker.off('error', failed);
        resolve(r);
      };
      const failed = (err: Error): void => {
        this.worker.off('message', done);
        reject(err);
      };
      this.worker.once('message', done);
      this.worker.once('error', failed);
      this.worker.postMessage(seconds);
    });
  }
  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * Alone and under noise alternate in APF_BENCH_ROUNDS slices (default 5) of the run, and each side's latencies
 * are pooled: on a machine other work also loads, both sides then see the same background, where one 5 s block
 * after the other compared two different machines.
 */
const ROUNDS = Math.max(1, Number(process.env.APF_BENCH_ROUNDS ?? 5));

function summary(run: QuietRun, seconds: number): LoadResult {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  return { requests: sorted.length, errors: run.errors, seconds, rps: sorted.length / seconds, p50ms: percentile(sorted, 50), p99ms: percentile(sorted, 99) };
}

/**
 * APF_BENCH_PIN=1: servers on CPU 0, this process (the load generator) and etcd on CPU 1.
 * APF_BENCH_PIN=front-door: the aggregator alone on CPU 0, core-api, etcd and the load generator on CPU 1: the
 * nearest a 2-core machine comes to a core for the process that runs APF.
 */
const PIN_MODE = process.env.APF_BENCH_PIN === '1' ? 'servers' : process.env.APF_BENCH_PIN === 'front-door' ? 'front-door' : undefined;
const PIN = PIN_MODE !== undefined;
const SERVER_CPU = (app: string): string => (PIN_MODE === 'front-door' && app !== 'aggregator' ? '1' : '0');
/** Where this process (the load generator) and etcd run. */
const CLIENT_CPU = '1';
const PIN_DETAIL = PIN_MODE === 'front-door' ? ' (aggregator alone on CPU 0; core-api, etcd and client on CPU 1)' : ' (servers on CPU 0, client and etcd on CPU 1)';

function start(root: string, app: string, env: NodeJS.ProcessEnv): ChildProcess {
  const main = join(root, `dist/apps/${app}/src/main.js`);
  const [cmd, args] = PIN ? ['taskset', ['-c', SERVER_CPU(app), process.execPath, main]] : [process.execPath, [main]];
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return child;
}

/** A histogram's cumulative bucket counts (by `le`) summed over the series whose labels include `match`. */
function bucketsOf(text: string, name: string, match: Record<string, string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}_bucket{`) || !Object.entries(match).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    const le = /le="([^"]+)"/.exec(line)?.[1];
    if (le) out.set(le, (out.get(le) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return out;
}

/** The upper bound (seconds) of the first bucket holding quantile `q` of cumulative `buckets`; NaN when empty. */
function bucketQuantile(buckets: Map<string, number>, q: number): number {
  const sorted = [...buckets].map(([le, n]) => [le === '+Inf' ? Infinity : Number(le), n] as const).sort((a, b) => a[0] - b[0]);
  const total = sorted.at(-1)?.[1] ?? 0;
  if (!total) return NaN;
  return sorted.find(([, n]) => n >= q * total)?.[0] ?? NaN;
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
  /** The quiet user's own requests (a FlowSchema of their own at the same level): mean and 99th-bucket APF wait. */
  quietMeanWaitMs: number;
  quietP99WaitMs: number;
  /**
   * CPU ms per noisy LIST and CPU seconds per second, by process; and the ms per second its event loop (main
   * thread) was runnable but waiting for a core: the latency CPU contention adds, which APF does not see.
   */
  cpu: Array<{ name: string; msPerList: number; perSecond: number; waitMsPerSecond: number }>;
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
  const quietAgent = QUIET_IN_WORKER ? undefined : agentFor(quiet, 1);
  const worker = QUIET_IN_WORKER ? new QuietClient(quiet, quietPort) : undefined;
  const get = (s: number): Promise<QuietRun> => (worker ? worker.run(s) : quietLoad(quietPort, s, quietAgent as Agent));
  const noisyAgent = agentFor(noisy, NOISY_CONCURRENCY);
  const list = async (): Promise<boolean> => (await call(noisyAgent, port, { method: 'GET', path: '/api/v1/namespaces/apf-bench/configmaps' })).status === 200;
  try {
    await get(warmupSeconds(seconds));
    await runLoad(NOISY_CONCURRENCY, warmupSeconds(seconds), list);
    const alone: QuietRun = { latencies: [], errors: 0 };
    const underNoise: QuietRun = { latencies: [], errors: 0 };
    const noise = { requests: 0, errors: 0, seconds: 0 };
    const slice = seconds / ROUNDS;
    for (let i = 0; i < ROUNDS; i++) {
      const a = await get(slice);
      alone.latencies.push(...a.latencies);
      alone.errors += a.errors;
      const [q, n] = await during(() => Promise.all([get(slice), runLoad(NOISY_CONCURRENCY, slice, list)]));
      underNoise.latencies.push(...q.latencies);
      underNoise.errors += q.errors;
      noise.requests += n.requests;
      noise.errors += n.errors;
      noise.seconds += n.seconds;
    }
    return { alone: summary(alone, seconds), underNoise: summary(underNoise, seconds), noise: { ...noise, rps: noise.requests / noise.seconds, p50ms: 0, p99ms: 0 } };
  } finally {
    quietAgent?.destroy();
    noisyAgent.destroy();
    await worker?.close();
  }
}

function report(name: string, m: { alone: LoadResult; underNoise: LoadResult; noise: LoadResult }, target: string): void {
  const ratio = m.underNoise.p99ms / m.alone.p99ms;
  const detail = `quiet GET p99 ${m.underNoise.p99ms.toFixed(2)} ms under noise vs ${m.alone.p99ms.toFixed(2)} ms alone = ${ratio.toFixed(2)}× (noisy LIST ${m.noise.rps.toFixed(0)} req/s, ${m.noise.errors} refused; quiet errors ${m.underNoise.errors})`;
  console.log(figure(name, ratio, '×', detail, target));
}

export async function benchPriorityAndFairness(t: ApfBenchTarget): Promise<void> {
  const ca = await loadCertificateAuthority(t.pki.caCert, t.pki.caKey);
  const client = async (user: string, organizations: string[] = []): Promise<TlsClient> => {
    const c = await issueCertificate(ca, { commonName: user, organizations, usage: 'client' });
    return { ca: t.tls.ca, cert: Buffer.from(c.certPem), key: Buffer.from(c.keyPem) };
  };
  const [quiet, noisy] = [await client('quiet'), await client('noisy')];
  // The same quiet user in system:masters: kube's `exempt` FlowSchema, never queued or limited by APF.
  const exempt = await client('quiet-exempt', ['system:masters']);
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
    const flowSchema = {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name: QUIET_FLOW_SCHEMA },
      spec: {
        priorityLevelConfiguration: { name: 'global-default' },
        matchingPrecedence: 8000,
        distinguisherMethod: { type: 'ByUser' },
        rules: [{ subjects: [{ kind: 'User', user: { name: 'quiet' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }],
      },
    };
    await call(admin, apiPort, { method: 'POST', path: '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas', body: JSON.stringify(flowSchema) });
    admin.destroy();
    const metricsAgent = agentFor(t.tls, 1);
    const scrape = async (): Promise<string> => (await call(metricsAgent, aggPort, { method: 'GET', path: '/metrics' })).body;
    const pids = [
      { name: 'bench', pid: process.pid },
      { name: 'aggregator', pid: children[1].pid },
      { name: 'core-api', pid: api.pid },
    ];
    let profile: NoiseProfile | undefined;
    // The noisy slices' APF figures and CPU by process (metrics and /proc read before and after each, summed).
    const gd = { priority_level: 'global-default' };
    const sums = { seats: 0, estimates: 0, waitSeconds: 0, waits: 0, quietWaitSeconds: 0, quietWaits: 0, quietBuckets: new Map<string, number>(), lists: 0, elapsed: 0, cpu: pids.map(() => 0), runQueue: pids.map(() => 0) };
    const quietFs = { flow_schema: QUIET_FLOW_SCHEMA, execute: 'true' };
    const profiled = async <T>(phase: () => Promise<T>): Promise<T> => {
      const m0 = await scrape();
      const cpu0 = pids.map((p) => cpuMs(p.pid));
      const rq0 = pids.map((p) => runQueueWaitMs(p.pid));
      const t0 = performance.now();
      const result = await phase();
      sums.elapsed += (performance.now() - t0) / 1000;
      const cpu1 = pids.map((p) => cpuMs(p.pid));
      const rq1 = pids.map((p) => runQueueWaitMs(p.pid));
      const m1 = await scrape();
      const delta = (name: string, labels: Record<string, string>): number => metricSum(m1, name, labels) - metricSum(m0, name, labels);
      sums.lists += (result as unknown as [QuietRun, LoadResult])[1].requests;
      sums.seats += delta('apiserver_flowcontrol_work_estimated_seats_sum', gd);
      sums.estimates += delta('apiserver_flowcontrol_work_estimated_seats_count', gd);
      sums.waitSeconds += delta('apiserver_flowcontrol_request_wait_duration_seconds_sum', { ...gd, execute: 'true' });
      sums.waits += delta('apiserver_flowcontrol_request_wait_duration_seconds_count', { ...gd, execute: 'true' });
      sums.quietWaitSeconds += delta('apiserver_flowcontrol_request_wait_duration_seconds_sum', quietFs);
      sums.quietWaits += delta('apiserver_flowcontrol_request_wait_duration_seconds_count', quietFs);
      for (const [le, n] of bucketsOf(m1, 'apiserver_flowcontrol_request_wait_duration_seconds', quietFs)) {
        sums.quietBuckets.set(le, (sums.quietBuckets.get(le) ?? 0) + n - (bucketsOf(m0, 'apiserver_flowcontrol_request_wait_duration_seconds', quietFs).get(le) ?? 0));
      }
      pids.forEach((_, i) => {
        sums.cpu[i] += cpu1[i] - cpu0[i];
        sums.runQueue[i] += rq1[i] - rq0[i];
      });
      const lists = Math.max(1, sums.lists);
      profile = {
        currentLimitSeats: metricSum(m1, 'apiserver_flowcontrol_current_limit_seats', gd),
        estimatedSeatsPerRequest: sums.seats / Math.max(1, sums.estimates),
        meanWaitMs: (1000 * sums.waitSeconds) / Math.max(1, sums.waits),
        quietMeanWaitMs: (1000 * sums.quietWaitSeconds) / Math.max(1, sums.quietWaits),
        quietP99WaitMs: 1000 * bucketQuantile(sums.quietBuckets, 0.99),
        cpu: pids.map((p, i) => ({ name: p.name, msPerList: sums.cpu[i] / lists, perSecond: sums.cpu[i] / 1000 / sums.elapsed, waitMsPerSecond: sums.runQueue[i] / sums.elapsed })),
      };
      return result;
    };
    const fair = await measure(aggPort, quiet, noisy, t.seconds, profiled);
    metricsAgent.destroy();
    report('APF: quiet user vs LIST flood', fair, '≤ 2×');
    if (profile) {
      const p = profile;
      const cpu = p.cpu.map((c) => `${c.name} ${c.msPerList.toFixed(2)} ms/LIST ${c.perSecond.toFixed(2)} s/s, waiting for a core ${c.waitMsPerSecond.toFixed(0)} ms/s`).join('; ');
      console.log(
        figure(
          '  profile under noise',
          p.meanWaitMs,
          'ms',
          `global-default ${p.currentLimitSeats} seats (borrowed), ${p.estimatedSeatsPerRequest.toFixed(2)} seats/request estimated, mean APF wait ${p.meanWaitMs.toFixed(2)} ms (the quiet user's: mean ${p.quietMeanWaitMs.toFixed(2)} ms, 99% within ${p.quietP99WaitMs.toFixed(0)} ms); CPU: ${cpu}${PIN ? PIN_DETAIL : ''}`,
        ),
      );
    }
    // The quiet user straight at core-api while the flood still goes through APF: what the servers' shared CPU
    // costs it with no queue of APF's in its way (close to the figure above: the bound is the CPU, not APF).
    const bypass = await measure(aggPort, quiet, noisy, t.seconds, undefined, apiPort);
    report('  quiet at core-api, flood via APF', bypass, 'report, the CPU share of it');
    // The quiet user exempt from APF, still through the front door: no queue and no seat limit in its way, so
    // what remains over the line above is the front door's share of the CPU, not fairness.
    const unqueued = await measure(aggPort, exempt, noisy, t.seconds);
    report('  quiet exempt from APF, via front door', unqueued, 'report, APF\'s own share is the difference to the first line');
    const unfair = await measure(apiPort, quiet, noisy, t.seconds);
    report('  core-api direct (max-in-flight)', unfair, 'report, what APF changes');
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
  }
}

if (!isMainThread && (workerData as QuietJob | undefined)?.apfQuiet) {
  const job = workerData as QuietJob;
  const tls: TlsClient = { ca: Buffer.from(job.tls.ca), cert: Buffer.from(job.tls.cert), key: Buffer.from(job.tls.key) };
  const agent = agentFor(tls, 1);
  parentPort?.on('message', (seconds: number) => void quietLoad(job.port, seconds, agent).then((r) => parentPort?.postMessage(r)));
} else if (require.main === module) {
  void (async () => {
    // etcd inherits this process's CPU: the load generator's, away from the servers (the front door's, at least).
    if (PIN) execFileSync('taskset', ['-cp', CLIENT_CPU, String(process.pid)], { stdio: 'ignore' });
    const etcd = await startEtcd();
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
