/**
 * Load for the kill suite: writers that create, update and delete objects and record every acknowledged write
 * with its resourceVersion, and watchers that follow a collection (list, then watch from the list's
 * resourceVersion, resuming from the last one seen after a broken stream, relisting after 410 Expired) and
 * record every event.
 */
import { request as httpsRequest } from 'node:https';
import type { ClientRequest } from 'node:http';
import type { Instance, ProcessStack } from './process.stack';

type Target = Exclude<Instance, 'controller-manager'>;

/** A namespaced collection written and watched, e.g. ConfigMaps in the chaos namespace. */
export interface Collection {
  /** Short name, also the prefix of every object name written, so objects map to their writer. */
  readonly kind: string;
  readonly path: string;
  body(name: string): Record<string, unknown>;
}

export type Op = 'create' | 'update' | 'delete';

export interface Attempt {
  readonly name: string;
  readonly op: Op;
  readonly acked: boolean;
  /** resourceVersion of an acknowledged write. */
  readonly rv?: number;
  readonly status?: number;
  /** An unacknowledged answer's Status message (or the start of its body): says why, in a failure's report. */
  readonly message?: string;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function statusMessage(body: string): string {
  try {
    const status = JSON.parse(body) as { reason?: string; message?: string };
    return `${status.reason ?? ''}: ${status.message ?? ''}`.slice(0, 300);
  } catch {
    return body.slice(0, 300);
  }
}

/** Cycles through fresh names: create, two updates, delete; every request through `via`. */
export class Writer {
  attempts: Attempt[] = [];
  private stopping = false;
  private loop: Promise<void> | undefined;
  private serial = 0;

  constructor(
    private readonly stack: ProcessStack,
    private readonly via: Target,
    readonly collection: Collection,
    private readonly id: string,
  ) {}

  start(run: string): void {
    this.stopping = false;
    this.attempts = [];
    this.loop = this.cycle(run);
  }

  async stop(): Promise<Attempt[]> {
    this.stopping = true;
    await this.loop;
    return this.attempts;
  }

  get acked(): number {
    return this.attempts.filter((a) => a.acked).length;
  }

  private async cycle(run: string): Promise<void> {
    while (!this.stopping) {
      const name = `${this.collection.kind}-${this.id}-${run}-${this.serial++}`;
      await this.write(name, 'create', 'POST', this.collection.path, this.collection.body(name));
      for (let i = 1; i <= 2 && !this.stopping; i++) await this.write(name, 'update', 'PATCH', `${this.collection.path}/${name}`, { metadata: { labels: { step: String(i) } } });
      await this.write(name, 'delete', 'DELETE', `${this.collection.path}/${name}`);
    }
  }

  private async write(name: string, op: Op, method: string, path: string, body?: unknown): Promise<void> {
    try {
      const res = await this.stack.request(this.via, method, path, body, method === 'PATCH' ? 'application/merge-patch+json' : 'application/json');
      if (res.status >= 200 && res.status < 300) {
        const rv = Number((JSON.parse(res.body) as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion);
        this.attempts.push({ name, op, acked: true, rv });
        return;
      }
      this.attempts.push({ name, op, acked: false, status: res.status, message: statusMessage(res.body) });
    } catch {
      this.attempts.push({ name, op, acked: false });
    }
    // The stack is (partly) down: do not spin.
    await pause(100);
  }
}

export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly rv: number;
  readonly name: string;
}

/** A stretch of one watch between relists: starts at a list's (or the previous check's) resourceVersion. */
export interface Segment {
  readonly start: number;
  readonly events: WatchEvent[];
  /** The newest resourceVersion known delivered: the last event's or bookmark's. */
  end: number;
  /** Events whose resourceVersion was not above the one before. */
  readonly outOfOrder: string[];
}

interface WatchLine {
  type: string;
  object: { code?: number; message?: string; metadata?: { name?: string; resourceVersion?: string } };
}

/**
 * Follows one collection the way client-go's reflector does, on one server or, given several (`hopAfterMs`),
 * moving to the next one every so often and resuming there from the last resourceVersion seen (a client of
 * replicas behind a balancer whose connection moves).
 */
export class Watcher {
  relists = 0;
  /** Watch requests made (each after the first one resumed from the last resourceVersion seen). */
  watches = 0;
  private segments: Segment[] = [];
  private stopped = false;
  private current: ClientRequest | undefined;
  private loop: Promise<void> | undefined;
  private readonly route: readonly Target[];

  constructor(
    private readonly stack: ProcessStack,
    via: Target | readonly Target[],
    readonly collection: Collection,
    private readonly opts: { hopAfterMs?: number } = {},
  ) {
    this.route = typeof via === 'string' ? [via] : via;
  }

  /** The server the next request goes to. */
  get via(): Target {
    return this.route[this.watches % this.route.length];
  }

  get label(): string {
    return `${this.collection.kind} via ${this.route.join('→')}`;
  }

  /** Lists, then watches until stopped. Resolves once the first list is done. */
  async start(): Promise<void> {
    await this.list();
    this.loop = this.follow();
  }

  get position(): number {
    return this.segments.at(-1)?.end ?? 0;
  }

  /** The segments so far; recording goes on in a new segment from the current position. */
  takeSegments(): Segment[] {
    const taken = this.segments;
    const at = this.position;
    this.segments = [{ start: at, events: [], end: at, outOfOrder: [] }];
    return taken;
  }

  /** Breaks the current stream (a stalled watch); the loop resumes from the last position. */
  reconnect(): void {
    this.current?.destroy();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.destroy();
    await this.loop;
  }

  private async list(): Promise<void> {
    for (;;) {
      const res = await this.stack.request(this.via, 'GET', this.collection.path).catch(() => undefined);
      if (res?.status === 200) {
        const rv = Number((JSON.parse(res.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
        this.segments.push({ start: rv, events: [], end: rv, outOfOrder: [] });
        return;
      }
      if (this.stopped) return;
      await pause(200);
    }
  }

  private async follow(): Promise<void> {
    while (!this.stopped) {
      const expired = await this.watchOnce(this.position);
      if (this.stopped) return;
      if (expired) {
        this.relists++;
        await this.list();
      } else {
        await pause(100);
      }
    }
  }

  /** One watch request; resolves true on 410 Expired (relist), false when the stream ends otherwise. */
  private watchOnce(from: number): Promise<boolean> {
    return new Promise((resolve) => {
      let settled = false;
      const done = (expired: boolean): void => {
        if (settled) return;
        settled = true;
        resolve(expired);
      };
      const path = `${this.collection.path}?watch=1&allowWatchBookmarks=true&resourceVersion=${from}`;
      const port = this.stack.ports.get(this.via);
      this.watches++;
      // Own socket: a killed server must break it, and a long watch must not hold a pooled one.
      const req = httpsRequest({ host: '127.0.0.1', port, path, agent: false, ...this.stack.tls, headers: { Accept: 'application/json' } }, (res) => {
        if (res.statusCode === 410) {
          res.resume();
          return done(true);
        }
        if (res.statusCode !== 200) {
          res.resume();
          res.on('end', () => done(false));
          return;
        }
        let partial = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const lines = (partial + chunk).split('\n');
          partial = lines.pop() ?? '';
          for (const line of lines) {
            if (!line.trim()) continue;
            if (this.record(JSON.parse(line) as WatchLine)) {
              req.destroy();
              return done(true);
            }
          }
        });
        res.on('end', () => done(false));
        res.on('error', () => done(false));
        res.on('close', () => done(false));
      });
      this.current = req;
      req.on('error', () => done(false));
      req.end();
      if (this.opts.hopAfterMs) {
        // Moving on: the stream breaks as a dropped connection does, and the loop resumes on the next server.
        const hop = setTimeout(() => req.destroy(), this.opts.hopAfterMs);
        req.on('close', () => clearTimeout(hop));
      }
    });
  }

  /** Records one watch line; true when it says 410 Expired. */
  private record(line: WatchLine): boolean {
    const segment = this.segments.at(-1) as Segment;
    if (line.type === 'ERROR') return line.object.code === 410;
    const rv = Number(line.object.metadata?.resourceVersion);
    if (line.type === 'BOOKMARK') {
      if (rv > segment.end) segment.end = rv;
      return false;
    }
    const event: WatchEvent = { type: line.type as WatchEvent['type'], rv, name: line.object.metadata?.name ?? '' };
    const last = segment.events.at(-1)?.rv ?? segment.start;
    if (!(rv > last)) segment.outOfOrder.push(`${event.type} ${event.name} at ${rv} after ${last}`);
    segment.events.push(event);
    if (rv > segment.end) segment.end = rv;
    return false;
  }
}
