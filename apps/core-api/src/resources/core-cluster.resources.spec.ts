import { describe, expect, it } from 'vitest';
import { nodesResource, persistentVolumeClaimsResource, persistentVolumesResource, replicationControllersResource } from './core-cluster.resources';
import { csiDriversResource, storageClassesResource } from './storage.resources';
import { cells, create, messages, meta, update } from './strategy.testing';

describe('ReplicationController', () => {
  const rc = () => ({ apiVersion: 'v1', kind: 'ReplicationController', metadata: meta('web', 'default'), spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } });

  it('defaults selector, labels and replicas from the template as kube does', () => {
    const obj = rc();
    expect(create(replicationControllersResource, obj)).toEqual([]);
    expect(obj).toMatchObject({ metadata: { labels: { app: 'web' } }, spec: { replicas: 1, selector: { app: 'web' }, template: { spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' } } } });
    expect(cells(replicationControllersResource, obj)).toMatchObject({ Desired: 1, Current: 0, Ready: 0, Containers: 'web', Images: 'nginx', Selector: 'app=web' });
  });

  it('refuses a selector that does not match the template and pod spec errors under spec.template', () => {
    const obj = { ...rc(), spec: { ...rc().spec, selector: { app: 'other' } } };
    expect(messages(create(replicationControllersResource, obj))).toEqual(['spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`']);
    const noImage = rc();
    noImage.spec.template.spec.containers[0].image = '';
    expect(messages(create(replicationControllersResource, noImage))).toContain('spec.template.spec.containers[0].image: Required value');
  });
});

describe('PersistentVolume and PersistentVolumeClaim', () => {
  it('defaults and prints a volume', () => {
    const pv = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: meta('pv1'), spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } };
    expect(create(persistentVolumesResource, pv)).toEqual([]);
    expect(pv).toMatchObject({ spec: { persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' }, status: { phase: 'Pending' } });
    expect(cells(persistentVolumesResource, pv)).toMatchObject({ Capacity: '1Gi', 'Access Modes': 'RWO', 'Reclaim Policy': 'Retain', Status: 'Pending', Claim: '', VolumeAttributesClass: '<unset>' });
    expect(messages(create(persistentVolumesResource, { ...pv, spec: { capacity: { storage: '1Gi' }, accessModes: [] } }))).toEqual(['spec.accessModes: Required value: at least 1 access mode is required', 'spec: Required value: must specify a volume type']);
  });

  it('requires a storage request on claims', () => {
    const pvc = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: meta('data', 'default'), spec: { accessModes: ['ReadWriteOnce'] } };
    expect(messages(create(persistentVolumeClaimsResource, pvc))).toEqual(['spec.resources[storage]: Required value']);
  });
});

describe('Node', () => {
  it('prints status and roles', () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { ...meta('n1'), labels: { 'node-role.kubernetes.io/control-plane': '' } }, spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.33.0' } } };
    expect(cells(nodesResource, node)).toMatchObject({ Status: 'Ready,SchedulingDisabled', Roles: 'control-plane', Version: 'v1.33.0' });
    expect(messages(create(nodesResource, { ...node, spec: { taints: [{ key: 'k', effect: 'Sometimes' }] } }))).toEqual(['spec.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoExecute", "NoSchedule", "PreferNoSchedule"']);
  });
});

describe('storage.k8s.io', () => {
  it('defaults StorageClass and CSIDriver and forbids changing a provisioner', () => {
    const sc = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: meta('fast'), provisioner: 'example.com/fast' };
    expect(create(storageClassesResource, sc)).toEqual([]);
    expect(sc).toMatchObject({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
    expect(messages(update(storageClassesResource, { ...sc, provisioner: 'example.com/slow' }, sc))).toEqual(['provisioner: Forbidden: updates to provisioner are forbidden.']);
    const driver = { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: meta('csi.example.com'), spec: {} };
    expect(create(csiDriversResource, driver)).toEqual([]);
    expect(driver.spec).toMatchObject({ attachRequired: true, podInfoOnMount: false, fsGroupPolicy: 'ReadWriteOnceWithFSType', volumeLifecycleModes: ['Persistent'] });
  });
});
