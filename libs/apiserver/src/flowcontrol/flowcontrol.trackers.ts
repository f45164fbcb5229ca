/**
 * What the work estimator counts with: the objects each resource stores (kube's StorageObjectCountTracker) and
 * the watches a write notifies (kube's watchTracker, apf's watch_tracker.go).
 */
import type { RequestInfo } from '../request-info';
import type { ObjectCount } from './flowcontrol.work-estimator';

/** kube's pruneInterval: a count nobody refreshed for this long is forgotten (then "not found"). */
const PRUNE_AFTER_MS = 60 * 60 * 1000;

/**
 * Object counts by "resource.group". kube's storage polls etcd for them; APF at the front door learns them from
 * the servers behind it, which name their watch cache's size on every LIST they answer (STORAGE_OBJECTS_HEADER).
 * A count is never stale here (it comes with traffic, not from a poll that could fail): one nobody refreshed
 * within the prune interval is forgotten.
 */
export class ObjectCountTracker {
  private readonly counts = new Map<string, { count: number; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  set(groupResource: string, count: number): void {
    if (!(count >= 0)) return;
    const item = this.counts.get(groupResource);
    if (item) {
      item.count = count;
      item.at = this.now();
    } else this.counts.set(groupResource, { count, at: this.now() });
  }

  get(groupResource: string): ObjectCount {
    const item = this.counts.get(groupResource);
    if (!item) return 'not-found';
    if (this.now() - item.at > PRUNE_AFTER_MS) {
      this.counts.delete(groupResource);
      return 'not-found';
    }
    return item.count;
  }
}

/** kube's builtin watch indexes: a pods watch of one node is not counted for every pod write. */
const INDEXES: Readonly<Record<string, string>> = { pods: 'spec.nodeName' };
const READ_ONLY_VERBS = new Set(['get', 'list', 'watch', 'proxy']);
const SEP = '\u0000';

/** The value an indexed field selector requires exactly ("" when it does not). */
function indexValue(fieldSelector: string | null, field: string): string {
  if (!fieldSelector) return '';
  for (const term of fieldSelector.split(',')) {
    const eq = term.indexOf('=');
    if (eq < 0 || term[eq - 1] === '!') continue;
    if (term.slice(0, eq).trim() === field) return term.slice(eq + 1).replace(/^=/, '').trim();
  }
  return '';
}

/**
 * kube's watchTracker: the watches open through this server by (group, resource, namespace, name), so a write
 * is estimated with the watches it will notify. Registering and forgetting is a map update per watch.
 */
export class WatchTracker {
  private readonly counts = new Map<string, number>();

  /** Counts a watch; the function returned forgets it (undefined for a request that is not one). */
  register(info: RequestInfo, query: URLSearchParams): (() => void) | undefined {
    if (info.verb !== 'watch') return undefined;
    const field = INDEXES[info.resource];
    // A watch narrowed by an indexed field is told only of its own objects' writes: not counted (kube).
    if (field && indexValue(query.get('fieldSelector'), field) !== '') return () => undefined;
    const key = `${info.group}${SEP}${info.resource}${SEP}${info.namespace}${SEP}${info.name}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    let forgotten = false;
    return () => {
      if (forgotten) return;
      forgotten = true;
      const n = (this.counts.get(key) ?? 1) - 1;
      if (n <= 0) this.counts.delete(key);
      else this.counts.set(key, n);
    };
  }

  /** The watches of the resource, of its namespace and of the object itself (GetInterestedWatchCount). */
  interestedWatchCount(info: RequestInfo): number {
    if (this.counts.size === 0 || READ_ONLY_VERBS.has(info.verb)) return 0;
    const base = `${info.group}${SEP}${info.resource}${SEP}`;
    let n = this.counts.get(`${base}${SEP}`) ?? 0;
    if (info.namespace !== '') n += this.counts.get(`${base}${info.namespace}${SEP}`) ?? 0;
    if (info.name !== '') n += this.counts.get(`${base}${info.namespace}${SEP}${info.name}`) ?? 0;
    return n;
  }
}
