import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { encodeWatchEventFrame, Errors, KUBE_PROTOBUF_WATCH_MEDIA_TYPE, toStatus, type JsonObject, type KubeObject, type WatchEventType } from '@kube/apimachinery';
import type { StorageEvent, WatchChannel } from '@kube/storage';
import { watchersGauge, watchEventsTotal } from './apiserver.metrics';
import { chunkData, chunkedSocket, frameChunk } from './chunked.socket';
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
const PRE_TIMEOUT_BOOKMARK_MS = 2_000;

/**
 * Resolves true once the response can take more (its buffer drained), false when it closed or the channel
 * closed meanwhile. Waiting here lets the bounded channel fill up behind a slow client, so the channel's
 * overflow (kube's "too slow" watcher termination) is what ends it, not unbounded buffering in the response.
 * `socket`: the events go to it directly (chunkedSocket), so its own buffer is the one that must drain.
 */
function drained(res: ServerResponse, socket: Socket | undefined, channel: WatchChannel<StorageEvent>): Promise<boolean> {
  const sink = socket ?? res;
  if (!sink.writableNeedDrain) return Promise.resolve(true);
  return new Promise((resolve) => {
    let cancelChannel: () => void = () => undefined;
    const done = (ok: boolean): void => {
      sink.off('drain', onDrain);
      res.off('close', onGone);
      cancelChannel();
      resolve(ok);
    };
    const onDrain = (): void => done(true);
    const onGone = (): void => done(false);
    sink.on('drain', onDrain);
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
  // Each event is framed as a chunk once for every watcher (framedEvent); over HTTP/1.1 it goes straight to the socket.
  const socket = chunkedSocket(res);
  watchersGauge.inc(opts.labels);
  const sent = sentCounter(opts.labels);
  let first = true;
  let lastRV = String(channel.revision);
  const write = (type: WatchEventType, object: unknown): void => {
    const framed =
      typeof object === 'object' && object !== null
        ? framedEvent(type, object, opts.protobuf === true)
        : frameChunk(opts.protobuf ? eventFrame(type, object as JsonObject) : `{"type":"${type}","object":${JSON.stringify(object)}}\n`);
    if (!socket) res.write(chunkData(framed));
    // Once the response ended, its socket may carry the connection's next response.
    else if (!res.writableEnded && !socket.destroyed) socket.write(framed);
    sent.n++;
    scheduleCountFlush();
  };
  const stop = (): void => channel.close();
  const timer = setTimeout(stop, opts.timeoutMs);
  res.on('close', stop);
  // While an event is being converted, a bookmark must not claim a revision past it.
  let converting = false;
  const bookmarkRV = (): string => (channel.pending || converting ? lastRV : String(Math.max(Number(lastRV), channel.revision)));
  const bookmark = (): void => write('BOOKMARK', opts.bookmarkObject(bookmarkRV()));
  const bookmarks = opts.allowBookmarks ? setInterval(bookmark, BOOKMARK_INTERVAL_MS) : undefined;
  // kube's cacheWatcher also bookmarks 2 s before the watch's deadline, so a client re-watches from now, not from
  // its last event (which a quiet resource's cache window may no longer hold: a 410 and a relist).
  const lastBookmark = opts.allowBookmarks && opts.timeoutMs > PRE_TIMEOUT_BOOKMARK_MS ? setTimeout(bookmark, opts.timeoutMs - PRE_TIMEOUT_BOOKMARK_MS) : undefined;
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
      if ((socket ?? res).writableNeedDrain && !(await drained(res, socket, channel)) && (res.destroyed || channel.error)) break;
      lastRV = ev.object.metadata.resourceVersion ?? lastRV;
    }
    if (channel.error && (socket ?? res).writableNeedDrain) {
      // Still stalled: nothing more can reach this client; drop the connection so it re-watches.
      res.destroy();
    } else if (channel.error && !res.writableEnded) {
      write('ERROR', toStatus(Errors.expired(`watch closed: ${channel.error.message}`)));
    }
  } finally {
    clearTimeout(timer);
    if (bookmarks) clearInterval(bookmarks);
    if (lastBookmark) clearTimeout(lastBookmark);
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
 * The encoded event (a JSON line, or a protobuf frame) framed as one HTTP/1.1 chunk, once per object, type and
 * encoding: every watcher of a cached object writes the same Buffer (no per-watcher string building, UTF-8
 * encoding or chunk framing); over HTTP/2 a watcher writes the data inside it (chunkData, a view).
 */
const framedEvents = [new WeakMap<object, Partial<Record<WatchEventType, Buffer>>>(), new WeakMap<object, Partial<Record<WatchEventType, Buffer>>>()];

function framedEvent(type: WatchEventType, object: object, protobuf: boolean): Buffer {
  const cache = framedEvents[protobuf ? 1 : 0];
  let framed = cache.get(object);
  if (!framed) cache.set(object, (framed = {}));
  return (framed[type] ??= frameChunk(protobuf ? encodeWatchEventFrame(type, object as JsonObject) : `{"type":"${type}","object":${cachedJson(object)}}\n`));
}

/** The protobuf frame of a watch event (unframed), once per object and type: kube caches per object per encoder. */
const eventFrames = new WeakMap<object, Partial<Record<WatchEventType, Buffer>>>();

export function eventFrame(type: WatchEventType, object: JsonObject): Buffer {
  let frames = eventFrames.get(object);
  if (!frames) eventFrames.set(object, (frames = {}));
  return (frames[type] ??= encodeWatchEventFrame(type, object));
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
