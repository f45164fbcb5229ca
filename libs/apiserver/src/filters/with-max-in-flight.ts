import { Errors } from '@kube/apimachinery';
import { inflightRequests, rejectedRequests } from '../apiserver.metrics';
import { respondWithError, type Filter } from './api-request';

export interface InFlightLimits {
  /** Read-only requests served at once (kube's --max-requests-inflight, default 400). */
  maxRequestsInFlight?: number;
  /** Mutating requests served at once (kube's --max-mutating-requests-inflight, default 200). */
  maxMutatingRequestsInFlight?: number;
}

/** kube's nonMutatingRequestVerbs; anything else (a non-resource POST too) counts as mutating. */
export const READ_ONLY_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'watch']);

/**
 * kube's WithMaxInFlightLimit: two budgets, read-only and mutating; a request over its budget answers 429 with
 * Retry-After at once. Watches and upgrades are long-running and not counted.
 */
export function withMaxInFlight(limits: InFlightLimits): Filter {
  const readOnlyLimit = limits.maxRequestsInFlight ?? 400;
  const mutatingLimit = limits.maxMutatingRequestsInFlight ?? 200;
  let readOnly = 0;
  let mutating = 0;
  const publish = (isMutating: boolean): void => {
    inflightRequests.set({ request_kind: isMutating ? 'mutating' : 'readOnly' }, isMutating ? mutating : readOnly);
  };
  return (next) => async (r) => {
    if (r.longRunning) return next(r);
    const isMutating = !READ_ONLY_VERBS.has(r.info.verb);
    if (isMutating ? mutating >= mutatingLimit : readOnly >= readOnlyLimit) {
      rejectedRequests.inc({ request_kind: isMutating ? 'mutating' : 'readOnly' });
      return respondWithError(r.res, Errors.tooManyRequests());
    }
    if (isMutating) mutating++;
    else readOnly++;
    publish(isMutating);
    try {
      return await next(r);
    } finally {
      if (isMutating) mutating--;
      else readOnly--;
      publish(isMutating);
    }
  };
}
