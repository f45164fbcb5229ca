/**
 * Replicas stay correct (issue 30): two processes each of core-api, extensions and the aggregator on one etcd
 * and NATS, as `KUBE_REPLICAS=2` runs them. Each replica has its own watch cache, fed by its own etcd watch, so
 * one can be behind another; what kube promises across apiservers must hold across ours:
 * - read-your-writes: a write on one replica, then a consistent GET or LIST (no resourceVersion) on the other,
 *   sees it (the cache answers once proven as fresh as etcd, else etcd does);
 * - a read at a resourceVersion the replica has not reached waits for it (3 s), then answers kube's 504
 *   "Too large resource version" Status with the ResourceVersionTooLarge cause and Retry-After: 1;
 * - a watch resumed on a replica that is behind, from a resourceVersion seen on one ahead, starts at once and
 *   delivers every later event exactly once (kube's Cacher.Watch), also while a writer runs and the watch keeps
 *   moving between replicas.
 * One replica's cache is made to fall behind for real: its etcd connection goes through a relay that holds
 * etcd's answers back (test/support/tcp.relay.ts) while the replica keeps serving.
 *
 * One writer for shared state (docs/architecture.md, "Replicas: who writes what"):
 * - the availability condition of an APIService with spec.service is checked by every aggregator replica (as
 *   kube's), and written once per change, never back and forth: replicas that agree find it already written;
 * - autoregistration (the automanaged APIServices) is written by the elected aggregator only, the holder of
 *   /registry/leader-election/kube-aggregator; kill -9 it, and the other takes over within the lease (15 s) and
 *   registers a new CRD group meanwhile.
 * One stack for the file (the kills come last).
 */
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronTab } from '../../apps/extensions/src/crd/crd.testing';
import { currentRevision, prefixOf, readHistory, watchGaps } from '../chaos/etcd.history';
import { type Collection, Watcher, Writer } from '../chaos/load';
import { type Answer, type Instance, ProcessStack } from '../chaos/process.stack';
import { expectStatus } from '../support/expect-status';

const NS = 'replicas';
const BEHIND: Instance = 'core-api.1';
const LEADER_KEY = '/registry/leader-election/kube-aggregator';
const WARDLE = 'v1alpha1.wardle.example.com';
/** The aggregator election's lease (LeaderElection's ttlSeconds); candidates retry every third of it. */
const LEASE_MS = 15_000;
const LATE_EXTENSIONS: Instance = 'extensions.1';

const configMaps = (kind: string): Collection => ({ kind, path: `/api/v1/namespaces/${NS}/configmaps`, body: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: name } }) });
const cronTabs: Collection = { kind: 'ct', path: `/apis/stable.example.com/v1/namespaces/${NS}/crontabs`, body: (name) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { cronSpec: '* * * * */5', image: name } }) };

interface Meta {
  metadata: { name?: string; resourceVersion: string };
}
type Condition = { type: string; status: string; reason?: string; message?: string };
interface ApiService {
  metadata: { name: string; resourceVersion: string };
  status?: { conditions?: Condition[] };
}
interface List {
  metadata: { resourceVersion: string };
  items: Meta[];
}

let stack: ProcessStack;
let etcd: Etcd3;

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(what: string, cond: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond().catch(() => false)) return;
    await pause(100);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

async function create(via: Instance, c: Collection, name: string): Promise<number> {
  const res = await stack.request(via, 'POST', c.path, c.body(name));
  expectStatus(res, 201, `POST ${name} via ${via}`);
  return Number((JSON.parse(res.body) as Meta).metadata.resourceVersion);
}

function json<T>(res: Answer): T {
  return JSON.parse(res.body) as T;
}

/** The aggregator instance holding the election (its identity ends with its port). */
async function leader(): Promise<Instance | undefined> {
  const holder = await etcd.get(LEADER_KEY).string();
  const port = Number(holder?.split('/').at(-1));
  return stack.instances('aggregator').find((i) => stack.ports.get(i) === port);
}

const available = (s: ApiService): Condition | undefined => s.status?.conditions?.find((c) => c.type === 'Available');

async function wardleAvailable(via: Instance = 'aggregator'): Promise<boolean> {
  const res = await stack.request(via, 'GET', `/apis/apiregistration.k8s.io/v1/apiservices/${WARDLE}`);
  return res.status === 200 && available(JSON.parse(res.body) as ApiService)?.status === 'True';
}

/** Both aggregator replicas see wardle Available=True: the verdict is written and in each one's cache. */
async function wardleAvailableEverywhere(): Promise<boolean> {
  return (await Promise.all(stack.instances('aggregator').map((i) => wardleAvailable(i)))).every(Boolean);
}

describe('two replicas of each API server', () => {
  beforeAll(async () => {
    stack = await ProcessStack.start({ replicas: 2, etcdRelayed: [BEHIND, LATE_EXTENSIONS], without: ['controller-manager'] });
    etcd = new Etcd3({ hosts: stack.etcd.endpoint });
    expectStatus(await stack.request('aggregator', 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }), 201, 'POST the namespace');
    expectStatus(await stack.request('aggregator', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', cronTab()), 201, 'POST the CronTab CRD');
    for (const instance of [...stack.instances('extensions'), ...stack.instances('aggregator')]) {
      await until(`crontabs served by ${instance}`, async () => (await stack.request(instance, 'GET', cronTabs.path)).status === 200);
    }
  }, 300_000);

  afterAll(async () => {
    etcd?.close();
    await stack?.stop();
  }, 120_000);

  it('reads its writes on the other replica: a consistent GET and LIST of core-api, extensions and through the aggregators', async () => {
    const cases: Array<[Instance, Instance, Collection]> = [
      ['core-api', 'core-api.1', configMaps('ryw-a')],
      ['core-api.1', 'core-api', configMaps('ryw-b')],
      ['extensions', 'extensions.1', cronTabs],
      ['extensions.1', 'extensions', cronTabs],
      ['aggregator', 'aggregator.1', configMaps('ryw-c')],
      ['aggregator.1', 'aggregator', cronTabs],
    ];
    const stale: string[] = [];
    for (const [writer, reader, c] of cases) {
      for (let i = 0; i < 8; i++) {
        const name = `${c.kind}-${writer.replace('.', '-')}-${i}`;
        const rv = await create(writer, c, name);
        const [got, list] = await Promise.all([stack.request(reader, 'GET', `${c.path}/${name}`), stack.request(reader, 'GET', c.path)]);
        if (got.status !== 200 || Number(json<Meta>(got).metadata.resourceVersion) !== rv) stale.push(`GET ${name} on ${reader} after ${writer} wrote it at ${rv}: ${got.status} ${got.body.slice(0, 200)}`);
        const items = list.status === 200 ? json<List>(list) : undefined;
        if (!items?.items.some((o) => o.metadata.name === name) || Number(items.metadata.resourceVersion) < rv) stale.push(`LIST on ${reader} after ${writer} wrote ${name} at ${rv}: ${list.status}, list at ${items?.metadata.resourceVersion}`);
      }
    }
    expect(stale).toEqual([]);
  }, 120_000);

  it('serves a custom resource on a replica whose informer has not seen its CRD yet, once the CRD is Established', async () => {
    const crd = cronTab();
    const group = 'replicas.example.com';
    const name = `gizmos.${group}`;
    const def = { ...crd, metadata: { name }, spec: { ...crd.spec, group, names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' } } };
    // extensions.1 hears nothing from etcd meanwhile: Established is written by extensions, as by whichever replica is first.
    const relay = stack.etcdRelay(LATE_EXTENSIONS);
    relay.hold();
    try {
      expectStatus(await stack.request('extensions', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', def), 201, `POST the CRD ${name}`);
      await until(`${name} Established`, async () => {
        const res = await stack.request('extensions', 'GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
        return (JSON.parse(res.body) as { status?: { conditions?: Condition[] } }).status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
      }, 30_000);
      // A client that saw Established creates a Gizmo, and its request lands on the replica that has not heard of it.
      const created = stack.request(LATE_EXTENSIONS, 'POST', `/apis/${group}/v1/namespaces/${NS}/gizmos`, { apiVersion: `${group}/v1`, kind: 'Gizmo', metadata: { name: 'g' }, spec: { cronSpec: '* * * * */5', image: 'x' } });
      await pause(1_000);
      relay.release();
      expectStatus(await created, 201, `POST a Gizmo to ${LATE_EXTENSIONS}`);
    } finally {
      relay.release();
    }
  }, 120_000);

  it('a replica behind etcd: a read at a resourceVersion it has not reached waits 3 s, then 504 Too large resource version with Retry-After; a watch from there starts at once and misses nothing', async () => {
    const c = configMaps('behind');
    const relay = stack.etcdRelay(BEHIND);
    relay.hold();
    try {
      const rv = await create('core-api', c, 'behind-0');
      const started = Date.now();
      const [get, list, ...proxied] = await Promise.all([
        stack.request(BEHIND, 'GET', `${c.path}/behind-0?resourceVersion=${rv}`),
        stack.request(BEHIND, 'GET', `${c.path}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`),
        // Through the front door, which spreads requests over both core-api replicas: the one ahead answers, the
        // one behind answers the same 504, relayed with its Retry-After.
        ...[0, 1, 2, 3, 4, 5].map(() => stack.request('aggregator', 'GET', `${c.path}/behind-0?resourceVersion=${rv}`)),
      ]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
      expect(proxied.filter((r) => r.status !== 504).map((r) => (r.status === 200 ? `200 ${json<Meta>(r).metadata.resourceVersion}` : `${r.status} ${r.body.slice(0, 300)}`))).toEqual(proxied.filter((r) => r.status !== 504).map(() => `200 ${rv}`));
      // Each core-api replica took some (the front door's round robin per service).
      expect(proxied.map((r) => r.status)).toContain(504);
      expect(proxied.map((r) => r.status)).toContain(200);
      for (const res of [get, list, ...proxied.filter((r) => r.status === 504)]) {
        expectStatus(res, 504, 'a read at a resourceVersion not reached');
        expect(res.headers?.['retry-after']).toBe('1');
        const status = json<{ message: string }>(res);
        expect(status).toMatchObject({
          kind: 'Status',
          status: 'Failure',
          reason: 'Timeout',
          code: 504,
          details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
        });
        const [, requested, current] = /^Timeout: Too large resource version: (\d+), current: (\d+)$/.exec(status.message) ?? [];
        expect(Number(requested)).toBe(rv);
        expect(Number(current)).toBeLessThan(rv);
      }

      // A client that saw `rv` on the replica ahead resumes its watch here: the stream starts while the replica is
      // still behind (kube does not wait for a plain watch) and skips everything up to `rv`.
      const events: string[] = [];
      const watch = stack.openWatch(BEHIND, `${c.path}?watch=1&resourceVersion=${rv}`, (line) => events.push(line));
      expect(await watch.status).toBe(200);
      const next = [await create('core-api', c, 'behind-1'), await create('core-api', c, 'behind-2')];
      // A read the replica can answer once it catches up within the 3 s is served, not refused.
      const waiting = stack.request(BEHIND, 'GET', `${c.path}/behind-2?resourceVersion=${next[1]}`);
      // Released well within the 3 s the read waits, so a loaded machine still catches up in time.
      await pause(500);
      relay.release();
      const served = await waiting;
      expectStatus(served, 200, `GET behind-2 at ${next[1]} on ${BEHIND} once released`);
      expect(json<Meta>(served).metadata.resourceVersion).toBe(String(next[1]));
      await until('the watch delivers both later writes', async () => events.length >= 2, 15_000);
      await pause(500);
      watch.close();
      expect(events.map((l) => JSON.parse(l) as { type: string; object: Meta }).map((e) => `${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`)).toEqual([
        `ADDED behind-1 ${next[0]}`,
        `ADDED behind-2 ${next[1]}`,
      ]);
    } finally {
      relay.release();
    }
  }, 120_000);

  it('a watch that keeps moving between replicas while writers run, one replica falling behind meanwhile, sees every event exactly once', async () => {
    const c = configMaps('hop');
    const from = await currentRevision(stack.etcd.endpoint);
    const writers = [new Writer(stack, 'aggregator', c, 'a'), new Writer(stack, 'aggregator.1', c, 'b')];
    const watcher = new Watcher(stack, ['core-api', BEHIND, 'aggregator', 'core-api.1', 'aggregator.1'], c, { hopAfterMs: 250 });
    await watcher.start();
    writers.forEach((w) => w.start('1'));
    try {
      await until('a few hops', async () => watcher.watches >= 6 && writers.every((w) => w.acked >= 10));
      // The replica behind for 2 s: watches that move to it resume from a resourceVersion it has not reached.
      const relay = stack.etcdRelay(BEHIND);
      relay.hold();
      await pause(2_000);
      relay.release();
      const hops = watcher.watches;
      await until('more hops', async () => watcher.watches >= hops + 8 && writers.every((w) => w.acked >= 30));
    } finally {
      await Promise.all(writers.map((w) => w.stop()));
    }
    const history = (await readHistory(stack.etcd.endpoint, from)).events;
    const acked = writers.flatMap((w) => w.attempts).find((a) => a.acked);
    const prefix = prefixOf(history, NS, acked?.name ?? '');
    expect(prefix).toBeDefined();
    const last = history.filter((e) => e.key.startsWith(prefix as string)).at(-1)?.rev ?? 0;
    await until(`the watcher reaching ${last}`, async () => watcher.position >= last, 60_000);
    await watcher.stop();
    const segments = watcher.takeSegments();
    expect(watcher.relists).toBe(0);
    expect(segments.flatMap((s) => s.outOfOrder)).toEqual([]);
    expect(watchGaps(segments, history, prefix as string)).toEqual([]);
    expect(segments.reduce((n, s) => n + s.events.length, 0)).toBeGreaterThanOrEqual(40);
  }, 180_000);

  it('aggregators write an APIService availability change once, and nothing while nothing changes', async () => {
    // The quiet window starts once the system has settled: both replicas have the verdict, and the list below
    // (a consistent read) is taken after it was written.
    await until('wardle available on both aggregators', wardleAvailableEverywhere, 120_000);
    const list = await stack.request('aggregator', 'GET', '/apis/apiregistration.k8s.io/v1/apiservices');
    const from = (JSON.parse(list.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const writes: ApiService[] = [];
    const watch = stack.openWatch('aggregator.1', `/apis/apiregistration.k8s.io/v1/apiservices?watch=1&resourceVersion=${from}&fieldSelector=metadata.name%3D${WARDLE}`, (line) => {
      const ev = JSON.parse(line) as { type: string; object: ApiService };
      if (ev.type === 'MODIFIED') writes.push(ev.object);
    });
    expect(await watch.status).toBe(200);
    try {
      // Both replicas re-check every 3 s: two rounds each, and nobody writes.
      await pause(7_000);
      expect(writes.map(available)).toEqual([]);
      await stack.kill('sample-apiserver');
      await until('wardle unavailable', async () => writes.some((s) => available(s)?.status === 'False'), 60_000);
      // Two more rounds of both replicas: the verdict stands, nobody writes it again (or a different one).
      await pause(7_000);
      expect(writes.map((s) => `${available(s)?.status} ${available(s)?.reason}`), writes.map((s) => available(s)?.message).join(' | ')).toEqual(['False FailedDiscoveryCheck']);
    } finally {
      watch.close();
      await stack.restart('sample-apiserver');
    }
    await until('wardle available again', wardleAvailableEverywhere, 120_000);
  }, 300_000);

  it('autoregisters from the elected replica only; killing it hands the election to the other within the lease', async () => {
    const first = await leader();
    expect(first).toBeDefined();
    const other = stack.instances('aggregator').find((i) => i !== first) as Instance;
    const killedAt = Date.now();
    await stack.kill(first as Instance);
    try {
      await until('the other replica elected', async () => (await leader()) === other, LEASE_MS * 3);
      const tookOverMs = Date.now() - killedAt;
      // The lease runs out, then the next campaign (every third of it) wins; generous slack for a loaded machine.
      console.log(`[replicas] ${other} elected ${tookOverMs} ms after ${first} was killed`);
      expect(tookOverMs).toBeLessThan(LEASE_MS + LEASE_MS / 3 + 10_000);
      // A new group while the old leader is dead: the new leader registers it.
      const crd = cronTab();
      const def = { ...crd, metadata: { name: 'widgets.elected.example.com' }, spec: { ...crd.spec, group: 'elected.example.com', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' } } };
      expectStatus(await stack.request(other, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', def), 201, `POST the CRD ${def.metadata.name} via ${other}`);
      await until('v1.elected.example.com registered', async () => (await stack.request(other, 'GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.elected.example.com')).status === 200, 120_000);
      const registered = JSON.parse((await stack.request(other, 'GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.elected.example.com')).body) as ApiService & { metadata: { labels?: Record<string, string> } };
      expect(registered.metadata.labels?.['kube-aggregator.kubernetes.io/automanaged']).toBe('true');
    } finally {
      await stack.restart(first as Instance);
    }
    await until(`${first} ready again`, () => stack.partReady(first as Instance), 120_000);
    // The restarted replica follows: the election stays where it is.
    expect(await leader()).toBe(other);
  }, 300_000);
});
