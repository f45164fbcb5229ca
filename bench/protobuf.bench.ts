/**
 * Protobuf against JSON in the same run (`npm run bench -- --only protobuf`): the encode cost of one object (GET),
 * a List of 500 (LIST) and one watch event (WATCH), measured in this process on objects seen for the first time
 * (no per-object cache can hide the cost), then GET and LIST of 500 configmaps over HTTPS against core-api with
 * client-go's protobuf Accept against kubectl's JSON one. Reported, no targets: protobuf is what client-go's
 * controllers ask for; the figures say what it costs here.
 */
import type { Agent } from 'node:https';
import { encodeKubeProtobuf, encodeKubeProtobufList, encodeWatchEventFrame, type JsonObject } from '@kube/apimachinery';
import { call, runLoad, withServerCpu, type LoadResult } from './load.generator';
import { figure } from './report';

export interface ProtobufBenchTarget {
  apiPort: number;
  /** core-api's process: its CPU per request is the figure that holds on a loaded machine. */
  apiPid: number | undefined;
  agent: Agent;
  seconds: number;
  line(name: string, ours: LoadResult, base: LoadResult, target: string): string;
}

const CLIENT_GO_ACCEPT = 'application/vnd.kubernetes.protobuf,application/json';
const LIST_SIZE = 500;

/** A pod as the watch cache holds one once scheduled and running: spec, status, conditions, managedFields. */
function pod(i: number): JsonObject {
  const at = '2026-01-02T03:04:05Z';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `web-7d9c8-${i}`,
      namespace: 'default',
      uid: `0c3a4e0e-1c1b-4f43-9d2f-${String(i).padStart(12, '0')}`,
      resourceVersion: String(1000 + i),
      creationTimestamp: at,
      labels: { app: 'web', 'pod-template-hash': '7d9c8' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9c8', uid: 'a1b2c3d4-0000-4000-8000-000000000001', controller: true, blockOwnerDeletion: true }],
      managedFields: [{ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', time: at, fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {} } } } } }],
    },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'nginx:1.27',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          env: [{ name: 'MODE', value: 'production' }],
          resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m', memory: '64Mi' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 80, scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      nodeName: 'node-1',
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      priority: 0,
      enableServiceLinks: true,
    },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: at },
        { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: at },
      ],
      hostIP: '10.0.0.1',
      podIP: `10.244.0.${i % 250}`,
      podIPs: [{ ip: `10.244.0.${i % 250}` }],
      startTime: at,
      containerStatuses: [{ name: 'web', state: { running: { startedAt: at } }, lastState: {}, ready: true, restartCount: 0, image: 'nginx:1.27', imageID: 'docker.io/library/nginx@sha256:0000', containerID: 'containerd://0000', started: true }],
      qosClass: 'Burstable',
    },
  };
}

/**
 * CPU microseconds per call of `encode` over fresh objects, for about `seconds`: CPU time, not wall time, so
 * other processes on the machine do not count; objects are copied outside the timed part (the encoders cache per
 * object).
 */
function perCall(seconds: number, make: (i: number) => JsonObject[], encode: (objs: JsonObject[]) => unknown, callsPerRound = 20): number {
  const batches: JsonObject[][] = Array.from({ length: 16 }, (_, i) => make(i));
  // JIT warm-up: a fifth of the time, so the first figure measured does not pay for compilation.
  for (const end = performance.now() + seconds * 200; performance.now() < end; ) encode(structuredClone(batches[0]));
  let n = 0;
  let spentUs = 0;
  const deadline = performance.now() + seconds * 1000;
  while (performance.now() < deadline) {
    const fresh = Array.from({ length: callsPerRound }, (_, i) => structuredClone(batches[(n + i) % batches.length]));
    const c0 = process.cpuUsage();
    for (const objs of fresh) encode(objs);
    const c = process.cpuUsage(c0);
    spentUs += c.user + c.system;
    n += callsPerRound;
  }
  return spentUs / n;
}

const listHead = { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '5000' } };

export async function benchProtobuf(t: ProtobufBenchTarget): Promise<void> {
  const s = Math.max(0.5, t.seconds / 3);
  const one = (i: number): JsonObject[] => [pod(i)];
  const many = (i: number): JsonObject[] => Array.from({ length: LIST_SIZE }, (_, j) => pod(i * LIST_SIZE + j));
  const getJson = perCall(s, one, ([o]) => Buffer.from(JSON.stringify(o)));
  const getPb = perCall(s, one, ([o]) => encodeKubeProtobuf(o));
  console.log(figure('protobuf GET encode (a Pod)', getPb, 'µs', `protobuf ${getPb.toFixed(1)} µs vs JSON ${getJson.toFixed(1)} µs per object (${(getPb / getJson).toFixed(2)}×), first encode of each object, CPU time`));
  const listJson = perCall(s, many, (items) => Buffer.from(JSON.stringify({ ...listHead, items })), 2);
  const listPb = perCall(s, many, (items) => encodeKubeProtobufList(listHead, items), 2);
  console.log(figure(`protobuf LIST encode (${LIST_SIZE} Pods)`, listPb / 1000, 'ms', `protobuf ${(listPb / 1000).toFixed(2)} ms vs JSON ${(listJson / 1000).toFixed(2)} ms per list (${(listPb / listJson).toFixed(2)}×), first encode of each item, CPU time`));
  const watchJson = perCall(s, one, ([o]) => Buffer.from(`{"type":"MODIFIED","object":${JSON.stringify(o)}}\n`));
  const watchPb = perCall(s, one, ([o]) => encodeWatchEventFrame('MODIFIED', o));
  console.log(figure('protobuf WATCH event encode (a Pod)', watchPb, 'µs', `protobuf ${watchPb.toFixed(1)} µs vs JSON ${watchJson.toFixed(1)} µs per event (${(watchPb / watchJson).toFixed(2)}×), once per event for every watcher, CPU time`));

  // Over HTTPS: the watch cache's objects, encoded once each per media type, then served from that cache.
  await call(t.agent, t.apiPort, { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: 'protobuf' } }) });
  for (let i = 0; i < LIST_SIZE; i += 50) {
    await Promise.all(Array.from({ length: 50 }, (_, j) => call(t.agent, t.apiPort, { method: 'POST', path: '/api/v1/namespaces/protobuf/configmaps', body: JSON.stringify({ metadata: { name: `p-${i + j}`, labels: { app: 'bench' } }, data: { key: 'value', other: 'x'.repeat(200) } }) })));
  }
  const get = (accept: string) => async () => (await call(t.agent, t.apiPort, { method: 'GET', path: '/api/v1/namespaces/protobuf/configmaps/p-1', headers: { Accept: accept } })).status === 200;
  const list = (accept: string) => async () => (await call(t.agent, t.apiPort, { method: 'GET', path: '/api/v1/namespaces/protobuf/configmaps?resourceVersion=0', headers: { Accept: accept } })).status === 200;
  for (const accept of ['application/json', CLIENT_GO_ACCEPT]) {
    await runLoad(8, Math.min(1, t.seconds), get(accept));
    await runLoad(4, Math.min(1, t.seconds), list(accept));
  }
  const getJsonHttp = await withServerCpu(t.apiPid, () => runLoad(32, t.seconds, get('application/json')));
  const getPbHttp = await withServerCpu(t.apiPid, () => runLoad(32, t.seconds, get(CLIENT_GO_ACCEPT)));
  console.log(t.line('GET configmap, protobuf vs JSON', getPbHttp, getJsonHttp, 'report'));
  console.log(`  server CPU per GET: protobuf ${getPbHttp.cpuUsPerRequest.toFixed(0)} µs, JSON ${getJsonHttp.cpuUsPerRequest.toFixed(0)} µs`);
  const listJsonHttp = await withServerCpu(t.apiPid, () => runLoad(4, t.seconds, list('application/json')));
  const listPbHttp = await withServerCpu(t.apiPid, () => runLoad(4, t.seconds, list(CLIENT_GO_ACCEPT)));
  console.log(t.line(`LIST ${LIST_SIZE} configmaps, protobuf vs JSON`, listPbHttp, listJsonHttp, 'report'));
  console.log(`  server CPU per LIST: protobuf ${listPbHttp.cpuUsPerRequest.toFixed(0)} µs, JSON ${listJsonHttp.cpuUsPerRequest.toFixed(0)} µs`);
}
