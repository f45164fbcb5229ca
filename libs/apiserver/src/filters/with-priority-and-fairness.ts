import { Errors } from '@kube/apimachinery';
import type { ServerResponse } from 'node:http';
import { inflightRequests } from '../apiserver.metrics';
import type { FlowControl } from '../flowcontrol/flow-control';
import { FLOW_SCHEMA_UID_HEADER, PRIORITY_LEVEL_UID_HEADER, STORAGE_OBJECTS_HEADER } from '../flowcontrol/flowcontrol.types';
import { groupResourceKey, maxSeatsOf } from '../flowcontrol/flowcontrol.work-estimator';
import type { Ticket } from '../flowcontrol/queue-set';
import { respondWithError, type Filter } from './api-request';
import { READ_ONLY_VERBS } from './with-max-in-flight';

/** kube's Retry-After for a request APF rejected (its dropped-requests tracker starts there). */
const RETRY_AFTER_SECONDS = 1;

/** Calls `once` when the response's head is written (a proxied watch's backend answered: it is set up). */
function onHead(res: ServerResponse, once: () => void): void {
  const writeHead = res.writeHead;
  let called = false;
  const fire = (): void => {
    if (called) return;
    called = true;
    res.writeHead = writeHead;
    once();
  };
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    fire();
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
  res.once('close', fire);
}

const STORAGE_OBJECTS_KEY = STORAGE_OBJECTS_HEADER.toLowerCase();

/**
 * Takes the server's stored-object count out of a LIST's response head (the client is not told how many objects
 * the whole resource holds; kube publishes that in metrics only) and hands it to `found`.
 */
function takeStoredObjects(res: ServerResponse, found: (count: number) => void): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    res.writeHead = writeHead;
    for (const h of args) {
      if (!h || typeof h !== 'object' || Array.isArray(h)) continue;
      const headers = h as Record<string, unknown>;
      const v = headers[STORAGE_OBJECTS_KEY] ?? headers[STORAGE_OBJECTS_HEADER];
      if (v === undefined) continue;
      found(Number(v));
      delete headers[STORAGE_OBJECTS_KEY];
      delete headers[STORAGE_OBJECTS_HEADER];
    }
    const own = this.getHeader(STORAGE_OBJECTS_HEADER);
    if (own !== undefined) {
      found(Number(own));
      this.removeHeader(STORAGE_OBJECTS_HEADER);
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}

/**
 * kube's WithPriorityAndFairness: classifies the request by the FlowSchemas, names the matched objects in
 * X-Kubernetes-PF-* headers, estimates its work (seats, and seats held after it for the watch events a write
 * sends), then runs it on its priority level's seats: at once, after waiting in its flow's queue, or never
 * (429 + Retry-After when the queues are full or the wait times out). The exempt level takes no seat; a watch
 * holds its seats until it is set up (the backend answered), other long-running requests pass unclassified.
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
    const estimate = flowControl.estimate(schema, r.info, r.query);
    const watch = r.longRunning;
    const queueSet = level.queueSet;
    let ticket: Ticket<typeof m> | undefined;
    if (!level.exempt && queueSet) {
      // A client that goes away while queued gives its place up (kube: the request context is cancelled).
      let admission = queueSet.admit(schema.flowHash(user, r.info), estimate, m, flowControl.requestWaitLimitMs, (cancel) => r.res.once('close', cancel), r);
      if (admission instanceof Promise) admission = await admission;
      if (typeof admission === 'string') {
        m.reject(admission);
        return respondWithError(r.res, Errors.tooManyRequests(undefined, RETRY_AFTER_SECONDS));
      }
      ticket = admission;
    } else {
      // The exempt level is never held back, but what it uses is not there for the others (kube ≥ 1.28).
      level.seatDemand.add(maxSeatsOf(estimate));
    }
    m.dispatched.inc();
    m.executing.inc();
    const started = performance.now();
    let finished = false;
    // Seats are given back once: when the request is done, or, for a watch, once it is set up.
    const finish = (): void => {
      if (finished) return;
      finished = true;
      m.executing.dec();
      (watch ? m.executionWatch : m.executionRegular).observe((performance.now() - started) / 1000);
      if (ticket) queueSet?.finish(ticket);
      else level.seatDemand.add(-maxSeatsOf(estimate));
    };
    if (watch) {
      const forget = flowControl.watches.register(r.info, r.query);
      if (forget) r.res.once('close', forget);
      onHead(r.res, finish);
      try {
        return await next(r);
      } finally {
        finish();
      }
    }
    const inflight = READ_ONLY_VERBS.has(r.info.verb) ? readOnly : mutating;
    inflight.inc();
    // The server behind names its stored count: the next LIST of the resource is costed with it.
    if (r.info.verb === 'list') takeStoredObjects(r.res, (n) => flowControl.objectCounts.set(groupResourceKey(r.info.group, r.info.resource), n));
    try {
      return await next(r);
    } finally {
      inflight.dec();
      finish();
    }
  };
}
