/**
 * The workload groups apps/v1 and batch/v1 through the front door, with the oldest and the newest kubectl:
 * typed-client creates (protobuf from kubectl 1.32 on), Table columns, /scale, explain, `get all`, YAML and
 * server-side apply, and kube's validation messages. The workload controllers are left out of this stack's
 * controller-manager: objects are stored only (test/e2e/workload-controllers.e2e.test.ts runs them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROLLERS } from '../../apps/controller-manager/src/controllers';
import { startControllerManager, type ControllerManagerHandle } from '../support/controller-manager.boot';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';

type Json = Record<string, any>;

const STATEFULSET = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 2
  selector:
    matchLabels: { app: db }
  template:
    metadata:
      labels: { app: db }
    spec:
      containers:
      - name: postgres
        image: postgres:16
        ports: [{ name: pg, containerPort: 5432 }]
  volumeClaimTemplates:
  - metadata: { name: data }
    spec:
      accessModes: [ReadWriteOnce]
      resources: { requests: { storage: 1Gi } }
`;

const DAEMONSET = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: { app: agent }
  template:
    metadata:
      labels: { app: agent }
    spec:
      nodeSelector: { kubernetes.io/os: linux }
      containers:
      - name: agent
        image: busybox:1.36
`;

const WRONG_SELECTOR = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: bad
spec:
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: other }
    spec:
      containers:
      - name: nginx
        image: nginx
`;

describe.each(['1.27', '1.33'])('kubectl %s: apps/v1 and batch/v1', (version) => {
  let stack: StackHarness;
  const { k, ok } = kubectlSession(version, () => stack.kubeconfig);
  const json = async (args: string[]): Promise<Json> => JSON.parse(await ok([...args, '-o', 'json'])) as Json;

  let cm: ControllerManagerHandle;

  beforeAll(async () => {
    stack = await startStack({ controllerManager: false });
    const workloadControllers = new Set(['deployment-controller', 'replicaset-controller', 'replicationcontroller-controller', 'statefulset-controller', 'daemonset-controller', 'job-controller', 'cronjob-controller', 'ttl-after-finished-controller']);
    cm = await startControllerManager(stack.url, stack.pki, { controllers: [...CONTROLLERS.keys()].filter((c) => !workloadControllers.has(c)) });
  });

  afterAll(async () => {
    await cm?.stop();
    await stack?.stop();
  });

  it('lists the workload resources with kube short names and categories', async () => {
    const resources = await ok(['api-resources', '--api-group=apps', '-o', 'wide']);
    expect(resources).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment\s+create,delete,deletecollection,get,list,patch,update,watch\s+all/m);
    expect(resources).toMatch(/^statefulsets\s+sts\s+apps\/v1\s+true\s+StatefulSet/m);
    expect(resources).toMatch(/^controllerrevisions\s+apps\/v1\s+true\s+ControllerRevision/m);
    expect(await ok(['api-resources', '--api-group=batch'])).toMatch(/^cronjobs\s+cj\s+batch\/v1\s+true\s+CronJob/m);
  });

  it('creates a deployment, prints kube columns and stores kube defaults', async () => {
    expect(await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=2'])).toContain('deployment.apps/web created');
    expect(await ok(['get', 'deployment', 'web'])).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+0\/2\s+0\s+0\s+\d+s\n$/);
    expect(await ok(['get', 'deploy', 'web', '-o', 'wide'])).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\nweb\s+0\/2\s+0\s+0\s+\d+s\s+nginx\s+nginx\s+app=web\n$/);
    const d = await json(['get', 'deployment', 'web']);
    expect(d.metadata.generation).toBe(1);
    expect(d.spec).toMatchObject({
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
    expect(d.spec.template.spec.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' });
    expect(d.spec.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' });
  });

  it('scales a deployment through /scale', async () => {
    expect(await ok(['scale', 'deployment', 'web', '--replicas=5'])).toContain('deployment.apps/web scaled');
    expect(await ok(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}'])).toBe('5');
    const scale = JSON.parse(await ok(['get', '--raw', '/apis/apps/v1/namespaces/default/deployments/web/scale'])) as Json;
    expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 5 }, status: { replicas: 0, selector: 'app=web' } });
    expect(await ok(['get', 'deployment', 'web', '-o', 'jsonpath={.metadata.generation}'])).toBe('2');
    const negative = await k(['scale', 'deployment', 'web', '--replicas=-1']);
    expect(negative.code).not.toBe(0);
  });

  it('changes the pod template with set image and rollout restart (generation moves, no rollout happens)', async () => {
    expect(await ok(['set', 'image', 'deployment/web', 'nginx=nginx:1.27'])).toContain('deployment.apps/web image updated');
    expect(await ok(['rollout', 'restart', 'deployment/web'])).toContain('deployment.apps/web restarted');
    const d = await json(['get', 'deployment', 'web']);
    expect(d.spec.template.spec.containers[0].image).toBe('nginx:1.27');
    expect(d.spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt']).toMatch(/^\d{4}-/);
    expect(d.metadata.generation).toBe(4);
    expect(d.status).toEqual({});
  });

  it('explains deployment.spec.strategy from the published OpenAPI', async () => {
    const out = await ok(['explain', 'deployment.spec.strategy']);
    expect(out).toMatch(/KIND:\s+Deployment/);
    expect(out).toMatch(/GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1/);
    expect(out).toContain('The deployment strategy to use to replace existing pods with new ones.');
    expect(out).toMatch(/rollingUpdate\s+<RollingUpdateDeployment>/);
  });

  it('creates a job with the generated selector and labels, and prints its status', async () => {
    expect(await ok(['create', 'job', 'pi', '--image=perl:5.34', '--', 'perl', '-e', 'print 1'])).toContain('job.batch/pi created');
    expect(await ok(['get', 'job', 'pi'])).toMatch(/^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE\npi\s+Running\s+0\/1\s+\d+s\n$/);
    const job = await json(['get', 'job', 'pi']);
    const uid = job.metadata.uid as string;
    expect(job.spec.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    expect(job.spec.template.metadata.labels).toEqual({ 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' });
    expect(job.metadata.labels).toMatchObject({ 'batch.kubernetes.io/job-name': 'pi' });
    expect(job.spec).toMatchObject({ backoffLimit: 6, completions: 1, parallelism: 1, completionMode: 'NonIndexed', suspend: false });
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
  });

  it('creates a cronjob and prints its schedule', async () => {
    expect(await ok(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/5 * * * *', '--', 'date'])).toContain('cronjob.batch/tick created');
    expect(await ok(['get', 'cj', 'tick'])).toMatch(/^NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE\ntick\s+\*\/5 \* \* \* \*\s+<none>\s+False\s+0\s+<none>\s+\d+s\n$/);
    const cj = await json(['get', 'cronjob', 'tick']);
    expect(cj.spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    expect(cj.spec.jobTemplate.spec.template.spec.restartPolicy).toBe('OnFailure');
    expect(await ok(['create', 'job', 'tick-manual', '--from=cronjob/tick'])).toContain('job.batch/tick-manual created');
    const manual = await json(['get', 'job', 'tick-manual']);
    expect(manual.metadata.annotations).toMatchObject({ 'cronjob.kubernetes.io/instantiate': 'manual' });
    expect(manual.metadata.ownerReferences).toEqual([expect.objectContaining({ apiVersion: 'batch/v1', kind: 'CronJob', name: 'tick', uid: cj.metadata.uid })]);
  });

  it('describes a deployment and refuses a replace of a missing one', async () => {
    expect(await ok(['describe', 'deployment', 'web'])).toMatch(/StrategyType:\s+RollingUpdate/);
    const d = await json(['get', 'deployment', 'web']);
    const missing = await k(['replace', '-f', '-'], JSON.stringify({ ...d, metadata: { name: 'nowhere', namespace: 'default' } }));
    expect(missing.stderr).toContain('deployments.apps "nowhere" not found');
  });

  it('applies a statefulset and a daemonset from YAML, also server-side', async () => {
    expect(await ok(['apply', '-f', '-'], STATEFULSET)).toContain('statefulset.apps/db created');
    expect(await ok(['apply', '--server-side', '-f', '-'], DAEMONSET)).toContain('daemonset.apps/agent serverside-applied');
    expect(await ok(['apply', '--server-side', '-f', '-'], STATEFULSET.replace('name: db\n', 'name: db2\n'))).toContain('statefulset.apps/db2 serverside-applied');
    expect(await ok(['get', 'sts', 'db'])).toMatch(/^NAME\s+READY\s+AGE\ndb\s+0\/2\s+\d+s\n$/);
    expect(await ok(['get', 'ds', 'agent'])).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+NODE SELECTOR\s+AGE\nagent\s+0\s+0\s+0\s+0\s+0\s+kubernetes\.io\/os=linux\s+\d+s\n$/);
    const sts = await json(['get', 'statefulset', 'db2']);
    expect(sts.spec).toMatchObject({ podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' } });
    expect(await ok(['scale', 'statefulset', 'db', '--replicas=3'])).toContain('statefulset.apps/db scaled');
    expect(await ok(['apply', '-f', '-'], STATEFULSET.replace('replicas: 2', 'replicas: 1'))).toContain('statefulset.apps/db configured');
    const renamed = await k(['apply', '-f', '-'], STATEFULSET.replace('serviceName: db', 'serviceName: other'));
    expect(renamed.stderr).toContain("spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden");
  });

  it('lists every workload with `kubectl get all`', async () => {
    const all = await ok(['get', 'all']);
    for (const name of ['service/kubernetes', 'deployment.apps/web', 'statefulset.apps/db', 'daemonset.apps/agent', 'job.batch/pi', 'cronjob.batch/tick']) {
      expect(all).toMatch(new RegExp(`^${name.replace(/[./]/g, '\\$&')}\\s`, 'm'));
    }
  });

  it('refuses invalid objects with kube messages', async () => {
    const wrong = await k(['create', '-f', '-'], WRONG_SELECTOR);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('The Deployment "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`');
    const schedule = await k(['create', 'cronjob', 'bad', '--image=busybox', '--schedule=*/5 * * *']);
    expect(schedule.code).not.toBe(0);
    expect(schedule.stderr).toContain('error: failed to create cronjob: CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "*/5 * * *": expected exactly 5 fields, found 4: [*/5 * * *]');
    const immutable = await k(['patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"labels":{"app":"x"}}}}}']);
    expect(immutable.stderr).toContain('spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable');
    expect(await ok(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.selector.matchLabels.app}'])).toBe('web');
    const restart = await k(['create', 'job', 'always', '--image=busybox', '--dry-run=server', '-o', 'yaml']);
    expect(restart.code).toBe(0);
  });
});
