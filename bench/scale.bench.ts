/**
 * Scale figures (issue 18, "Also measure and keep"), run with `npm run bench -- --scale` or `--only scale` (with
 * scale-replicas, scale-crs and scale-namespaces, bench/scale.*.ts) or by name; not in the default run (minutes each):
 *  - scale-watchers: 10,000 watchers of one resource, delivery of one write to all of them, straight to core-api
 *    and through the aggregator, with descriptors and RSS per watch. The watchers live in several client processes
 *    (bench/watch.clients.ts): one Node process is not enough for 10,000 TLS sockets on these machines. The
 *    servers' open-file limits are raised (prlimit); where the hard limit stops one aggregator short (two sockets
 *    per watch), all of them again through as many aggregator replicas as they need.
 *  - scale-configmaps: 100,000 ConfigMaps written straight into etcd in the server's key layout and encoding, then
 *    core-api's start-up time until /readyz, its live heap and RSS per cached object against the object's JSON
 *    size, and LIST with and without limit.
 *  - scale-crds: 1,000 CRDs: time until all are Established and in discovery, extensions' memory, the size and
 *    time of aggregated and legacy discovery.
 *  - scale-apiservices: 100 APIServices on one stub server: time until Available, discovery size and time, and a
 *    proxied GET's latency against the same GET with one APIService.
 * The issue names no targets for these but "proxy GET unaffected"; the others are reported.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { issueCertificate, loadCertificateAuthority, type PkiPaths } from '@kube/pki';
import { freePort, startEtcd, tempDir } from '@kube/testing';
import { startStubAggregatedServer } from './aggregated.stub';
import { agentFor, call, cpuMs, percentile, runLoad, warmupSeconds, type TlsClient } from './load.generator';
import { figure } from './report';
import { coreApiEnv, memoryProbe, rssBytes, startApp, stopApp, waitReady } from './servers';
import { openFiles, raiseOpenFiles, SCALE_OPEN_FILES, ScaleStack } from './scale.stack';
import type { WatchClientsMessage, WatchClientsOptions } from './watch.clients';

export interface ScaleBenchTarget {
  root: string;
  pki: PkiPaths;
  tls: TlsClient;
  seconds: number;
  /** `--quick`: a tenth of the objects or fewer. */
  quick?: boolean;
}

const WATCHERS_PER_PROCESS = 2500;
/** A count: its BENCH_SCALE_* variable, else the full run's or `--quick`'s (a few minutes for every scale figure). */
const scaleCount = (env: string, full: number, quick: number, isQuick?: boolean): number => Number(process.env[env] ?? (isQuick ? quick : full));
const AGGREGATED_DISCOVERY = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const MB = 1024 * 1024;

const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const n = (x: number): string => x.toLocaleString('en-US');

async function until(cond: () => Promise<boolean>, timeoutMs: number, everyMs = 250): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond().catch(() => false)) return true;
    await sleep(everyMs);
  }
  return false;
}

/** Time and size of `rounds` GETs of one path (one connection, after one warm-up). */
async function timeGets(port: number, tls: TlsClient, path: string, rounds: number, accept = 'application/json'): Promise<{ p50: number; max: number; bytes: number; status: number }> {
  const agent = agentFor(tls, 1);
  const get = () => call(agent, port, { method: 'GET', path, headers: { Accept: accept } });
  const first = await get();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await get();
    times.push(performance.now() - t0);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), max: times[times.length - 1] ?? NaN, bytes: Buffer.byteLength(first.body), status: first.status };
}

// ---- 10,000 watchers ----

/** How many watches fit a server's open-file limit at `socketsEach` sockets each, in thousands, leaving 2,000 spare (no limit known: any). */
const fit = (limit: number, socketsEach: number): number => (Number.isNaN(limit) ? Infinity : Math.max(1000, Math.floor((limit - 2000) / socketsEach / 1000) * 1000));

export interface FanOutResult {
  p50: number;
  p99: number;
  max: number;
  delivered: number;
  expected: number;
  /** CPU per write of the server process `serverPid` (NaN without it) and of the watchers' processes. */
  serverCpuMs: number;
  clientCpuMs: number;
  error?: string;
}

/**
 * `count` watchers of one namespace's configmaps on `port` (several ports: the watchers' processes take them in
 * turn, the writes go to the first), in processes of 2,500; delivery of `writes` writes, and the CPU the server
 * (`serverPid`, or a function summing several servers' CPU in ms) and the watchers spent per write.
 */
export async function fanOut(root: string, ports: number | readonly number[], tls: TlsClient, pki: PkiPaths, label: string, watchers: number, writes: number, serverPid?: number | (() => number), whileOpen?: () => void): Promise<FanOutResult> {
  const portList = typeof ports === 'number' ? [ports] : ports;
  const port = portList[0];
  const serverCpu = (): number => (typeof serverPid === 'function' ? serverPid() : cpuMs(serverPid));
  const admin = agentFor(tls, 2);
  const ns = `scale-watch-${label}`;
  await call(admin, port, { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: ns } }) });
  const created = await call(admin, port, { method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, body: JSON.stringify({ metadata: { name: 'start' } }) });
  const rv = (JSON.parse(created.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const processes: ChildProcess[] = [];
  const complete = new Map<string, number>();
  const arrivals: Array<[string, number[]]> = [];
  let ready = 0;
  let reports = 0;
  let failed: string | undefined;
  let clientCpu: number[] = [];
  // At least one process per port, so every port gets its share of the watchers.
  const perProcess = Math.min(WATCHERS_PER_PROCESS, Math.ceil(watchers / portList.length));
  for (let left = watchers; left > 0; left -= perProcess) {
    const options: WatchClientsOptions = { port: portList[processes.length % portList.length], path: `/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${rv}`, count: Math.min(perProcess, left), ca: pki.caCert, cert: pki.adminCert, key: pki.adminKey };
    const child = fork(join(root, 'dist/bench/watch.clients.js'), [JSON.stringify(options)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.on('message', (m: WatchClientsMessage) => {
      if ('ready' in m) ready += m.ready;
      if ('failed' in m) failed = m.failed;
      if ('complete' in m) complete.set(m.complete, (complete.get(m.complete) ?? 0) + 1);
      if ('cpuMs' in m) clientCpu.push(m.cpuMs);
      if ('arrivals' in m) {
        arrivals.push(...m.arrivals);
        reports++;
      }
    });
    processes.push(child);
  }
  const expected = watchers * writes;
  try {
    await until(async () => ready === watchers || failed !== undefined, 600_000, 100);
    if (ready !== watchers) return { p50: NaN, p99: NaN, max: NaN, delivered: 0, expected, serverCpuMs: NaN, clientCpuMs: NaN, error: `${n(ready)} of ${n(watchers)} watches opened${failed ? `: ${failed}` : ''}` };
    await sleep(1000);
    whileOpen?.();
    const cpuOfClients = async (): Promise<number> => {
      clientCpu = [];
      processes.forEach((p) => p.send('cpu'));
      await until(async () => clientCpu.length === processes.length, 60_000, 5);
      return clientCpu.reduce((a, b) => a + b, 0);
    };
    const server0 = serverCpu();
    const clients0 = await cpuOfClients();
    const started = new Map<string, number>();
    for (let w = 0; w < writes; w++) {
      const name = `fan-${w}`;
      started.set(name, nowMs());
      await call(admin, port, { method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, body: JSON.stringify({ metadata: { name } }) });
      await until(async () => complete.get(name) === processes.length, 60_000, 5);
      await sleep(200);
    }
    const serverCpuMs = (serverCpu() - server0) / writes;
    const clientCpuMs = ((await cpuOfClients()) - clients0) / writes;
    processes.forEach((p) => p.send('report'));
    await until(async () => reports === processes.length, 60_000, 20);
    const latencies: number[] = [];
    for (const [name, times] of arrivals) {
      const t0 = started.get(name);
      if (t0 !== undefined) for (const t of times) latencies.push(t - t0);
    }
    latencies.sort((a, b) => a - b);
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] ?? NaN, delivered: latencies.length, expected, serverCpuMs, clientCpuMs };
  } finally {
    processes.forEach((p) => p.connected && p.send('stop'));
    await Promise.all(processes.map((p) => (p.exitCode !== null ? undefined : new Promise((r) => p.once('exit', r)))));
    admin.destroy();
  }
}

/**
 * 10,000 watchers (`--quick` 2,500; BENCH_SCALE_WATCHERS), straight to core-api and through the aggregator. Each
 * server's open-file limit is raised first (prlimit: past the hard limit where the bench may, as root); descriptors
 * and RSS per watch are read while every watch is open.
 */
export async function benchScaleWatchers(t: ScaleBenchTarget & { apiPort: number; apiPid?: number; aggPort?: number; aggPid?: number; quick: boolean }): Promise<void> {
  const wanted = scaleCount('BENCH_SCALE_WATCHERS', 10_000, 2500, t.quick);
  const writes = t.quick ? 3 : 5;
  const apiLimit = raiseOpenFiles(t.apiPid, Math.max(SCALE_OPEN_FILES, wanted + 4096));
  const detail = (r: FanOutResult, extra: string): string =>
    r.error ?? `delivery p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms; ${n(r.delivered)} of ${n(r.expected)} deliveries; CPU per write: server ${r.serverCpuMs.toFixed(0)} ms, watchers ${r.clientCpuMs.toFixed(0)} ms; ${extra}`;
  const failure = (r: FanOutResult): string | undefined => r.error ?? (r.delivered < r.expected ? `${n(r.delivered)} of ${n(r.expected)} events delivered` : undefined);
  /** Descriptors and RSS of `pids` per watch: before, and while every watch is open. */
  const footprint = (pids: Array<number | undefined>) => {
    const fds0 = pids.map(openFiles);
    const rss0 = pids.map(rssBytes);
    const open = { fds: pids.map(() => NaN), rss: pids.map(() => NaN) };
    return {
      whileOpen: (): void => {
        open.fds = pids.map(openFiles);
        open.rss = pids.map(rssBytes);
      },
      per: (watchers: number, i: number): { fds: number; rssKiB: number } => ({ fds: (open.fds[i] - fds0[i]) / watchers, rssKiB: (open.rss[i] - rss0[i]) / watchers / 1024 }),
    };
  };
  const directWatchers = Math.min(wanted, fit(apiLimit.limit, 1));
  const apiFoot = footprint([t.apiPid]);
  const direct = await fanOut(t.root, t.apiPort, t.tls, t.pki, 'direct', directWatchers, writes, t.apiPid, apiFoot.whileOpen);
  const d = apiFoot.per(directWatchers, 0);
  console.log(
    figure(
      `WATCH ${n(directWatchers)} watchers, direct`,
      direct.p99,
      'ms',
      detail(direct, `core-api: ${d.fds.toFixed(2)} descriptors and ${d.rssKiB.toFixed(1)} KiB RSS per watch; open-file limit ${apiLimit.text}`),
      'report (p99; no target)',
      failure(direct),
    ),
  );
  if (t.aggPort === undefined) return;
  // Through the front door each watch is two sockets in the aggregator (client and backend) and one in core-api.
  const aggLimit = raiseOpenFiles(t.aggPid, Math.max(SCALE_OPEN_FILES, 2 * wanted + 4096));
  const watchers = Math.min(wanted, fit(aggLimit.limit, 2), fit(apiLimit.limit, 1));
  // The direct watchers' sockets close after their processes exit: descriptors settle first.
  await sleep(2000);
  const foot = footprint([t.aggPid, t.apiPid]);
  const proxied = await fanOut(t.root, t.aggPort, t.tls, t.pki, 'proxied', watchers, writes, t.aggPid, foot.whileOpen);
  const a = foot.per(watchers, 0);
  const b = foot.per(watchers, 1);
  const extra = `aggregator: ${a.fds.toFixed(2)} descriptors and ${a.rssKiB.toFixed(1)} KiB RSS per watch, core-api behind it ${b.fds.toFixed(2)} and ${b.rssKiB.toFixed(1)} KiB; open-file limit ${aggLimit.text}${watchers < wanted ? `: ${n(watchers)} watchers, not ${n(wanted)}` : ''}`;
  console.log(figure(`WATCH ${n(watchers)} watchers, via aggregator`, proxied.p99, 'ms', detail(proxied, extra), 'report (p99; no target)', failure(proxied)));
  if (watchers < wanted) await watchersOverReplicas(t, wanted, writes, aggLimit.limit, detail, failure);
}

/**
 * All `wanted` watchers through the front door where one aggregator's descriptor limit cannot hold them (a hard
 * limit the bench may not raise): as many aggregator replicas as their two sockets per watch need, on a stack of
 * their own (bench/scale.stack.ts), the watchers spread over them.
 */
async function watchersOverReplicas(t: ScaleBenchTarget, wanted: number, writes: number, limit: number, detail: (r: FanOutResult, extra: string) => string, failure: (r: FanOutResult) => string | undefined): Promise<void> {
  const replicas = Math.ceil(wanted / fit(limit, 2));
  const stack = await ScaleStack.start(t.root, 'watchers');
  try {
    await stack.add('core-api');
    for (let i = 0; i < replicas; i++) await stack.add('aggregator');
    const aggs = stack.of('aggregator');
    const pids = aggs.map((a) => a.pid);
    const fds0 = pids.map(openFiles);
    const rss0 = pids.map(rssBytes);
    let fds = NaN;
    let rss = NaN;
    const r = await fanOut(t.root, aggs.map((a) => a.port), stack.tls, stack.pki, 'replicas', wanted, writes, () => pids.reduce((sum: number, pid) => sum + cpuMs(pid), 0), () => {
      fds = pids.reduce((sum: number, pid, i) => sum + openFiles(pid) - fds0[i], 0) / wanted;
      rss = pids.reduce((sum: number, pid, i) => sum + rssBytes(pid) - rss0[i], 0) / wanted / 1024;
    });
    const extra = `${replicas} aggregator replicas (one holds ${n(fit(limit, 2))} at its open-file limit of ${n(limit)}, the hard limit here): ${fds.toFixed(2)} descriptors and ${rss.toFixed(1)} KiB RSS per watch in the aggregators`;
    console.log(figure(`WATCH ${n(wanted)} watchers, via ${replicas} aggregators`, r.p99, 'ms', detail(r, extra), 'report (p99; no target)', failure(r)));
  } finally {
    await stack.stop();
  }
}

// ---- 100,000 configmaps ----

export async function benchScaleConfigmaps(t: ScaleBenchTarget): Promise<void> {
  const CONFIGMAPS = scaleCount('BENCH_SCALE_CONFIGMAPS', 100_000, 10_000, t.quick);
  const etcd = await startEtcd();
  const probe = memoryProbe(t.root, join(tempDir('bench-heap'), 'core-api.json'));
  const raw = new Etcd3({ hosts: etcd.endpoint.replace('http://', ''), grpcOptions: { 'grpc.max_receive_message_length': -1 } });
  const agent = agentFor(t.tls, 1);
  let api: ChildProcess | undefined;
  const boot = async (): Promise<{ port: number; ms: number; pid?: number }> => {
    const port = await freePort();
    const t0 = performance.now();
    api = startApp(t.root, 'core-api', { ...coreApiEnv(etcd.endpoint, port, t.pki), ...probe.env }, probe.nodeArgs);
    await waitReady(port, t.tls, 600_000);
    return { port, ms: performance.now() - t0, pid: api.pid };
  };
  try {
    // An empty server first: its start-up time and live heap are the baseline.
    const empty = await boot();
    await sleep(2000);
    const mem0 = await probe.read(empty.pid);
    await call(agent, empty.port, { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: 'scale' } }) });
    const made = await call(agent, empty.port, { method: 'POST', path: '/api/v1/namespaces/scale/configmaps', body: JSON.stringify({ metadata: { name: 'template', labels: { app: 'scale' } }, data: { key: 'value', other: 'x'.repeat(200) } }) });
    if (made.status !== 201) throw new Error(`template configmap: ${made.status} ${made.body}`);
    await stopApp(api as ChildProcess);
    // What the server stored (its key layout and encoding), copied with a new name and uid per object.
    const template = JSON.parse((await raw.get('/registry/configmaps/scale/template').buffer())?.toString() ?? 'null') as { metadata: Record<string, unknown> } | null;
    if (!template) throw new Error('the template configmap is not at /registry/configmaps/scale/template');
    let storedBytes = 0;
    const s0 = performance.now();
    const TXN_OPS = 128; // etcd's default --max-txn-ops
    const batches = Array.from({ length: Math.ceil(CONFIGMAPS / TXN_OPS) }, (_, b) => b);
    const put = async (b: number): Promise<void> => {
      const success = [];
      for (let i = b * TXN_OPS; i < Math.min(CONFIGMAPS, (b + 1) * TXN_OPS); i++) {
        const value = Buffer.from(JSON.stringify({ ...template, metadata: { ...template.metadata, name: `cm-${i}`, uid: randomUUID() } }));
        storedBytes += value.length;
        success.push({ request_put: { key: Buffer.from(`/registry/configmaps/scale/cm-${i}`), value } });
      }
      await raw.kv.txn({ compare: [], success, failure: [] });
    };
    for (let i = 0; i < batches.length; i += 8) await Promise.all(batches.slice(i, i + 8).map(put));
    const seeded = performance.now() - s0;
    const count = CONFIGMAPS + 1;
    console.log(`  ${n(CONFIGMAPS)} configmaps written to etcd in ${(seeded / 1000).toFixed(1)} s (${storedBytes / CONFIGMAPS} bytes each as stored)`);

    const full = await boot();
    await sleep(2000);
    const mem1 = await probe.read(full.pid);
    console.log(figure(`core-api start-up, ${n(count)} configmaps`, full.ms / 1000, 's', `${(full.ms / 1000).toFixed(2)} s until /readyz (empty: ${(empty.ms / 1000).toFixed(2)} s)`));
    const heapPer = (mem1.heapUsed - mem0.heapUsed) / count;
    const rssPer = (mem1.rss - mem0.rss) / count;
    const jsonBytes = storedBytes / CONFIGMAPS;
    console.log(figure('  live heap per cached configmap', heapPer, 'bytes', `${heapPer.toFixed(0)} bytes vs ${jsonBytes.toFixed(0)} bytes of JSON = ${(heapPer / jsonBytes).toFixed(2)}× (heap ${(mem0.heapUsed / MB).toFixed(0)} → ${(mem1.heapUsed / MB).toFixed(0)} MiB)`));
    console.log(figure('  RSS per cached configmap', rssPer, 'bytes', `${rssPer.toFixed(0)} bytes = ${(rssPer / jsonBytes).toFixed(2)}× its JSON (RSS ${(mem0.rss / MB).toFixed(0)} → ${(mem1.rss / MB).toFixed(0)} MiB)`));

    const list = '/api/v1/namespaces/scale/configmaps';
    const timeList = async (path: string, rounds: number): Promise<{ p50: number; bytes: number; items: number }> => {
      const times: number[] = [];
      let bytes = 0;
      let items = 0;
      for (let i = 0; i < rounds; i++) {
        const t0 = performance.now();
        const r = await call(agent, full.port, { method: 'GET', path });
        times.push(performance.now() - t0);
        bytes = Buffer.byteLength(r.body);
        if (i === 0) items = (JSON.parse(r.body) as { items: unknown[] }).items.length;
      }
      times.sort((a, b) => a - b);
      return { p50: percentile(times, 50), bytes, items };
    };
    const whole = await timeList(list, 3);
    console.log(figure(`LIST ${n(count)} configmaps, no limit`, whole.p50, 'ms', `p50 ${whole.p50.toFixed(0)} ms over 3, ${(whole.bytes / MB).toFixed(1)} MiB, ${n(whole.items)} items (consistent read from the watch cache)`));
    const whole0 = await timeList(`${list}?resourceVersion=0`, 3);
    console.log(figure('  the same at resourceVersion=0', whole0.p50, 'ms', `p50 ${whole0.p50.toFixed(0)} ms over 3, ${n(whole0.items)} items`));
    const page = await timeList(`${list}?limit=500`, 20);
    console.log(figure(`LIST limit=500 of ${n(count)}, first page`, page.p50, 'ms', `p50 ${page.p50.toFixed(1)} ms over 20, ${n(page.items)} items (paged consistent reads go to etcd)`));
    const p0 = performance.now();
    let pages = 0;
    let paged = 0;
    for (let token: string | undefined = ''; token !== undefined; pages++) {
      const r = await call(agent, full.port, { method: 'GET', path: `${list}?limit=500${token ? `&continue=${encodeURIComponent(token)}` : ''}` });
      const body = JSON.parse(r.body) as { items: unknown[]; metadata: { continue?: string } };
      paged += body.items.length;
      token = body.metadata.continue || undefined;
    }
    const pagedMs = performance.now() - p0;
    console.log(figure(`  every page of 500`, pagedMs, 'ms', `${pagedMs.toFixed(0)} ms for ${pages} pages, ${n(paged)} items`));
  } finally {
    agent.destroy();
    if (api) await stopApp(api);
    raw.close();
    await etcd.stop();
  }
}

// ---- 1,000 CRDs ----

/** A CRD of the scale run: ten per group, a small schema. */
function scaleCrd(i: number): object {
  const group = `g${Math.floor(i / 10)}.crds.scale.example.com`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets${i}.${group}`, labels: { bench: 'scale' } },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: `widgets${i}`, singular: `widget${i}`, kind: `Widget${i}`, listKind: `Widget${i}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, name: { type: 'string', maxLength: 63 }, enabled: { type: 'boolean' } } } } } },
        },
      ],
    },
  };
}

async function discoveryFigures(aggPort: number, tls: TlsClient, label: string): Promise<void> {
  const aggregated = await timeGets(aggPort, tls, '/apis', 10, AGGREGATED_DISCOVERY);
  const legacy = await timeGets(aggPort, tls, '/apis', 10);
  console.log(figure(`  aggregated discovery /apis, ${label}`, aggregated.p50, 'ms', `p50 ${aggregated.p50.toFixed(2)} ms over 10, ${(aggregated.bytes / 1024).toFixed(0)} KiB (HTTP ${aggregated.status})`));
  console.log(figure(`  legacy discovery /apis, ${label}`, legacy.p50, 'ms', `p50 ${legacy.p50.toFixed(2)} ms over 10, ${(legacy.bytes / 1024).toFixed(0)} KiB (HTTP ${legacy.status})`));
}

export async function benchScaleCrds(t: ScaleBenchTarget & { aggPort: number; extPid?: number; readExtensionsMemory(): Promise<NodeJS.MemoryUsage> }): Promise<void> {
  const CRDS = scaleCount('BENCH_SCALE_CRDS', 1000, 100, t.quick);
  const agent = agentFor(t.tls, 16);
  const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  try {
    const mem0 = await t.readExtensionsMemory();
    const t0 = performance.now();
    const failures: string[] = [];
    // Creates per second over the first and the last tenth: a rate that falls as CRDs accumulate is per-CRD work
    // that grows with their number.
    const done: Array<{ count: number; at: number }> = [{ count: 0, at: t0 }];
    // Aggregated discovery while CRDs keep changing: a client must get the current document, not wait for refreshes.
    const churn = { stop: false, times: [] as number[] };
    const probe = (async () => {
      const probeAgent = agentFor(t.tls, 1);
      while (!churn.stop) {
        const p0 = performance.now();
        await call(probeAgent, t.aggPort, { method: 'GET', path: '/apis', headers: { Accept: AGGREGATED_DISCOVERY } });
        churn.times.push(performance.now() - p0);
        await sleep(50);
      }
      probeAgent.destroy();
    })();
    for (let i = 0; i < CRDS; i += 16) {
      await Promise.all(
        Array.from({ length: Math.min(16, CRDS - i) }, async (_, j) => {
          const r = await call(agent, t.aggPort, { method: 'POST', path: crds, body: JSON.stringify(scaleCrd(i + j)) });
          if (r.status !== 201) failures.push(`${r.status} ${r.body.slice(0, 200)}`);
        }),
      );
      done.push({ count: Math.min(CRDS, i + 16), at: performance.now() });
    }
    const createdMs = performance.now() - t0;
    churn.stop = true;
    await probe;
    churn.times.sort((a, b) => a - b);
    const rate = (from: { count: number; at: number }, to: { count: number; at: number }): number => ((to.count - from.count) / (to.at - from.at)) * 1000;
    const firstRate = rate(done[0], done.find((d) => d.count >= CRDS / 10) ?? done[done.length - 1]);
    const lastRate = rate([...done].reverse().find((d) => d.count <= CRDS * 0.9) ?? done[0], done[done.length - 1]);
    if (failures.length) throw new Error(`${failures.length} CRD creates failed, e.g. ${failures[0]}`);
    const established = async (): Promise<boolean> => {
      const list = JSON.parse((await call(agent, t.aggPort, { method: 'GET', path: `${crds}?labelSelector=bench%3Dscale` })).body) as { items: Array<{ status?: { conditions?: Array<{ type: string; status: string }> } }> };
      return list.items.filter((c) => c.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True')).length === CRDS;
    };
    const allEstablished = await until(established, 600_000, 500);
    const establishedMs = performance.now() - t0;
    const inDiscovery = async (): Promise<boolean> => {
      const r = await call(agent, t.aggPort, { method: 'GET', path: '/apis', headers: { Accept: AGGREGATED_DISCOVERY } });
      return (r.body.match(/"resource":"widgets\d+"/g) ?? []).length >= CRDS;
    };
    const allDiscovered = await until(inDiscovery, 600_000, 500);
    const discoveredMs = performance.now() - t0;
    await sleep(2000);
    const mem1 = await t.readExtensionsMemory();
    console.log(
      figure(`${n(CRDS)} CRDs → all Established`, allEstablished ? establishedMs / 1000 : NaN, 's', `${allEstablished ? `${(establishedMs / 1000).toFixed(1)} s` : 'not all after 600 s'} (created in ${(createdMs / 1000).toFixed(1)} s, 16 at a time: ${firstRate.toFixed(0)}/s over the first tenth, ${lastRate.toFixed(0)}/s over the last; all in aggregated discovery ${allDiscovered ? `${(discoveredMs / 1000).toFixed(1)} s` : 'never'})`),
    );
    const rssPer = (mem1.rss - mem0.rss) / CRDS;
    console.log(figure(`  extensions memory per CRD`, rssPer / 1024, 'KiB', `RSS ${(mem0.rss / MB).toFixed(0)} → ${(mem1.rss / MB).toFixed(0)} MiB = ${(rssPer / 1024).toFixed(0)} KiB per CRD; live heap ${(mem0.heapUsed / MB).toFixed(0)} → ${(mem1.heapUsed / MB).toFixed(0)} MiB = ${((mem1.heapUsed - mem0.heapUsed) / CRDS / 1024).toFixed(0)} KiB per CRD`));
    await discoveryFigures(t.aggPort, t.tls, `${n(CRDS)} CRDs`);
    const churnP50 = percentile(churn.times, 50);
    console.log(figure(`  aggregated discovery /apis while CRDs are created`, churnP50, 'ms', `p50 ${churnP50.toFixed(2)} ms, p99 ${percentile(churn.times, 99).toFixed(2)} ms over ${churn.times.length}`));
  } finally {
    agent.destroy();
  }
}

// ---- 100 APIServices ----

export async function benchScaleApiServices(t: ScaleBenchTarget & { aggPort: number }): Promise<void> {
  const APISERVICES = scaleCount('BENCH_SCALE_APISERVICES', 100, 20, t.quick);
  const ca = await loadCertificateAuthority(t.pki.caCert, t.pki.caKey);
  const serving = await issueCertificate(ca, { commonName: 'scale-stub', dnsNames: ['scale-stub.default.svc'], usage: 'server' });
  const stub = await startStubAggregatedServer(serving.certPem, serving.keyPem);
  const agent = agentFor(t.tls, 16);
  const post = async (path: string, body: object): Promise<void> => {
    const r = await call(agent, t.aggPort, { method: 'POST', path, body: JSON.stringify(body) });
    if (r.status !== 201 && r.status !== 409) throw new Error(`POST ${path}: ${r.status} ${r.body}`);
  };
  const group = (i: number): string => `g${i}.apis.scale.example.com`;
  const apiService = (i: number): object => ({
    metadata: { name: `v1.${group(i)}`, labels: { bench: 'scale' } },
    spec: { group: group(i), version: 'v1', groupPriorityMinimum: 1000, versionPriority: 15, service: { namespace: 'default', name: 'scale-stub', port: 443 }, caBundle: Buffer.from(ca.certPem).toString('base64') },
  });
  const available = (count: number) => async (): Promise<boolean> => {
    const list = JSON.parse((await call(agent, t.aggPort, { method: 'GET', path: '/apis/apiregistration.k8s.io/v1/apiservices?labelSelector=bench%3Dscale' })).body) as { items: Array<{ status?: { conditions?: Array<{ type: string; status: string }> } }> };
    return list.items.filter((s) => s.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True')).length >= count;
  };
  const path = `/apis/${group(0)}/v1/namespaces/default/things/x`;
  const get = async (): Promise<boolean> => (await call(agent, t.aggPort, { method: 'GET', path })).status === 200;
  try {
    await post('/api/v1/namespaces/default/services', { metadata: { name: 'scale-stub' }, spec: { ports: [{ name: 'https', port: 443 }] } });
    await post('/api/v1/namespaces/default/endpoints', { metadata: { name: 'scale-stub' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: stub.port }] }] });
    await post('/apis/apiregistration.k8s.io/v1/apiservices', apiService(0));
    if (!(await until(available(1), 60_000)) || !(await until(get, 60_000, 100))) throw new Error('the first scale APIService never became Available and routed');
    await runLoad(1, warmupSeconds(t.seconds), get);
    const one = await runLoad(1, t.seconds, get);
    await discoveryFigures(t.aggPort, t.tls, '1 APIService');
    const t0 = performance.now();
    for (let i = 1; i < APISERVICES; i += 16) await Promise.all(Array.from({ length: Math.min(16, APISERVICES - i) }, (_, j) => post('/apis/apiregistration.k8s.io/v1/apiservices', apiService(i + j))));
    const all = await until(available(APISERVICES), 600_000);
    const upMs = performance.now() - t0;
    const discovered = await until(async () => (await call(agent, t.aggPort, { method: 'GET', path: '/apis' })).body.split('.apis.scale.example.com"').length - 1 >= APISERVICES, 600_000);
    const discoveredMs = performance.now() - t0;
    console.log(
      figure(`${APISERVICES} APIServices → all Available`, all ? upMs / 1000 : NaN, 's', `${all ? `${(upMs / 1000).toFixed(1)} s` : 'not all after 600 s'}; all in discovery ${discovered ? `${(discoveredMs / 1000).toFixed(1)} s` : 'never'}`),
    );
    await discoveryFigures(t.aggPort, t.tls, `${APISERVICES} APIServices`);
    await runLoad(1, warmupSeconds(t.seconds), get);
    const many = await runLoad(1, t.seconds, get);
    const ratio = many.p50ms / one.p50ms;
    console.log(
      figure(`  proxied GET, ${APISERVICES} APIServices vs 1`, ratio, '×', `p50 ${many.p50ms.toFixed(2)} ms (p99 ${many.p99ms.toFixed(2)}) vs ${one.p50ms.toFixed(2)} ms (p99 ${one.p99ms.toFixed(2)}) with one; errors ${many.errors}`, '≤ 1.2× (unaffected)'),
    );
  } finally {
    agent.destroy();
    stub.close();
  }
}
