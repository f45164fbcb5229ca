import { describe, expect, it } from 'vitest';
import { formatHPAMetrics, hpaFromV1, hpaToV1, horizontalPodAutoscalersV1Resource, horizontalPodAutoscalersV2Resource, type HorizontalPodAutoscalerV2 } from './autoscaling.resources';
import { cells, create, messages, meta } from './strategy.testing';

const v2 = (): HorizontalPodAutoscalerV2 => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: meta('web', 'default'),
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 2,
    maxReplicas: 5,
    metrics: [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } },
    ],
    behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
  },
  status: { currentReplicas: 2, desiredReplicas: 2, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 30 } } }], conditions: [{ type: 'AbleToScale', status: 'True' }] },
});

describe('HorizontalPodAutoscaler', () => {
  it('converts v2 to v1 with the CPU target in the spec and the rest in kube\'s annotations', () => {
    const v1 = hpaToV1(v2());
    expect(v1.spec).toEqual({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 60 });
    expect(v1.status).toEqual({ currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 30 });
    const annotations = v1.metadata.annotations ?? {};
    expect(JSON.parse(annotations['autoscaling.alpha.kubernetes.io/metrics'])).toEqual([{ type: 'Resource', resource: { name: 'memory', targetAverageValue: '100Mi' } }]);
    expect(JSON.parse(annotations['autoscaling.alpha.kubernetes.io/behavior'])).toEqual({ scaleDown: { stabilizationWindowSeconds: 60 } });
    expect(JSON.parse(annotations['autoscaling.alpha.kubernetes.io/conditions'])).toEqual([{ type: 'AbleToScale', status: 'True' }]);
  });

  it('round-trips v2 → v1 → v2 without losing anything', () => {
    const back = hpaFromV1(hpaToV1(v2()));
    expect(back.metadata.annotations).toBeUndefined();
    expect(back.spec?.behavior).toEqual(v2().spec?.behavior);
    expect(new Set(back.spec?.metrics?.map((m) => JSON.stringify(m)))).toEqual(new Set(v2().spec?.metrics?.map((m) => JSON.stringify(m))));
    expect(back.status?.currentMetrics).toEqual(v2().status?.currentMetrics);
    expect(back.status?.conditions).toEqual(v2().status?.conditions);
  });

  it('defaults v2 as kube: one replica, CPU at 80%, full behavior when one is given', () => {
    const hpa: HorizontalPodAutoscalerV2 = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: meta('d', 'default'), spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 3, behavior: {} } };
    expect(create(horizontalPodAutoscalersV2Resource, hpa)).toEqual([]);
    expect(hpa.spec?.minReplicas).toBe(1);
    expect(hpa.spec?.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    expect(hpa.spec?.behavior?.scaleDown).toEqual({ stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });
    expect(hpa.spec?.behavior?.scaleUp?.policies).toHaveLength(2);
  });

  it('validates replicas and targets with kube\'s messages, through either version', () => {
    const bad = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: meta('b', 'default'), spec: { scaleTargetRef: { kind: 'Deployment' }, minReplicas: 3, maxReplicas: 2 } };
    expect(messages(create(horizontalPodAutoscalersV1Resource, bad))).toEqual(['spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`', 'spec.scaleTargetRef.name: Required value']);
    const zero = { ...v2(), spec: { ...v2().spec, minReplicas: 0, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 0 } } }] } };
    expect(messages(create(horizontalPodAutoscalersV2Resource, zero))).toEqual(['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1', 'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0']);
  });

  it('prints reference, targets, min, max and replicas from either version', () => {
    const expected = { Reference: 'Deployment/web', Targets: 'cpu: 30%/60%, memory: <unknown>/100Mi', MinPods: '2', MaxPods: '5', Replicas: '2' };
    expect(cells(horizontalPodAutoscalersV2Resource, v2())).toEqual(expected);
    // Read as v1, the CPU target comes back last (kube's conversion order), so statuses pair by position as v1 lists them.
    expect(cells(horizontalPodAutoscalersV1Resource, hpaToV1(v2()))).toEqual({ ...expected, Targets: 'memory: <unknown>/100Mi, cpu: <unknown>/60%' });
    expect(formatHPAMetrics({ ...v2(), spec: { metrics: [] } })).toBe('<none>');
  });
});
