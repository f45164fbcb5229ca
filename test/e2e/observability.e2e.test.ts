/**
 * Profiling, the APF dumps and runtime metrics on a real stack with real kubectl (1.27 and 1.33): kube's
 * `kubectl get --raw /debug/pprof/...` and `/debug/api_priority_and_fairness/...`, authorized as non-resource
 * URLs (cluster-admin may; a ServiceAccount gets 403 until RBAC grants it the path), and the process's runtime
 * series in /metrics of the front door and of a backend scraped directly.
 */
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasMetric, kubectlSession, metricTotal, startStack, tokenKubeconfig, type StackHarness } from '@test/support';

let stack: StackHarness;
let tokenConfig = '';

beforeAll(async () => {
  stack = await startStack({ controllerManager: false });
  tokenConfig = tokenKubeconfig(stack);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

interface CpuProfile {
  nodes: Array<{ callFrame: { functionName: string } }>;
  samples: number[];
  timeDeltas: number[];
}

describe.each(['1.27', '1.33'])('kubectl %s', (version) => {
  const ns = `observability-${version.replace('.', '')}`;
  const admin = kubectlSession(version, () => stack.kubeconfig);
  const bearer = kubectlSession(version, () => tokenConfig);

  beforeAll(async () => {
    await admin.ok(['create', 'namespace', ns]);
    await admin.ok(['create', 'serviceaccount', 'profiler', '-n', ns]);
  });

  it('gets a CPU profile and a heap profile from the front door (kubectl get --raw /debug/pprof/...)', async () => {
    const profile = JSON.parse(await admin.ok(['get', '--raw', '/debug/pprof/profile?seconds=1'])) as CpuProfile;
    expect(profile.nodes[0].callFrame.functionName).toBe('(root)');
    expect(profile.samples.length).toBeGreaterThan(0);
    // A sampling heap profile (V8's .heapprofile): what was allocated during that second, maybe nothing.
    const heap = JSON.parse(await admin.ok(['get', '--raw', '/debug/pprof/heap?seconds=1'])) as { head: { callFrame: { functionName: string } }; samples: unknown[] };
    expect(heap.head.callFrame.functionName).toBe('(root)');
    expect(Array.isArray(heap.samples)).toBe(true);
    expect(await admin.ok(['get', '--raw', '/debug/pprof/'])).toContain('Types of profiles available');
  });

  it('prints the APF dumps in kube\'s columns', async () => {
    const levels = await admin.ok(['get', '--raw', '/debug/api_priority_and_fairness/dump_priority_levels']);
    // kube's ten columns, then the seats borrowing left each level.
    expect(levels.split('\n')[0]).toMatch(
      /^PriorityLevelName, +ActiveQueues, +IsIdle, +IsQuiescing, +WaitingRequests, +ExecutingRequests, +DispatchedRequests, +RejectedRequests, +TimedoutRequests, +CancelledRequests, +NominalLimitSeats, +LowerLimitSeats, +UpperLimitSeats, +CurrentLimitSeats, +SeatsInUse, +DemandSeatsSmoothed$/,
    );
    expect(levels).toMatch(/^exempt,\s+0,\s+false,\s+false,\s+0,\s+0,\s+0,\s+0,\s+0,\s+0,\s+0,\s+0,\s+\d+,/m);
    // The dump itself executes at a level (cluster-admin's is exempt, so every limited level may be idle).
    expect(levels).toMatch(/^catch-all,\s+0,\s+(true|false),\s+false,\s+0,\s+\d+,/m);
    const queues = await admin.ok(['get', '--raw', '/debug/api_priority_and_fairness/dump_queues']);
    // Go's tabwriter pads "Index," to the minimum width of 8.
    expect(queues.split('\n')[0]).toBe('PriorityLevelName, Index,  PendingRequests, ExecutingRequests, SeatsInUse, NextDispatchR, InitialSeatsSum, MaxSeatsSum, TotalWorkSum');
    expect(queues).toMatch(/^global-default,\s+0,\s+0,\s+\d+,\s+\d+,\s+\d+\.\d{8}ss,\s+0,\s+0,\s+0\.00000000ss$/m);
    const requests = await admin.ok(['get', '--raw', '/debug/api_priority_and_fairness/dump_requests?includeRequestDetails=1']);
    expect(requests.split('\n')[0]).toMatch(/^PriorityLevelName, FlowSchemaName, QueueIndex, RequestIndexInQueue, FlowDistingsher, ArriveTime, InitialSeats, FinalSeats, AdditionalLatency, StartTime, +UserName, +Verb, +APIPath, +Namespace, +Name, +APIVersion, +Resource, +SubResource$/);
  });

  it('refuses a ServiceAccount without rights (403), and profiles for one RBAC grants the path', async () => {
    const token = (await admin.ok(['create', 'token', 'profiler', '-n', ns])).trim();
    const user = `system:serviceaccount:${ns}:profiler`;
    const denied = await bearer.k(['--token', token, 'get', '--raw', '/debug/pprof/heap?seconds=1']);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain(`Error from server (Forbidden): forbidden: User "${user}" cannot get path "/debug/pprof/heap"`);
    const deniedApf = await bearer.k(['--token', token, 'get', '--raw', '/debug/api_priority_and_fairness/dump_requests']);
    expect(deniedApf.stderr).toContain(`cannot get path "/debug/api_priority_and_fairness/dump_requests"`);

    await admin.ok(['create', 'clusterrole', `pprof-${ns}`, '--verb=get', '--non-resource-url=/debug/pprof/*']);
    await admin.ok(['create', 'clusterrolebinding', `pprof-${ns}`, `--clusterrole=pprof-${ns}`, `--serviceaccount=${ns}:profiler`]);
    let granted = await bearer.k(['--token', token, 'get', '--raw', '/debug/pprof/heap?seconds=1']);
    for (let i = 0; i < 50 && granted.code !== 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      granted = await bearer.k(['--token', token, 'get', '--raw', '/debug/pprof/heap?seconds=1']);
    }
    expect(granted.code, granted.stderr).toBe(0);
    expect(JSON.parse(granted.stdout)).toHaveProperty('head');
    // The grant covers /debug/pprof only.
    expect((await bearer.k(['--token', token, 'get', '--raw', '/debug/api_priority_and_fairness/dump_requests'])).code).not.toBe(0);
  });

  it('exposes runtime metrics in the front door\'s /metrics', async () => {
    const metrics = await admin.ok(['get', '--raw', '/metrics']);
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_open_fds', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'go_goroutines', 'go_memstats_heap_alloc_bytes', 'go_gc_duration_seconds_count']) {
      expect(hasMetric(metrics, name), name).toBe(true);
    }
  });
  it("observes the remaining lifetime of the admin's client certificate (apiserver_client_certificate_expiration_seconds)", async () => {
    const metrics = await admin.ok(['get', '--raw', '/metrics']);
    expect(metricTotal(metrics, 'apiserver_client_certificate_expiration_seconds_count')).toBeGreaterThan(0);
    // The local PKI's admin certificate lives longer than a week: nothing in the buckets below 604800 s.
    expect(metricTotal(metrics, 'apiserver_client_certificate_expiration_seconds_bucket', { le: '604800' })).toBe(0);
    expect(metricTotal(metrics, 'apiserver_client_certificate_expiration_seconds_sum')).toBeGreaterThan(604800);
  });
});

describe('the backends', () => {
  it('profile themselves behind their own authorization (core-api and extensions, scraped directly)', async () => {
    for (const backend of [stack.core, stack.extensions]) {
      const profile = await backend.request('GET', '/debug/pprof/profile?seconds=1');
      expect(profile.status).toBe(200);
      expect((JSON.parse(profile.body) as CpuProfile).nodes.length).toBeGreaterThan(1);
      const anonymous = await backend.request('GET', '/debug/pprof/profile?seconds=1', { anonymous: true });
      expect([401, 403]).toContain(anonymous.status);
      expect(JSON.parse(anonymous.body)).toMatchObject({ kind: 'Status' });
    }
  });

  it('have no APF dumps (APF runs at the front door only) and runtime metrics in their /metrics', async () => {
    expect((await stack.core.request('GET', '/debug/api_priority_and_fairness/dump_priority_levels')).status).toBe(404);
    expect(hasMetric((await stack.core.request('GET', '/metrics')).body, 'process_resident_memory_bytes')).toBe(true);
  });
});
