import { describe, expect, it } from 'vitest';
import type { Node } from './node.simulator';
import { parseGoDuration, withCondition, type Pod } from './pod.lifecycle';
import { matchesNodeAffinity, podRequests, untoleratedTaint } from './pod.scheduler';

const node = (labels: Record<string, string>, taints: Array<{ key: string; value?: string; effect: string }> = [], unschedulable = false): Node => ({ metadata: { name: 'n1', labels }, spec: { taints, unschedulable } });

describe('simulated scheduler filters', () => {
  it('matches nodeSelector and required node affinity terms (any term, every expression)', () => {
    const n = node({ zone: 'a', disk: 'ssd', gen: '5' });
    const pod = (spec: Pod['spec']): Pod => ({ metadata: { name: 'p' }, spec });
    expect(matchesNodeAffinity(pod({ nodeSelector: { zone: 'a' } }), n)).toBe(true);
    expect(matchesNodeAffinity(pod({ nodeSelector: { zone: 'b' } }), n)).toBe(false);
    const terms = (t: unknown[]): Pod['spec'] => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: t as never } } } });
    expect(matchesNodeAffinity(pod(terms([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }, { matchExpressions: [{ key: 'gen', operator: 'Gt', values: ['4'] }, { key: 'gpu', operator: 'DoesNotExist' }] }])), n)).toBe(true);
    expect(matchesNodeAffinity(pod(terms([{ matchExpressions: [{ key: 'disk', operator: 'NotIn', values: ['ssd'] }] }])), n)).toBe(false);
    expect(matchesNodeAffinity(pod(terms([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }])), n)).toBe(true);
    expect(matchesNodeAffinity(pod(terms([{}])), n)).toBe(false);
  });

  it('finds the first NoSchedule/NoExecute taint a pod does not tolerate; unschedulable is a taint', () => {
    const tainted = node({}, [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }, { key: 'soft', effect: 'PreferNoSchedule' }]);
    const pod = (tolerations: Pod['spec'] extends infer S ? (S extends { tolerations?: infer T } ? T : never) : never): Pod => ({ metadata: { name: 'p' }, spec: { tolerations } });
    expect(untoleratedTaint(pod([]), tainted)?.key).toBe('dedicated');
    expect(untoleratedTaint(pod([{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }]), tainted)).toBeUndefined();
    expect(untoleratedTaint(pod([{ key: 'dedicated', operator: 'Exists' }]), tainted)).toBeUndefined();
    expect(untoleratedTaint(pod([{ operator: 'Exists' }]), node({}, [], true))).toBeUndefined();
    expect(untoleratedTaint(pod([]), node({}, [], true))?.key).toBe('node.kubernetes.io/unschedulable');
  });

  it('sums container requests, the largest init container winning when larger', () => {
    const pod: Pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'a', resources: { requests: { cpu: '250m', memory: '64Mi' } } }, { name: 'b', resources: { requests: { cpu: '0.5' } } }], initContainers: [{ name: 'i', resources: { requests: { memory: '1Gi' } } }] } };
    expect(podRequests(pod)).toEqual({ milliCpu: 750, memory: 1024 ** 3 });
  });

  it('parses Go durations and keeps a condition transition time when the status stays', () => {
    expect([parseGoDuration('1m30s'), parseGoDuration('250ms'), parseGoDuration('1h'), parseGoDuration('5'), parseGoDuration('1x')]).toEqual([90_000, 250, 3_600_000, undefined, undefined]);
    const c = withCondition([{ type: 'Ready', status: 'True', lastTransitionTime: 't0' }], { type: 'Ready', status: 'True', lastTransitionTime: 't1' });
    expect(c[0].lastTransitionTime).toBe('t0');
  });
});
