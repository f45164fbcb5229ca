import type { KubeObject } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { toScale } from '../../../../libs/apiserver/src/subresources/scale.subresource';
import { controllerRevisionsResource, daemonSetsResource, deploymentsResource, replicaSetsResource, statefulSetsResource, type Workload, type WorkloadSpec } from './apps.resources';
import { cells, create, messages, meta, update } from './strategy.testing';

const template = (labels: Record<string, string> = { app: 'web' }) => ({ metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } });
const workload = (kind: string, spec: WorkloadSpec, name = 'web'): Workload => ({ apiVersion: 'apps/v1', kind, metadata: { ...meta(name, 'default'), uid: 'u1', generation: 1 }, spec });
const deployment = (spec: WorkloadSpec = {}): Workload => workload('Deployment', { selector: { matchLabels: { app: 'web' } }, template: template(), ...spec });

describe('apps/v1: resources', () => {
  it('serves the workload kinds with kube short names, category all, status and scale', () => {
    expect(deploymentsResource).toMatchObject({ group: 'apps', kind: 'Deployment', shortNames: ['deploy'], categories: ['all'], subresources: { status: expect.anything(), scale: expect.anything() } });
    expect(replicaSetsResource).toMatchObject({ shortNames: ['rs'], categories: ['all'], subresources: { scale: expect.anything() } });
    expect(statefulSetsResource).toMatchObject({ shortNames: ['sts'], categories: ['all'], nameValidation: 'label', subresources: { scale: expect.anything() } });
    expect(daemonSetsResource.subresources?.scale).toBeUndefined();
    expect(daemonSetsResource).toMatchObject({ shortNames: ['ds'], categories: ['all'] });
    expect(controllerRevisionsResource.categories).toBeUndefined();
  });
});

describe('apps/v1: defaults', () => {
  it('fills a deployment as SetDefaults_Deployment and the pod template as SetDefaults_PodSpec', () => {
    const d = deployment();
    expect(messages(create(deploymentsResource, d))).toEqual([]);
    expect(d.spec).toMatchObject({
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
    expect(d.spec?.template?.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler', securityContext: {} });
    expect(d.spec?.template?.spec?.containers?.[0]).toMatchObject({ imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' });
  });

  it('leaves a Recreate deployment without rollingUpdate, and keeps given replicas', () => {
    const d = deployment({ replicas: 0, strategy: { type: 'Recreate' } });
    expect(messages(create(deploymentsResource, d))).toEqual([]);
    expect(d.spec).toMatchObject({ replicas: 0, strategy: { type: 'Recreate' } });
    expect(d.spec?.strategy?.rollingUpdate).toBeUndefined();
  });

  it('fills statefulsets and daemonsets', () => {
    const s = workload('StatefulSet', { selector: { matchLabels: { app: 'web' } }, template: template(), serviceName: 'web' });
    expect(messages(create(statefulSetsResource, s))).toEqual([]);
    expect(s.spec).toMatchObject({
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      revisionHistoryLimit: 10,
    });
    const ds = workload('DaemonSet', { selector: { matchLabels: { app: 'web' } }, template: template() });
    expect(messages(create(daemonSetsResource, ds))).toEqual([]);
    expect(ds.spec).toMatchObject({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10 });
    expect(ds.spec?.replicas).toBeUndefined();
    expect(ds.metadata.annotations).toEqual({ 'deprecated.daemonset.template.generation': '1' });
    // Go marshals these status fields even when zero.
    expect(ds.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    expect(s.status).toEqual({ replicas: 0, availableReplicas: 0 });
  });
});

describe('apps/v1: validation', () => {
  it('refuses a selector that does not select the template, with kube message and Go-printed labels', () => {
    const d = deployment({ selector: { matchLabels: { app: 'other' } } });
    expect(messages(create(deploymentsResource, d))).toEqual(['spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']);
  });

  it('requires a selector and refuses an empty one', () => {
    const missing = deployment({ selector: undefined });
    expect(messages(create(deploymentsResource, missing))).toEqual([
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    ]);
    const empty = deployment({ selector: {} });
    expect(messages(create(deploymentsResource, empty))).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
    ]);
  });

  it('checks replicas, restartPolicy, the pod spec under spec.template.spec and the strategy', () => {
    const d = deployment({ replicas: -1, strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 'x' } } });
    (d.spec?.template?.spec as Record<string, unknown>).restartPolicy = 'Never';
    (d.spec?.template?.spec?.containers?.[0] as Record<string, unknown>).name = 'Bad_Name';
    expect(messages(create(deploymentsResource, d))).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.spec.containers[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      'spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"x"}: a valid percent string must be a numeric string followed by an ending \'%\' (e.g. \'1%\',  or \'93%\', regex used for validation is \'[0-9]+%\')',
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
    ]);
  });

  it('keeps the selector immutable on update', () => {
    const old = deployment();
    expect(messages(create(deploymentsResource, old))).toEqual([]);
    const next = deployment({ selector: { matchLabels: { app: 'web', tier: 'x' } }, template: template({ app: 'web', tier: 'x' }) });
    expect(messages(update(deploymentsResource, next, old))).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    ]);
  });

  it('lets a statefulset update change only the mutable fields', () => {
    const old = workload('StatefulSet', { selector: { matchLabels: { app: 'web' } }, template: template(), serviceName: 'web' });
    expect(messages(create(statefulSetsResource, old))).toEqual([]);
    const scaled = structuredClone(old);
    scaled.spec = { ...scaled.spec, replicas: 3, revisionHistoryLimit: 2 };
    expect(messages(update(statefulSetsResource, scaled, old))).toEqual([]);
    const renamed = structuredClone(old);
    renamed.spec = { ...renamed.spec, serviceName: 'other' };
    expect(messages(update(statefulSetsResource, renamed, old))).toEqual([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });

  it('validates daemonset update strategies and the template generation annotation', () => {
    const ds = workload('DaemonSet', { selector: { matchLabels: { app: 'web' } }, template: template(), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } } });
    expect(messages(create(daemonSetsResource, ds))).toEqual(['spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero']);
    const old = workload('DaemonSet', { selector: { matchLabels: { app: 'web' } }, template: template() });
    create(daemonSetsResource, old);
    const next = structuredClone(old);
    (next.spec?.template?.spec?.containers?.[0] as Record<string, unknown>).image = 'nginx:1.28';
    expect(messages(update(daemonSetsResource, next, old))).toEqual([]);
    expect(next.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('2');
  });

  it('requires controller revision data and keeps it immutable', () => {
    const rev: KubeObject = { metadata: meta('web-1', 'default'), revision: 1 };
    expect(messages(create(controllerRevisionsResource, rev))).toEqual(['data: Required value: data is mandatory']);
    const old: KubeObject = { metadata: meta('web-1', 'default'), revision: 1, data: { a: 1 } };
    expect(messages(update(controllerRevisionsResource, { ...old, data: { a: 2 } }, old))).toEqual(['data: Invalid value: {"a":2}: field is immutable']);
  });
});

describe('apps/v1: printing and scale', () => {
  it('prints kube columns', () => {
    const d = deployment({ replicas: 3 });
    create(deploymentsResource, d);
    d.status = { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 1 };
    expect(cells(deploymentsResource, d)).toEqual({ Ready: '2/3', 'Up-to-date': 3, Available: 1, Age: '10m', Containers: 'nginx', Images: 'nginx:1.27', Selector: 'app=web' });
    const ds = workload('DaemonSet', { selector: { matchLabels: { app: 'web' } }, template: { ...template(), spec: { ...template().spec, nodeSelector: { disk: 'ssd' } } } });
    create(daemonSetsResource, ds);
    expect(cells(daemonSetsResource, ds)).toMatchObject({ Desired: 0, Current: 0, Ready: 0, 'Up-to-date': 0, Available: 0, 'Node Selector': 'disk=ssd', Age: '10m' });
    expect(deploymentsResource.tableColumns?.map((c) => [c.name, c.priority ?? 0])).toEqual([['Ready', 0], ['Up-to-date', 0], ['Available', 0], ['Age', 0], ['Containers', 1], ['Images', 1], ['Selector', 1]]);
    const rev: KubeObject = { metadata: { ...meta('web-1', 'default'), ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u', controller: true }] }, revision: 4, data: {} };
    expect(cells(controllerRevisionsResource, rev)).toEqual({ Controller: 'statefulset.apps/web', Revision: 4, Age: '10m' });
  });

  it('gives a Scale with the formatted selector', () => {
    const d = deployment({ replicas: 2, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] } });
    d.spec!.template = template({ app: 'web', tier: 'a' });
    d.status = { replicas: 1 };
    expect(toScale(d, { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' })).toMatchObject({
      spec: { replicas: 2 },
      status: { replicas: 1, selector: 'app=web,tier in (a,b)' },
    });
  });
});
