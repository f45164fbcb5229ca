import { describe, expect, it } from 'vitest';
import { imageTag } from './pod-spec.defaults';
import { computeQOSClass, podsResource, quantityValue, type Pod, type PodSpec } from './pods.resource';
import { cells, create, messages, meta, update } from './strategy.testing';

const pod = (spec: PodSpec, status?: Pod['status']): Pod => ({ metadata: meta('web-0', 'default'), spec, ...(status ? { status } : {}) });
const stored = (spec: PodSpec): Pod => {
  const p = pod(spec);
  expect(messages(create(podsResource, p))).toEqual([]);
  return p;
};
const nginx = (): PodSpec => ({ containers: [{ name: 'app', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] });

describe('pods: resource', () => {
  it('is namespaced, in category all, with po and a status subresource', () => {
    expect(podsResource).toMatchObject({ kind: 'Pod', shortNames: ['po'], categories: ['all'], subresources: { status: expect.objectContaining({ verbs: ['get', 'patch', 'update'], discovered: true }) }, namespaced: true });
  });
});

describe('pods: defaulting and status', () => {
  it('fills the common spec defaults and starts Pending', () => {
    const p = pod(nginx(), { phase: 'Running', podIP: '1.2.3.4' });
    expect(create(podsResource, p)).toEqual([]);
    expect(p.spec).toEqual({
      containers: [
        {
          name: 'app',
          image: 'nginx:1.25',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          imagePullPolicy: 'IfNotPresent',
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
    });
    expect(p.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('pulls :latest and untagged images Always, everything else IfNotPresent', () => {
    expect(imageTag('nginx')).toBe('latest');
    expect(imageTag('localhost:5000/team/app')).toBe('latest');
    expect(imageTag('nginx:latest')).toBe('latest');
    expect(imageTag('nginx@sha256:abc')).toBeUndefined();
    expect(imageTag('registry:5000/nginx:1.25')).toBe('1.25');
    const p = pod({ containers: [{ name: 'a', image: 'busybox' }], initContainers: [{ name: 'i', image: 'busybox:1.36' }] });
    create(podsResource, p);
    expect(p.spec?.containers?.[0].imagePullPolicy).toBe('Always');
    expect(p.spec?.initContainers?.[0].imagePullPolicy).toBe('IfNotPresent');
  });

  it('computes the QoS class, requests defaulting to limits', () => {
    expect(quantityValue('500m')).toBe(0.5);
    expect(quantityValue('1Gi')).toBe(2 ** 30);
    expect(quantityValue('1e3')).toBe(1000);
    const guaranteed = pod({ containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '1', memory: '1Gi' } } }] });
    create(podsResource, guaranteed);
    expect(guaranteed.spec?.containers?.[0].resources?.requests).toEqual({ cpu: '1', memory: '1Gi' });
    expect(guaranteed.status?.qosClass).toBe('Guaranteed');
    expect(computeQOSClass({ containers: [{ resources: { requests: { cpu: '1000m' }, limits: { cpu: '1', memory: '1Gi' } } }] })).toBe('Burstable');
    expect(computeQOSClass({ containers: [{ resources: { requests: { cpu: '100m' } } }] })).toBe('Burstable');
  });

  it('marks gated pods with the SchedulingGated condition', () => {
    const p = pod({ ...nginx(), schedulingGates: [{ name: 'example.com/quota' }] });
    create(podsResource, p);
    expect(p.status?.conditions).toEqual([
      { type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' },
    ]);
  });
});

describe('pods: validation', () => {
  it('requires at least one container', () => {
    expect(messages(create(podsResource, pod({})))).toEqual(['spec.containers: Required value']);
  });

  it('checks container names, images and ports', () => {
    const p = pod({
      containers: [
        { name: 'App', image: ' nginx ' },
        { name: 'side', image: '', ports: [{ containerPort: 70000, name: 'http' }, { name: 'http', containerPort: 81 }] },
      ],
      initContainers: [{ name: 'side', image: 'busybox' }],
    });
    expect(messages(create(podsResource, p))).toEqual([
      expect.stringMatching(/^spec\.containers\[0\]\.name: Invalid value: "App": a lowercase RFC 1123 label/),
      'spec.containers[1].image: Required value',
      'spec.containers[1].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.containers[1].ports[1].name: Duplicate value: "http"',
      'spec.initContainers[0].name: Duplicate value: "side"',
      'spec.containers[0].image: Invalid value: " nginx ": must not have leading or trailing whitespace',
    ]);
  });

  it('checks policies and tolerations', () => {
    const p = pod({ ...nginx(), restartPolicy: 'Sometimes', tolerations: [{ operator: 'Equal', value: 'x' }] });
    expect(messages(create(podsResource, p))).toEqual([
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    ]);
  });
});

describe('pods: update', () => {
  it('allows image, activeDeadlineSeconds and toleration additions', () => {
    const old = stored(nginx());
    const next = structuredClone(old);
    next.spec!.containers![0].image = 'nginx:1.26';
    next.spec!.activeDeadlineSeconds = 600;
    next.spec!.tolerations = [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }];
    expect(update(podsResource, next, old)).toEqual([]);
  });

  it('forbids other spec changes with kube\'s message', () => {
    const old = stored(nginx());
    const next = structuredClone(old);
    next.spec!.restartPolicy = 'Never';
    const errs = update(podsResource, next, old);
    expect(errs).toHaveLength(1);
    expect(errs[0].field).toBe('spec');
    expect(errs[0].type).toBe('FieldValueForbidden');
    expect(errs[0].detail.split('\n')[0]).toBe(
      'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    );
    expect(errs[0].detail).toContain('restartPolicy: "Always"');
  });

  it('forbids adding containers, raising the deadline and dropping tolerations', () => {
    const old = stored({ ...nginx(), activeDeadlineSeconds: 60, tolerations: [{ key: 'a', operator: 'Exists' }] });
    const added = structuredClone(old);
    added.spec!.containers!.push({ name: 'b', image: 'busybox' });
    expect(messages(update(podsResource, added, old))).toEqual(['spec.containers: Forbidden: pod updates may not add or remove containers']);
    const raised = structuredClone(old);
    raised.spec!.activeDeadlineSeconds = 120;
    expect(messages(update(podsResource, raised, old))).toEqual(['spec.activeDeadlineSeconds: Invalid value: 120: must be less than or equal to previous value']);
    const dropped = structuredClone(old);
    dropped.spec!.tolerations = [];
    expect(messages(update(podsResource, dropped, old))).toEqual(['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']);
  });

  it('keeps the stored status on a spec update', () => {
    const old = stored(nginx());
    old.status = { phase: 'Running', podIP: '10.244.0.5' };
    const next = structuredClone(old);
    next.status = { phase: 'Failed' };
    update(podsResource, next, old);
    expect(next.status).toEqual({ phase: 'Running', podIP: '10.244.0.5' });
  });
});

describe('pods: field selectors', () => {
  it('exposes the pod fields kube supports', () => {
    const p = stored({ ...nginx(), nodeName: 'node-1', serviceAccountName: 'builder' });
    p.status = { phase: 'Running', podIPs: [{ ip: '10.244.0.5' }], nominatedNodeName: '' };
    expect(podsResource.strategy?.fields?.(p)).toEqual({
      'spec.nodeName': 'node-1',
      'spec.restartPolicy': 'Always',
      'spec.schedulerName': 'default-scheduler',
      'spec.serviceAccountName': 'builder',
      'spec.hostNetwork': 'false',
      'status.phase': 'Running',
      'status.podIP': '10.244.0.5',
      'status.nominatedNodeName': '',
    });
  });
});

describe('pods: printing', () => {
  it('prints a new pod like kubectl get pods -o wide', () => {
    expect(cells(podsResource, pod(nginx(), { phase: 'Pending' }))).toEqual({
      Ready: '0/1',
      Status: 'Pending',
      Restarts: '0',
      Age: '10m',
      IP: '<none>',
      Node: '<none>',
      'Nominated Node': '<none>',
      'Readiness Gates': '<none>',
    });
  });

  it('prints readiness, restarts with their age and wide columns of a running pod', () => {
    const p = pod(
      { ...nginx(), nodeName: 'node-1', readinessGates: [{ conditionType: 'example.com/ready' }] },
      {
        phase: 'Running',
        podIPs: [{ ip: '10.244.0.5' }],
        conditions: [{ type: 'example.com/ready', status: 'True' }],
        containerStatuses: [{ name: 'app', ready: true, restartCount: 2, state: { running: {} }, lastState: { terminated: { exitCode: 1, finishedAt: '2024-01-01T00:05:00Z' } } }],
      },
    );
    expect(cells(podsResource, p)).toMatchObject({ Ready: '1/1', Status: 'Running', Restarts: '2 (5m ago)', IP: '10.244.0.5', Node: 'node-1', 'Readiness Gates': '1/1' });
  });

  it('shows container and init container reasons', () => {
    const crashing = pod(nginx(), { phase: 'Running', containerStatuses: [{ name: 'app', state: { waiting: { reason: 'CrashLoopBackOff' } } }] });
    expect(cells(podsResource, crashing)).toMatchObject({ Ready: '0/1', Status: 'CrashLoopBackOff' });
    const exited = pod(nginx(), { phase: 'Failed', containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 137, signal: 9 } } }] });
    expect(cells(podsResource, exited)).toMatchObject({ Status: 'Signal:9' });
    const initializing = pod({ ...nginx(), initContainers: [{ name: 'init', image: 'busybox' }] }, { phase: 'Pending', initContainerStatuses: [{ name: 'init', state: { running: {} } }] });
    expect(cells(podsResource, initializing)).toMatchObject({ Status: 'Init:0/1' });
    const sidecar = pod({ ...nginx(), initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }] }, { phase: 'Pending' });
    expect(cells(podsResource, sidecar)).toMatchObject({ Ready: '0/2' });
  });

  it('shows Terminating for a pod being deleted', () => {
    const p = pod(nginx(), { phase: 'Running' });
    p.metadata.deletionTimestamp = '2024-01-01T00:09:00Z';
    expect(cells(podsResource, p)).toMatchObject({ Status: 'Terminating' });
  });
});

describe('pods: ephemeralcontainers subresource', () => {
  const sub = podsResource.subresources!.ephemeralcontainers;
  const write = (old: Pod, next: Pod): { obj: Pod; errs: string[] } => {
    const obj = sub.prepareForUpdate(next, old) as Pod;
    return { obj, errs: messages(sub.validateUpdate!(obj, old, undefined as never, podsResource.strategy)) };
  };

  it('takes only spec.ephemeralContainers from the write, defaulted as containers', () => {
    const old = stored(nginx());
    const next = structuredClone(old);
    next.metadata.labels = { changed: 'yes' };
    next.spec!.containers![0].image = 'other';
    next.spec!.ephemeralContainers = [{ name: 'debugger', image: 'busybox', stdin: true }];
    const { obj, errs } = write(old, next);
    expect(errs).toEqual([]);
    expect(obj.metadata.labels).toBeUndefined();
    expect(obj.spec!.containers![0].image).toBe('nginx:1.25');
    expect(obj.spec!.ephemeralContainers).toEqual([
      { name: 'debugger', image: 'busybox', stdin: true, imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' },
    ]);
  });

  it("refuses what kube's validation refuses", () => {
    const old = stored(nginx());
    old.spec!.ephemeralContainers = [{ name: 'debugger', image: 'busybox', imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }];
    const next = structuredClone(old);
    next.spec!.ephemeralContainers = [
      { name: 'app', image: 'busybox', ports: [], readinessProbe: {}, resources: {}, targetContainerName: 'missing', volumeMounts: [{ name: 'v', mountPath: '/v', subPath: 'x' }] },
    ];
    expect(write(old, next).errs).toEqual([
      'spec.ephemeralContainers[0].name: Duplicate value: "app"',
      'spec.ephemeralContainers[0].targetContainerName: Not found: "missing"',
      'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be removed\n',
    ]);
    const mirror = structuredClone(old);
    mirror.metadata.annotations = { 'kubernetes.io/config.mirror': 'x' };
    expect(write(mirror, structuredClone(mirror)).errs).toEqual(['Forbidden: static pods do not support ephemeral containers']);
  });
});

describe('pods: defaults of embedded types (pkg/apis/core/v1/defaults.go)', () => {
  it('defaults fieldRefs, probes, handlers and volumes as kube does', () => {
    const p = stored({
      containers: [
        {
          name: 'app',
          image: 'nginx:1.25',
          env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'V', value: 'x' }],
          livenessProbe: { httpGet: { port: 80 } },
          readinessProbe: { exec: { command: ['true'] }, periodSeconds: 5 },
          lifecycle: { preStop: { httpGet: { port: 80, path: '/stop' } } },
        },
      ],
      volumes: [
        { name: 'none' },
        { name: 'cm', configMap: { name: 'x' } },
        { name: 'secret', secret: { secretName: 'x', defaultMode: 256 } },
        { name: 'down', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } },
        { name: 'proj', projected: { sources: [{ serviceAccountToken: { path: 't' } }, { downwardAPI: { items: [{ path: 'l', fieldRef: { fieldPath: 'metadata.labels' } }] } }] } },
        { name: 'host', hostPath: { path: '/tmp' } },
        { name: 'eph', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'] } } } },
      ],
    });
    const c = p.spec!.containers![0];
    expect(c.env).toEqual([{ name: 'N', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }, { name: 'V', value: 'x' }]);
    expect(c.livenessProbe).toEqual({ httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(c.readinessProbe).toMatchObject({ periodSeconds: 5, timeoutSeconds: 1 });
    expect(c.lifecycle).toEqual({ preStop: { httpGet: { port: 80, path: '/stop', scheme: 'HTTP' } } });
    expect(p.spec!.volumes).toEqual([
      { name: 'none', emptyDir: {} },
      { name: 'cm', configMap: { name: 'x', defaultMode: 420 } },
      { name: 'secret', secret: { secretName: 'x', defaultMode: 256 } },
      { name: 'down', downwardAPI: { defaultMode: 420, items: [{ path: 'n', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } }] } },
      {
        name: 'proj',
        projected: { defaultMode: 420, sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }, { downwardAPI: { items: [{ path: 'l', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } }] } }] },
      },
      { name: 'host', hostPath: { path: '/tmp', type: '' } },
      { name: 'eph', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem' } } } },
    ]);
  });
});
