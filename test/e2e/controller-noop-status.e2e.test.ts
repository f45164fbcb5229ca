/**
 * Controllers at steady state send no status update, as kube's do: they compare the status they computed with the
 * stored one the way Go compares structs (an absent field is its zero), though the server drops omitempty zeros
 * (`unavailableReplicas: 0`, a Job's `active: 0`, a DaemonSet's `numberAvailable: 0`) the computed status carries.
 * Every workload controller reconciles each of its objects again a few times; the server counts no write.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { metricTotal, startControllerManager, startCoreApi, until, type ControllerManagerHandle } from '@test/support';

vi.setConfig({ testTimeout: 180_000 });

type Json = Record<string, any>;
type Api = Awaited<ReturnType<typeof startCoreApi>>;

const NS = 'noop';
const template = (app: string, spec: Json = {}): Json => ({ metadata: { labels: { app } }, spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: 'busybox:1.36' }], ...spec } });

/** Each object, where it is created, its controller and when it is at steady state. */
const OBJECTS: Array<{ path: string; controller: string; body: Json; steady: (o: Json) => boolean }> = [
  {
    path: `/apis/apps/v1/namespaces/${NS}/deployments`,
    controller: 'deployment-controller',
    body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template('web') } },
    steady: (o) => o.status?.availableReplicas === 2 && o.status?.updatedReplicas === 2 && o.status?.conditions?.some((c: Json) => c.reason === 'NewReplicaSetAvailable'),
  },
  {
    path: `/apis/apps/v1/namespaces/${NS}/deployments`,
    controller: 'deployment-controller',
    body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'idle' }, spec: { replicas: 0, selector: { matchLabels: { app: 'idle' } }, template: template('idle') } },
    steady: (o) => o.status?.observedGeneration === o.metadata.generation && o.status?.conditions?.some((c: Json) => c.type === 'Available'),
  },
  {
    path: `/apis/apps/v1/namespaces/${NS}/statefulsets`,
    controller: 'statefulset-controller',
    body: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { replicas: 1, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db') } },
    steady: (o) => o.status?.availableReplicas === 1 && o.status?.currentRevision === o.status?.updateRevision,
  },
  {
    path: `/apis/apps/v1/namespaces/${NS}/daemonsets`,
    controller: 'daemonset-controller',
    body: { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent') } },
    steady: (o) => o.status?.numberAvailable === 2 && o.status?.updatedNumberScheduled === 2,
  },
  {
    // On no node: every count is zero.
    path: `/apis/apps/v1/namespaces/${NS}/daemonsets`,
    controller: 'daemonset-controller',
    body: { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'nowhere' }, spec: { selector: { matchLabels: { app: 'nowhere' } }, template: template('nowhere', { nodeSelector: { none: 'none' } }) } },
    steady: (o) => o.status?.observedGeneration === o.metadata.generation,
  },
  {
    path: `/apis/batch/v1/namespaces/${NS}/jobs`,
    controller: 'job-controller',
    body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'once' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36' }] } } } },
    steady: (o) => o.status?.conditions?.some((c: Json) => c.type === 'Complete' && c.status === 'True'),
  },
  {
    path: `/apis/batch/v1/namespaces/${NS}/jobs`,
    controller: 'job-controller',
    body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'held' }, spec: { suspend: true, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36' }] } } } },
    steady: (o) => o.status?.conditions?.some((c: Json) => c.type === 'Suspended' && c.status === 'True'),
  },
  {
    path: `/apis/batch/v1/namespaces/${NS}/cronjobs`,
    controller: 'cronjob-controller',
    body: { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly' }, spec: { schedule: '0 3 * * *', suspend: true, jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36' }] } } } } } },
    steady: () => true,
  },
  {
    path: `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`,
    controller: 'disruption-controller',
    body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } },
    steady: (o) => o.status?.currentHealthy === 2 && o.status?.disruptionsAllowed === 1,
  },
  {
    path: `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`,
    controller: 'disruption-controller',
    body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'none' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'none' } } } },
    steady: (o) => o.status?.observedGeneration === o.metadata.generation,
  },
  {
    // No metrics API: able to scale, not active.
    path: `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`,
    controller: 'horizontal-pod-autoscaler-controller',
    body: {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] },
    },
    steady: (o) => o.status?.conditions?.some((c: Json) => c.type === 'ScalingActive'),
  },
  {
    // Its Endpoints and EndpointSlice: an unnamed port, two ready pods.
    path: `/api/v1/namespaces/${NS}/services`,
    controller: 'endpoints-controller',
    body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] } },
    steady: () => true,
  },
];

/** The controllers that sync a Service too. */
const SERVICE_CONTROLLERS = ['endpointslice-controller'];

/** Writes of workload objects and their pods, statuses included: the requests a sync at steady state must not send. */
const WRITTEN = ['deployments', 'replicasets', 'statefulsets', 'daemonsets', 'jobs', 'cronjobs', 'poddisruptionbudgets', 'horizontalpodautoscalers', 'pods', 'endpoints', 'endpointslices'];

describe('controllers at steady state', () => {
  let api: Api;
  let cm: ControllerManagerHandle;

  const writes = async (): Promise<Record<string, number>> => {
    const metrics = (await api.request('GET', '/metrics')).body;
    const counts: Record<string, number> = {};
    for (const resource of WRITTEN) for (const verb of ['POST', 'PUT', 'PATCH', 'APPLY', 'DELETE']) {
      const n = metricTotal(metrics, 'apiserver_request_total', { verb, resource });
      if (n) counts[`${verb} ${resource}`] = n;
    }
    return counts;
  };

  /** One pass of every object's controller (ReplicaSets' too), each started after the call and waited for. */
  const resyncAll = async (): Promise<void> => {
    const rsList = (await api.request('GET', `/apis/apps/v1/namespaces/${NS}/replicasets`)).json<{ items: Json[] }>().items;
    const keys = [...OBJECTS.map((o) => ({ controller: o.controller, name: o.body.metadata.name as string })), ...rsList.map((rs) => ({ controller: 'replicaset-controller', name: rs.metadata.name as string })), ...SERVICE_CONTROLLERS.map((controller) => ({ controller, name: 'web' }))];
    await Promise.all(keys.map(({ controller, name }) => {
      const loop = cm.manager.controller(controller)?.controller;
      if (!loop) throw new Error(`${controller} is not running`);
      return loop.sync(`${NS}/${name}`);
    }));
  };

  beforeAll(async () => {
    api = await startCoreApi({ controllerManager: false });
    cm = await startControllerManager(api.url, api.pki, { simulation: { nodes: 2, capacity: { cpu: '4', memory: '8Gi', pods: '110' }, podReadyDelayMs: 200, podCompleteDelayMs: 500, podDeleteDelayMs: 200, leaseRenewMs: 2000 } });
    await cm.manager.controllersStarted();
    expect((await api.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }) })).status).toBe(201);
    // Pods wait for the namespace's default ServiceAccount (the serviceaccount controller's).
    expect(await until(async () => (await api.request('GET', `/api/v1/namespaces/${NS}/serviceaccounts/default`)).status === 200, 60_000)).toBe(true);
    for (const o of OBJECTS) {
      const res = await api.request('POST', o.path, { body: JSON.stringify(o.body) });
      expect(res.status, res.body).toBe(201);
    }
    for (const o of OBJECTS) {
      const at = `${o.path}/${o.body.metadata.name as string}`;
      expect(await until(async () => o.steady((await api.request('GET', at)).json<Json>()), 90_000), `${at} steady`).toBe(true);
    }
    const slices = `/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dweb`;
    expect(await until(async () => (await api.request('GET', `/api/v1/namespaces/${NS}/endpoints/web`)).json<Json>().subsets?.[0]?.addresses?.length === 2, 60_000)).toBe(true);
    expect(await until(async () => (await api.request('GET', slices)).json<Json>().items?.[0]?.endpoints?.length === 2, 60_000)).toBe(true);
  }, 240_000);

  afterAll(async () => {
    await cm?.stop();
    await api?.stop();
  });

  it('send no update on resyncs (an absent field is its zero value)', async () => {
    // A first pass settles whatever was still in flight at steady state (a last legitimate write).
    await resyncAll();
    const before = await writes();
    for (let i = 0; i < 3; i++) await resyncAll();
    const after = await writes();
    const sent = Object.fromEntries(Object.entries(after).map(([k, n]) => [k, n - (before[k] ?? 0)]).filter(([, n]) => n !== 0));
    expect(sent).toEqual({});
  });
});
