import { describe, expect, it } from 'vitest';
import type { RequestInfo } from '../request-info';
import { ObjectCountTracker, WatchTracker } from './flowcontrol.trackers';
import { DEFAULT_WORK_ESTIMATOR_CONFIG, WorkEstimator, groupResourceKey, type ObjectCount } from './flowcontrol.work-estimator';

type Info = Pick<RequestInfo, 'verb' | 'group' | 'resource' | 'name' | 'subresource'>;
type Case = [name: string, uri: string, info: Info | undefined, counts: Record<string, number>, countErr: ObjectCount | undefined, watchCount: number, maxSeats: number, expected: [initialSeats: number, finalSeats: number, additionalLatencyMs: number]];

/** kube's TestWorkEstimator (k8s.io/apiserver pkg/util/flowcontrol/request/width_test.go, kube 1.33), case for case. */
const KUBE_CASES: Case[] = [
  ["request has no RequestInfo", "http://server/apis/", undefined, {}, undefined, 0, 10, [10, 0, 0]],
  ["request verb is not list", "http://server/apis/", { verb: "get", group: "", resource: "", name: "", subresource: "" }, {}, undefined, 0, 10, [1, 0, 0]],
  ["request verb is list, conversion to ListOptions returns error", "http://server/apis/foo.bar/v1/events?limit=invalid", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 799}, undefined, 0, 10, [10, 0, 0]],
  ["request verb is list, has limit and resource version is 1", "http://server/apis/foo.bar/v1/events?limit=399&resourceVersion=1", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 699}, undefined, 0, 10, [8, 0, 0]],
  ["request verb is list, limit not set", "http://server/apis/foo.bar/v1/events?resourceVersion=1", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 699}, undefined, 0, 10, [7, 0, 0]],
  ["request verb is list, resource version not set", "http://server/apis/foo.bar/v1/events?limit=399", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 699}, undefined, 0, 10, [8, 0, 0]],
  ["request verb is list, no query parameters, count known", "http://server/apis/foo.bar/v1/events", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 399}, undefined, 0, 10, [8, 0, 0]],
  ["request verb is list, no query parameters, count not known", "http://server/apis/foo.bar/v1/events", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {}, 'not-found', 0, 10, [1, 0, 0]],
  ["request verb is list, continuation is set", "http://server/apis/foo.bar/v1/events?continue=token&limit=399", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 699}, undefined, 0, 10, [8, 0, 0]],
  ["request verb is list, resource version is zero", "http://server/apis/foo.bar/v1/events?limit=299&resourceVersion=0", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 399}, undefined, 0, 10, [4, 0, 0]],
  ["request verb is list, resource version is zero, no limit", "http://server/apis/foo.bar/v1/events?resourceVersion=0", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 799}, undefined, 0, 0, [8, 0, 0]],
  ["request verb is list, resource version match is Exact", "http://server/apis/foo.bar/v1/events?resourceVersion=foo&resourceVersionMatch=Exact&limit=399", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 699}, undefined, 0, 10, [8, 0, 0]],
  ["request verb is list, resource version match is NotOlderThan, limit not specified", "http://server/apis/foo.bar/v1/events?resourceVersion=foo&resourceVersionMatch=NotOlderThan", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 799}, undefined, 0, 10, [8, 0, 0]],
  ["request verb is list, maximum is capped", "http://server/apis/foo.bar/v1/events?resourceVersion=foo", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 1999}, undefined, 0, 10, [10, 0, 0]],
  ["request verb is list, maximum is capped, lower max seats", "http://server/apis/foo.bar/v1/events?resourceVersion=foo", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 1999}, undefined, 0, 5, [5, 0, 0]],
  ["request verb is list, list from cache, count not known", "http://server/apis/foo.bar/v1/events?resourceVersion=0&limit=799", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {}, 'not-found', 0, 10, [1, 0, 0]],
  ["request verb is list, object count is stale", "http://server/apis/foo.bar/v1/events?limit=499", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 799}, 'stale', 0, 10, [10, 0, 0]],
  ["request verb is list, object count is not found", "http://server/apis/foo.bar/v1/events?limit=499", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {}, 'not-found', 0, 10, [1, 0, 0]],
  ["request verb is list, count getter throws unknown error", "http://server/apis/foo.bar/v1/events?limit=499", { verb: "list", group: "foo.bar", resource: "events", name: "", subresource: "" }, {}, new Error('unknown error'), 0, 10, [10, 0, 0]],
  ["request verb is list, metadata.name specified", "http://server/apis/foo.bar/v1/events?fieldSelector=metadata.name%3Dtest", { verb: "list", group: "foo.bar", resource: "events", name: "test", subresource: "" }, {"events.foo.bar": 799}, undefined, 0, 10, [1, 0, 0]],
  ["request verb is list, metadata.name, resourceVersion and limit specified", "http://server/apis/foo.bar/v1/events?fieldSelector=metadata.name%3Dtest&limit=500&resourceVersion=0", { verb: "list", group: "foo.bar", resource: "events", name: "test", subresource: "" }, {"events.foo.bar": 799}, undefined, 0, 10, [1, 0, 0]],
  ["request verb is watch, sendInitialEvents is nil", "http://server/apis/foo.bar/v1/events?watch=true", { verb: "watch", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 799}, undefined, 0, 0, [1, 0, 0]],
  ["request verb is watch, sendInitialEvents is false", "http://server/apis/foo.bar/v1/events?watch=true&sendInitialEvents=false", { verb: "watch", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 799}, undefined, 0, 0, [1, 0, 0]],
  ["request verb is watch, sendInitialEvents is true", "http://server/apis/foo.bar/v1/events?watch=true&sendInitialEvents=true", { verb: "watch", group: "foo.bar", resource: "events", name: "", subresource: "" }, {"events.foo.bar": 799}, undefined, 0, 0, [8, 0, 0]],
  ["request verb is create, no watches", "http://server/apis/foo.bar/v1/foos", { verb: "create", group: "foo.bar", resource: "foos", name: "", subresource: "" }, {}, undefined, 0, 10, [1, 0, 0]],
  ["request verb is create, watches registered", "http://server/apis/foo.bar/v1/foos", { verb: "create", group: "foo.bar", resource: "foos", name: "", subresource: "" }, {}, undefined, 29, 10, [1, 3, 5]],
  ["request verb is create, watches registered, no additional latency", "http://server/apis/foo.bar/v1/foos", { verb: "create", group: "foo.bar", resource: "foos", name: "", subresource: "" }, {}, undefined, 5, 10, [1, 0, 0]],
  ["request verb is create, watches registered, maximum is capped", "http://server/apis/foo.bar/v1/foos", { verb: "create", group: "foo.bar", resource: "foos", name: "", subresource: "" }, {}, undefined, 199, 10, [1, 10, 10]],
  ["request verb is update, no watches", "http://server/apis/foo.bar/v1/foos/myfoo", { verb: "update", group: "foo.bar", resource: "foos", name: "", subresource: "" }, {}, undefined, 0, 10, [1, 0, 0]],
  ["request verb is update, watches registered", "http://server/apis/foor.bar/v1/foos/myfoo", { verb: "update", group: "foo.bar", resource: "foos", name: "", subresource: "" }, {}, undefined, 29, 10, [1, 3, 5]],
  ["request verb is patch, no watches", "http://server/apis/foo.bar/v1/foos/myfoo", { verb: "patch", group: "foo.bar", resource: "foos", name: "", subresource: "" }, {}, undefined, 0, 10, [1, 0, 0]],
  ["request verb is patch, watches registered", "http://server/apis/foo.bar/v1/foos/myfoo", { verb: "patch", group: "foo.bar", resource: "foos", name: "", subresource: "" }, {}, undefined, 29, 10, [1, 3, 5]],
  ["request verb is patch, watches registered, lower max seats", "http://server/apis/foo.bar/v1/foos/myfoo", { verb: "patch", group: "foo.bar", resource: "foos", name: "", subresource: "" }, {}, undefined, 100, 5, [1, 5, 10]],
  ["request verb is delete, no watches", "http://server/apis/foo.bar/v1/foos/myfoo", { verb: "delete", group: "foo.bar", resource: "foos", name: "", subresource: "" }, {}, undefined, 0, 10, [1, 0, 0]],
  ["request verb is delete, watches registered", "http://server/apis/foo.bar/v1/foos/myfoo", { verb: "delete", group: "foo.bar", resource: "foos", name: "", subresource: "" }, {}, undefined, 29, 10, [1, 3, 5]],
  ["creating token for service account", "http://server/api/v1/namespaces/foo/serviceaccounts/default/token", { verb: "create", group: "v1", resource: "serviceaccounts", name: "", subresource: "token" }, {}, undefined, 5777, 10, [1, 0, 0]],
  ["creating service account", "http://server/api/v1/namespaces/foo/serviceaccounts", { verb: "create", group: "v1", resource: "serviceaccounts", name: "", subresource: "" }, {}, undefined, 1000, 10, [1, 10, 50]],
];

const full = (i: Info): RequestInfo => ({ isResourceRequest: true, path: '/', apiPrefix: 'apis', version: 'v1', namespace: '', ...i });

describe('WorkEstimator (kube TestWorkEstimator)', () => {
  // kube's test runs with the WatchList gate on and consistent LISTs read from etcd (its etcd has no progress notify).
  const config = { ...DEFAULT_WORK_ESTIMATOR_CONFIG, consistentListFromCache: false, watchList: true };

  it.each(KUBE_CASES)('%s', (_name, uri, info, counts, countErr, watchCount, maxSeats, [initialSeats, finalSeats, additionalLatencyMs]) => {
    const estimator = new WorkEstimator(
      (key) => countErr ?? counts[key] ?? 0,
      () => watchCount,
      () => maxSeats,
      config,
    );
    const query = new URL(uri).searchParams;
    const we = estimator.estimate(info ? full(info) : undefined, query, 'testPL');
    expect([we.initialSeats, we.finalSeats, we.additionalLatencyMs]).toEqual([initialSeats, finalSeats, additionalLatencyMs]);
  });

  it('reads a consistent LIST from the watch cache as ours does: the stored count, not twice the limit', () => {
    const estimator = new WorkEstimator(() => 699, () => 0, () => 10);
    const info = full({ verb: 'list', group: 'foo.bar', resource: 'events', name: '', subresource: '' });
    expect(estimator.estimate(info, new URLSearchParams('limit=399'), 'pl').initialSeats).toBe(7);
    // A paged LIST of a later page is read from etcd: twice the page.
    expect(estimator.estimate(info, new URLSearchParams('limit=99&continue=x'), 'pl').initialSeats).toBe(2);
    // A label selector read from etcd touches every stored object and the page.
    expect(estimator.estimate(info, new URLSearchParams('limit=100&continue=x&labelSelector=a%3Db'), 'pl').initialSeats).toBe(8);
  });

  it('keys counts as kube\'s GroupResource.String()', () => {
    expect(groupResourceKey('', 'configmaps')).toBe('configmaps');
    expect(groupResourceKey('apps', 'deployments')).toBe('deployments.apps');
  });
});

describe('ObjectCountTracker', () => {
  it('answers the last count, "not-found" for a resource never counted, and forgets one not refreshed for an hour', () => {
    let now = 0;
    const t = new ObjectCountTracker(() => now);
    expect(t.get('configmaps')).toBe('not-found');
    t.set('configmaps', 201);
    t.set('configmaps', -1);
    expect(t.get('configmaps')).toBe(201);
    now = 60 * 60 * 1000 + 1;
    expect(t.get('configmaps')).toBe('not-found');
  });
});

describe('WatchTracker (kube TestRegisterWatch, TestGetInterestedWatchCount)', () => {
  const info = (verb: string, resource: string, namespace = '', name = '', group = ''): RequestInfo => ({ isResourceRequest: true, path: '/', apiPrefix: group ? 'apis' : 'api', version: 'v1', verb, group, resource, namespace, name, subresource: '' });

  it('counts the watches of the resource, of the namespace and of the object a write touches', () => {
    const w = new WatchTracker();
    const q = new URLSearchParams();
    const forget = [
      w.register(info('watch', 'pods'), q),
      w.register(info('watch', 'pods', 'ns1'), q),
      w.register(info('watch', 'pods', 'ns1'), q),
      w.register(info('watch', 'pods', 'ns2'), q),
      w.register(info('watch', 'pods', 'ns1', 'p1'), q),
      w.register(info('watch', 'secrets', 'ns1'), q),
      w.register(info('watch', 'deployments', '', '', 'apps'), q),
    ];
    expect(w.register(info('list', 'pods'), q)).toBeUndefined();
    expect(w.interestedWatchCount(info('create', 'pods', 'ns1'))).toBe(3);
    expect(w.interestedWatchCount(info('update', 'pods', 'ns1', 'p1'))).toBe(4);
    expect(w.interestedWatchCount(info('delete', 'pods', 'ns2', 'p2'))).toBe(2);
    expect(w.interestedWatchCount(info('create', 'deployments', 'ns1', '', 'apps'))).toBe(1);
    // Reads notify nobody.
    expect(w.interestedWatchCount(info('get', 'pods', 'ns1', 'p1'))).toBe(0);
    forget[1]?.();
    forget[1]?.();
    expect(w.interestedWatchCount(info('create', 'pods', 'ns1'))).toBe(2);
  });

  it('does not count a pods watch of one node (kube\'s spec.nodeName index)', () => {
    const w = new WatchTracker();
    w.register(info('watch', 'pods'), new URLSearchParams('fieldSelector=spec.nodeName%3Dnode1'));
    w.register(info('watch', 'pods'), new URLSearchParams('fieldSelector=spec.nodeName%3D'));
    expect(w.interestedWatchCount(info('create', 'pods', 'ns'))).toBe(1);
  });
});
