import { describe, expect, it } from 'vitest';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import type { StorageInterface } from '@kube/storage';
import type { AdmissionAttributes } from '../admission.types';
import type { LimitRange, LimitRangeItem } from '../quota/resource-quota.types';
import { defaultPodResources, LIMIT_RANGER_ANNOTATION, LimitRangerAdmission, validateClaimLimits, validatePodLimits } from './limit-ranger.admission';

const limitRange = (limits: LimitRangeItem[]): LimitRange => ({ metadata: { name: 'lr', namespace: 'ns' }, spec: { limits } });

const pod = (containers: Record<string, unknown>[], initContainers: Record<string, unknown>[] = []): KubeObject & { spec: { containers: Record<string, unknown>[]; initContainers: Record<string, unknown>[] } } => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers, initContainers },
});

describe('LimitRanger', () => {
  it('defaults missing requests and limits and says so in kube\'s annotation', () => {
    const p = pod([{ name: 'a' }, { name: 'b', resources: { limits: { cpu: '1' } } }], [{ name: 'init' }]);
    defaultPodResources(limitRange([{ type: 'Container', default: { cpu: '500m', memory: '1Gi' }, defaultRequest: { cpu: '100m' } }]), p);
    expect(p.spec.containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '100m' } });
    expect(p.spec.containers[1].resources).toEqual({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '100m' } });
    expect(p.metadata.annotations?.[LIMIT_RANGER_ANNOTATION]).toBe(
      'LimitRanger plugin set: cpu request for container a; cpu, memory limit for container a; cpu request for container b; memory limit for container b; cpu request for init container init; cpu, memory limit for init container init',
    );
  });

  it('holds containers and pods to min, max and ratio with kube\'s messages', () => {
    const lr = limitRange([
      { type: 'Container', max: { cpu: '500m' }, min: { memory: '10Mi' }, maxLimitRequestRatio: { cpu: '2' } },
      { type: 'Pod', max: { memory: '100Mi' } },
    ]);
    const p = pod([{ name: 'a', resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1', memory: '64Mi' } } }, { name: 'b', resources: { requests: { cpu: '100m', memory: '5Mi' }, limits: { cpu: '200m', memory: '64Mi' } } }]);
    expect(validatePodLimits(lr, p)).toEqual([
      'maximum cpu usage per Container is 500m, but limit is 1',
      'cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000',
      'minimum memory usage per Container is 10Mi, but request is 5Mi',
      'maximum memory usage per Pod is 100Mi, but limit is 128Mi',
    ]);
    expect(validatePodLimits(limitRange([{ type: 'Container', max: { cpu: '1' } }]), pod([{ name: 'a' }]))).toEqual(['maximum cpu usage per Container is 1.  No limit is specified']);
  });

  it('holds claims\' storage requests to min and max', () => {
    const lr = limitRange([{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }]);
    const claim = (storage: string): KubeObject => ({ metadata: { name: 'c' }, spec: { resources: { requests: { storage } } } });
    expect(validateClaimLimits(lr, claim('5Gi'))).toEqual([]);
    expect(validateClaimLimits(lr, claim('20Gi'))).toEqual(['maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi']);
    expect(validateClaimLimits(lr, claim('500Mi'))).toEqual(['minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi']);
  });

  it('answers 403 with the aggregate of every violation, and leaves pod updates and subresources alone', async () => {
    const store = { list: async () => ({ items: [limitRange([{ type: 'Container', max: { cpu: '500m', memory: '1Gi' } }])], resourceVersion: '1' }) } as unknown as StorageInterface;
    const plugin = new LimitRangerAdmission(store);
    const object = pod([{ name: 'a', resources: { limits: { cpu: '1', memory: '2Gi' } } }]);
    const attrs: AdmissionAttributes = { operation: 'CREATE', resource: { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true }, subresource: '', namespace: 'ns', name: 'p', object, ctx: { user: { name: 'u', groups: [] }, dryRun: false, warnings: [] } };
    const err = await plugin.validate(attrs).then(() => undefined, (e: unknown) => e);
    expect(isStatusError(err) && err.code).toBe(403);
    expect((err as Error).message).toBe('pods "p" is forbidden: [maximum cpu usage per Container is 500m, but limit is 1, maximum memory usage per Container is 1Gi, but limit is 2Gi]');
    await plugin.validate({ ...attrs, operation: 'UPDATE', oldObject: object });
    await plugin.validate({ ...attrs, subresource: 'status' });
  });
});
