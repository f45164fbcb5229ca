/** kube's defaulting of flowcontrol/v1 (pkg/apis/flowcontrol/v1/defaults.go). */
import type { FlowSchema, PriorityLevelConfiguration } from './flowcontrol.types';

export const DEFAULT_MATCHING_PRECEDENCE = 1000;
export const DEFAULT_HAND_SIZE = 8;
export const DEFAULT_QUEUES = 64;
export const DEFAULT_QUEUE_LENGTH_LIMIT = 50;
export const DEFAULT_NOMINAL_CONCURRENCY_SHARES = 30;

export function defaultFlowSchema(fs: FlowSchema): void {
  const spec = (fs.spec ??= { priorityLevelConfiguration: { name: '' } });
  if (!spec.matchingPrecedence) spec.matchingPrecedence = DEFAULT_MATCHING_PRECEDENCE;
}

export function defaultPriorityLevel(pl: PriorityLevelConfiguration): void {
  const spec = pl.spec;
  if (!spec) return;
  if (spec.exempt) {
    spec.exempt.nominalConcurrencyShares ??= 0;
    spec.exempt.lendablePercent ??= 0;
  }
  const limited = spec.limited;
  if (limited) {
    // v1 keeps an explicit 0 (a level that only borrows); only an absent value gets the default.
    limited.nominalConcurrencyShares ??= DEFAULT_NOMINAL_CONCURRENCY_SHARES;
    limited.lendablePercent ??= 0;
    const q = limited.limitResponse?.queuing;
    if (q) {
      if (!q.handSize) q.handSize = DEFAULT_HAND_SIZE;
      if (!q.queues) q.queues = DEFAULT_QUEUES;
      if (!q.queueLengthLimit) q.queueLengthLimit = DEFAULT_QUEUE_LENGTH_LIMIT;
    }
  }
}
