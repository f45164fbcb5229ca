import type { ServerResponse } from 'node:http';
import { encodeWatchEventFrame, Errors, KUBE_PROTOBUF_WATCH_MEDIA_TYPE, toStatus, type JsonObject, type KubeObject, type WatchEventType } from '@kube/apimachinery';
import type { StorageEvent, WatchChannel } from '@kube/storage';
import { watchersGauge, watchEventsTotal } from './apiserver.metrics';
import { cachedJson } from './response.writer';

export interface WatchStreamOptions {
  /** Converts a stored object to the request's version (conversion webhooks); applied before `encode`. */
  convert?: (obj: KubeObject) => Promise<KubeObject>;
  /** Turns a stored object into what the client asked for (the object itself, or a Table row). */
  encode: (obj: KubeObject, first: boolean) => unknown;
  timeoutMs: number;
  allowBookmarks: boolean;
  /** sendInitialEvents=true: a BOOKMARK annotated k8s.io/initial-events-end after the initial ADDEDs. */
  initialEventsEndBookmark: boolean;
  bookmarkObject: (resourceVersion: string) => KubeObject;
  labels: { group: string; version: string; kind: string };
  /** Length-delimited protobuf WatchEvent frames (application/vnd.kubernetes.protobuf;stream=watch) instead of JSON lines. */
  protobuf?: boolean;
}

const BOOKMARK_INTERVAL_MS = 60_000;

/**
 * Resolves true once the response can take more (its buffer drained), false when it closed or the channel
 * closed meanwhile. Waiting here lets the bounded channel fill up behind a slow client, so the channel's
 * overflow (kube's "too slow" watcher termination) is what ends it, not unbounded buffering in the response.
 */
function drained(res: ServerResponse, channel: WatchChannel<StorageEvent>): Promise<boolean> {
  if (!res.writableNeedDrain) return Promise.resolve(true);
  return new Promise((resolve) => {
    let cancelChannel: () => void = () => undefined;
    const done = (ok: boolean): void => {
      res.off('drain', onDrain);
      res.off('close', onGone);
      cancelChannel();
      resolve(ok);
    };
    const onDrain = (): void => done(true);
    const onGone = (): void => done(false);
    res.on('drain', onDrain);
    res.on('close', onGone);
    cancelChannel = channel.onClose(onGone);
  });
}

/**
 * Streams watch events as newline-delimited JSON, one write (flush) per event, until the timeout, the client
 * goes away or the channel ends. Never buffered or compressed. A client that stops reading holds at most one
 * response buffer of events here; the rest wait in the bounded channel, and when that overflows the watch is
 * closed (the connection dropped if the client still reads nothing), as kube closes unresponsive watchers.
 * Selectors were applied by the storage; the channel's revision is what a periodic BOOKMARK may claim.
 */
export async function streamWatch(res: ServerResponse, channel: WatchChannel<StorageEvent>, opts: WatchStreamOptions): Promise<void> {
  // kube names the stream only for protobuf: a JSON watch is application/json.
  res.writeHead(200, { 'Content-Type': opts.protobuf ? KUBE_PROTOBUF_WATCH_MEDIA_TYPE : 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  watchersGauge.inc(opts.labels);
  const sent = sentCounter(opts.labels);
  let first = true;
  let lastRV = String(channel.revision);
  const write = (type: WatchEventType, object: unknown): void => {
    if (opts.protobuf) res.write(eventFrame(type, object as JsonObject));
    else res.write(typeof object === 'object' && object !== null ? eventLine(type, object) : `{"type":"${type}","object":${JSON.stringify(object)}}\n`);
    sent.n++;
    scheduleCountFlush();
  };
  const stop = (): void => channel.close();
  const timer = setTimeout(stop, opts.timeoutMs);
  res.on('close', stop);
  // While an event is being converted, a bookmark must not claim a revision past it.
  let converting = false;
  const bookmarkRV = (): string => (channel.pending || converting ? lastRV : String(Math.max(Number(lastRV), channel.revision)));
  const bookmarks = opts.allowBookmarks ? setInterval(() => write('BOOKMARK', opts.bookmarkObject(bookmarkRV())), BOOKMARK_INTERVAL_MS) : undefined;
  try {
    for await (const ev of channel) {
      if (ev.type === 'BOOKMARK') {
        if (opts.initialEventsEndBookmark) write('BOOKMARK', initialEventsEnd(opts.bookmarkObject(ev.object.metadata.resourceVersion ?? lastRV)));
        continue;
      }
      let object = ev.object;
      if (opts.convert) {
        converting = true;
        const converted = await convertOrReport(object, opts.convert, write);
        converting = false;
        // A failed conversion ends the watch after an ERROR event saying why (kube closes it); so does a gone client.
        if (!converted || res.destroyed) break;
        object = converted;
      }
      write(ev.type, opts.encode(object, first));
      first = false;
      // Only a full response buffer costs a wait (and a microtask hop per watcher per event otherwise).
      if (res.writableNeedDrain && !(await drained(res, channel)) && (res.destroyed || channel.error)) break;
      lastRV = ev.object.metadata.resourceVersion ?? lastRV;
    }
    if (channel.error && res.writableNeedDrain) {
      // Still stalled: nothing more can reach this client; drop the connection so it re-watches.
      res.destroy();
    } else if (channel.error && !res.writableEnded) {
      write('ERROR', toStatus(Errors.expired(`watch closed: ${channel.error.message}`)));
    }
  } finally {
    clearTimeout(timer);
    if (bookmarks) clearInterval(bookmarks);
    watchersGauge.dec(opts.labels);
    if (!res.writableEnded) res.end();
  }
}

/**
 * Events sent, counted per resource and added to the metric once per turn of the event loop: a labelled inc()
 * hashes its labels on every call, and a fan-out would make it once per watcher.
 */
interface SentCount {
  labels: WatchStreamOptions['labels'];
  n: number;
}
const sentCounts = new Map<string, SentCount>();
let countFlushScheduled = false;

function sentCounter(labels: WatchStreamOptions['labels']): SentCount {
  const key = `${labels.group}/${labels.version}/${labels.kind}`;
  let count = sentCounts.get(key);
  if (!count) sentCounts.set(key, (count = { labels, n: 0 }));
  return count;
}

function scheduleCountFlush(): void {
  if (countFlushScheduled) return;
  countFlushScheduled = true;
  setImmediate(() => {
    countFlushScheduled = false;
    for (const count of sentCounts.values()) {
      if (count.n) watchEventsTotal.inc(count.labels, count.n);
      count.n = 0;
    }
  });
}

/**
 * The encoded line of a watch event, once per object and type: every watcher of a cached object writes the same
 * Buffer (no per-watcher string building or UTF-8 encoding).
 */
const eventLines = new WeakMap<object, Partial<Record<WatchEventType, Buffer>>>();

function eventLine(type: WatchEventType, object: object): Buffer {
  let lines = eventLines.get(object);
  if (!lines) eventLines.set(object, (lines = {}));
  return (lines[type] ??= ownBuffer(`{"type":"${type}","object":${cachedJson(object)}}\n`));
}

/** The protobuf frame of a watch event, once per object and type, like eventLine: kube caches per object per encoder. */
const eventFrames = new WeakMap<object, Partial<Record<WatchEventType, Buffer>>>();

export function eventFrame(type: WatchEventType, object: JsonObject): Buffer {
  let frames = eventFrames.get(object);
  if (!frames) eventFrames.set(object, (frames = {}));
  return (frames[type] ??= encodeWatchEventFrame(type, object));
}

/**
 * A Buffer with memory of its own. Buffer.from() cuts small strings out of a shared 8 KiB slab, and a line kept
 * as long as its event stays in the watch cache's window would keep the whole slab alive: measured in a soak,
 * thousands of slabs for lines of a few hundred bytes.
 */
export function ownBuffer(text: string): Buffer {
  const buf = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  buf.write(text);
  return buf;
}

/** The converted object, or undefined after writing the conversion error as an ERROR event. */
async function convertOrReport(obj: KubeObject, convert: (obj: KubeObject) => Promise<KubeObject>, write: (type: WatchEventType, object: unknown) => void): Promise<KubeObject | undefined> {
  try {
    return await convert(obj);
  } catch (err) {
    write('ERROR', toStatus(err));
    return undefined;
  }
}

function initialEventsEnd(obj: KubeObject): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, annotations: { 'k8s.io/initial-events-end': 'true' } } };
}
