import { Errors } from '@kube/apimachinery';
import { inflightRequests } from '../apiserver.metrics';
import type { FlowControl } from '../flowcontrol/flow-control';
import { FLOW_SCHEMA_UID_HEADER, PRIORITY_LEVEL_UID_HEADER } from '../flowcontrol/flowcontrol.types';
import { respondWithError, type Filter } from './api-request';
import { READ_ONLY_VERBS } from './with-max-in-flight';

/** kube's Retry-After for a request APF rejected (its dropped-requests tracker starts there). */
const RETRY_AFTER_SECONDS = 1;

/**
 * kube's WithPriorityAndFairness: classifies the request by the FlowSchemas, names the matched objects in
 * X-Kubernetes-PF-* headers, then runs it on a seat of its priority level: at once, after waiting in its flow's
 * queue, or never (429 + Retry-After when the queues are full or the wait times out). The exempt level and
 * long-running requests (watches, upgrades) take no seat.
 */
export function withPriorityAndFairness(flowControl: FlowControl): Filter {
  // kube's APF filter keeps publishing apiserver_current_inflight_requests (executing, read-only and mutating).
  const readOnly = inflightRequests.labels({ request_kind: 'readOnly' });
  const mutating = inflightRequests.labels({ request_kind: 'mutating' });
  readOnly.set(0);
  mutating.set(0);
  return (next) => async (r) => {
    const user = r.user;
    // kube classifies watches (they get headers) but lets other long-running requests pass unclassified.
    if (!user || (r.longRunning && r.info.verb !== 'watch')) return next(r);
    const schema = flowControl.classify(user, r.info);
    const level = schema.level;
    const m = schema.metrics;
    r.res.setHeader(PRIORITY_LEVEL_UID_HEADER, level.uid);
    r.res.setHeader(FLOW_SCHEMA_UID_HEADER, schema.uid);
    const queueSet = level.queueSet;
    if (r.longRunning) {
      // A watch is dispatched without a seat; executing counts only what holds one (kube: the watch's initialisation).
      m.dispatched.inc();
      return next(r);
    }
    // The exempt level takes no seat; any other waits for one of its level's.
    let queue = -1;
    if (!level.exempt && queueSet) {
      // A client that goes away while queued gives its place up (kube: the request context is cancelled).
      let admission = queueSet.admit(schema.flowHash(user, r.info), m, flowControl.requestWaitLimitMs, (cancel) => r.res.once('close', cancel), r);
      if (admission instanceof Promise) admission = await admission;
      if (admission.queue === undefined) {
        m.reject(admission.reason);
        return respondWithError(r.res, Errors.tooManyRequests(undefined, RETRY_AFTER_SECONDS));
      }
      queue = admission.queue;
    }
    const inflight = READ_ONLY_VERBS.has(r.info.verb) ? readOnly : mutating;
    m.dispatched.inc();
    m.executing.inc();
    inflight.inc();
    try {
      return await next(r);
    } finally {
      m.executing.dec();
      inflight.dec();
      if (queue >= 0) queueSet?.release(queue);
    }
  };
}
