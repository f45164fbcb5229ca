/**
 * The statefulset, job, cronjob and ttl-after-finished controllers on simulated nodes (KUBE_SIMULATED_NODES=3),
 * with the oldest and the newest kubectl: a StatefulSet rolls out in order with its claims, rolls an update and
 * goes back with `rollout undo`; a Job completes (`kubectl wait --for=condition=complete`), an Indexed Job
 * completes every index, a suspended Job has no pods; a CronJob makes Jobs (`kubectl create job --from` and its
 * own schedule), and one whose schedule never comes warns InvalidSchedule.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startControllerManager, type ControllerManagerHandle } from '../support/controller-manager.boot';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

// Tests here wait up to a minute for the stack to converge (until(…, 60_000)); on a loaded CI machine such a wait
// and the rest of the test together outgrow the default 60 s.
vi.setConfig({ testTimeout: 180_000 });

type Json = Record<string, any>;

const STS = (name: string, image: string, policy = 'OrderedReady'): string =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      serviceName: name,
      replicas: 3,
      podManagementPolicy: policy,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'web', image }] } },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    },
  });

const JOB = (name: string, spec: Json): string =>
  JSON.stringify({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36' }] } }, ...spec } });

const DS = (name: string, image: string, nodeSelector: Record<string, string>): string =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { terminationGracePeriodSeconds: 0, nodeSelector, containers: [{ name: 'agent', image }] } },
    },
  });

let stack: StackHarness;
let cm: ControllerManagerHandle;

beforeAll(async () => {
  stack = await startStack({ controllerManager: false });
  cm = await startControllerManager(stack.url, stack.pki, { simulation: { nodes: 3, capacity: { cpu: '4', memory: '8Gi', pods: '110' }, podReadyDelayMs: 300, podCompleteDelayMs: 1000, podDeleteDelayMs: 300, leaseRenewMs: 2000 } });
}, 120_000);

afterAll(async () => {
  await cm?.stop();
  await stack?.stop();
});

describe('pod garbage collector', () => {
  const { ok } = kubectlSession('1.33', () => stack.kubeconfig);

  it('deletes a pod bound to a node that no longer exists, after the quarantine', async () => {
    await ok(['create', 'namespace', 'podgc']);
    expect(await until(async () => (await ok(['get', 'sa', '-n', 'podgc', '-o', 'name'])).includes('default'), 30_000)).toBe(true);
    await ok(['apply', '-n', 'podgc', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stranded' }, spec: { nodeName: 'gone-node', containers: [{ name: 'c', image: 'busybox:1.36' }] } }));
    // 20 s check period + 40 s quarantine.
    expect(await until(async () => !(await ok(['get', 'pods', '-n', 'podgc', '-o', 'name'])).includes('stranded'), 150_000)).toBe(true);
  }, 180_000);
});

describe.each(['1.27', '1.33'])('stateful and batch controllers with kubectl %s on simulated nodes', (version) => {
  const { k, ok } = kubectlSession(version, () => stack.kubeconfig);
  const ns = `sb-${version.replace('.', '')}`;
  const json = async (args: string[]): Promise<Json> => JSON.parse(await ok([...args, '-n', ns, '-o', 'json'])) as Json;
  const apply = (manifest: string): Promise<string> => ok(['apply', '-n', ns, '-f', '-'], manifest);

  beforeAll(async () => {
    await ok(['create', 'namespace', ns]);
    expect(await until(async () => (await k(['get', 'sa', 'default', '-n', ns])).code === 0, 30_000)).toBe(true);
  });

  it('rolls a StatefulSet out in order, with its claims, and `rollout status` completes', async () => {
    await apply(STS('db', 'nginx:1.25'));
    expect(await ok(['rollout', 'status', 'sts/db', '-n', ns, '--timeout=120s'])).toMatch(/partitioned roll out complete|roll out complete/);
    const pods = ((await json(['get', 'pods', '-l', 'app=db'])).items as Json[]).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    expect(pods.map((p) => p.metadata.name)).toEqual(['db-0', 'db-1', 'db-2']);
    // OrderedReady: each pod was created after the one before it was Ready.
    for (let i = 1; i < 3; i++) {
      const readyBefore = Date.parse(pods[i - 1].status.conditions.find((c: Json) => c.type === 'Ready').lastTransitionTime);
      expect(Date.parse(pods[i].metadata.creationTimestamp)).toBeGreaterThanOrEqual(readyBefore);
    }
    expect(pods[1].metadata.labels).toMatchObject({ 'statefulset.kubernetes.io/pod-name': 'db-1', 'apps.kubernetes.io/pod-index': '1' });
    expect(pods[1].spec).toMatchObject({ hostname: 'db-1', subdomain: 'db' });
    expect(pods[1].spec.volumes).toContainEqual({ name: 'data', persistentVolumeClaim: { claimName: 'data-db-1' } });
    expect((await json(['get', 'pvc'])).items.map((c: Json) => c.metadata.name).sort()).toEqual(['data-db-0', 'data-db-1', 'data-db-2']);
    const sts = await json(['get', 'sts', 'db']);
    expect(sts.status).toMatchObject({ replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 3, updatedReplicas: 3, observedGeneration: 1 });
    expect(sts.status.currentRevision).toBe(sts.status.updateRevision);
    expect(pods[0].metadata.labels['controller-revision-hash']).toBe(sts.status.currentRevision);
  });

  it('rolls an update from the highest ordinal, keeps ControllerRevisions, and `rollout undo` goes back', async () => {
    const before = (await json(['get', 'sts', 'db'])).status.currentRevision as string;
    await ok(['set', 'image', 'sts/db', 'web=nginx:1.26', '-n', ns]);
    expect(await ok(['rollout', 'status', 'sts/db', '-n', ns, '--timeout=120s'])).toMatch(/roll out complete/);
    const sts = await json(['get', 'sts', 'db']);
    expect(sts.status.updateRevision).not.toBe(before);
    expect(sts.status).toMatchObject({ currentRevision: sts.status.updateRevision, updatedReplicas: 3, readyReplicas: 3, observedGeneration: 2 });
    const revisions = (await json(['get', 'controllerrevisions'])).items as Json[];
    expect(revisions.filter((r) => r.metadata.ownerReferences?.[0]?.name === 'db').map((r) => r.revision).sort()).toEqual([1, 2]);
    expect(await ok(['rollout', 'history', 'sts/db', '-n', ns])).toMatch(/REVISION\s+CHANGE-CAUSE\s*\n1\s+<none>\s*\n2\s+<none>/);
    expect(await ok(['rollout', 'undo', 'sts/db', '-n', ns])).toContain('rolled back');
    expect(await ok(['rollout', 'status', 'sts/db', '-n', ns, '--timeout=120s'])).toMatch(/roll out complete/);
    const back = await json(['get', 'sts', 'db']);
    expect(back.spec.template.spec.containers[0].image).toBe('nginx:1.25');
    expect(back.status.currentRevision).toBe(before);
    for (const p of (await json(['get', 'pods', '-l', 'app=db'])).items as Json[]) expect(p.spec.containers[0].image).toBe('nginx:1.25');
  });

  it('scales a StatefulSet down from the highest ordinal', async () => {
    await ok(['scale', 'sts/db', '--replicas=1', '-n', ns]);
    expect(await until(async () => ((await json(['get', 'pods', '-l', 'app=db'])).items as Json[]).map((p) => p.metadata.name).join() === 'db-0', 60_000)).toBe(true);
    expect(await until(async () => (await json(['get', 'sts', 'db'])).status.replicas === 1, 30_000)).toBe(true);
  });

  it('completes a Job and `kubectl wait --for=condition=complete` returns', async () => {
    await apply(JOB('pi', { completions: 3, parallelism: 2 }));
    expect(await ok(['wait', '--for=condition=complete', 'job/pi', '-n', ns, '--timeout=120s'])).toContain('condition met');
    const job = await json(['get', 'job', 'pi']);
    // active and failed are omitempty in Go: at 0 kube leaves them out; ready and terminating are pointers.
    expect(job.status).toMatchObject({ succeeded: 3, ready: 0 });
    expect(Object.keys(job.status)).not.toContain('active');
    expect(Object.keys(job.status)).not.toContain('failed');
    expect(job.status.completionTime).toBeTruthy();
    expect(job.status.conditions.map((c: Json) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
      ['Complete', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
    ]);
    const pods = (await json(['get', 'pods', '-l', 'job-name=pi'])).items as Json[];
    expect(pods).toHaveLength(3);
    // The tracking finalizer is gone once a pod is counted.
    for (const p of pods) expect(p.metadata.finalizers ?? []).not.toContain('batch.kubernetes.io/job-tracking');
    expect(await ok(['get', 'job', 'pi', '-n', ns])).toMatch(/pi\s+(Complete\s+)?3\/3/);
  });

  it('runs every index of an Indexed Job once, with its index and hostname', async () => {
    await apply(JOB('ix', { completions: 3, parallelism: 3, completionMode: 'Indexed' }));
    expect(await ok(['wait', '--for=condition=complete', 'job/ix', '-n', ns, '--timeout=120s'])).toContain('condition met');
    expect((await json(['get', 'job', 'ix'])).status).toMatchObject({ succeeded: 3, completedIndexes: '0-2' });
    const pods = ((await json(['get', 'pods', '-l', 'job-name=ix'])).items as Json[]).sort((a, b) => a.spec.hostname.localeCompare(b.spec.hostname));
    expect(pods.map((p) => [p.metadata.annotations['batch.kubernetes.io/job-completion-index'], p.spec.hostname])).toEqual([
      ['0', 'ix-0'],
      ['1', 'ix-1'],
      ['2', 'ix-2'],
    ]);
    expect(pods[0].spec.containers[0].env).toContainEqual(expect.objectContaining({ name: 'JOB_COMPLETION_INDEX' }));
  });

  it('keeps a suspended Job without pods, with the Suspended condition, and runs it when resumed', async () => {
    await apply(JOB('later', { suspend: true, ttlSecondsAfterFinished: 1 }));
    expect(await until(async () => (await json(['get', 'job', 'later'])).status?.conditions?.some((c: Json) => c.type === 'Suspended' && c.status === 'True' && c.reason === 'JobSuspended'), 30_000)).toBe(true);
    expect((await json(['get', 'pods', '-l', 'job-name=later'])).items).toHaveLength(0);
    await ok(['patch', 'job', 'later', '-n', ns, '-p', '{"spec":{"suspend":false}}']);
    // Completes, then ttlSecondsAfterFinished deletes it.
    expect(await until(async () => (await k(['get', 'job', 'later', '-n', ns])).code !== 0, 90_000)).toBe(true);
  });

  it("releases a deleted Job's pods from the tracking finalizer, so they and the Job's namespace can go", async () => {
    await apply(JOB('dropped', { parallelism: 2, completions: 2, template: { metadata: { annotations: { 'pod-complete.stage.kwok.x-k8s.io/delay': '1h' } }, spec: { terminationGracePeriodSeconds: 0, restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36' }] } } }));
    expect(await until(async () => ((await json(['get', 'pods', '-l', 'job-name=dropped'])).items as Json[]).filter((p) => p.status.phase === 'Running').length === 2, 60_000)).toBe(true);
    await ok(['delete', 'job', 'dropped', '-n', ns, '--cascade=background', '--wait=false']);
    expect(await until(async () => ((await json(['get', 'pods', '-l', 'job-name=dropped'])).items as Json[]).length === 0, 60_000)).toBe(true);
  });

  it('fails a Job whose activeDeadlineSeconds passes, FailureTarget first', async () => {
    await apply(JOB('slow', { activeDeadlineSeconds: 1, template: { metadata: { annotations: { 'pod-complete.stage.kwok.x-k8s.io/delay': '1h' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36' }] } } }));
    expect(await ok(['wait', '--for=condition=failed', 'job/slow', '-n', ns, '--timeout=90s'])).toContain('condition met');
    const job = await json(['get', 'job', 'slow']);
    expect(job.status.conditions.find((c: Json) => c.type === 'Failed')).toMatchObject({ status: 'True', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' });
    expect(job.status.conditions.find((c: Json) => c.type === 'FailureTarget')).toMatchObject({ status: 'True', reason: 'DeadlineExceeded' });
  });

  it('makes Jobs from a CronJob: `create job --from` and its own schedule', async () => {
    await ok(['create', 'cronjob', 'tick', '--image=busybox:1.36', '--schedule=* * * * *', '-n', ns]);
    expect(await ok(['create', 'job', 'manual', '--from=cronjob/tick', '-n', ns])).toContain('job.batch/manual created');
    expect(await ok(['wait', '--for=condition=complete', 'job/manual', '-n', ns, '--timeout=120s'])).toContain('condition met');
    // The schedule's next minute: a Job named after it, in status.active, then lastScheduleTime.
    expect(await until(async () => !!(await json(['get', 'cronjob', 'tick'])).status?.lastScheduleTime, 90_000)).toBe(true);
    const scheduled = ((await json(['get', 'jobs'])).items as Json[]).filter((j) => /^tick-\d+$/.test(j.metadata.name));
    expect(scheduled.length).toBeGreaterThanOrEqual(1);
    expect(scheduled[0].metadata.ownerReferences[0]).toMatchObject({ kind: 'CronJob', name: 'tick', controller: true });
    expect(scheduled[0].metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/);
    expect(await until(async () => !!(await json(['get', 'cronjob', 'tick'])).status?.lastSuccessfulTime, 90_000)).toBe(true);
    // Up to a minute of it is waiting for the schedule's next minute: the default 60 s is too short.
  }, 300_000);

  it('runs one DaemonSet pod per eligible node, rolls an update and keeps its history', async () => {
    await apply(DS('agent', 'nginx:1.25', {}));
    expect(await ok(['rollout', 'status', 'ds/agent', '-n', ns, '--timeout=120s'])).toContain('daemon set "agent" successfully rolled out');
    const pods = (await json(['get', 'pods', '-l', 'app=agent'])).items as Json[];
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(['sim-node-0', 'sim-node-1', 'sim-node-2']);
    expect(pods[0].spec.tolerations).toContainEqual({ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' });
    expect((await json(['get', 'ds', 'agent'])).status).toMatchObject({ desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 3, numberAvailable: 3, updatedNumberScheduled: 3, numberMisscheduled: 0, observedGeneration: 1 });
    await ok(['set', 'image', 'ds/agent', 'agent=nginx:1.26', '-n', ns]);
    expect(await ok(['rollout', 'status', 'ds/agent', '-n', ns, '--timeout=120s'])).toContain('successfully rolled out');
    expect(await until(async () => ((await json(['get', 'pods', '-l', 'app=agent'])).items as Json[]).every((p) => p.spec.containers[0].image === 'nginx:1.26' && !p.metadata.deletionTimestamp), 60_000)).toBe(true);
    expect(await ok(['rollout', 'history', 'ds/agent', '-n', ns])).toMatch(/REVISION\s+CHANGE-CAUSE\s*\n1\s+<none>\s*\n2\s+<none>/);
    // A nodeSelector narrows it to one node.
    await apply(DS('pinned', 'nginx:1.25', { 'kubernetes.io/hostname': 'sim-node-1' }));
    expect(await ok(['rollout', 'status', 'ds/pinned', '-n', ns, '--timeout=120s'])).toContain('successfully rolled out');
    expect(((await json(['get', 'pods', '-l', 'app=pinned'])).items as Json[]).map((p) => p.spec.nodeName)).toEqual(['sim-node-1']);
    expect((await json(['get', 'ds', 'pinned'])).status).toMatchObject({ desiredNumberScheduled: 1, numberReady: 1 });
  });

  it('gives a Service EndpointSlices and Endpoints with its ready pods', async () => {
    await ok(['create', 'deployment', 'api', '--image=nginx', '--replicas=2', '--port=8080', '-n', ns]);
    await ok(['expose', 'deployment', 'api', '--port=80', '--target-port=8080', '-n', ns]);
    expect(await ok(['rollout', 'status', 'deploy/api', '-n', ns, '--timeout=120s'])).toContain('successfully rolled out');
    const slices = async (): Promise<Json[]> => (await json(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=api'])).items as Json[];
    expect(await until(async () => (await slices()).flatMap((s) => s.endpoints ?? []).filter((e: Json) => e.conditions.ready).length === 2, 30_000)).toBe(true);
    const [slice] = await slices();
    expect(slice.metadata.labels).toMatchObject({ 'kubernetes.io/service-name': 'api', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
    expect(slice.metadata.ownerReferences[0]).toMatchObject({ kind: 'Service', name: 'api', controller: true });
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: '', port: 8080, protocol: 'TCP' }]);
    const pods = (await json(['get', 'pods', '-l', 'app=api'])).items as Json[];
    expect(slice.endpoints.map((e: Json) => e.addresses[0]).sort()).toEqual(pods.map((p) => p.status.podIP).sort());
    expect(slice.endpoints[0]).toMatchObject({ conditions: { ready: true, serving: true, terminating: false }, targetRef: { kind: 'Pod' } });
    expect(slice.endpoints[0].nodeName).toMatch(/^sim-node-\d$/);
    expect(await until(async () => ((await json(['get', 'endpoints', 'api'])).subsets?.[0]?.addresses ?? []).length === 2, 30_000)).toBe(true);
    expect((await json(['get', 'endpoints', 'api'])).subsets[0].ports).toEqual([{ port: 8080, protocol: 'TCP' }]);
    // Scaled to 0: the slice stays, empty.
    await ok(['scale', 'deploy/api', '--replicas=0', '-n', ns]);
    expect(await until(async () => { const s = await slices(); return s.length === 1 && (s[0].endpoints ?? []).length === 0; }, 60_000)).toBe(true);
  });

  it('mirrors the hand-written Endpoints of a Service without a selector into EndpointSlices', async () => {
    await apply(JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'external' }, spec: { ports: [{ name: 'http', port: 80 }] } }));
    await apply(JSON.stringify({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'external', labels: { team: 'a' } }, subsets: [{ addresses: [{ ip: '192.0.2.10' }], notReadyAddresses: [{ ip: '192.0.2.11' }], ports: [{ name: 'http', port: 8080 }] }] }));
    const mirrored = async (): Promise<Json[]> => (await json(['get', 'endpointslices', '-l', 'endpointslice.kubernetes.io/managed-by=endpointslicemirroring-controller.k8s.io'])).items as Json[];
    expect(await until(async () => (await mirrored()).length === 1, 30_000)).toBe(true);
    const [slice] = await mirrored();
    expect(slice.metadata.labels).toMatchObject({ team: 'a', 'kubernetes.io/service-name': 'external' });
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(slice.endpoints).toEqual([
      { addresses: ['192.0.2.10'], conditions: { ready: true } },
      { addresses: ['192.0.2.11'], conditions: { ready: false } },
    ]);
    // The apiserver's own Endpoints say skip-mirror: the kubernetes Service gets no mirrored slice.
    expect(((await json(['get', 'endpointslices', '-A'])).items as Json[]).filter((x) => x.metadata.labels?.['endpointslice.kubernetes.io/managed-by'] === 'endpointslicemirroring-controller.k8s.io' && x.metadata.namespace === 'default')).toEqual([]);
  });

  it("keeps a PodDisruptionBudget's status, so eviction is refused or allowed as kube's", async () => {
    await ok(['create', 'deployment', 'guarded', '--image=nginx', '--replicas=2', '-n', ns]);
    expect(await ok(['rollout', 'status', 'deploy/guarded', '-n', ns, '--timeout=120s'])).toContain('successfully rolled out');
    await ok(['create', 'pdb', 'guard', '--selector=app=guarded', '--min-available=2', '-n', ns]);
    const pdb = async (): Promise<Json> => json(['get', 'pdb', 'guard']);
    expect(await until(async () => (await pdb()).status?.currentHealthy === 2, 30_000)).toBe(true);
    expect((await pdb()).status).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2, expectedPods: 2, observedGeneration: 1 });
    expect((await pdb()).status.conditions).toContainEqual(expect.objectContaining({ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' }));
    const [victim] = (await json(['get', 'pods', '-l', 'app=guarded'])).items as Json[];
    const evict = (): Promise<{ code: number; stdout: string; stderr: string }> =>
      k(['create', '--raw', `/api/v1/namespaces/${ns}/pods/${victim.metadata.name}/eviction`, '-f', '-'], JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: victim.metadata.name, namespace: ns } }));
    const refused = await evict();
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("(TooManyRequests): Cannot evict pod as it would violate the pod's disruption budget.");
    // maxUnavailable 1: the expected pods come from the Deployment's scale, one disruption allowed.
    await ok(['patch', 'pdb', 'guard', '-n', ns, '--type=merge', '-p', '{"spec":{"minAvailable":null,"maxUnavailable":1}}']);
    expect(await until(async () => (await pdb()).status?.disruptionsAllowed === 1, 30_000)).toBe(true);
    expect((await pdb()).status).toMatchObject({ desiredHealthy: 1, expectedPods: 2, observedGeneration: 2 });
    expect((await pdb()).status.conditions).toContainEqual(expect.objectContaining({ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods' }));
    const allowed = await evict();
    expect(allowed.code, allowed.stderr).toBe(0);
  });

  it('keeps a HorizontalPodAutoscaler able to scale but inactive while no metrics API is registered', async () => {
    await ok(['create', 'deployment', 'scaled', '--image=nginx', '--replicas=1', '-n', ns]);
    await ok(['autoscale', 'deployment', 'scaled', '--min=1', '--max=3', '--cpu-percent=50', '-n', ns]);
    const hpa = async (): Promise<Json> => json(['get', 'hpa.v2.autoscaling', 'scaled']);
    expect(await until(async () => ((await hpa()).status?.conditions ?? []).length >= 2 && (await hpa()).status.currentReplicas === 1, 60_000)).toBe(true);
    const { status } = await hpa();
    expect(status).toMatchObject({ currentReplicas: 1, desiredReplicas: 1 });
    expect(status.conditions).toContainEqual(expect.objectContaining({ type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale', message: "the HPA controller was able to get the target's current scale" }));
    expect(status.conditions).toContainEqual(
      expect.objectContaining({
        type: 'ScalingActive',
        status: 'False',
        reason: 'FailedGetResourceMetric',
        message: 'the HPA was unable to compute the replica count: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)',
      }),
    );
    expect(await ok(['get', 'hpa', 'scaled', '-n', ns])).toMatch(/scaled\s+Deployment\/scaled\s+cpu: <unknown>\/50%\s+1\s+3\s+1/);
    // (The wait above alone may take a minute on a loaded machine: 19 s seen.)
  }, 180_000);

  it('warns InvalidSchedule for a schedule that never comes', async () => {
    await ok(['create', 'cronjob', 'never', '--image=busybox:1.36', '--schedule=59 23 31 2 *', '-n', ns]);
    expect(
      await until(async () => /Warning\s+InvalidSchedule\s+cronjob\/never\s+invalid schedule: 59 23 31 2 \* : time difference between two schedules is less than 1 second/i.test(await ok(['events', '-n', ns, '--for=cronjob/never']).catch(() => '')), 30_000),
    ).toBe(true);
  });
});
