import { describe, expect, it } from 'vitest';
import { podDisruptionBudgetsResource } from './policy.resources';
import { priorityClassesResource, runtimeClassesResource, SystemPriorityClassProtection } from './scheduling.resources';
import { cells, create, ctx, messages, meta, update } from './strategy.testing';

const pdb = (spec: Record<string, unknown>) => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta('guard', 'default'), spec });

describe('PodDisruptionBudget', () => {
  it('starts with a zero status and prints its budget', () => {
    const obj = pdb({ minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
    expect(create(podDisruptionBudgetsResource, obj)).toEqual([]);
    expect(obj).toMatchObject({ status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } });
    expect(cells(podDisruptionBudgetsResource, obj)).toEqual({ 'Min Available': '1', 'Max Unavailable': 'N/A', 'Allowed Disruptions': 0 });
  });

  it('refuses both bounds, bad percents and bad selectors with kube\'s messages', () => {
    expect(messages(create(podDisruptionBudgetsResource, pdb({ minAvailable: '150%', selector: {} })))).toEqual(['spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%']);
    expect(messages(create(podDisruptionBudgetsResource, pdb({ maxUnavailable: 'half' })))).toEqual([
      "spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"half\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    ]);
    expect(messages(create(podDisruptionBudgetsResource, pdb({ minAvailable: 1, maxUnavailable: 1 })))[0]).toMatch(/^spec: Invalid value: .*: minAvailable and maxUnavailable cannot be both set$/);
    expect(messages(create(podDisruptionBudgetsResource, pdb({ selector: { matchExpressions: [{ key: 'a', operator: 'In' }] } })))).toEqual(["spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"]);
  });
});

describe('PriorityClass', () => {
  const pc = (name: string, value: number) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: meta(name), value });

  it('defaults the preemption policy and keeps the value immutable', () => {
    const obj = pc('high', 1000);
    expect(create(priorityClassesResource, obj)).toEqual([]);
    expect(obj).toMatchObject({ preemptionPolicy: 'PreemptLowerPriority' });
    expect(messages(update(priorityClassesResource, pc('high', 2000), obj))).toEqual(['value: Forbidden: may not be changed in an update.']);
  });

  it('reserves system- names and high values', () => {
    expect(messages(create(priorityClassesResource, pc('system-mine', 10)))).toEqual(["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"]);
    expect(messages(create(priorityClassesResource, pc('system-node-critical', 5)))).toEqual(["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000"]);
    expect(create(priorityClassesResource, pc('system-node-critical', 2000001000))).toEqual([]);
    expect(messages(create(priorityClassesResource, pc('huge', 2000000000)))).toEqual(['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']);
  });

  it('forbids deleting the system classes', () => {
    const plugin = new SystemPriorityClassProtection();
    const attrs = (name: string) => ({ operation: 'DELETE' as const, resource: priorityClassesResource, subresource: '', namespace: '', name, ctx });
    expect(() => plugin.validate(attrs('system-cluster-critical'))).toThrow('priorityclasses.scheduling.k8s.io "system-cluster-critical" is forbidden: this is a system priority class and cannot be deleted');
    expect(() => plugin.validate(attrs('high'))).not.toThrow();
  });
});

describe('RuntimeClass', () => {
  it('requires a DNS-label handler that never changes', () => {
    const rc = { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: meta('gvisor'), handler: 'runsc' };
    expect(create(runtimeClassesResource, rc)).toEqual([]);
    expect(messages(create(runtimeClassesResource, { ...rc, handler: undefined }))).toEqual(['handler: Required value']);
    expect(messages(update(runtimeClassesResource, { ...rc, handler: 'kata' }, rc))).toEqual(['handler: Invalid value: "kata": field is immutable']);
  });
});
