/** kube's pkg/controller/job helpers as pure functions: completed-index sets, pod failure policy, success policy. */
import type { Pod } from '../../simulation/pod.lifecycle';

export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
export const JOB_COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';
export const JOB_INDEX_FAILURE_COUNT = 'batch.kubernetes.io/job-index-failure-count';

/** The index of an Indexed Job's pod (annotation, else label), undefined when missing or bad. */
export function completionIndexOf(pod: Pod): number | undefined {
  const v = pod.metadata.annotations?.[JOB_COMPLETION_INDEX] ?? pod.metadata.labels?.[JOB_COMPLETION_INDEX];
  return v !== undefined && /^(0|[1-9]\d*)$/.test(v) ? Number(v) : undefined;
}

/** parseIndexesFromString: "1,3-5" → {1,3,4,5}. */
export function parseIndexes(text: string | undefined): Set<number> {
  const out = new Set<number>();
  for (const part of (text ?? '').split(',')) {
    if (!part) continue;
    const [a, b] = part.split('-').map((x) => Number(x));
    for (let i = a; i <= (b ?? a); i++) out.add(i);
  }
  return out;
}

/** orderedIntervals.String: sorted indexes as "1,3-5". */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((x, y) => x - y);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

export interface PodFailurePolicyRule {
  action: 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';
  onExitCodes?: { containerName?: string; operator: 'In' | 'NotIn'; values: number[] };
  onPodConditions?: Array<{ type: string; status?: string }>;
}

interface TerminatedState {
  name: string;
  state?: { terminated?: { exitCode: number } };
}

/**
 * matchPodFailurePolicy: the first rule matching a failed pod, with kube's message for FailJob; undefined when
 * none does (the failure counts against backoffLimit).
 */
export function matchPodFailurePolicy(rules: readonly PodFailurePolicyRule[] | undefined, pod: Pod): { action: PodFailurePolicyRule['action']; message: string } | undefined {
  const statuses = [...((pod.status?.initContainerStatuses ?? []) as TerminatedState[]), ...((pod.status?.containerStatuses ?? []) as TerminatedState[])];
  const who = `${pod.metadata.namespace as string}/${pod.metadata.name as string}`;
  for (const [index, rule] of (rules ?? []).entries()) {
    if (rule.onExitCodes) {
      const r = rule.onExitCodes;
      for (const s of statuses) {
        const code = s.state?.terminated?.exitCode;
        if (code === undefined || code === 0) continue;
        if (r.containerName && r.containerName !== s.name) continue;
        const listed = r.values.includes(code);
        if (r.operator === 'In' ? listed : !listed) {
          return { action: rule.action, message: `Container ${s.name} for pod ${who} failed with exit code ${code} matching ${rule.action} rule at index ${index}` };
        }
      }
    }
    for (const want of rule.onPodConditions ?? []) {
      const c = pod.status?.conditions?.find((x) => x.type === want.type && x.status === (want.status ?? 'True'));
      if (c) return { action: rule.action, message: `Pod ${who} has condition ${want.type} matching ${rule.action} rule at index ${index}` };
    }
  }
  return undefined;
}

export interface SuccessPolicyRule {
  succeededIndexes?: string;
  succeededCount?: number;
}

/** matchSuccessPolicy: the index of the first rule the succeeded indexes meet. */
export function matchSuccessPolicy(rules: readonly SuccessPolicyRule[] | undefined, succeeded: ReadonlySet<number>): number | undefined {
  for (const [i, rule] of (rules ?? []).entries()) {
    if (rule.succeededIndexes !== undefined) {
      const wanted = parseIndexes(rule.succeededIndexes);
      const met = [...wanted].filter((x) => succeeded.has(x)).length;
      if (rule.succeededCount !== undefined ? met >= rule.succeededCount : met === wanted.size) return i;
    } else if (rule.succeededCount !== undefined && succeeded.size >= rule.succeededCount) {
      return i;
    }
  }
  return undefined;
}

/** The pod backoff (kube's DefaultJobPodFailureBackOff 10 s, doubling, at most 6 min) after `failures` failures. */
export function backoffDelayMs(failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(10_000 * 2 ** (failures - 1), 360_000);
}
