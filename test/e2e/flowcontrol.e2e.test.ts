/**
 * API Priority and Fairness through the real stack with kubectl 1.27 and 1.33: kube's bootstrap FlowSchemas and
 * priority levels are served and printed as kube prints them, every response names the FlowSchema and level that
 * classified it, and a level with tiny limits answers 429 + Retry-After to its flow under concurrent load while
 * system:masters is not held up. The flooding requests impersonate a user (`Impersonate-User`, what `--as` sends).
 * Then kube's work estimation and borrowing: a user flooding wide LISTs fills its level and is queued and refused
 * while another user of the same level is served at once, and a level short of seats borrows idle ones (the
 * dumps and kube's metrics say so).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlSession, metricTotal, startStack, until, type StackHarness } from '@test/support';

/** Concurrent slow requests of the flooding user. */
const FLOOD = 16;

const TINY = `
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata:
  name: tiny
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 1
    borrowingLimitPercent: 0
    limitResponse:
      type: Queue
      queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 }
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata:
  name: tiny
spec:
  priorityLevelConfiguration: { name: tiny }
  matchingPrecedence: 500
  distinguisherMethod: { type: ByUser }
  rules:
  - subjects: [{ kind: User, user: { name: flooder } }]
    resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], clusterScope: true, namespaces: ["*"] }]
`;

/**
 * A level whose seats hold seven LISTs of the 250-object namespace below (ceil(600 × 9 / 254) = 22 seats, a LIST
 * ceil(251 / 100) = 3 of them, at most ceil(15% of 22) = 4), flows in 8 queues of their own ("flooder" deals queue
 * 6, "quiet" queue 5), two waiting per flow; it neither lends nor borrows. And a small level that borrows.
 */
const LIST_FLOOD = `
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata:
  name: list-flood
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 9
    lendablePercent: 0
    borrowingLimitPercent: 0
    limitResponse:
      type: Queue
      queuing: { queues: 8, handSize: 1, queueLengthLimit: 2 }
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata:
  name: list-flood
spec:
  priorityLevelConfiguration: { name: list-flood }
  matchingPrecedence: 400
  distinguisherMethod: { type: ByUser }
  rules:
  - subjects: [{ kind: User, user: { name: flooder } }, { kind: User, user: { name: quiet } }]
    resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], clusterScope: true, namespaces: ["*"] }]
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata:
  name: borrower
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 1
    lendablePercent: 0
    borrowingLimitPercent: 100
    limitResponse:
      type: Queue
      queuing: { queues: 1, handSize: 1, queueLengthLimit: 50 }
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata:
  name: borrower
spec:
  priorityLevelConfiguration: { name: borrower }
  matchingPrecedence: 400
  distinguisherMethod: { type: ByUser }
  rules:
  - subjects: [{ kind: User, user: { name: borrower } }]
    resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], clusterScope: true, namespaces: ["*"] }]
`;

/** The rows of a /debug/api_priority_and_fairness dump by their first cell, each cell by its column's name. */
function dumpRows(text: string): Map<string, Record<string, string>> {
  const [head, ...lines] = text.trimEnd().split('\n').map((l) => l.split(',').map((c) => c.trim()));
  return new Map(lines.map((cells) => [cells[0], Object.fromEntries(head.map((h, i) => [h, cells[i]]))]));
}

describe('API Priority and Fairness', () => {
  let stack: StackHarness;
  const admin = kubectlSession(undefined, () => stack.kubeconfig);
  const uidOf = async (resource: string, name: string): Promise<string> => admin.ok(['get', resource, name, '-o', 'jsonpath={.metadata.uid}']);

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  describe.each(['1.27', '1.33'])('kubectl %s', (version) => {
    const { ok } = kubectlSession(version, () => stack.kubeconfig);

    it('lists kube\'s bootstrap FlowSchemas with kube\'s columns, none of them missing its level', async () => {
      let out = '';
      // The Dangling conditions are written by core-api's controller shortly after start.
      expect(await until(async () => !/\?\s*$/m.test((out = await ok(['get', 'flowschemas']))))).toBe(true);
      const lines = out.trim().split('\n');
      expect(lines[0].split(/\s+/)).toEqual(['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL']);
      const rows = new Map(lines.slice(1).map((l) => [l.split(/\s+/)[0], l.split(/\s+/)]));
      for (const name of ['exempt', 'probes', 'system-leader-election', 'system-node-high', 'system-nodes', 'kube-controller-manager', 'kube-scheduler', 'kube-system-service-accounts', 'service-accounts', 'global-default', 'catch-all']) {
        expect(rows.get(name)?.[5], name).toBe('False');
      }
      expect(rows.get('exempt')?.slice(1, 4)).toEqual(['exempt', '1', '<none>']);
      expect(rows.get('global-default')?.slice(1, 4)).toEqual(['global-default', '9900', 'ByUser']);
      // kube's order: by name.
      expect([...rows.keys()]).toEqual([...rows.keys()].sort());
    });

    it('lists kube\'s bootstrap priority levels with kube\'s columns', async () => {
      const out = await ok(['get', 'prioritylevelconfigurations']);
      const lines = out.trim().split('\n');
      expect(lines[0].split(/\s+/)).toEqual(['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE']);
      const rows = new Map(lines.slice(1).map((l) => [l.split(/\s+/)[0], l.split(/\s+/).slice(1, 6)]));
      expect(rows.get('exempt')).toEqual(['Exempt', '<none>', '<none>', '<none>', '<none>']);
      expect(rows.get('catch-all')).toEqual(['Limited', '5', '<none>', '<none>', '<none>']);
      expect(rows.get('workload-low')).toEqual(['Limited', '100', '128', '6', '50']);
      expect(rows.get('leader-election')).toEqual(['Limited', '10', '16', '4', '50']);
      expect([...rows.keys()].sort()).toEqual(['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
    });

    it('answers with the UIDs of the FlowSchema and priority level that classified the request', async () => {
      const [fs, pl] = [await uidOf('flowschema', 'exempt'), await uidOf('prioritylevelconfiguration', 'exempt')];
      const k = kubectlSession(version, () => stack.kubeconfig);
      // The front door learns the objects from its informers; until then it classifies by the bootstrap objects in memory.
      let log = '';
      expect(await until(async () => (log = (await k.k(['get', 'ns', '-v=8'])).stderr).includes(fs))).toBe(true);
      expect(log).toMatch(new RegExp(`X-Kubernetes-Pf-Flowschema-Uid: ${fs}`, 'i'));
      expect(log).toMatch(new RegExp(`X-Kubernetes-Pf-Prioritylevel-Uid: ${pl}`, 'i'));
    });
  });

  it('lets the mandatory objects\' specs alone only where kube does', async () => {
    const r = await admin.k(['patch', 'prioritylevelconfiguration', 'catch-all', '--type=merge', '-p', '{"spec":{"limited":{"nominalConcurrencyShares":50}}}']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/spec of 'catch-all' must equal the fixed value/);
  });

  it('rejects a flooding flow with 429 and Retry-After on a tiny level while system:masters is served', async () => {
    await admin.ok(['apply', '-f', '-'], TINY);
    await admin.ok(['create', 'clusterrolebinding', 'flooder', '--clusterrole=cluster-admin', '--user=flooder']);
    const [fs, pl] = [await uidOf('flowschema', 'tiny'), await uidOf('prioritylevelconfiguration', 'tiny')];
    const asFlooder = { 'Impersonate-User': 'flooder' };
    // kubectl --as sends the same header: once the front door knows the new objects, flooder's requests are classified by them.
    const flooder = kubectlSession('1.33', () => stack.kubeconfig);
    expect(await until(async () => (await flooder.k(['get', 'ns', '--as=flooder', '-v=8'])).stderr.includes(pl))).toBe(true);
    const classified = await stack.request('GET', '/api/v1/namespaces', { headers: asFlooder });
    expect(classified.headers['x-kubernetes-pf-flowschema-uid']).toBe(fs);

    const dispatched = async (): Promise<number> => metricTotal(await admin.ok(['get', '--raw', '/metrics']), 'apiserver_flowcontrol_dispatched_requests_total', { flow_schema: 'tiny', priority_level: 'tiny' });
    const dispatchedBefore = await dispatched();

    // Each of these holds a seat for a few seconds: the watch cache waits for a revision etcd has not reached, then 504.
    const slow = '/api/v1/namespaces/default?resourceVersion=999999999';
    const flood = Array.from({ length: FLOOD }, () => stack.request('GET', slow, { headers: asFlooder }));
    // ceil(600 × 1/246) = 3 seats and one queue of one: the flood is turned away but for four, masters are not.
    const masters = await stack.request('GET', '/api/v1/namespaces');
    const answers = await Promise.all(flood);
    expect(masters.status).toBe(200);
    const rejected = answers.filter((a) => a.status === 429);
    // (Requests that arrive after a seat was freed may get one: at least one is refused, every one is answered.)
    expect(rejected.length).toBeGreaterThanOrEqual(1);
    expect(answers.every((a) => a.status === 429 || a.status === 504)).toBe(true);
    expect(rejected[0].headers['retry-after']).toBe('1');
    expect(rejected[0].json()).toMatchObject({ kind: 'Status', code: 429, reason: 'TooManyRequests', message: 'Too many requests, please try again later.' });
    expect(rejected[0].headers['x-kubernetes-pf-prioritylevel-uid']).toBe(pl);
    // The ones that got a seat were served (and timed out on the revision, as they should).
    expect(answers.filter((a) => a.status === 504).length).toBeGreaterThanOrEqual(1);

    const metrics = await admin.ok(['get', '--raw', '/metrics']);
    expect(metricTotal(metrics, 'apiserver_flowcontrol_rejected_requests_total', { flow_schema: 'tiny', priority_level: 'tiny', reason: 'queue-full' })).toBe(rejected.length);
    expect(metricTotal(metrics, 'apiserver_flowcontrol_dispatched_requests_total', { flow_schema: 'tiny', priority_level: 'tiny' }) - dispatchedBefore).toBe(FLOOD - rejected.length);
    expect(metricTotal(metrics, 'apiserver_flowcontrol_dispatched_requests_total', { flow_schema: 'exempt', priority_level: 'exempt' })).toBeGreaterThan(0);
    expect(metricTotal(metrics, 'apiserver_flowcontrol_nominal_limit_seats', { priority_level: 'tiny' })).toBe(3);
    expect(metricTotal(metrics, 'apiserver_flowcontrol_request_wait_duration_seconds_count', { flow_schema: 'tiny', execute: 'true' })).toBeGreaterThanOrEqual(1);
    expect(metrics).toMatch(/^apiserver_flowcontrol_current_inqueue_requests\{priority_level="tiny",flow_schema="tiny"\} 0$/m);
    expect(metrics).toMatch(/^apiserver_flowcontrol_current_executing_requests\{priority_level="tiny",flow_schema="tiny"\} 0$/m);
  });

  describe('work estimation and borrowing', () => {
    const NS = 'apf-lists';
    const as = (user: string): Record<string, string> => ({ 'Impersonate-User': user });
    const dump = async (what: string): Promise<string> => admin.ok(['get', '--raw', `/debug/api_priority_and_fairness/${what}`]);
    const metrics = async (): Promise<string> => admin.ok(['get', '--raw', '/metrics']);

    beforeAll(async () => {
      await admin.ok(['create', 'namespace', NS]);
      for (let i = 0; i < 250; i += 25) {
        await Promise.all(Array.from({ length: 25 }, (_, j) => stack.request('POST', `/api/v1/namespaces/${NS}/configmaps`, { body: JSON.stringify({ metadata: { name: `cm-${i + j}` }, data: { k: 'v' } }) })));
      }
      await admin.ok(['apply', '-f', '-'], LIST_FLOOD);
      await admin.k(['create', 'clusterrolebinding', 'apf-quiet', '--clusterrole=cluster-admin', '--user=quiet']);
      await admin.k(['create', 'clusterrolebinding', 'apf-flooder', '--clusterrole=cluster-admin', '--user=flooder']);
      await admin.k(['create', 'clusterrolebinding', 'apf-borrower', '--clusterrole=cluster-admin', '--user=borrower']);
      // Once the front door knows the new objects, flooder's and borrower's requests are classified by them.
      const pl = await uidOf('prioritylevelconfiguration', 'borrower');
      expect(await until(async () => (await stack.request('GET', '/api/v1/namespaces/default', { headers: as('borrower') })).headers['x-kubernetes-pf-prioritylevel-uid'] === pl)).toBe(true);
      const fs = await uidOf('flowschema', 'list-flood');
      expect(await until(async () => (await stack.request('GET', `/api/v1/namespaces/${NS}/configmaps`, { headers: as('flooder') })).headers['x-kubernetes-pf-flowschema-uid'] === fs)).toBe(true);
    });

    it("costs a LIST by the objects it touches: a flooded level queues and refuses LISTs with kube's 429, another user of the level is served first", async () => {
      const before = await metrics();
      // Each of these holds one seat for a few seconds: the cache waits for a revision etcd has not reached, then 504.
      const slow = Array.from({ length: 22 }, () => stack.request('GET', '/api/v1/namespaces/default?resourceVersion=999999999', { headers: as('flooder') }));
      let levels = new Map<string, Record<string, string>>();
      expect(await until(async () => (levels = dumpRows(await dump('dump_priority_levels'))).get('list-flood')?.ExecutingRequests === '22', 10_000)).toBe(true);
      // Every seat taken: of seven LISTs, two wait in flooder's queue (three seats each), five are refused at once.
      const lists = Array.from({ length: 7 }, () => stack.request('GET', `/api/v1/namespaces/${NS}/configmaps`, { headers: as('flooder') }));
      expect(await until(async () => (levels = dumpRows(await dump('dump_priority_levels'))).get('list-flood')?.WaitingRequests === '2', 10_000)).toBe(true);
      expect(levels.get('list-flood')).toMatchObject({ SeatsInUse: '22', NominalLimitSeats: '22', CurrentLimitSeats: '22' });
      const waiting = (await dump('dump_requests')).trimEnd().split('\n').slice(1).map((l) => l.split(',').map((c) => c.trim())).filter((r) => r[0] === 'list-flood');
      expect(waiting.map((r) => [r[1], r[2], r[4], r[6]])).toEqual([
        ['list-flood', '6', 'flooder', '3'],
        ['list-flood', '6', 'flooder', '3'],
      ]);
      // The quiet user's GET waits at the head of a queue of its own, not behind the flood: its virtual finish is the
      // earliest, so the first free seat is its.
      const quiet = stack.request('GET', `/api/v1/namespaces/${NS}/configmaps/cm-1`, { headers: as('quiet') });
      let queued: string[][] = [];
      expect(
        await until(async () => {
          queued = (await dump('dump_requests')).trimEnd().split('\n').slice(1).map((l) => l.split(',').map((c) => c.trim())).filter((r) => r[0] === 'list-flood');
          return queued.some((r) => r[4] === 'quiet');
        }, 3_000),
      ).toBe(true);
      expect(queued.filter((r) => r[4] === 'quiet').map((r) => [r[2], r[3], r[6]])).toEqual([['5', '0', '1']]);
      const answered = await Promise.all([quiet, ...lists]);
      await Promise.all(slow);
      expect(answered[0].status).toBe(200);
      const refused = answered.slice(1).filter((a) => a.status === 429);
      expect(refused.length).toBe(5);
      expect(answered.slice(1).filter((a) => a.status === 200).length).toBe(2);
      expect(refused[0].headers['retry-after']).toBe('1');
      expect(refused[0].json()).toMatchObject({ kind: 'Status', code: 429, reason: 'TooManyRequests', message: 'Too many requests, please try again later.' });
      const after = await metrics();
      const delta = (name: string, labels: Record<string, string>): number => metricTotal(after, name, labels) - metricTotal(before, name, labels);
      expect(delta('apiserver_flowcontrol_rejected_requests_total', { flow_schema: 'list-flood', reason: 'queue-full' })).toBe(5);
      // 22 GETs and the quiet one at one seat, seven LISTs at three.
      expect(delta('apiserver_flowcontrol_work_estimated_seats_sum', { flow_schema: 'list-flood' })).toBe(23 + 7 * 3);
      expect(delta('apiserver_flowcontrol_dispatched_requests_total', { flow_schema: 'list-flood' })).toBe(22 + 1 + 2);
      expect(delta('apiserver_flowcontrol_request_execution_seconds_count', { flow_schema: 'list-flood', type: 'regular' })).toBe(22 + 1 + 2);
      expect(delta('apiserver_flowcontrol_request_wait_duration_seconds_count', { flow_schema: 'list-flood', execute: 'true' })).toBe(3);
      expect(metricTotal(after, 'apiserver_flowcontrol_current_executing_seats', { flow_schema: 'list-flood' })).toBe(0);
    });

    it('lets a level short of seats borrow what idle levels lend, and the dumps and metrics show it', async () => {
      const levelRow = async (): Promise<Record<string, string> | undefined> => dumpRows(await dump('dump_priority_levels')).get('borrower');
      const nominal = Number((await levelRow())?.NominalLimitSeats);
      expect(await levelRow()).toMatchObject({ LowerLimitSeats: String(nominal), UpperLimitSeats: String(2 * nominal) });
      // Ten at a time, each holding a seat for seconds, until the next adjustment (every 10 s) lets the level borrow.
      let stop = false;
      const slow = '/api/v1/namespaces/default?resourceVersion=999999999';
      const client = async (): Promise<void> => {
        while (!stop) await stack.request('GET', slow, { headers: as('borrower') });
      };
      const clients = Array.from({ length: 10 }, client);
      let row: Record<string, string> | undefined;
      try {
        // Its smoothed demand (seats executing and waiting) above what it has: it gets all it may borrow.
        expect(await until(async () => Number((row = await levelRow())?.DemandSeatsSmoothed) > 2 * nominal, 30_000)).toBe(true);
      } finally {
        stop = true;
        await Promise.all(clients);
      }
      expect(row?.CurrentLimitSeats).toBe(String(2 * nominal));
      const m = await metrics();
      expect(metricTotal(m, 'apiserver_flowcontrol_nominal_limit_seats', { priority_level: 'borrower' })).toBe(nominal);
      expect(metricTotal(m, 'apiserver_flowcontrol_upper_limit_seats', { priority_level: 'borrower' })).toBe(2 * nominal);
      expect(metricTotal(m, 'apiserver_flowcontrol_current_limit_seats', { priority_level: 'borrower' })).toBe(2 * nominal);
      expect(metricTotal(m, 'apiserver_flowcontrol_demand_seats_smoothed', { priority_level: 'borrower' })).toBeGreaterThan(2 * nominal);
      expect(metricTotal(m, 'apiserver_flowcontrol_demand_seats_high_watermark', { priority_level: 'borrower' })).toBeGreaterThan(nominal);
      // What it borrowed came from levels that lend: workload-low lends 90% of its seats.
      const lender = dumpRows(await dump('dump_priority_levels')).get('workload-low');
      expect(Number(lender?.CurrentLimitSeats)).toBeLessThan(Number(lender?.NominalLimitSeats));
    });
  });
});

