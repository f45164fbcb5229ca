/**
 * Kill -9 under load (issue 14, "Prove it"). The stack runs as separate processes, as `npm start` runs it
 * (etcd, nats-server, core-api, extensions, the aggregator, sample-apiserver, the controller-manager). Writers
 * create, update and delete ConfigMaps, a custom resource and Flunders through the front door and record each
 * acknowledged write's resourceVersion; watchers follow each collection through the front door, and ConfigMaps
 * and the custom resource on their own servers too. Each run SIGKILLs one process mid-load, starts it again,
 * waits until the stack recovers (every part ready, every APIService Available=True), lets the load go on, then
 * stops the writers and checks against etcd's history:
 * - every acknowledged write is in etcd with its resourceVersion, and the last one of each object stands (an
 *   object read through the front door has etcd's resourceVersion, a deleted one is gone);
 * - every watcher saw exactly etcd's events for its prefix, in strictly increasing resourceVersions, from its
 *   list (or its relist after 410 Expired) on.
 * CHAOS_RUNS sets the runs per process (default 1; `npm run chaos` runs 100). Totals are printed and written to
 * .local/chaos/kill-totals.json (CHAOS_TOTALS_FILE overrides).
 *
 * With replicas (issue 30; kill.replicas.chaos.test.ts) the stack runs N instances of core-api, extensions and the
 * aggregator, writers and watchers use every aggregator replica, and the victims are single replicas: the other
 * replica keeps serving, so besides nothing lost the clients may only see errors worth retrying (a dropped
 * connection, 429, 502, 503, 504), never one that says their request was wrong or their object gone.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronTab } from '../../apps/extensions/src/crd/crd.testing';
import { currentRevision, lostWrites, prefixOf, readHistory, watchGaps } from './etcd.history';
import { type Attempt, type Collection, Watcher, Writer } from './load';
import { type Instance, type Part, ProcessStack } from './process.stack';

const RUNS = Math.max(1, Number(process.env.CHAOS_RUNS ?? 1));
const NS = 'chaos';
/** Acknowledged writes of each writer before the kill and after the recovery, in each run. */
const ACKS_AROUND_KILL = 4;
const RECOVERY_TIMEOUT_MS = 120_000;
const CATCH_UP_TIMEOUT_MS = 60_000;

const configMaps: Collection = { kind: 'cm', path: `/api/v1/namespaces/${NS}/configmaps`, body: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: name } }) };
const cronTabs: Collection = { kind: 'cr', path: `/apis/stable.example.com/v1/namespaces/${NS}/crontabs`, body: (name) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { cronSpec: '* * * * */5', image: name } }) };
const flunders: Collection = { kind: 'fl', path: `/apis/wardle.example.com/v1alpha1/namespaces/${NS}/flunders`, body: (name) => ({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name }, spec: {} }) };


interface PartTotals {
  runs: number;
  /** Answers a client should not have had to see: anything but a dropped connection, 429, 502, 503 or 504. */
  badErrors: number;
  /** What the unacknowledged writes were answered, by status code ('none': the connection failed). */
  unackedStatuses: Record<string, number>;
  ackedWrites: number;
  unackedWrites: number;
  lost: number;
  watchGaps: number;
  relists: number;
  staleReads: number;
  recoveryMs: number[];
}

type Victim = Part | Instance;

export interface KillSuiteOptions {
  /** Instances of core-api, extensions and the aggregator. */
  replicas: number;
  /** What each test kills, in order. */
  victims: readonly Victim[];
  /** Where the totals go (CHAOS_TOTALS_FILE overrides). */
  totalsFile: string;
}

/** The kill -9 suite on one stack: one test per victim. */
export function describeKillSuite(opts: KillSuiteOptions): void {
  const TOTALS_FILE = process.env.CHAOS_TOTALS_FILE ?? join(__dirname, '..', '..', '.local', 'chaos', opts.totalsFile);
  const totals = new Map<Victim, PartTotals>(opts.victims.map((p) => [p, { runs: 0, badErrors: 0, unackedStatuses: {}, ackedWrites: 0, unackedWrites: 0, lost: 0, watchGaps: 0, relists: 0, staleReads: 0, recoveryMs: [] }]));
  const problems: string[] = [];

  let stack: ProcessStack;
  let writers: Writer[] = [];
  let watchers: Watcher[] = [];
  /** etcd revision from which the next check reads history (the oldest watcher position, at most). */
  let checkedFrom = 0;
  /** Relists already counted in the totals. */
  let relistsCounted = 0;

  const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

  async function until(what: string, cond: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await cond().catch(() => false)) return;
      await pause(100);
    }
    throw new Error(`${what}: not within ${timeoutMs} ms${stack.crashed() ? `; ${stack.crashed()}` : ''}`);
  }

  async function createOrFail(via: 'aggregator', path: string, body: unknown): Promise<void> {
    const res = await stack.request(via, 'POST', path, body);
    if (res.status !== 201 && res.status !== 409) throw new Error(`POST ${path}: ${res.status} ${res.body}`);
  }

  async function apiServicesAvailable(): Promise<boolean> {
    const res = await stack.request('aggregator', 'GET', '/apis/apiregistration.k8s.io/v1/apiservices', undefined, undefined, 5_000);
    if (res.status !== 200) return false;
    const list = JSON.parse(res.body) as { items: Array<{ status?: { conditions?: Array<{ type: string; status: string }> } }> };
    return list.items.length > 0 && list.items.every((s) => s.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True'));
  }

  /** Every part ready (readyz, or etcd's and nats-server's health) and every APIService Available=True. */
  async function recovered(): Promise<boolean> {
    for (const part of ['etcd', 'nats', ...stack.allInstances] as const) if (!(await stack.partReady(part))) return false;
    return apiServicesAvailable();
  }

  /**
   * Unacknowledged writes whose answer says more than "try again": a 404 for an object whose create was
   * acknowledged (and not deleted since), or any other 4xx or 5xx than 429, 502, 503 and 504.
   */
  function badErrors(tried: readonly Attempt[]): string[] {
    const bad: string[] = [];
    const live = new Set<string>();
    for (const a of tried) {
      if (a.acked) {
        if (a.op === 'create') live.add(a.name);
        if (a.op === 'delete') live.delete(a.name);
        continue;
      }
      if (a.status === undefined || [429, 502, 503, 504].includes(a.status)) continue;
      if (a.status === 404 && !live.has(a.name)) continue;
      bad.push(`${a.op} ${a.name}: ${a.status} ${a.message ?? ''}`);
    }
    return bad;
  }

  /** Every writer has `count` more acknowledged writes: each path through the stack works, not only the fastest. */
  async function ackedSince(count: number): Promise<void> {
    const base = writers.map((w) => w.acked);
    await until(`${count} acknowledged writes from every writer`, async () => writers.every((w, i) => w.acked >= base[i] + count), RECOVERY_TIMEOUT_MS);
  }

  /** etcd's current mod revision of every key under the prefixes. */
  async function currentState(prefixes: readonly string[]): Promise<Map<string, number>> {
    const client = new Etcd3({ hosts: stack.etcd.endpoint });
    try {
      const state = new Map<string, number>();
      for (const prefix of prefixes) {
        const res = await client.getAll().prefix(prefix).exec();
        for (const kv of res.kvs) state.set(kv.key.toString(), Number(kv.mod_revision));
      }
      return state;
    } finally {
      client.close();
    }
  }

  /** Stops the writers, lets the watchers catch up with etcd, and checks the run against etcd's history. */
  async function checkRun(part: Victim, run: number): Promise<string> {
    let mark = Date.now();
    const phases: string[] = [];
    const phase = (name: string): void => {
      phases.push(`${name} ${Date.now() - mark}`);
      mark = Date.now();
    };
    const attempts = new Map<Collection, Attempt[]>();
    for (const w of writers) {
      const collection = w.collection;
      attempts.set(collection, [...(attempts.get(collection) ?? []), ...(await w.stop())]);
    }
    const t = totals.get(part) as PartTotals;
    const all = [...attempts.values()].flat();
    t.ackedWrites += all.filter((a) => a.acked).length;
    t.unackedWrites += all.filter((a) => !a.acked).length;
    for (const a of all) if (!a.acked) t.unackedStatuses[String(a.status ?? 'none')] = (t.unackedStatuses[String(a.status ?? 'none')] ?? 0) + 1;
    if (stack.replicas > 1) {
      // Another replica kept serving: whatever reached a client must be worth retrying.
      const bad = [...attempts].flatMap(([c, tried]) => badErrors(tried).map((b) => `${c.kind} ${b}`));
      t.badErrors += bad.length;
      problems.push(...bad.map((b) => `${part} run ${run}: client saw ${b}`));
    }

    phase('writers stopped');
    const first = await readHistory(stack.etcd.endpoint, checkedFrom);
    let history = first.events;
    phase('history');
    const prefixes = new Map<Collection, string>();
    for (const [collection, tried] of attempts) {
      const named = tried.find((a) => a.acked);
      const prefix = named && prefixOf(history, NS, named.name);
      if (!prefix) throw new Error(`${part} run ${run}: no acknowledged ${collection.kind} write found in etcd`);
      prefixes.set(collection, prefix);
    }
    // Watchers have seen everything once they are at etcd's last event of their prefix (or past it, by a bookmark).
    for (const w of watchers) {
      const prefix = prefixes.get(w.collection) as string;
      const last = history.filter((e) => e.key.startsWith(prefix)).at(-1)?.rev ?? 0;
      try {
        await until(`${w.label} catching up to ${last}`, async () => w.position >= last, CATCH_UP_TIMEOUT_MS);
      } catch (err) {
        problems.push(`${part} run ${run}: ${w.label} stalled at ${w.position} (etcd at ${last})`);
        t.watchGaps++;
        w.reconnect();
      }
    }
    phase('watchers caught up');
    const segments = watchers.map((w) => [w, w.takeSegments()] as const);
    const relists = watchers.reduce((n, w) => n + w.relists, 0);
    t.relists += relists - relistsCounted;
    relistsCounted = relists;
    // The rest of the history: what the watchers saw after the first read.
    history = [...history, ...(await readHistory(stack.etcd.endpoint, first.revision)).events];

    phase('history');
    const state = await currentState([...prefixes.values()]);
    for (const [collection, tried] of attempts) {
      const prefix = prefixes.get(collection) as string;
      const lost = lostWrites(tried, history, prefix, state);
      t.lost += lost.length;
      problems.push(...lost.map((l) => `${part} run ${run}: lost ${l}`));
      // A read through the front door is etcd's truth: the object at its current resourceVersion, or 404.
      const names = [...new Set(tried.map((a) => a.name))];
      const reads = await Promise.all(names.map(async (name) => [name, await stack.request('aggregator', 'GET', `${collection.path}/${name}`)] as const));
      for (const [name, res] of reads) {
        const want = state.get(prefix + name);
        const got = res.status === 200 ? Number((JSON.parse(res.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion) : undefined;
        if ((want === undefined && res.status !== 404) || (want !== undefined && got !== want)) {
          t.staleReads++;
          problems.push(`${part} run ${run}: GET ${name} answered ${res.status} at ${got}, etcd has ${want ?? 'nothing'}`);
        }
      }
    }
    for (const [w, segs] of segments) {
      const gaps = watchGaps(segs, history, prefixes.get(w.collection) as string);
      t.watchGaps += gaps.length;
      problems.push(...gaps.map((g) => `${part} run ${run}: ${w.label}: ${g}`));
    }
    checkedFrom = Math.min(...watchers.map((w) => w.position));
    phase('checked');
    return phases.join(', ');
  }

  function startWriters(run: string): void {
    for (const w of writers) w.start(run);
  }

  function percentile(values: readonly number[], p: number): number {
    if (values.length === 0) return 0;
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  }

  /** Written after every run too, so a long run cut short still leaves its totals. */
  function writeTotals(announce = true): void {
    const perProcess = Object.fromEntries(
      [...totals].map(([part, t]) => [part, { runs: t.runs, badErrors: t.badErrors, unackedStatuses: t.unackedStatuses, ackedWrites: t.ackedWrites, unackedWrites: t.unackedWrites, lost: t.lost, watchGaps: t.watchGaps, relists410: t.relists, staleReads: t.staleReads, recoveryMsP50: percentile(t.recoveryMs, 50), recoveryMsMax: Math.max(0, ...t.recoveryMs) }]),
    );
    const all = [...totals.values()];
    const sum = (f: (t: PartTotals) => number): number => all.reduce((n, t) => n + f(t), 0);
    const recovery = all.flatMap((t) => t.recoveryMs);
    const report = {
      finishedAt: new Date().toISOString(),
      runsPerProcess: RUNS,
      replicas: opts.replicas,
      totals: { runs: sum((t) => t.runs), badErrors: sum((t) => t.badErrors), ackedWrites: sum((t) => t.ackedWrites), unackedWrites: sum((t) => t.unackedWrites), lost: sum((t) => t.lost), watchGaps: sum((t) => t.watchGaps), relists410: sum((t) => t.relists), staleReads: sum((t) => t.staleReads), recoveryMsP50: percentile(recovery, 50), recoveryMsMax: Math.max(0, ...recovery) },
      perProcess,
      problems: problems.slice(0, 200),
    };
    mkdirSync(dirname(TOTALS_FILE), { recursive: true });
    writeFileSync(TOTALS_FILE, `${JSON.stringify(report, null, 2)}\n`);
    if (announce) console.log(`[chaos] kill -9 totals (${TOTALS_FILE}):\n${JSON.stringify({ totals: report.totals, perProcess }, null, 2)}`);
  }

  describe(opts.replicas > 1 ? `kill -9 of one replica under load (${opts.replicas} of core-api, extensions and the aggregator)` : 'kill -9 under load', () => {
    beforeAll(async () => {
      stack = await ProcessStack.start({ replicas: opts.replicas });
      await createOrFail('aggregator', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
      await createOrFail('aggregator', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', cronTab());
      await until('the custom resource is served', async () => (await stack.request('aggregator', 'GET', cronTabs.path)).status === 200, 60_000);
      await until('the stack is ready', recovered, RECOVERY_TIMEOUT_MS);
      checkedFrom = await currentRevision(stack.etcd.endpoint);
      // Each aggregator replica has writers of its own, as clients spread over them by a balancer.
      const fronts = stack.instances('aggregator') as Array<'aggregator'>;
      writers = fronts.flatMap((front, i) => [
        new Writer(stack, front, configMaps, `a${i || ''}`),
        new Writer(stack, front, configMaps, `b${i || ''}`),
        new Writer(stack, front, cronTabs, `a${i || ''}`),
        new Writer(stack, front, flunders, `a${i || ''}`),
      ]);
      watchers = [
        ...fronts.map((front) => new Watcher(stack, front, configMaps)),
        ...stack.instances('core-api').map((core) => new Watcher(stack, core as 'core-api', configMaps)),
        new Watcher(stack, 'aggregator', cronTabs),
        ...stack.instances('extensions').map((ext) => new Watcher(stack, ext as 'extensions', cronTabs)),
        ...fronts.map((front) => new Watcher(stack, front, flunders)),
      ];
      await Promise.all(watchers.map((w) => w.start()));
      checkedFrom = Math.min(checkedFrom, ...watchers.map((w) => w.position));
    }, 300_000);

    afterAll(async () => {
      await Promise.all(writers.map((w) => w.stop()));
      await Promise.all(watchers.map((w) => w.stop()));
      writeTotals();
      await stack?.stop();
    }, 120_000);

    it.each(opts.victims)(`kills %s ${RUNS} time(s) mid-load: no acknowledged write lost, no watch gap, recovery`, async (part) => {
      const t = totals.get(part as Victim) as PartTotals;
      const before = problems.length;
      for (let run = 1; run <= RUNS; run++) {
        startWriters(`${part.replace(/[^a-z0-9]/g, '')}-${run}`);
        await ackedSince(ACKS_AROUND_KILL);
        const killedAt = Date.now();
        await stack.kill(part);
        await stack.restart(part);
        await until(`${part} run ${run}: ${part} ready`, () => stack.partReady(part), RECOVERY_TIMEOUT_MS);
        const readyMs = Date.now() - killedAt;
        await until(`${part} run ${run}: recovery`, recovered, RECOVERY_TIMEOUT_MS);
        const recoveryMs = Date.now() - killedAt;
        t.recoveryMs.push(recoveryMs);
        await ackedSince(ACKS_AROUND_KILL);
        const checking = Date.now();
        const problemsBefore = problems.length;
        const phases = await checkRun(part, run);
        t.runs++;
        writeTotals(false);
        console.log(`[chaos] kill -9 ${part} ${run}/${RUNS}: ready in ${readyMs} ms, recovered in ${recoveryMs} ms, checked in ${Date.now() - checking} ms (${phases}), ${problems.length - problemsBefore} problem(s)`);
      }
      expect(problems.slice(before)).toEqual([]);
    }, RUNS * 240_000 + 60_000);
  });
}
