import { afterEach, describe, expect, it } from 'vitest';
import type { Filter } from '../filters/api-request';
import { echo, serveFilters, type TestServer } from '../filters/filter.testing';
import { withPriorityAndFairness } from '../filters/with-priority-and-fairness';
import { FlowControl } from '../flowcontrol/flow-control';
import { TINY_LEVEL, TINY_SCHEMA } from '../flowcontrol/flowcontrol.testing';
import { dumpPriorityLevels, dumpQueues, dumpRequests, serveApfDump } from './apf.dump';
import { tabwrite } from './tab.writer';

const asTestUser: Filter = (next) => (r) => {
  r.user = { name: String(r.req.headers['x-test-user'] ?? 'alice'), groups: ['system:authenticated'] };
  return next(r);
};

/** The rows of a dump, split back into cells. */
const rows = (text: string): string[][] => text.trimEnd().split('\n').map((l) => l.split(',').map((cell) => cell.trim()));

describe('the APF debug dumps (kube apf_controller_debug.go)', () => {
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  it("prints kube's columns, one row per priority level, per queue and per waiting request", async () => {
    const fc = new FlowControl({ serverConcurrencyLimit: 1, requestWaitLimitMs: 10_000 });
    fc.configure([TINY_SCHEMA], [TINY_LEVEL]);
    const held: Array<() => void> = [];
    server = await serveFilters([asTestUser, withPriorityAndFairness(fc)], (r) => (r.query.has('hold') ? new Promise((resolve) => held.push(() => void echo(r).then(resolve))) : echo(r)));
    const running = server.request('GET', '/api/v1/namespaces?hold', { 'x-test-user': 'flooder' });
    while (held.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    const before = Date.now();
    const queued = server.request('GET', '/api/v1/namespaces/demo/configmaps/one', { 'x-test-user': 'flooder' });
    while (fc.level('tiny')?.queueSet?.waitingRequests !== 1) await new Promise((resolve) => setTimeout(resolve, 5));

    const levels = rows(dumpPriorityLevels(fc));
    // kube's ten columns, then the seats borrowing left each level (ours).
    expect(levels[0]).toEqual([
      ...['PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests', 'DispatchedRequests', 'RejectedRequests', 'TimedoutRequests', 'CancelledRequests'],
      ...['NominalLimitSeats', 'LowerLimitSeats', 'UpperLimitSeats', 'CurrentLimitSeats', 'SeatsInUse', 'DemandSeatsSmoothed'],
    ]);
    expect(levels.find((r) => r[0] === 'tiny')).toEqual(['tiny', '1', 'false', 'false', '1', '1', '1', '0', '0', '0', '1', '1', '1', '1', '1', expect.stringMatching(/^\d+\.\d\d$/)]);
    expect(levels.find((r) => r[0] === 'exempt')?.slice(0, 15)).toEqual(['exempt', '0', 'false', 'false', '0', '0', '0', '0', '0', '0', '0', '0', '1', '0', '0']);
    expect(levels.find((r) => r[0] === 'catch-all')?.slice(1, 10)).toEqual(['0', 'true', 'false', '0', '0', '0', '0', '0', '0']);
    // kube's order: by name.
    expect(levels.slice(1).map((r) => r[0])).toEqual(['catch-all', 'exempt', 'tiny']);

    const queues = rows(dumpQueues(fc));
    expect(queues[0]).toEqual(['PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse', 'NextDispatchR', 'InitialSeatsSum', 'MaxSeatsSum', 'TotalWorkSum']);
    const tiny = queues.filter((r) => r[0] === 'tiny');
    expect(tiny).toHaveLength(1);
    expect(tiny[0]).toEqual(['tiny', '0', '1', '1', '1', expect.stringMatching(/^\d+\.\d{8}ss$/), '1', '1', '0.00300000ss']);

    const requests = rows(dumpRequests(fc, true));
    expect(requests[0]).toEqual(['PriorityLevelName', 'FlowSchemaName', 'QueueIndex', 'RequestIndexInQueue', 'FlowDistingsher', 'ArriveTime', 'InitialSeats', 'FinalSeats', 'AdditionalLatency', 'StartTime', 'UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource']);
    expect(requests).toHaveLength(2);
    const [pl, fs, qi, ri, distinguisher, arrived, initial, final, latency, start, user, verb, path, ns, name, gv, resource, subresource] = requests[1];
    expect([pl, fs, qi, ri, distinguisher, initial, final, latency, start]).toEqual(['tiny', 'tiny', '0', '0', 'flooder', '1', '0', '0s', '0001-01-01T00:00:00Z']);
    expect(Date.parse(arrived)).toBeGreaterThanOrEqual(before - 1);
    expect(arrived).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect([user, verb, path, ns, name, gv, resource]).toEqual(['flooder', 'get', '/api/v1/namespaces/demo/configmaps/one', 'demo', 'one', 'v1', 'configmaps']);
    expect(subresource).toBe('');
    // Without includeRequestDetails, the first ten columns only.
    expect(rows(dumpRequests(fc, false))[1]).toHaveLength(10);

    held[0]();
    expect((await running).status).toBe(200);
    expect((await queued).status).toBe(200);
    expect(rows(dumpRequests(fc, false))).toHaveLength(1);
  });

  it('serves the three paths as tab-aligned plain text, and nothing else', () => {
    const fc = new FlowControl({ serverConcurrencyLimit: 10, requestWaitLimitMs: 10_000 });
    const written: { code?: number; headers?: Record<string, unknown>; body?: string } = {};
    const res = {
      writeHead(code: number, headers: Record<string, unknown>) {
        written.code = code;
        written.headers = headers;
        return this;
      },
      end(body: Buffer) {
        written.body = body.toString();
      },
    } as never;
    expect(serveApfDump(res, '/debug/api_priority_and_fairness/dump_priority_levels', new URLSearchParams(), fc)).toBe(200);
    expect(written.headers?.['Content-Type']).toBe('text/plain; charset=utf-8');
    expect(written.body).toBe(tabwrite(dumpPriorityLevels(fc)));
    expect(written.body?.split('\n')[0]).toMatch(/^PriorityLevelName, ActiveQueues, IsIdle, IsQuiescing, WaitingRequests, ExecutingRequests, DispatchedRequests, RejectedRequests, TimedoutRequests, CancelledRequests, NominalLimitSeats, /);
    expect(serveApfDump(res, '/debug/api_priority_and_fairness/other', new URLSearchParams(), fc)).toBe(0);
  });
});
