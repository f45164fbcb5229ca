/**
 * The deployment, replicaset and replicationcontroller controllers on simulated nodes (KUBE_SIMULATED_NODES=3),
 * with the oldest and the newest kubectl: a rollout completes, `kubectl wait --for=condition=Available` returns,
 * set image makes a second revision, undo goes back, pause holds a rollout until resume, scale to 0 and back,
 * a ReplicationController keeps its pods, the scheduler filters and explains, a deleted pod is replaced.
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

const RC = (name: string): string => `apiVersion: v1
kind: ReplicationController
metadata:
  name: ${name}
spec:
  replicas: 2
  selector: { app: ${name} }
  template:
    metadata:
      labels: { app: ${name} }
    spec:
      containers:
      - name: app
        image: busybox:1.36
`;

const pod = (name: string, spec: Json, annotations: Record<string, string> = {}): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, annotations }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }], ...spec } });

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

describe.each(['1.27', '1.33'])('workload controllers with kubectl %s on simulated nodes', (version) => {
  const { k, ok } = kubectlSession(version, () => stack.kubeconfig);
  const ns = `wl-${version.replace('.', '')}`;
  const json = async (args: string[]): Promise<Json> => JSON.parse(await ok([...args, '-n', ns, '-o', 'json'])) as Json;
  const rollout = async (what: string): Promise<string> => ok(['rollout', 'status', what, '-n', ns, '--timeout=120s']);
  const replicaSets = async (selector: string): Promise<Json[]> => (await json(['get', 'rs', '-l', selector])).items as Json[];

  beforeAll(async () => {
    await ok(['create', 'namespace', ns]);
    // The default ServiceAccount comes from the serviceaccount controller; pods wait for it (kube's admission).
    expect(await until(async () => (await k(['get', 'sa', 'default', '-n', ns])).code === 0, 30_000)).toBe(true);
  });

  it('has three Ready simulated nodes with leases', async () => {
    // The nodes register once the simulation wins its lease: on a loaded machine that can come after the first test starts.
    const nodesReady = /sim-node-0\s+Ready\s+.*\nsim-node-1\s+Ready\s+.*\nsim-node-2\s+Ready/;
    expect(await until(async () => nodesReady.test((await k(['get', 'nodes'])).stdout), 60_000)).toBe(true);
    const node = JSON.parse(await ok(['get', 'node', 'sim-node-1', '-o', 'json'])) as Json;
    expect(node.status.allocatable).toMatchObject({ cpu: '4', memory: '8Gi', pods: '110' });
    expect(node.status.conditions.find((c: Json) => c.type === 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    const lease = JSON.parse(await ok(['get', 'lease', 'sim-node-1', '-n', 'kube-node-lease', '-o', 'json'])) as Json;
    expect(lease.spec).toMatchObject({ holderIdentity: 'sim-node-1', leaseDurationSeconds: 40 });
  });

  it('rolls out a deployment and reports it Available', async () => {
    expect(await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=3', '-n', ns])).toContain('deployment.apps/web created');
    expect(await rollout('deploy/web')).toContain('deployment "web" successfully rolled out');
    expect(await ok(['wait', '--for=condition=Available', 'deploy/web', '-n', ns, '--timeout=60s'])).toContain('condition met');
    expect(await ok(['get', 'deploy', 'web', '-n', ns])).toMatch(/web\s+3\/3\s+3\s+3\s+/);
    const pods = (await json(['get', 'pods', '-l', 'app=web'])).items as Json[];
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.status.phase).toBe('Running');
      expect(p.status.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
      expect(p.metadata.labels['pod-template-hash']).toMatch(/^[a-z0-9]+$/);
      expect(p.metadata.ownerReferences[0]).toMatchObject({ kind: 'ReplicaSet', controller: true });
    }
    // Spread: one pod per node.
    expect(new Set(pods.map((p) => p.spec.nodeName)).size).toBe(3);
    const d = await json(['get', 'deploy', 'web']);
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
    expect(d.status).toMatchObject({ replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
    expect(d.status.conditions.find((c: Json) => c.type === 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });
    expect(d.status.conditions.find((c: Json) => c.type === 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' });
    const rs = await replicaSets('app=web');
    expect(rs).toHaveLength(1);
    expect(rs[0].status).toMatchObject({ replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
    const events = await ok(['get', 'events', '-n', ns, '--field-selector', 'involvedObject.kind=Deployment']);
    expect(events).toMatch(new RegExp(`ScalingReplicaSet\\s+deployment/web\\s+Scaled up replica set ${rs[0].metadata.name} from 0 to 3`));
    expect(await ok(['get', 'events', '-n', ns, '--field-selector', 'involvedObject.kind=Pod,reason=Scheduled'])).toMatch(/Successfully assigned wl-\d+\/web-[a-z0-9]+-[a-z0-9]+ to sim-node-\d/);
  });

  it('makes a second revision on set image and goes back on undo', async () => {
    expect(await ok(['set', 'image', 'deploy/web', 'nginx=nginx:1.27', '-n', ns])).toContain('image updated');
    expect(await rollout('deploy/web')).toContain('successfully rolled out');
    expect(await replicaSets('app=web')).toHaveLength(2);
    const history = await ok(['rollout', 'history', 'deploy/web', '-n', ns]);
    expect(history).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    const pods = (await json(['get', 'pods', '-l', 'app=web'])).items as Json[];
    expect(await until(async () => ((await json(['get', 'pods', '-l', 'app=web'])).items as Json[]).every((p) => p.spec.containers[0].image === 'nginx:1.27'), 30_000)).toBe(true);
    expect(pods.length).toBeGreaterThan(0);
    expect(await ok(['rollout', 'undo', 'deploy/web', '-n', ns])).toContain('rolled back');
    expect(await rollout('deploy/web')).toContain('successfully rolled out');
    const d = await json(['get', 'deploy', 'web']);
    expect(d.spec.template.spec.containers[0].image).toBe('nginx');
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('3');
    expect(await ok(['rollout', 'history', 'deploy/web', '-n', ns])).toMatch(/REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);
    const rs = await replicaSets('app=web');
    const back = rs.find((r) => r.metadata.annotations['deployment.kubernetes.io/revision'] === '3');
    expect(back?.metadata.annotations['deployment.kubernetes.io/revision-history']).toBe('1');
  });

  it('holds a paused rollout until resume', async () => {
    expect(await ok(['rollout', 'pause', 'deploy/web', '-n', ns])).toContain('paused');
    await ok(['set', 'image', 'deploy/web', 'nginx=nginx:1.28', '-n', ns]);
    expect(await until(async () => (await json(['get', 'deploy', 'web'])).status.conditions.some((c: Json) => c.type === 'Progressing' && c.reason === 'DeploymentPaused' && c.status === 'Unknown'), 30_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await replicaSets('app=web')).toHaveLength(2);
    expect(await ok(['rollout', 'resume', 'deploy/web', '-n', ns])).toContain('resumed');
    expect(await rollout('deploy/web')).toContain('successfully rolled out');
    expect(await replicaSets('app=web')).toHaveLength(3);
    expect((await json(['get', 'deploy', 'web'])).metadata.annotations['deployment.kubernetes.io/revision']).toBe('4');
  });

  it('restarts with rollout restart', async () => {
    expect(await ok(['rollout', 'restart', 'deploy/web', '-n', ns])).toContain('restarted');
    expect(await rollout('deploy/web')).toContain('successfully rolled out');
    expect((await json(['get', 'deploy', 'web'])).metadata.annotations['deployment.kubernetes.io/revision']).toBe('5');
  });

  it('scales to 0 and back', async () => {
    await ok(['scale', 'deploy/web', '--replicas=0', '-n', ns]);
    expect(await until(async () => ((await json(['get', 'pods', '-l', 'app=web'])).items as Json[]).length === 0, 60_000)).toBe(true);
    expect(await rollout('deploy/web')).toContain('successfully rolled out');
    await ok(['scale', 'deploy/web', '--replicas=3', '-n', ns]);
    expect(await rollout('deploy/web')).toContain('successfully rolled out');
    expect(await ok(['get', 'deploy', 'web', '-n', ns])).toMatch(/web\s+3\/3\s+3\s+3\s+/);
  });

  it('replaces a deleted pod', async () => {
    const [victim] = (await json(['get', 'pods', '-l', 'app=web'])).items as Json[];
    await ok(['delete', 'pod', victim.metadata.name, '-n', ns, '--wait=true']);
    expect(await until(async () => {
      const pods = (await json(['get', 'pods', '-l', 'app=web'])).items as Json[];
      return pods.length === 3 && pods.every((p) => p.metadata.name !== victim.metadata.name && p.status.phase === 'Running');
    }, 60_000)).toBe(true);
    expect(await ok(['wait', '--for=condition=Available', 'deploy/web', '-n', ns, '--timeout=60s'])).toContain('condition met');
  });

  it('recreates: every old pod gone before the new ReplicaSet grows', async () => {
    const recreate = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'batchy' }, spec: { replicas: 2, strategy: { type: 'Recreate' }, selector: { matchLabels: { app: 'batchy' } }, template: { metadata: { labels: { app: 'batchy' } }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'app', image: 'busybox:1.36' }] } } } };
    await ok(['create', '-n', ns, '-f', '-'], JSON.stringify(recreate));
    expect(await rollout('deploy/batchy')).toContain('successfully rolled out');
    await ok(['set', 'image', 'deploy/batchy', 'app=busybox:1.37', '-n', ns]);
    expect(await rollout('deploy/batchy')).toContain('successfully rolled out');
    const events = await ok(['get', 'events', '-n', ns, '--field-selector', 'involvedObject.name=batchy']);
    // The old ReplicaSet went to 0 at once, and the new one was made at its full size (a rolling update would
    // have surged by 1: "from 0 to 1").
    expect(events).toMatch(/Scaled down replica set batchy-[a-z0-9]+ from 2 to 0/);
    expect(events.match(/Scaled up replica set batchy-[a-z0-9]+ from 0 to 2/g)).toHaveLength(2);
  });

  it('reports ProgressDeadlineExceeded for a rollout that cannot progress', async () => {
    const stuck = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'stuck' }, spec: { replicas: 1, progressDeadlineSeconds: 2, selector: { matchLabels: { app: 'stuck' } }, template: { metadata: { labels: { app: 'stuck' } }, spec: { nodeSelector: { disk: 'none' }, containers: [{ name: 'app', image: 'busybox:1.36' }] } } } };
    await ok(['create', '-n', ns, '-f', '-'], JSON.stringify(stuck));
    const r = await k(['rollout', 'status', 'deploy/stuck', '-n', ns, '--timeout=60s']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('deployment "stuck" exceeded its progress deadline');
    const d = await json(['get', 'deploy', 'stuck']);
    expect(d.status.conditions.find((c: Json) => c.type === 'Progressing')).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded', message: expect.stringMatching(/^ReplicaSet "stuck-[a-z0-9]+" has timed out progressing\.$/) });
    expect(d.status.conditions.find((c: Json) => c.type === 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' });
  });

  it('keeps a ReplicationController at its replicas', async () => {
    await ok(['create', '-n', ns, '-f', '-'], RC('legacy'));
    expect(await until(async () => (await json(['get', 'rc', 'legacy'])).status?.readyReplicas === 2, 60_000)).toBe(true);
    expect(await ok(['get', 'rc', 'legacy', '-n', ns])).toMatch(/legacy\s+2\s+2\s+2\s+/);
    await ok(['scale', 'rc', 'legacy', '--replicas=1', '-n', ns]);
    expect(await until(async () => ((await json(['get', 'pods', '-l', 'app=legacy'])).items as Json[]).length === 1, 60_000)).toBe(true);
    const rc = await json(['get', 'rc', 'legacy']);
    expect(await until(async () => (await json(['get', 'rc', 'legacy'])).status?.replicas === 1, 30_000)).toBe(true);
    expect(rc.metadata.generation).toBe(2);
    expect(await ok(['get', 'events', '-n', ns, '--field-selector', 'involvedObject.kind=ReplicationController'])).toMatch(/SuccessfulDelete\s+replicationcontroller\/legacy\s+Deleted pod: legacy-/);
  });

  it('adopts a matching orphan pod and releases a relabelled one', async () => {
    await ok(['run', 'orphan', '--image=busybox:1.36', '--labels=app=legacy', '-n', ns]);
    // The RC wants 1 and now has 2: it adopts the orphan, then deletes one of the two.
    expect(await until(async () => ((await json(['get', 'pods', '-l', 'app=legacy'])).items as Json[]).length === 1, 60_000)).toBe(true);
    const [kept] = (await json(['get', 'pods', '-l', 'app=legacy'])).items as Json[];
    expect(kept.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'ReplicationController', name: 'legacy' });
    await ok(['label', 'pod', kept.metadata.name, 'app=gone', '--overwrite', '-n', ns]);
    expect(await until(async () => !(await json(['get', 'pod', kept.metadata.name])).metadata.ownerReferences?.length, 30_000)).toBe(true);
    expect(await until(async () => ((await json(['get', 'pods', '-l', 'app=legacy'])).items as Json[]).length === 1, 60_000)).toBe(true);
  });

  it('explains an unschedulable pod as kube-scheduler does', async () => {
    await ok(['create', '-n', ns, '-f', '-'], pod('nowhere', { nodeSelector: { disk: 'ssd' } }));
    await ok(['create', '-n', ns, '-f', '-'], pod('too-big', { containers: [{ name: 'c', image: 'busybox:1.36', resources: { requests: { cpu: '100' } } }] }));
    await ok(['create', '-n', ns, '-f', '-'], pod('tainted', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['sim-node-2'] }] }] } } } }));
    const condition = async (name: string): Promise<Json | undefined> => ((await json(['get', 'pod', name])).status.conditions ?? []).find((c: Json) => c.type === 'PodScheduled');
    expect(await until(async () => (await condition('nowhere'))?.reason === 'Unschedulable', 30_000)).toBe(true);
    expect((await condition('nowhere'))?.message).toBe("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.");
    expect(await until(async () => (await condition('too-big'))?.reason === 'Unschedulable', 30_000)).toBe(true);
    expect((await condition('too-big'))?.message).toMatch(/^0\/3 nodes are available: 3 Insufficient cpu\./);
    expect(await until(async () => (await json(['get', 'pod', 'tainted'])).status.phase === 'Running', 30_000)).toBe(true);
    expect((await json(['get', 'pod', 'tainted'])).spec.nodeName).toBe('sim-node-2');
    expect(await ok(['get', 'events', '-n', ns, '--field-selector', 'involvedObject.name=nowhere'])).toContain('FailedScheduling');
    // A pod bound already cannot be bound again: 409 on pods/binding, as kube's BindingREST.
    const bind = await stack.request('POST', `/api/v1/namespaces/${ns}/pods/tainted/binding`, { body: JSON.stringify({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'tainted' }, target: { kind: 'Node', name: 'sim-node-0' } }), headers: { 'content-type': 'application/json' } });
    expect(bind.status).toBe(409);
    expect(bind.json<Json>()).toMatchObject({ kind: 'Status', reason: 'Conflict', message: 'Operation cannot be fulfilled on pods/binding "tainted": pod tainted is already assigned to node "sim-node-2"' });
  });

  it('keeps a deleted pod Terminating for its grace period, then the kubelet removes it', async () => {
    // Containers that take their whole grace period (the annotation outlasts it): 20 s, room for the three kubectl
    // runs below before the kubelet removes the pod (4 s were not enough on a loaded machine: the second delete
    // found the pod gone).
    const grace = 20;
    await ok(['create', '-n', ns, '-f', '-'], pod('slow-stop', { terminationGracePeriodSeconds: grace }, { 'pod-delete.stage.kwok.x-k8s.io/delay': '1h' }));
    expect(await until(async () => (await json(['get', 'pod', 'slow-stop'])).status.phase === 'Running', 30_000)).toBe(true);
    const deleted = Date.now();
    await ok(['delete', 'pod', 'slow-stop', '-n', ns, '--wait=false']);
    const terminating = await json(['get', 'pod', 'slow-stop']);
    expect(terminating.metadata.deletionGracePeriodSeconds).toBe(grace);
    expect(Date.parse(terminating.metadata.deletionTimestamp)).toBeGreaterThan(deleted);
    expect(await ok(['get', 'pod', 'slow-stop', '-n', ns])).toMatch(/slow-stop\s+1\/1\s+Terminating\s+/);
    // A second delete with no shorter period changes nothing (kube: graceful deletion pending).
    await ok(['delete', 'pod', 'slow-stop', '-n', ns, '--wait=false']);
    expect((await json(['get', 'pod', 'slow-stop'])).metadata.deletionTimestamp).toBe(terminating.metadata.deletionTimestamp);
    expect(await until(async () => (await k(['get', 'pod', 'slow-stop', '-n', ns])).code !== 0, 90_000)).toBe(true);
    expect(Date.now() - deleted).toBeGreaterThanOrEqual((grace - 1) * 1000);
    // A pod on no node goes at once.
    await ok(['delete', 'pod', 'nowhere', '-n', ns, '--wait=false']);
    expect((await k(['get', 'pod', 'nowhere', '-n', ns])).code).not.toBe(0);
  });

  it('completes a pod that runs to completion after its pod-complete delay', async () => {
    await ok(['create', '-n', ns, '-f', '-'], pod('once', { restartPolicy: 'Never' }, { 'pod-complete.stage.kwok.x-k8s.io/delay': '1s' }));
    expect(await until(async () => (await json(['get', 'pod', 'once'])).status.phase === 'Succeeded', 30_000)).toBe(true);
    expect(await ok(['get', 'pod', 'once', '-n', ns])).toMatch(/once\s+0\/1\s+Completed\s+0\s+/);
  });
});
