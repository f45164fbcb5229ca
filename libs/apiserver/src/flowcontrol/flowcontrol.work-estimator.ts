/**
 * kube's APF work estimator (k8s.io/apiserver pkg/util/flowcontrol/request: width.go, list_work_estimator.go,
 * mutating_work_estimator.go, config.go, kube 1.33): how many seats a request occupies while it executes
 * (InitialSeats), and how many it keeps for how long after it finished (FinalSeats for AdditionalLatency: the
 * watch events a write fans out).
 */
import type { RequestInfo } from '../request-info';

export interface WorkEstimate {
  initialSeats: number;
  finalSeats: number;
  /** Milliseconds the final seats stay taken after the request finished; the client never waits for it. */
  additionalLatencyMs: number;
}

/** The most seats of initial and final phase (kube's WorkEstimate.MaxSeats). */
export function maxSeatsOf(we: WorkEstimate): number {
  return we.initialSeats >= we.finalSeats ? we.initialSeats : we.finalSeats;
}

/** kube's DefaultWorkEstimatorConfig. */
export interface WorkEstimatorConfig {
  minimumSeats: number;
  maximumSeatsLimit: number;
  objectsPerSeat: number;
  mutatingEnabled: boolean;
  watchesPerSeat: number;
  eventAdditionalDurationMs: number;
  /**
   * Whether a consistent LIST (no resourceVersion) is served from the watch cache (kube: ConsistentListFromCache
   * and etcd's progress notifications; ours: yes, the cache waits until it is as fresh as etcd).
   */
  consistentListFromCache: boolean;
  /** kube's WatchList gate: a watch with sendInitialEvents=true is costed as the LIST it starts with. */
  watchList: boolean;
}

export const DEFAULT_WORK_ESTIMATOR_CONFIG: Readonly<WorkEstimatorConfig> = Object.freeze({
  minimumSeats: 1,
  maximumSeatsLimit: 10,
  objectsPerSeat: 100,
  mutatingEnabled: true,
  watchesPerSeat: 10,
  eventAdditionalDurationMs: 5,
  consistentListFromCache: true,
  watchList: true,
});

/** What the object count tracker answers (kube: a count, ObjectCountNotFoundErr, ObjectCountStaleErr). */
export type ObjectCount = number | 'not-found' | 'stale' | Error;

/** The stored objects of a resource, by kube's key `resource.group` (GroupResource.String()). */
export type ObjectCountGetter = (groupResource: string) => ObjectCount;
/** The watches a write to this request's object notifies (kube's WatchTracker.GetInterestedWatchCount). */
export type WatchCountGetter = (info: RequestInfo) => number;
/** The most seats one request of a priority level may take (0: unknown, use the limit). */
export type MaxSeatsGetter = (priorityLevel: string) => number;

/** kube's GroupResource.String(): "resource.group", or "resource" for the core group. */
export function groupResourceKey(group: string, resource: string): string {
  return group ? `${resource}.${group}` : resource;
}

const ONE_SEAT: Readonly<WorkEstimate> = Object.freeze({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });

interface ListOptions {
  limit: number;
  continue: string;
  resourceVersion: string;
  resourceVersionMatch: string;
  fieldSelector: string;
  labelSelector: string;
  sendInitialEvents: boolean | undefined;
}

/** metav1.Convert_url_Values_To_v1_ListOptions, as far as the estimator reads it: undefined where it errs. */
function listOptions(query: URLSearchParams): ListOptions | undefined {
  const limitText = query.get('limit');
  let limit = 0;
  if (limitText !== null && limitText !== '') {
    if (!/^[+-]?\d+$/.test(limitText)) return undefined;
    limit = Number(limitText);
  }
  const sie = query.get('sendInitialEvents');
  let sendInitialEvents: boolean | undefined;
  if (sie !== null) {
    // strconv.ParseBool
    if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(sie)) sendInitialEvents = true;
    else if (['0', 'f', 'F', 'FALSE', 'false', 'False', ''].includes(sie)) sendInitialEvents = sie === '' ? undefined : false;
    else return undefined;
  }
  return {
    limit,
    continue: query.get('continue') ?? '',
    resourceVersion: query.get('resourceVersion') ?? '',
    resourceVersionMatch: query.get('resourceVersionMatch') ?? '',
    fieldSelector: query.get('fieldSelector') ?? '',
    labelSelector: query.get('labelSelector') ?? '',
    sendInitialEvents,
  };
}

/** kube's RequestInfo names the object of a LIST/WATCH whose field selector requires one metadata.name. */
function selectsOneName(fieldSelector: string): boolean {
  if (!fieldSelector) return false;
  for (const term of fieldSelector.split(',')) {
    const m = /^\s*metadata\.name\s*==?\s*(.+?)\s*$/.exec(term);
    if (m && m[1]) return true;
  }
  return false;
}

/** delegator.ShouldDelegateListMeta with CacheWithoutSnapshots: whether the LIST is read from etcd. */
function listFromStorage(o: ListOptions, consistentListFromCache: boolean): boolean {
  switch (o.resourceVersionMatch) {
    case 'Exact':
      return true;
    case 'NotOlderThan':
      return false;
    case '':
      if (o.continue) return true;
      if (o.limit > 0 && o.resourceVersion !== '' && o.resourceVersion !== '0') return true;
      if (o.resourceVersion === '') return !consistentListFromCache;
      return false;
    default:
      return true;
  }
}

/**
 * kube's workEstimator: LIST (and a WATCH that starts with its LIST) by the objects it will touch, writes by the
 * watches they notify, everything else one seat. `query` is the request's query string.
 */
export class WorkEstimator {
  constructor(
    private readonly objectCount: ObjectCountGetter,
    private readonly watchCount: WatchCountGetter,
    private readonly maxSeatsFor: MaxSeatsGetter,
    readonly config: Readonly<WorkEstimatorConfig> = DEFAULT_WORK_ESTIMATOR_CONFIG,
  ) {}

  estimate(info: RequestInfo | undefined, query: URLSearchParams, priorityLevel: string): WorkEstimate {
    if (!info) return { initialSeats: this.config.maximumSeatsLimit, finalSeats: 0, additionalLatencyMs: 0 };
    switch (info.verb) {
      case 'list':
        return this.estimateList(info, query, priorityLevel);
      case 'watch':
        if (this.config.watchList) return this.estimateList(info, query, priorityLevel);
        break;
      case 'create':
      case 'update':
      case 'patch':
      case 'delete':
        return this.estimateMutating(info, priorityLevel);
    }
    return this.config.minimumSeats === 1 ? ONE_SEAT : { initialSeats: this.config.minimumSeats, finalSeats: 0, additionalLatencyMs: 0 };
  }

  private maxSeats(priorityLevel: string): number {
    const m = this.maxSeatsFor(priorityLevel);
    return m === 0 || m > this.config.maximumSeatsLimit ? this.config.maximumSeatsLimit : m;
  }

  private seats(n: number): WorkEstimate {
    return n === 1 ? ONE_SEAT : { initialSeats: n, finalSeats: 0, additionalLatencyMs: 0 };
  }

  private estimateList(info: RequestInfo, query: URLSearchParams, priorityLevel: string): WorkEstimate {
    const min = this.config.minimumSeats;
    const max = this.maxSeats(priorityLevel);
    const o = listOptions(query);
    // A LIST of one name is a GET in storage.
    if (info.name !== '' || (o && selectsOneName(o.fieldSelector))) return this.seats(min);
    if (!o) return this.seats(max);
    // A watch costs its initial LIST only when it asks for one.
    if (info.verb === 'watch' && o.sendInitialEvents !== true) return this.seats(min);
    const fromCache = info.verb === 'watch' || !listFromStorage(o, this.config.consistentListFromCache);
    const count = this.objectCount(groupResourceKey(info.group, info.resource));
    // Not found: unknown, or served by another server (an aggregated API): the least, as kube (#109106).
    if (count === 'not-found') return this.seats(min);
    if (typeof count !== 'number') return this.seats(max);
    const limit = o.limit > 0 && o.limit < count ? o.limit : count;
    let objects: number;
    if (fromCache) objects = count;
    else if (o.fieldSelector !== '' || o.labelSelector !== '') objects = count + limit;
    else objects = 2 * limit;
    let seats = Math.ceil(objects / this.config.objectsPerSeat);
    if (seats < min) seats = min;
    if (seats > max) seats = max;
    return this.seats(seats);
  }

  private estimateMutating(info: RequestInfo, priorityLevel: string): WorkEstimate {
    const min = this.config.minimumSeats;
    if (!this.config.mutatingEnabled) return this.seats(min);
    // Creating a service account token notifies no watch.
    if (info.resource === 'serviceaccounts' && info.subresource === 'token') return this.seats(min);
    const watches = this.watchCount(info);
    if (watches < this.config.watchesPerSeat) return ONE_SEAT;
    const max = this.maxSeats(priorityLevel);
    let finalSeats = Math.ceil(watches / this.config.watchesPerSeat);
    // The final work (seats × event duration) is kept, reshaped narrower and longer when capped.
    const finalWorkMs = finalSeats * this.config.eventAdditionalDurationMs;
    if (finalSeats > max) finalSeats = max;
    return { initialSeats: 1, finalSeats, additionalLatencyMs: finalWorkMs / finalSeats };
  }
}
