import { describe, expect, it } from 'vitest';
import { isStatusError } from '../status.errors';
import { decodeKubeProtobuf, isKubeProtobuf } from './kube-protobuf.codec';
import { kubeProtobufBody, pb } from './protobuf.testing';

/** Bodies captured from kubectl 1.33 (`kubectl create …`), byte for byte. */
const KUBECTL_1_33 = {
  namespace: '6b3873000a0f0a02763112094e616d65737061636512190a110a016e12001a0022002a0032003800420012001a020a001a002200',
  secret: '6b3873000a0c0a0276311206536563726574121d0a110a017312001a0022002a0032003800420012060a01701201711a001a002200',
  serviceAccount: '6b3873000a140a027631120e536572766963654163636f756e7412140a120a02736112001a0022002a003200380042001a002200',
  service:
    '6b3873000a0d0a02763112075365727669636512660a1d0a02733112001a0022002a003200380042005a090a036170701202733112410a1b0a0738302d38303830120354435018502207080010903f1a00280012090a03617070120273311a002209436c757374657249503a00420052005a00600068001a020a001a002200',
};

const fromHex = (hex: string): Buffer => Buffer.from(hex, 'hex');

/** ObjectMeta as Go marshals it: every non-pointer field present, mostly empty. */
const goObjectMeta = (name: string, ...extra: Uint8Array[]): Uint8Array =>
  pb.msg(1, pb.str(1, name), pb.str(2, ''), pb.str(3, ''), pb.str(5, ''), pb.str(6, ''), pb.varint(7, 0), pb.msg(8), ...extra);

function statusOf(fn: () => unknown): { code: number; reason: string } | undefined {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return { code: err.code, reason: err.reason };
    throw err;
  }
  return undefined;
}

describe('isKubeProtobuf', () => {
  it('matches the Kubernetes protobuf media type only', () => {
    expect(isKubeProtobuf('application/vnd.kubernetes.protobuf')).toBe(true);
    expect(isKubeProtobuf('Application/VND.Kubernetes.Protobuf; charset=binary')).toBe(true);
    expect(isKubeProtobuf('application/json')).toBe(false);
    expect(isKubeProtobuf('application/vnd.kubernetes.protobuf+json')).toBe(false);
    expect(isKubeProtobuf(undefined)).toBe(false);
  });
});

describe('decodeKubeProtobuf on real kubectl 1.33 bodies', () => {
  it('decodes a namespace', () => {
    expect(decodeKubeProtobuf(fromHex(KUBECTL_1_33.namespace))).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      object: { apiVersion: 'v1', kind: 'Namespace', metadata: { creationTimestamp: null, name: 'n' }, spec: {}, status: {} },
    });
  });

  it('decodes a secret with base64 data', () => {
    expect(decodeKubeProtobuf(fromHex(KUBECTL_1_33.secret)).object).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { creationTimestamp: null, name: 's' }, data: { p: 'cQ==' } });
  });

  it('decodes a serviceaccount', () => {
    expect(decodeKubeProtobuf(fromHex(KUBECTL_1_33.serviceAccount)).object).toEqual({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { creationTimestamp: null, name: 'sa' } });
  });

  it('decodes a service with ports and an int targetPort', () => {
    expect(decodeKubeProtobuf(fromHex(KUBECTL_1_33.service)).object).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { creationTimestamp: null, name: 's1', labels: { app: 's1' } },
      spec: { ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }], selector: { app: 's1' }, type: 'ClusterIP' },
      status: { loadBalancer: {} },
    });
  });
});

describe('decodeKubeProtobuf on typed-client bodies', () => {
  it('decodes a pod with containers, resources, probes, volumes and tolerations', () => {
    const container = pb.msg(
      2,
      pb.str(1, 'app'),
      pb.str(2, 'nginx:1.27'),
      pb.str(3, 'nginx'),
      pb.str(4, '-g'),
      pb.str(4, 'daemon off;'),
      pb.str(5, ''),
      pb.msg(6, pb.str(1, 'http'), pb.varint(2, 0), pb.varint(3, 80), pb.str(4, 'TCP'), pb.str(5, '')),
      pb.msg(7, pb.str(1, 'A'), pb.str(2, 'B')),
      pb.msg(7, pb.str(1, 'POD_NAME'), pb.str(2, ''), pb.msg(3, pb.msg(1, pb.str(1, 'v1'), pb.str(2, 'metadata.name')))),
      pb.msg(7, pb.str(1, 'PASSWORD'), pb.str(2, ''), pb.msg(3, pb.msg(4, pb.msg(1, pb.str(1, 'creds')), pb.str(2, 'password')))),
      pb.msg(8, pb.msg(1, pb.str(1, 'cpu'), pb.quantity(2, '500m')), pb.msg(2, pb.str(1, 'memory'), pb.quantity(2, '64Mi'))),
      pb.msg(9, pb.str(1, 'data'), pb.varint(2, false), pb.str(3, '/data'), pb.str(4, ''), pb.str(6, '')),
      pb.msg(10, pb.msg(1, pb.msg(2, pb.str(1, '/healthz'), pb.intOrString(2, 'http'), pb.str(3, ''), pb.str(4, 'HTTP'))), pb.varint(2, 0), pb.varint(3, 1), pb.varint(4, 10), pb.varint(5, 1), pb.varint(6, 3)),
      pb.str(13, '/dev/termination-log'),
      pb.str(20, 'File'),
      pb.str(14, 'IfNotPresent'),
      pb.msg(15, pb.msg(1, pb.str(2, 'ALL')), pb.varint(5, true), pb.varint(7, false)),
      pb.varint(16, false),
      pb.varint(17, false),
      pb.varint(18, false),
    );
    const spec = pb.msg(
      2,
      pb.msg(1, pb.str(1, 'data'), pb.msg(2, pb.msg(2, pb.str(1, '')))),
      pb.msg(1, pb.str(1, 'cfg'), pb.msg(2, pb.msg(19, pb.msg(1, pb.str(1, 'settings')), pb.varint(3, 420)))),
      container,
      pb.str(3, 'Always'),
      pb.varint(4, 30),
      pb.str(6, 'ClusterFirst'),
      pb.entry(7, 'disk', 'ssd'),
      pb.str(8, 'runner'),
      pb.str(9, ''),
      pb.str(10, ''),
      pb.varint(11, false),
      pb.varint(12, false),
      pb.varint(13, false),
      pb.msg(14),
      pb.str(16, ''),
      pb.str(17, ''),
      pb.str(19, 'default-scheduler'),
      pb.msg(22, pb.str(1, 'node.kubernetes.io/not-ready'), pb.str(2, 'Exists'), pb.str(3, ''), pb.str(4, 'NoExecute'), pb.varint(5, 300)),
      pb.str(24, ''),
      pb.varint(30, false),
    );
    const body = kubeProtobufBody('v1', 'Pod', goObjectMeta('web', pb.entry(11, 'app', 'web')), spec, pb.msg(3, pb.str(1, ''), pb.str(9, '')));
    const { object } = decodeKubeProtobuf(body);
    expect(object).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { creationTimestamp: null, name: 'web', labels: { app: 'web' } },
      spec: {
        volumes: [
          { name: 'data', emptyDir: {} },
          { name: 'cfg', configMap: { name: 'settings', defaultMode: 420 } },
        ],
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            command: ['nginx'],
            args: ['-g', 'daemon off;'],
            ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
            env: [
              { name: 'A', value: 'B' },
              { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
              { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } },
            ],
            resources: { limits: { cpu: '500m' }, requests: { memory: '64Mi' } },
            volumeMounts: [{ name: 'data', mountPath: '/data' }],
            livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            imagePullPolicy: 'IfNotPresent',
            securityContext: { capabilities: { drop: ['ALL'] }, runAsNonRoot: true, allowPrivilegeEscalation: false },
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        nodeSelector: { disk: 'ssd' },
        serviceAccountName: 'runner',
        securityContext: {},
        schedulerName: 'default-scheduler',
        tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
        enableServiceLinks: false,
      },
      status: {},
    });
  });

  it('decodes a configmap with binaryData and ownerReferences', () => {
    const owner = pb.msg(13, pb.str(5, 'apps/v1'), pb.str(1, 'ReplicaSet'), pb.str(3, 'rs'), pb.str(4, 'u-1'), pb.varint(6, true));
    const body = kubeProtobufBody('v1', 'ConfigMap', goObjectMeta('cm', pb.str(14, 'example.com/hold'), owner), pb.entry(2, 'a', '1'), pb.bytesEntry(3, 'b', Uint8Array.of(0, 0xff)), pb.varint(4, false));
    expect(decodeKubeProtobuf(body).object).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { creationTimestamp: null, name: 'cm', finalizers: ['example.com/hold'], ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u-1', controller: true }] },
      data: { a: '1' },
      binaryData: { b: 'AP8=' },
      immutable: false,
    });
  });

  it('decodes a lease with MicroTime fields', () => {
    const renew = new Date('2025-01-02T03:04:05.678Z');
    const spec = pb.msg(2, pb.str(1, 'node-1'), pb.varint(2, 40), pb.time(3, new Date('2025-01-01T00:00:00Z'), 0), pb.time(4, renew, 678_901_000), pb.varint(5, 0));
    const body = kubeProtobufBody('coordination.k8s.io/v1', 'Lease', goObjectMeta('node-1'), spec);
    expect(decodeKubeProtobuf(body).object).toEqual({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { creationTimestamp: null, name: 'node-1' },
      spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40, acquireTime: '2025-01-01T00:00:00.000000Z', renewTime: '2025-01-02T03:04:05.678901Z', leaseTransitions: 0 },
    });
  });

  it('decodes a deployment as kubectl create deployment sends it, keeping a zero maxSurge', () => {
    const template = pb.msg(3, goObjectMeta('', pb.entry(11, 'app', 'web')), pb.msg(2, pb.msg(2, pb.str(1, 'nginx'), pb.str(2, 'nginx'), pb.msg(8))));
    const strategy = pb.msg(4, pb.str(1, 'RollingUpdate'), pb.msg(2, pb.intOrString(1, '25%'), pb.intOrString(2, 0)));
    const spec = pb.msg(2, pb.varint(1, 2), pb.msg(2, pb.entry(1, 'app', 'web')), template, strategy, pb.varint(5, 0), pb.varint(7, false));
    const body = kubeProtobufBody('apps/v1', 'Deployment', goObjectMeta('web', pb.entry(11, 'app', 'web')), spec, pb.msg(3));
    expect(decodeKubeProtobuf(body).object).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { creationTimestamp: null, name: 'web', labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 0 } },
      },
      // Go writes the empty status struct and its JSON shows it.
      status: {},
    });
  });

  it('decodes a cronjob and its job template', () => {
    const jobSpec = pb.msg(2, pb.msg(6, goObjectMeta(''), pb.msg(2, pb.msg(2, pb.str(1, 'tick'), pb.str(2, 'busybox')), pb.str(3, 'OnFailure'))));
    const spec = pb.msg(2, pb.str(1, '*/5 * * * *'), pb.msg(5, goObjectMeta('tick'), jobSpec), pb.varint(4, false));
    const body = kubeProtobufBody('batch/v1', 'CronJob', goObjectMeta('tick'), spec);
    expect(decodeKubeProtobuf(body).object).toMatchObject({
      kind: 'CronJob',
      spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { metadata: { creationTimestamp: null, name: 'tick' }, spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'tick', image: 'busybox' }] } } } } },
    });
  });

  it('decodes DeleteOptions in any group version, keeping a zero grace period', () => {
    const body = kubeProtobufBody('v1', 'DeleteOptions', pb.varint(1, 0), pb.msg(2, pb.str(1, 'u-1')), pb.str(4, 'Background'), pb.str(5, 'All'));
    expect(decodeKubeProtobuf(body).object).toEqual({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
      preconditions: { uid: 'u-1' },
      propagationPolicy: 'Background',
      dryRun: ['All'],
    });
    expect(decodeKubeProtobuf(kubeProtobufBody('meta.k8s.io/v1', 'DeleteOptions')).object).toEqual({ apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' });
  });

  it('decodes an event and endpoints', () => {
    const at = new Date('2025-03-04T05:06:07Z');
    const event = kubeProtobufBody(
      'v1',
      'Event',
      goObjectMeta('web.1'),
      pb.msg(2, pb.str(1, 'Pod'), pb.str(2, 'default'), pb.str(3, 'web'), pb.str(4, ''), pb.str(5, 'v1'), pb.str(6, ''), pb.str(7, '')),
      pb.str(3, 'Started'),
      pb.str(4, 'Started container'),
      pb.msg(5, pb.str(1, 'kubelet'), pb.str(2, 'node-1')),
      pb.time(6, at),
      pb.time(7, at),
      pb.varint(8, 1),
      pb.str(9, 'Normal'),
      pb.msg(10),
      pb.str(12, ''),
      pb.str(14, ''),
      pb.str(15, ''),
    );
    expect(decodeKubeProtobuf(event).object).toEqual({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { creationTimestamp: null, name: 'web.1' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', apiVersion: 'v1' },
      reason: 'Started',
      message: 'Started container',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: '2025-03-04T05:06:07Z',
      lastTimestamp: '2025-03-04T05:06:07Z',
      count: 1,
      type: 'Normal',
      eventTime: null,
      reportingComponent: '',
      reportingInstance: '',
    });
    const endpoints = kubeProtobufBody('v1', 'Endpoints', goObjectMeta('web'), pb.msg(2, pb.msg(1, pb.str(1, '10.0.0.5'), pb.str(3, '')), pb.msg(3, pb.str(1, ''), pb.varint(2, 8080), pb.str(3, 'TCP'))));
    expect(decodeKubeProtobuf(endpoints).object).toEqual({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { creationTimestamp: null, name: 'web' },
      subsets: [{ addresses: [{ ip: '10.0.0.5' }], ports: [{ port: 8080, protocol: 'TCP' }] }],
    });
  });

  it('ignores fields this version does not know, as Go does', () => {
    const body = kubeProtobufBody('v1', 'Pod', goObjectMeta('p'), pb.msg(2, pb.msg(2, pb.str(1, 'c'), pb.msg(250, pb.str(1, 'future'))), pb.str(410, 'host')));
    expect(decodeKubeProtobuf(body).object.spec).toMatchObject({ containers: [{ name: 'c' }] });
  });
});

describe('decodeKubeProtobuf errors', () => {
  it('answers 400 without the k8s\\0 prefix', () => {
    expect(statusOf(() => decodeKubeProtobuf(Buffer.from('{"kind":"Pod"}')))).toEqual({ code: 400, reason: 'BadRequest' });
    expect(statusOf(() => decodeKubeProtobuf(Buffer.from('k8s')))).toEqual({ code: 400, reason: 'BadRequest' });
  });

  it('answers 415 for a kind with no protobuf message (custom resources, unknown versions, non-kinds)', () => {
    expect(statusOf(() => decodeKubeProtobuf(kubeProtobufBody('stable.example.com/v1', 'CronTab', goObjectMeta('d'))))).toEqual({ code: 415, reason: 'UnsupportedMediaType' });
    expect(statusOf(() => decodeKubeProtobuf(kubeProtobufBody('v2', 'Pod')))).toEqual({ code: 415, reason: 'UnsupportedMediaType' });
    expect(statusOf(() => decodeKubeProtobuf(kubeProtobufBody('v1', 'PodSpec')))).toEqual({ code: 415, reason: 'UnsupportedMediaType' });
    expect(statusOf(() => decodeKubeProtobuf(kubeProtobufBody('apps/v1', 'StatefulSet', goObjectMeta('d'))))).toBeUndefined();
  });

  it('answers 400 for a content encoding', () => {
    const body = Buffer.concat([Buffer.from('k8s\0', 'latin1'), pb.msg(1, pb.str(1, 'v1'), pb.str(2, 'Secret')), pb.bytes(2, new Uint8Array(0)), pb.str(3, 'gzip')]);
    expect(statusOf(() => decodeKubeProtobuf(body))).toEqual({ code: 400, reason: 'BadRequest' });
  });

  it('never fails with anything but a Status on truncated or corrupted bodies', () => {
    const body = fromHex(KUBECTL_1_33.service);
    // Bytes 21..122 are the Service message itself (raw); cuts elsewhere may leave a complete, shorter envelope.
    const rawStart = 21;
    const rawEnd = body.length - 4;
    for (let end = 0; end < body.length; end++) {
      const status = statusOf(() => decodeKubeProtobuf(body.subarray(0, end)));
      if (end >= rawStart && end < rawEnd) expect(status?.code, `truncated at ${end}`).toBe(400);
      else if (status) expect([400, 415]).toContain(status.code);
    }
    let seed = 42;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 2000; round++) {
      const corrupted = Buffer.from(body);
      for (let flips = 1 + Math.floor(random() * 4); flips > 0; flips--) corrupted[4 + Math.floor(random() * (corrupted.length - 4))] = Math.floor(random() * 256);
      const status = statusOf(() => decodeKubeProtobuf(corrupted));
      if (status) expect([400, 415]).toContain(status.code);
    }
  });
});
