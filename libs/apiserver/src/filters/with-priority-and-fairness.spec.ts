import { register } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS } from '../flowcontrol/flowcontrol.bootstrap';
import { FlowControl } from '../flowcontrol/flow-control';
import { TINY_LEVEL, TINY_SCHEMA } from '../flowcontrol/flowcontrol.testing';
import type { Filter } from './api-request';
import { echo, serveFilters, type TestServer } from './filter.testing';
import { withPriorityAndFairness } from './with-priority-and-fairness';

/** Stands in for authentication: the user named by the X-Test-User header (masters when it says so). */
const asTestUser: Filter = (next) => (r) => {
  const name = String(r.req.headers['x-test-user'] ?? 'alice');
  r.user = { name, groups: name === 'admin' ? ['system:masters', 'system:authenticated'] : ['system:authenticated'] };
  return next(r);
};

async function metricValue(name: string, labels: Record<string, string>): Promise<number> {
  const m = (await register.getSingleMetric(name)?.get())?.values ?? [];
  return m.filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want)).reduce((sum, v) => sum + v.value, 0);
}

describe('withPriorityAndFairness', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('names the matched FlowSchema and priority level, queues a level past its seats and answers 429 when its queues are full', async () => {
    // 1 share of 6 (mandatory 5 + tiny 1) of a 1-seat server: one seat, one queue of one.
    const fc = new FlowControl({ serverConcurrencyLimit: 1, requestWaitLimitMs: 10_000 });
    fc.configure([TINY_SCHEMA], [TINY_LEVEL]);
    expect(fc.level('tiny')?.nominalConcurrencyLimit).toBe(1);
    const held: Array<() => void> = [];
    server = await serveFilters([asTestUser, withPriorityAndFairness(fc)], (r) => (r.query.has('hold') ? new Promise((resolve) => held.push(() => void echo(r).then(resolve))) : echo(r)));
    const rejectedBefore = await metricValue('apiserver_flowcontrol_rejected_requests_total', { flow_schema: 'tiny', reason: 'queue-full' });

    const running = server.request('GET', '/api/v1/namespaces?hold', { 'x-test-user': 'flooder' });
    while (held.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    const queued = server.request('GET', '/api/v1/namespaces', { 'x-test-user': 'flooder' });
    while (fc.level('tiny')?.queueSet?.waitingRequests !== 1) await new Promise((resolve) => setTimeout(resolve, 5));
    const rejected = await server.request('GET', '/api/v1/namespaces', { 'x-test-user': 'flooder' });
    expect(rejected.status).toBe(429);
    expect(rejected.headers['retry-after']).toBe('1');
    expect(rejected.json()).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', message: 'Too many requests, please try again later.', code: 429 });
    expect(rejected.headers['x-kubernetes-pf-flowschema-uid']).toBe('tiny-fs');
    expect(rejected.headers['x-kubernetes-pf-prioritylevel-uid']).toBe('tiny-pl');
    expect(await metricValue('apiserver_flowcontrol_rejected_requests_total', { flow_schema: 'tiny', reason: 'queue-full' })).toBe(rejectedBefore + 1);
    expect(await metricValue('apiserver_flowcontrol_current_inqueue_requests', { flow_schema: 'tiny' })).toBe(1);

    // kube's in-flight gauge is kept by APF too: the one request executing is a read.
    expect(await metricValue('apiserver_current_inflight_requests', { request_kind: 'readOnly' })).toBe(1);
    // Other levels and the exempt one are not held up by the tiny level.
    const admin = await server.request('GET', '/api/v1/namespaces', { 'x-test-user': 'admin' });
    expect(admin.status).toBe(200);
    expect(admin.headers['x-kubernetes-pf-flowschema-uid']).toBe('');
    // A watch takes a seat until it is set up (kube's watch initialization): the full level turns it away too.
    const watch = await server.request('GET', '/api/v1/namespaces?watch=true', { 'x-test-user': 'flooder' });
    expect(watch.status).toBe(429);

    held[0]();
    expect((await running).status).toBe(200);
    expect((await queued).status).toBe(200);
    expect(await metricValue('apiserver_flowcontrol_current_inqueue_requests', { flow_schema: 'tiny' })).toBe(0);
    expect(await metricValue('apiserver_flowcontrol_request_wait_duration_seconds', { flow_schema: 'tiny', execute: 'true' })).toBeGreaterThanOrEqual(0);
    expect(await metricValue('apiserver_flowcontrol_dispatched_requests_total', { flow_schema: 'tiny' })).toBeGreaterThanOrEqual(2);
    expect(await metricValue('apiserver_flowcontrol_nominal_limit_seats', { priority_level: 'tiny' })).toBe(1);
  });

  it('answers 429 when a request waited its whole wait limit', async () => {
    const fc = new FlowControl({ serverConcurrencyLimit: 1, requestWaitLimitMs: 50 });
    fc.configure([...BOOTSTRAP_FLOW_SCHEMAS, TINY_SCHEMA], [...BOOTSTRAP_PRIORITY_LEVELS, TINY_LEVEL]);
    // With the suggested levels too the tiny level still gets ceil(1 × 1/246) = 1 seat.
    const held: Array<() => void> = [];
    server = await serveFilters([asTestUser, withPriorityAndFairness(fc)], (r) => (r.query.has('hold') ? new Promise((resolve) => held.push(() => void echo(r).then(resolve))) : echo(r)));
    const running = server.request('GET', '/api/v1/pods?hold', { 'x-test-user': 'flooder' });
    while (held.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    const timedOut = await server.request('GET', '/api/v1/pods', { 'x-test-user': 'flooder' });
    expect(timedOut.status).toBe(429);
    expect(await metricValue('apiserver_flowcontrol_rejected_requests_total', { flow_schema: 'tiny', reason: 'time-out' })).toBeGreaterThanOrEqual(1);
    held[0]();
    expect((await running).status).toBe(200);
  });

  it("learns a resource's stored count from the LIST answers of the server behind, costs the next LIST by it, and keeps it from the client", async () => {
    const fc = new FlowControl({ serverConcurrencyLimit: 600, requestWaitLimitMs: 10_000, borrowingPeriodMs: 0 });
    server = await serveFilters([asTestUser, withPriorityAndFairness(fc)], async (r) => {
      // As the proxy answers: the backend's head, lower-case names, in one writeHead.
      r.res.writeHead(200, { 'content-type': 'application/json', 'x-kube-ts-storage-objects': '450' });
      r.res.end('{}');
      return 200;
    });
    const seats = async (): Promise<number> =>
      ((await register.getSingleMetric('apiserver_flowcontrol_work_estimated_seats')?.get())?.values ?? [])
        .filter((v) => (v as { metricName?: string }).metricName === 'apiserver_flowcontrol_work_estimated_seats_sum' && v.labels.flow_schema === 'global-default')
        .reduce((sum, v) => sum + v.value, 0);
    const before = await seats();
    const first = await server.request('GET', '/api/v1/namespaces/a/configmaps');
    expect(first.status).toBe(200);
    expect(first.headers['x-kube-ts-storage-objects']).toBeUndefined();
    expect(fc.objectCounts.get('configmaps')).toBe(450);
    // Unknown at first: one seat; then ceil(450 / 100) = 5 (global-default may give one request up to 7).
    expect((await seats()) - before).toBe(1);
    await server.request('GET', '/api/v1/namespaces/a/configmaps');
    expect((await seats()) - before).toBe(1 + 5);
  });
});

