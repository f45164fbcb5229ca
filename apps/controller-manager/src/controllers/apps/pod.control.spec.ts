import { describe, expect, it } from 'vitest';
import type { Pod } from '../../simulation/pod.lifecycle';
import { rankPodsForDeletion, slowStartBatch } from './pod.control';

const now = Date.parse('2026-01-01T00:10:00Z');
const pod = (name: string, opts: { node?: string; phase?: string; ready?: string; created?: string; cost?: string } = {}): Pod => ({
  metadata: { name, uid: name, creationTimestamp: opts.created ?? '2026-01-01T00:00:00Z', annotations: opts.cost ? { 'controller.kubernetes.io/pod-deletion-cost': opts.cost } : {} },
  spec: { nodeName: opts.node },
  status: { phase: opts.phase ?? 'Running', conditions: opts.ready ? [{ type: 'Ready', status: 'True', lastTransitionTime: opts.ready }] : [] },
});

describe('pod control', () => {
  it("ranks pods for deletion in kube's ActivePodsWithRanks order", () => {
    const pods = [
      pod('old-ready', { node: 'a', ready: '2026-01-01T00:00:10Z' }),
      pod('unassigned', { phase: 'Pending' }),
      pod('pending', { node: 'b', phase: 'Pending' }),
      pod('not-ready', { node: 'c' }),
      pod('doubled', { node: 'a', ready: '2026-01-01T00:00:10Z', created: '2026-01-01T00:00:01Z' }),
      pod('cheap', { node: 'd', ready: '2026-01-01T00:00:10Z', cost: '-10' }),
      pod('recent', { node: 'e', ready: '2026-01-01T00:09:59Z' }),
    ];
    expect(rankPodsForDeletion(pods, pods, 6, now).map((p) => p.metadata.name)).toEqual(['unassigned', 'pending', 'not-ready', 'cheap', 'doubled', 'old-ready']);
    expect(rankPodsForDeletion(pods, pods, 7, now)).toHaveLength(7);
  });

  it('creates in slow-start batches and stops at the first batch with a failure', async () => {
    let calls = 0;
    expect(await slowStartBatch(10, async () => void calls++)).toBe(10);
    expect(calls).toBe(10);
    calls = 0;
    // Batches 1, 2, 4: the 4th call fails, so the 4-batch ends the run.
    const ok = await slowStartBatch(100, async () => {
      if (++calls === 4) throw new Error('quota');
    });
    expect(ok).toBe(6);
    expect(calls).toBe(7);
  });
});
