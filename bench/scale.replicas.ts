/**
 * `scale-replicas`: what a second replica of core-api and of the aggregator buys: two stacks side by side
 * (bench/scale.stack.ts: every replica announces itself over NATS, each aggregator spreads requests over every
 * announced core-api), one with 1 replica of each and one with 2. GET and CREATE of configmaps and a watch fan-out,
 * driven at every front door of a stack in turn with the same requests in flight per replica, the stacks taking turns over several rounds (medians): req/s, and
 * the CPU per request of every server process summed (core-api and aggregator replicas, and by service; etcd's
 * apart). On one machine replicas share its cores with each other and with the load
 * generator, so throughput shows the machine's limit more than the replicas'. Saturated, four servers time-slice
 * two cores where two did and each event-loop turn batches fewer requests, so CPU per request grows with the
 * contention; paced runs (the same requests per second per replica, open loop, below saturation) show what
 * replication itself costs: the target is 2 replicas within 10% of 1 (no hidden coordination cost).
 * Then the same with the servers pinned (taskset) away from the load generator, etcd, NATS and the watchers: each
 * server its own core where the machine has enough, else the servers together on the cores left.
 */
import { cpus } from 'node:os';
import type { PkiPaths } from '@kube/pki';
import { agentFor, call, cpuMs, runLoad, runPaced, type LoadResult, type TlsClient } from './load.generator';
import type { Agent } from 'node:https';
import { figure } from './report';
import { fanOut, type FanOutResult } from './scale.bench';
import { pin, ScaleStack } from './scale.stack';

export interface ScaleReplicasOptions {
  root: string;
  seconds: number;
  /** Seconds of load before a measured run (JIT, connections): longer for newly started processes. */
  settle: number;
  quick: boolean;
}

const WATCHERS = Number(process.env.BENCH_SCALE_REPLICA_WATCHERS ?? 1000);
/** Requests in flight per front door (per replica) for the GET and CREATE runs. */
const GET_IN_FLIGHT = 32;
const CREATE_IN_FLIGHT = 64;
const NS = 'scale-replicas';
/**
 * Requests per second each replica gets in the paced runs: well under what one serves here (≈ 1,500 GET/s and
 * 600 CREATE/s through the front door), so no process saturates and a replica's work per second is the same in
 * both stacks; what its CPU per request then adds up to is the cost of replication itself.
 */
const PACED_GET_PER_REPLICA = Number(process.env.BENCH_SCALE_PACED_GET ?? 300);
const PACED_CREATE_PER_REPLICA = Number(process.env.BENCH_SCALE_PACED_CREATE ?? 100);

interface Throughput extends LoadResult {
  /** CPU of every API server process summed, per request (µs). */
  cpuUs: number;
  /** The same by service (every replica of it), for the scaling model. */
  aggregatorCpuUs: number;
  coreApiCpuUs: number;
  etcdCpuUs: number;
}

interface Measured {
  get: Throughput;
  /** GET at resourceVersion=0: from the watch cache without waiting for it to reach etcd's revision. */
  getCached: Throughput;
  create: Throughput;
  watch: FanOutResult;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Requests a server has counted so far (apiserver_request_total summed). */
async function requestsCounted(port: number, tls: TlsClient): Promise<number> {
  const agent = agentFor(tls, 1);
  try {
    const text = (await call(agent, port, { method: 'GET', path: '/metrics', headers: { Accept: 'text/plain' } })).body;
    let sum = 0;
    for (const m of text.matchAll(/^apiserver_request_total\{[^}]*\} (\S+)$/gm)) sum += Number(m[1]);
    return sum;
  } finally {
    agent.destroy();
  }
}

/** Waits until every aggregator spreads GETs over every core-api (their announcements arrived). */
async function awaitSpread(stack: ScaleStack): Promise<boolean> {
  const agent = agentFor(stack.tls, 8);
  const apis = stack.of('core-api');
  try {
    const deadline = Date.now() + 120_000;
    for (const agg of stack.of('aggregator')) {
      for (;;) {
        if (Date.now() > deadline) return false;
        const before = await Promise.all(apis.map((a) => requestsCounted(a.port, stack.tls)));
        await Promise.all(Array.from({ length: 40 }, () => call(agent, agg.port, { method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps/bench` })));
        const after = await Promise.all(apis.map((a) => requestsCounted(a.port, stack.tls)));
        // Each of 40 GETs lands on one core-api; a share of at least 5 each means round robin reached them all.
        if (after.every((n, i) => n - before[i] >= 5)) break;
        await sleep(500);
      }
    }
    return true;
  } finally {
    agent.destroy();
  }
}

type Next = (i: number) => Promise<boolean>;

/** The requests the figures make, spread round robin over the front doors `ports`. */
function requestsFor(ports: number[], agent: Agent): { getAt: (query: string) => Next; create: (prefix: string) => Next } {
  return {
    getAt: (query) => async (i) => (await call(agent, ports[i % ports.length], { method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps/bench${query}` })).status === 200,
    create: (prefix) => async (i) =>
      (await call(agent, ports[i % ports.length], { method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`, body: JSON.stringify({ metadata: { name: `${prefix}-${i}` }, data: { key: 'value', other: 'x'.repeat(200) } }) })).status === 201,
  };
}

/** `load` on `stack`, with the CPU every server process (by service) and etcd spent per request during it. */
async function throughputOf(stack: ScaleStack, load: () => Promise<LoadResult>): Promise<Throughput> {
  const agg0 = stack.serversCpuMs('aggregator');
  const api0 = stack.serversCpuMs('core-api');
  const etcd0 = cpuMs(stack.etcdPid);
  const r = await load();
  const per = (ms: number): number => (ms * 1000) / Math.max(1, r.requests);
  const aggregatorCpuUs = per(stack.serversCpuMs('aggregator') - agg0);
  const coreApiCpuUs = per(stack.serversCpuMs('core-api') - api0);
  return { ...r, cpuUs: aggregatorCpuUs + coreApiCpuUs, aggregatorCpuUs, coreApiCpuUs, etcdCpuUs: per(cpuMs(stack.etcdPid) - etcd0) };
}

/** GET, CREATE and watch fan-out through every aggregator of the stack, as it is now. */
async function measure(stack: ScaleStack, o: ScaleReplicasOptions, label: string): Promise<Measured> {
  const ports = stack.of('aggregator').map((s) => s.port);
  const agent = agentFor(stack.tls, CREATE_IN_FLIGHT * ports.length);
  const { getAt, create } = requestsFor(ports, agent);
  const get = getAt('');
  const measured = (concurrency: number, next: Next): Promise<Throughput> => throughputOf(stack, () => runLoad(concurrency, o.seconds, next));
  // The same load per replica (GET_IN_FLIGHT and CREATE_IN_FLIGHT at each front door, so at each core-api): a
  // replica given half the requests batches half as many per event-loop turn and its CPU per request then shows
  // the thinner load, not a cost of replication.
  const n = ports.length;
  try {
    await runLoad(GET_IN_FLIGHT * n, o.settle, get);
    const g = await measured(GET_IN_FLIGHT * n, get);
    const g0 = await measured(GET_IN_FLIGHT * n, getAt('?resourceVersion=0'));
    await runLoad(CREATE_IN_FLIGHT * n, o.settle, create(`${label}-warm`));
    const c = await measured(CREATE_IN_FLIGHT * n, create(label));
    const w = await fanOut(o.root, ports, stack.tls, stack.pki as PkiPaths, label, WATCHERS, o.quick ? 3 : 5, () => stack.serversCpuMs());
    return { get: g, getCached: g0, create: c, watch: w };
  } finally {
    agent.destroy();
  }
}

type Paced = Pick<Measured, 'get' | 'getCached' | 'create'>;

/** GET, GET rv=0 and CREATE through every aggregator at the same rate per replica (open loop, below saturation). */
async function measurePaced(stack: ScaleStack, o: ScaleReplicasOptions, label: string): Promise<Paced> {
  const ports = stack.of('aggregator').map((s) => s.port);
  const n = ports.length;
  const agent = agentFor(stack.tls, 256 * n);
  const { getAt, create } = requestsFor(ports, agent);
  const paced = (rate: number, next: Next): Promise<Throughput> => throughputOf(stack, () => runPaced(rate * n, o.seconds * 2, next, 2048));
  try {
    // A new agent: its connections' TLS handshakes first, so they are not in the measured latencies.
    await runPaced(PACED_GET_PER_REPLICA * n, 1, getAt(''), 2048);
    const get = await paced(PACED_GET_PER_REPLICA, getAt(''));
    const getCached = await paced(PACED_GET_PER_REPLICA, getAt('?resourceVersion=0'));
    const created = await paced(PACED_CREATE_PER_REPLICA, create(label));
    return { get, getCached, create: created };
  } finally {
    agent.destroy();
  }
}

/**
 * Servers on their own cores, the rest (this process, hence the watchers it forks, etcd, NATS) on CPU 0. Returns
 * how, for the figures, or undefined on a single core or where taskset is refused.
 */
function pinAway(stacks: ScaleStack[]): string | undefined {
  const n = cpus().length;
  if (n < 2) return undefined;
  const rest = [process.pid, ...stacks.flatMap((s) => [s.etcdPid, s.natsPid])].every((pid) => pin(pid, '0'));
  const servers = stacks.flatMap((s) => s.servers.filter((x) => x.part !== 'controller-manager'));
  const own = servers.length <= n - 1;
  const placed = servers.every((s, i) => pin(s.pid, own ? String(1 + i) : `1-${n - 1}`));
  if (!rest || !placed) return undefined;
  return own ? `each server on a core of its own (CPUs 1-${n - 1}); load generator, watchers, etcd and NATS on CPU 0` : `the servers sharing CPU${n > 2 ? `s 1-${n - 1}` : ' 1'}; load generator, watchers, etcd and NATS on CPU 0`;
}

function unpin(stacks: ScaleStack[]): void {
  const all = `0-${cpus().length - 1}`;
  for (const stack of stacks) for (const pid of [process.pid, stack.etcdPid, stack.natsPid, ...stack.servers.map((s) => s.pid)]) pin(pid, all);
}

const median = (xs: number[]): number => {
  const sorted = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  // An even count: the mean of the middle two.
  return sorted.length ? (sorted[Math.floor((sorted.length - 1) / 2)] + sorted[Math.ceil((sorted.length - 1) / 2)]) / 2 : NaN;
};

/** Field by field, the median of runs (requests, errors and seconds summed). */
function medianThroughput(rs: Throughput[]): Throughput {
  const med = (f: (r: Throughput) => number): number => median(rs.map(f));
  return {
    requests: rs.reduce((a, r) => a + r.requests, 0),
    errors: rs.reduce((a, r) => a + r.errors, 0),
    seconds: rs.reduce((a, r) => a + r.seconds, 0),
    rps: med((r) => r.rps),
    p50ms: med((r) => r.p50ms),
    p99ms: med((r) => r.p99ms),
    cpuUs: med((r) => r.cpuUs),
    aggregatorCpuUs: med((r) => r.aggregatorCpuUs),
    coreApiCpuUs: med((r) => r.coreApiCpuUs),
    etcdCpuUs: med((r) => r.etcdCpuUs),
  };
}

/** Field by field, the median over rounds (errors and deliveries summed): one noisy round moves nothing. */
function medianOf(ms: Measured[]): Measured {
  const t = (pick: (m: Measured) => Throughput): Throughput => medianThroughput(ms.map(pick));
  const ws = ms.map((m) => m.watch);
  const wmed = (f: (w: FanOutResult) => number): number => median(ws.map(f));
  return {
    get: t((m) => m.get),
    getCached: t((m) => m.getCached),
    create: t((m) => m.create),
    watch: {
      p50: wmed((w) => w.p50),
      p99: wmed((w) => w.p99),
      max: Math.max(...ws.map((w) => w.max)),
      delivered: ws.reduce((a, w) => a + w.delivered, 0),
      expected: ws.reduce((a, w) => a + w.expected, 0),
      serverCpuMs: wmed((w) => w.serverCpuMs),
      clientCpuMs: wmed((w) => w.clientCpuMs),
      error: ws.find((w) => w.error)?.error,
    },
  };
}

const us = (x: number): string => `${x.toFixed(0)} µs`;

function printOne(label: string, m: Measured): void {
  const t = (name: string, r: Throughput): string => {
    const errored = r.errors ? `${r.errors} of ${r.requests} requests errored` : undefined;
    return figure(`SCALE ${name}, ${label}`, r.cpuUs, 'µs/req', `${r.rps.toFixed(0).padStart(6)} req/s (p50 ${r.p50ms.toFixed(2)} ms, p99 ${r.p99ms.toFixed(2)} ms, errors ${r.errors}); servers' CPU ${us(r.cpuUs)}/req (aggregator ${us(r.aggregatorCpuUs)}, core-api ${us(r.coreApiCpuUs)}; busy ${((r.cpuUs * r.rps) / 1000).toFixed(0)} ms/s), etcd ${us(r.etcdCpuUs)}/req`, 'report', errored);
  };
  console.log(t('GET', m.get));
  console.log(t('GET rv=0', m.getCached));
  console.log(t('CREATE', m.create));
  const w = m.watch;
  const wErr = w.error ?? (w.delivered < w.expected ? `${w.delivered} of ${w.expected} events delivered` : undefined);
  console.log(figure(`SCALE WATCH ${WATCHERS.toLocaleString('en-US')}, ${label}`, w.serverCpuMs, 'ms/write', w.error ?? `delivery p50 ${w.p50.toFixed(1)} ms, p99 ${w.p99.toFixed(1)} ms; servers' CPU ${w.serverCpuMs.toFixed(0)} ms per write to all (${((w.serverCpuMs * 1000) / WATCHERS).toFixed(0)} µs per event delivered)`, 'report', wErr));
}

/**
 * The scaling model (docs/architecture.md, "Scaling model"): a Node process uses at most one core, so each service
 * serves at most replicas / (its CPU per request) requests per second, etcd cores / its own; the path's ceiling is
 * the least of them, and the service it belongs to saturates first.
 */
function model(label: string, m: Measured): void {
  const line = (name: string, r: Throughput): string => {
    const ceilings = [
      ['aggregator', 1e6 / r.aggregatorCpuUs],
      ['core-api', 1e6 / r.coreApiCpuUs],
      ['etcd', 1e6 / r.etcdCpuUs],
    ] as const;
    const first = [...ceilings].sort((a, b) => a[1] - b[1])[0];
    return `${name}: per core ${ceilings.map(([s, c]) => `${s} ${c.toFixed(0)}`).join(', ')} req/s → ${first[0]} saturates first; N cores with every process busy ≈ N × ${(1e6 / (r.aggregatorCpuUs + r.coreApiCpuUs + r.etcdCpuUs)).toFixed(0)} req/s`;
  };
  console.log(`  model (${label}): ${line('GET', m.get)}; ${line('CREATE', m.create)}`);
}

/** One request kind, 2 replicas' CPU per request against 1's. */
function comparePair(name: string, label: string, a: Throughput, b: Throughput, target: string): void {
  const cpu = (b.cpuUs / a.cpuUs) * 100;
  const errored = a.errors + b.errors ? `${a.errors + b.errors} requests errored` : undefined;
  console.log(
    figure(
      `SCALE ${name} CPU/req, 2 replicas vs 1${label}`,
      cpu,
      '%',
      `${us(b.cpuUs)} vs ${us(a.cpuUs)} per request (aggregator ${us(b.aggregatorCpuUs)} vs ${us(a.aggregatorCpuUs)}, core-api ${us(b.coreApiCpuUs)} vs ${us(a.coreApiCpuUs)}) → ${cpu.toFixed(0)}% (scaling efficiency ${((a.cpuUs / b.cpuUs) * 100).toFixed(0)}%); throughput ${b.rps.toFixed(0)} vs ${a.rps.toFixed(0)} req/s = ×${(b.rps / a.rps).toFixed(2)}, p99 ${b.p99ms.toFixed(1)} vs ${a.p99ms.toFixed(1)} ms`,
      target,
      errored,
    ),
  );
}

/**
 * Saturated (the same requests in flight per replica): on shared cores four servers time-slice where two did,
 * each event-loop turn batches fewer requests, and CPU per request grows with the contention; reported beside
 * the paced figures, which carry the target.
 */
const SATURATED = 'report (saturated: contention, see the paced figure)';

/** 2 replicas against 1, saturated: CPU per request and throughput. */
function compare(label: string, one: Measured, two: Measured): void {
  const pair = (name: string, a: Throughput, b: Throughput): void => comparePair(name, label, a, b, SATURATED);
  pair('GET', one.get, two.get);
  pair('GET rv=0', one.getCached, two.getCached);
  pair('CREATE', one.create, two.create);
  const w1 = one.watch;
  const w2 = two.watch;
  const cpu = (w2.serverCpuMs / w1.serverCpuMs) * 100;
  console.log(
    figure(
      `SCALE WATCH CPU/write, 2 replicas vs 1${label}`,
      cpu,
      '%',
      w1.error || w2.error ? (w1.error ?? w2.error ?? '') : `${w2.serverCpuMs.toFixed(0)} vs ${w1.serverCpuMs.toFixed(0)} ms per write to ${WATCHERS.toLocaleString('en-US')} watchers → ${cpu.toFixed(0)}%; delivery p99 ${w2.p99.toFixed(1)} vs ${w1.p99.toFixed(1)} ms`,
      '≤ 110% of 1 replica',
      w1.error ?? w2.error,
    ),
  );
}

/**
 * What a write costs a replica that did not take it: CREATEs straight to the first core-api of `stack`, the CPU of
 * the second per write (its watch cache ingesting the event from its own etcd watch) against the first's.
 */
async function followerCost(stack: ScaleStack, o: ScaleReplicasOptions): Promise<void> {
  const [writer, follower] = stack.of('core-api');
  const agent = agentFor(stack.tls, 64);
  const create =
    (prefix: string) =>
    async (i: number): Promise<boolean> =>
      (await call(agent, writer.port, { method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`, body: JSON.stringify({ metadata: { name: `${prefix}-${i}` }, data: { key: 'value', other: 'x'.repeat(200) } }) })).status === 201;
  try {
    await runLoad(64, o.settle, create('follow-warm'));
    const w0 = cpuMs(writer.pid);
    const f0 = cpuMs(follower.pid);
    const r = await runLoad(64, o.seconds, create('follow'));
    const per = (ms: number): number => (ms * 1000) / Math.max(1, r.requests);
    const writerUs = per(cpuMs(writer.pid) - w0);
    const followerUs = per(cpuMs(follower.pid) - f0);
    console.log(
      figure(
        'SCALE a write, in a replica that did not take it',
        followerUs,
        'µs/write',
        `${us(followerUs)} per CREATE in the other core-api (its caches ingesting the write) vs ${us(writerUs)} in the one that took it (${((followerUs / writerUs) * 100).toFixed(0)}%); ${r.rps.toFixed(0)} CREATE/s straight to one replica`,
        'report',
        r.errors ? `${r.errors} of ${r.requests} requests errored` : undefined,
      ),
    );
  } finally {
    agent.destroy();
  }
}

/** A stack of `replicas` core-apis and aggregators, its configmap written, its aggregators spreading over every core-api. */
async function replicatedStack(root: string, replicas: number): Promise<ScaleStack> {
  const stack = await ScaleStack.start(root, `replicas-${replicas}`);
  for (let i = 0; i < replicas; i++) await stack.add('core-api');
  for (let i = 0; i < replicas; i++) await stack.add('aggregator');
  const agent = agentFor(stack.tls, 1);
  const front = stack.of('aggregator')[0].port;
  await call(agent, front, { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: NS } }) });
  const made = await call(agent, front, { method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`, body: JSON.stringify({ metadata: { name: 'bench' }, data: { key: 'value', other: 'x'.repeat(200) } }) });
  agent.destroy();
  if (made.status !== 201) throw new Error(`scale-replicas: the configmap: ${made.status} ${made.body}`);
  if (!(await awaitSpread(stack))) throw new Error(`scale-replicas: the aggregators never spread requests over all ${replicas} core-api replicas`);
  return stack;
}

export async function benchScaleReplicas(o: ScaleReplicasOptions): Promise<void> {
  const rounds = Number(process.env.BENCH_SCALE_REPLICA_ROUNDS ?? (o.quick ? 2 : 3));
  // Both stacks run side by side (the idle one costs next to nothing) and take turns, each round in the other
  // order: the load others put on the machine drifts, and turns spread it over both.
  const one = await replicatedStack(o.root, 1);
  const two = await replicatedStack(o.root, 2).catch(async (err: unknown) => {
    await one.stop();
    throw err;
  });
  const stacks = [one, two];
  const runs = async (label: string): Promise<{ one: Measured; two: Measured }> => {
    const byStack = new Map<ScaleStack, Measured[]>(stacks.map((s) => [s, []]));
    for (let r = 0; r < rounds; r++) {
      for (const stack of r % 2 === 0 ? stacks : [...stacks].reverse()) {
        const m = await measure(stack, o, `${label}-${stack === one ? 1 : 2}-${r}`);
        byStack.get(stack)?.push(m);
      }
    }
    return { one: medianOf(byStack.get(one) ?? []), two: medianOf(byStack.get(two) ?? []) };
  };
  /**
   * V8 compiles a process's hot paths after enough requests, so a replica that sees 1/R of the load takes R times
   * as long to settle: each stack is loaded settle × 2 × R seconds with GETs and as long with CREATEs first
   * (measured with 2 core-apis behind one aggregator: 2.0×, 1.9×, then 1.5× one core-api's CPU per request over
   * three rounds of 8 s after start, still settling).
   */
  const warm = async (stack: ScaleStack): Promise<void> => {
    const ports = stack.of('aggregator').map((x) => x.port);
    const seconds = o.settle * 2 * stack.of('core-api').length;
    const agent = agentFor(stack.tls, CREATE_IN_FLIGHT * ports.length);
    try {
      await runLoad(GET_IN_FLIGHT * ports.length, seconds, async (i) => (await call(agent, ports[i % ports.length], { method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps/bench` })).status === 200);
      await runLoad(CREATE_IN_FLIGHT * ports.length, seconds, async (i) => (await call(agent, ports[i % ports.length], { method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`, body: JSON.stringify({ metadata: { name: `warm-${i}` }, data: { key: 'value' } }) })).status === 201);
    } finally {
      agent.destroy();
    }
  };
  try {
    for (const stack of stacks) await warm(stack);
    console.log(`SCALE replicas: ${cpus().length} cores; GET ${GET_IN_FLIGHT} and CREATE ${CREATE_IN_FLIGHT} in flight per replica, ${WATCHERS.toLocaleString('en-US')} watchers; ${o.seconds} s per run, medians of ${rounds} rounds taken in turns; every request through the aggregators, spread over them; paced: ${PACED_GET_PER_REPLICA} GET/s and ${PACED_CREATE_PER_REPLICA} CREATE/s per replica`);
    // What the servers burn with no request at all (leases, availability checks, NATS heartbeats, resyncs): a cost
    // per second, not per request, that a second replica may add.
    const idle = async (stack: ScaleStack): Promise<string> => {
      const c0 = stack.serversCpuMs();
      const e0 = cpuMs(stack.etcdPid);
      const t0 = performance.now();
      await new Promise((r) => setTimeout(r, 5000));
      const s = (performance.now() - t0) / 1000;
      return `servers ${((stack.serversCpuMs() - c0) / s).toFixed(0)} ms CPU/s, etcd ${((cpuMs(stack.etcdPid) - e0) / s).toFixed(0)} ms/s`;
    };
    console.log(`  idle: 1 replica: ${await idle(one)}; 2 replicas: ${await idle(two)}`);
    const shared = await runs('shared');
    printOne('1 replica', shared.one);
    printOne('2 replicas', shared.two);
    compare('', shared.one, shared.two);
    model('2 replicas', shared.two);
    // The target: the same work per replica per second, below saturation, stacks in turns.
    const paced = new Map<ScaleStack, Paced[]>(stacks.map((st) => [st, []]));
    for (let r = 0; r < rounds; r++) {
      for (const stack of r % 2 === 0 ? stacks : [...stacks].reverse()) paced.get(stack)?.push(await measurePaced(stack, o, `paced-${stack === one ? 1 : 2}-${r}`));
    }
    const pacedOf = (stack: ScaleStack, pick: (p: Paced) => Throughput): Throughput => medianThroughput((paced.get(stack) ?? []).map(pick));
    const rate = `, ${PACED_GET_PER_REPLICA} GET/s or ${PACED_CREATE_PER_REPLICA} CREATE/s per replica`;
    for (const [name, pick] of [
      ['GET', (p: Paced) => p.get],
      ['GET rv=0', (p: Paced) => p.getCached],
      ['CREATE', (p: Paced) => p.create],
    ] as const) {
      comparePair(name, rate, pacedOf(one, pick), pacedOf(two, pick), '≤ 110% of 1 replica');
    }
    await followerCost(two, o);
    const how = pinAway(stacks);
    if (!how) {
      console.log('  pinned runs skipped: one core, or taskset refused');
      return;
    }
    const pinned = await runs('pinned');
    unpin(stacks);
    console.log(`  pinned: ${how}`);
    printOne('1 replica, pinned', pinned.one);
    printOne('2 replicas, pinned', pinned.two);
    compare(', pinned', pinned.one, pinned.two);
    model('2 replicas, pinned', pinned.two);
  } finally {
    unpin(stacks);
    await Promise.all(stacks.map((s) => s.stop()));
  }
}
