import { describe, expect, it } from 'vitest';
import type { Pod } from '../../simulation/pod.lifecycle';
import { backoffDelayMs, formatIndexes, matchPodFailurePolicy, matchSuccessPolicy, parseIndexes } from './job.util';

const failed = (exitCode: number, conditions: Array<{ type: string; status: string }> = []): Pod =>
  ({ metadata: { name: 'p', namespace: 'ns' }, status: { phase: 'Failed', conditions, containerStatuses: [{ name: 'main', state: { terminated: { exitCode } } }] } }) as Pod;

describe('job util', () => {
  it('writes and reads completed indexes as kube does', () => {
    expect(formatIndexes([4, 0, 1, 2, 7, 8])).toBe('0-2,4,7-8');
    expect([...parseIndexes('0-2,4')]).toEqual([0, 1, 2, 4]);
    expect(formatIndexes([])).toBe('');
  });

  it('matches the first pod failure policy rule, with kube message', () => {
    const rules = [
      { action: 'Ignore' as const, onPodConditions: [{ type: 'DisruptionTarget' }] },
      { action: 'FailJob' as const, onExitCodes: { containerName: 'main', operator: 'In' as const, values: [42] } },
    ];
    expect(matchPodFailurePolicy(rules, failed(42))).toEqual({ action: 'FailJob', message: 'Container main for pod ns/p failed with exit code 42 matching FailJob rule at index 1' });
    expect(matchPodFailurePolicy(rules, failed(1, [{ type: 'DisruptionTarget', status: 'True' }]))?.action).toBe('Ignore');
    expect(matchPodFailurePolicy(rules, failed(1))).toBeUndefined();
  });

  it('matches success policy rules by indexes and counts', () => {
    expect(matchSuccessPolicy([{ succeededIndexes: '0-2' }, { succeededCount: 1 }], new Set([0]))).toBe(1);
    expect(matchSuccessPolicy([{ succeededIndexes: '0-2', succeededCount: 2 }], new Set([0, 2]))).toBe(0);
    expect(matchSuccessPolicy([{ succeededIndexes: '0-2' }], new Set([0, 2]))).toBeUndefined();
  });

  it('backs off 10 s doubling up to 6 minutes', () => {
    expect([0, 1, 2, 3, 10].map(backoffDelayMs)).toEqual([0, 10_000, 20_000, 40_000, 360_000]);
  });
});
