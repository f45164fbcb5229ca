/**
 * API Priority and Fairness through the real stack with kubectl 1.27 and 1.33: kube's bootstrap FlowSchemas and
 * priority levels are served and printed as kube prints them, every response names the FlowSchema and level that
 * classified it, and a level with tiny limits answers 429 + Retry-After to its flow under concurrent load while
 * system:masters is not held up. The flooding requests impersonate a user (`Impersonate-User`, what `--as` sends).
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
});
