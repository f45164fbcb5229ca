import type { ResourcePath } from '@kube/client';
import { isPodReady, readySince, type Pod } from '../../simulation/pod.lifecycle';

export const PODS: ResourcePath = { group: '', version: 'v1', resource: 'pods', namespaced: true };
const DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

/**
 * kube's slowStartBatch: `count` calls in batches of 1, 2, 4, … until one call of a batch fails, so a quota or
 * admission refusal costs one request, not hundreds. Returns how many succeeded.
 */
export async function slowStartBatch(count: number, fn: () => Promise<void>, initialBatchSize = 1): Promise<number> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    successes += ok;
    if (ok < batch) return successes;
    remaining -= batch;
  }
  return successes;
}

const phaseRank = (pod: Pod): number => ({ Pending: 0, Unknown: 1, Running: 2 })[pod.status?.phase ?? 'Pending'] ?? 0;
const restarts = (pod: Pod): number => Math.max(0, ...((pod.status?.containerStatuses ?? []) as Array<{ restartCount?: number }>).map((s) => s.restartCount ?? 0));
const deletionCost = (pod: Pod): number => {
  const v = Number.parseInt(pod.metadata.annotations?.[DELETION_COST_ANNOTATION] ?? '0', 10);
  return Number.isFinite(v) ? v : 0;
};

/** logarithmicRankDiff: how much longer ago t2 was than t1, on a log2 scale of nanoseconds (LogarithmicScaleDown). */
function logRankDiff(t1: number, t2: number, now: number): number {
  const r = (t: number): number => (now - t > 0 ? Math.floor(Math.log2((now - t) * 1e6)) : -1);
  return r(t1) - r(t2);
}

/**
 * controller.ActivePodsWithRanks's order, the pods to delete first at the front: unassigned before assigned,
 * Pending before Unknown before Running, not ready before ready, lower pod-deletion-cost first, more pods of
 * the same owner on its node first, ready for less time first, more restarts first, newer first.
 */
export function rankPodsForDeletion(pods: readonly Pod[], related: readonly Pod[], n: number, now = Date.now()): Pod[] {
  if (n >= pods.length) return [...pods];
  const onNode = new Map<string, number>();
  const owned = new Set(pods.map((p) => p.metadata.uid));
  for (const p of related) {
    if (!owned.has(p.metadata.uid) || !p.spec?.nodeName) continue;
    onNode.set(p.spec.nodeName, (onNode.get(p.spec.nodeName) ?? 0) + 1);
  }
  const rank = (p: Pod): number => (p.spec?.nodeName ? (onNode.get(p.spec.nodeName) ?? 0) : 0);
  const uidOrder = (a: Pod, b: Pod): number => String(a.metadata.uid).localeCompare(String(b.metadata.uid));
  const sorted = [...pods].sort((a, b) => {
    const assignedA = a.spec?.nodeName ? 1 : 0;
    const assignedB = b.spec?.nodeName ? 1 : 0;
    if (assignedA !== assignedB) return assignedA - assignedB;
    if (phaseRank(a) !== phaseRank(b)) return phaseRank(a) - phaseRank(b);
    const readyA = isPodReady(a) ? 1 : 0;
    const readyB = isPodReady(b) ? 1 : 0;
    if (readyA !== readyB) return readyA - readyB;
    if (deletionCost(a) !== deletionCost(b)) return deletionCost(a) - deletionCost(b);
    if (rank(a) !== rank(b)) return rank(b) - rank(a);
    if (readyA && readyB) {
      const ta = readySince(a) ?? 0;
      const tb = readySince(b) ?? 0;
      if (ta !== tb) return logRankDiff(ta, tb, now) || uidOrder(a, b);
    }
    if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
    const ca = Date.parse(a.metadata.creationTimestamp ?? '') || 0;
    const cb = Date.parse(b.metadata.creationTimestamp ?? '') || 0;
    if (ca !== cb) return logRankDiff(ca, cb, now) || uidOrder(a, b);
    return uidOrder(a, b);
  });
  return sorted.slice(0, n);
}
