import { Logger } from '@nestjs/common';
import { formatTimestamp } from '@kube/apiserver';
import { isStatusError } from '@kube/apimachinery';
import { resourcePath, type RestClient } from '@kube/client';

/** What an event is about (core/v1 ObjectReference). */
export interface InvolvedObject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  uid: string;
}

/** The core/v1 Event fields the recorder writes. */
interface CoreEvent {
  apiVersion: 'v1';
  kind: 'Event';
  metadata: { name: string; namespace: string; resourceVersion?: string };
  involvedObject: InvolvedObject;
  reason: string;
  message: string;
  type: string;
  source: { component: string; host?: string };
  firstTimestamp: string;
  lastTimestamp: string;
  count: number;
  reportingComponent: string;
  reportingInstance: string;
}

/** What the correlator remembers of an event it wrote (client-go's eventLog). */
interface Observation {
  count: number;
  firstTimestamp: string;
  name: string;
  resourceVersion?: string;
}

/** Similar events (same object, type and reason) seen within the aggregation interval (client-go's aggregateRecord). */
interface AggregateRecord {
  messages: Set<string>;
  lastSeenMs: number;
}

const EVENTS = { group: '', version: 'v1', resource: 'events', namespaced: true };
const SMP = 'application/strategic-merge-patch+json';
/** client-go's defaults (record.NewEventCorrelator): LRU of 4096 keys, 10 distinct messages in 10 minutes before aggregating. */
const CACHE_SIZE = 4096;
const MAX_SIMILAR = 10;
const AGGREGATE_INTERVAL_MS = 600_000;
/** client-go's broadcaster queue (watch.NewLongQueueBroadcaster with DropIfChannelFull): 1000 events waiting at most. */
const MAX_PENDING = 1000;

/** A Map used as an LRU: a read moves the key to the end, the oldest key leaves past the limit. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): void {
    this.map.delete(key);
    this.map.set(key, v);
    if (this.map.size > CACHE_SIZE) this.map.delete(this.map.keys().next().value as string);
  }
}

/** `<object>.<UnixNano in hex>`, client-go's event name. */
function eventName(objectName: string): string {
  const nanos = BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
  return `${objectName}.${nanos.toString(16)}`;
}

/**
 * client-go's EventRecorder with its EventCorrelator, one per controller as kube gives each its own (the source
 * component kubectl describe shows under From): an event seen again patches the one written before (count,
 * lastTimestamp), the 10th distinct message about the same object and reason within 10 minutes becomes a
 * "(combined from similar events)" event, and events are written one at a time, best effort (a failure is only
 * logged). Its spam filter (25 events per object, then one per 5 minutes) is left out.
 */
export class EventRecorder {
  private readonly logger = new Logger('EventRecorder');
  private readonly observed = new Lru<Observation>();
  private readonly similar = new Lru<AggregateRecord>();
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly client: RestClient,
    private readonly component: string,
    private readonly host = '',
  ) {}

  warning(object: InvolvedObject, reason: string, message: string): void {
    this.record(object, 'Warning', reason, message);
  }

  normal(object: InvolvedObject, reason: string, message: string): void {
    this.record(object, 'Normal', reason, message);
  }

  /** Resolves once every event recorded so far was written (or given up). */
  flush(): Promise<void> {
    return this.tail;
  }

  private record(object: InvolvedObject, type: string, reason: string, message: string): void {
    if (this.pending >= MAX_PENDING) return;
    // Events of cluster-scoped objects go to "default", as client-go's recorder does.
    const namespace = object.namespace || 'default';
    const now = formatTimestamp(new Date());
    const event: CoreEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: eventName(object.name), namespace },
      involvedObject: object,
      reason,
      message,
      type,
      source: this.host ? { component: this.component, host: this.host } : { component: this.component },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      reportingComponent: this.component,
      reportingInstance: this.host,
    };
    this.pending++;
    this.tail = this.tail.then(() => this.write(event)).finally(() => void this.pending--);
  }

  private async write(incoming: CoreEvent): Promise<void> {
    const { event, key } = this.aggregate(incoming);
    const last = this.observed.get(key);
    let stored: CoreEvent | undefined;
    try {
      if (last) {
        event.metadata.name = last.name;
        event.firstTimestamp = last.firstTimestamp;
        event.count = last.count + 1;
        this.observed.set(key, { count: event.count, firstTimestamp: event.firstTimestamp, name: event.metadata.name, resourceVersion: last.resourceVersion });
        try {
          stored = await this.client.request<CoreEvent>('PATCH', resourcePath(EVENTS, event.metadata.namespace, event.metadata.name), {
            body: { count: event.count, lastTimestamp: event.lastTimestamp, message: event.message },
            contentType: SMP,
          });
        } catch (err) {
          // Removed meanwhile (events live an hour): written anew, as client-go does.
          if (!(isStatusError(err) && err.code === 404)) throw err;
        }
      } else {
        this.observed.set(key, { count: 1, firstTimestamp: event.firstTimestamp, name: event.metadata.name });
      }
      stored ??= await this.client.request<CoreEvent>('POST', resourcePath(EVENTS, event.metadata.namespace), { body: event });
      this.observed.set(key, { count: stored.count, firstTimestamp: stored.firstTimestamp, name: stored.metadata.name, resourceVersion: stored.metadata.resourceVersion });
    } catch (err) {
      this.logger.warn(`event ${event.reason} on ${event.involvedObject.kind} ${event.involvedObject.name}: ${(err as Error).message}`);
    }
  }

  /** client-go's EventAggregator (EventAggregatorByReasonFunc): the event to write and the key it is observed under. */
  private aggregate(event: CoreEvent): { event: CoreEvent; key: string } {
    const o = event.involvedObject;
    const similarKey = [event.source.component, event.source.host ?? '', o.kind, o.namespace ?? '', o.name, o.uid, o.apiVersion, event.type, event.reason, event.reportingComponent, event.reportingInstance].join('\u0000');
    const key = [similarKey, event.message].join('\u0000');
    const nowMs = Date.now();
    let record = this.similar.get(similarKey);
    if (!record || nowMs - record.lastSeenMs > AGGREGATE_INTERVAL_MS) record = { messages: new Set(), lastSeenMs: nowMs };
    record.messages.add(event.message);
    record.lastSeenMs = nowMs;
    this.similar.set(similarKey, record);
    if (record.messages.size < MAX_SIMILAR) return { event, key };
    // Do not grow past the limit: one message leaves (Go's PopAny).
    record.messages.delete(record.messages.values().next().value as string);
    const combined: CoreEvent = { ...event, metadata: { name: eventName(o.name), namespace: event.metadata.namespace }, message: `(combined from similar events): ${event.message}`, reportingComponent: '', reportingInstance: '' };
    return { event: combined, key: similarKey };
  }
}
