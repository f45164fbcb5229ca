import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { fromResourceList } from './resource-list';
import { evaluatorFor, evaluatorsFor, podEvaluator, serviceEvaluator } from './usage.evaluators';

const pod = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec, ...(status ? { status } : {}) });

describe('quota evaluators', () => {
  it('charges a pod its summed requests and limits, init containers at their peak, sidecars added', () => {
    const usage = podEvaluator.usage(
      pod({
        containers: [
          { name: 'a', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m' } } },
          { name: 'b', resources: { requests: { cpu: '0.2' } } },
        ],
        initContainers: [
          { name: 'init', resources: { requests: { cpu: '1' } } },
          { name: 'sidecar', restartPolicy: 'Always', resources: { requests: { memory: '32Mi' } } },
        ],
      }),
    );
    expect(fromResourceList(usage)).toEqual({
      'count/pods': '1',
      pods: '1',
      cpu: '1',
      'requests.cpu': '1',
      memory: '96Mi',
      'requests.memory': '96Mi',
      'limits.cpu': '200m',
    });
  });

  it('charges only count/pods for a pod that ended', () => {
    expect(fromResourceList(podEvaluator.usage(pod({ containers: [{ name: 'a', resources: { requests: { cpu: '1' } } }] }, { phase: 'Succeeded' })))).toEqual({ 'count/pods': '1' });
  });

  it('requires every container to state what a quota tracks, with kube\'s message', () => {
    const p = pod({ containers: [{ name: 'b' }, { name: 'a', resources: { limits: { cpu: '1' } } }] });
    expect(podEvaluator.constraints?.(['limits.cpu', 'requests.memory', 'pods'], p)).toBe('must specify limits.cpu for: b; requests.memory for: a,b');
    expect(podEvaluator.constraints?.(['pods', 'count/pods'], p)).toBeUndefined();
  });

  it('selects pods by scope', () => {
    const bestEffort = pod({ containers: [{ name: 'a' }], activeDeadlineSeconds: 10, priorityClassName: 'high' });
    const burstable = pod({ containers: [{ name: 'a', resources: { requests: { memory: '1Mi' } } }] });
    expect(podEvaluator.matchesScope({ scopeName: 'BestEffort', operator: 'Exists' }, bestEffort)).toBe(true);
    expect(podEvaluator.matchesScope({ scopeName: 'NotBestEffort', operator: 'Exists' }, burstable)).toBe(true);
    expect(podEvaluator.matchesScope({ scopeName: 'Terminating', operator: 'Exists' }, bestEffort)).toBe(true);
    expect(podEvaluator.matchesScope({ scopeName: 'NotTerminating', operator: 'Exists' }, bestEffort)).toBe(false);
    expect(podEvaluator.matchesScope({ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }, bestEffort)).toBe(true);
    expect(podEvaluator.matchesScope({ scopeName: 'PriorityClass', operator: 'NotIn', values: ['high'] }, bestEffort)).toBe(false);
    expect(podEvaluator.matchesScope({ scopeName: 'PriorityClass', operator: 'DoesNotExist' }, burstable)).toBe(true);
  });

  it('charges services by type', () => {
    const svc = (spec: Record<string, unknown>): KubeObject => ({ metadata: { name: 's' }, spec });
    expect(fromResourceList(serviceEvaluator.usage(svc({ type: 'LoadBalancer', ports: [{ port: 80 }, { port: 443 }] })))).toMatchObject({ 'services.loadbalancers': '1', 'services.nodeports': '2', services: '1' });
    expect(fromResourceList(serviceEvaluator.usage(svc({ ports: [{ port: 80 }] })))).toMatchObject({ 'services.loadbalancers': '0', 'services.nodeports': '0' });
  });

  it('counts any resource by count/<resource>.<group>, and the legacy names', () => {
    const widgets = evaluatorFor({ group: 'example.com', resource: 'widgets' });
    expect(widgets?.matchingResources(['count/widgets.example.com', 'pods'])).toEqual(['count/widgets.example.com']);
    expect(evaluatorFor({ group: '', resource: 'configmaps' })?.matchingResources(['configmaps', 'count/configmaps'])).toEqual(['configmaps', 'count/configmaps']);
    expect(evaluatorFor({ group: '', resource: 'events' })).toBeUndefined();
    expect(evaluatorsFor(['requests.cpu', 'count/pods', 'count/deployments.apps']).map((e) => `${e.groupResource.resource}.${e.groupResource.group}`)).toEqual(['pods.', 'deployments.apps']);
  });
});
