/**
 * etcd's own record of what happened, to judge the writers and watchers by: every put and delete since a
 * revision, read with an etcd watch from that revision (etcd keeps the history; nothing here compacts it).
 */
import { Etcd3 } from 'etcd3';
import type { Attempt, Segment, WatchEvent } from './load';

export interface HistoryEvent {
  readonly key: string;
  readonly type: 'Put' | 'Delete';
  readonly rev: number;
  /** A put that created the key (ADDED to a watcher). */
  readonly created: boolean;
}

const SENTINEL = '/chaos-kill/sentinel';

export interface History {
  readonly events: HistoryEvent[];
  /** The revision read up to: a later read goes on from here. */
  readonly revision: number;
}

/** Every event under /registry/ after revision `from`, up to now. */
export async function readHistory(endpoint: string, from: number): Promise<History> {
  const client = new Etcd3({ hosts: endpoint });
  try {
    const events: HistoryEvent[] = [];
    // Earlier reads left their own sentinels in the history: only this one ends this read.
    const token = `${process.pid}-${Date.now()}-${Math.random()}`;
    const watcher = await client.watch().prefix('/').startRevision(String(from + 1)).create();
    const sentinelSeen = new Promise<number>((resolve, reject) => {
      watcher.on('error', reject);
      watcher.on('data', (res) => {
        for (const e of res.events) {
          const key = e.kv.key.toString();
          if (key === SENTINEL && e.kv.value.toString() === token) return resolve(Number(e.kv.mod_revision));
          if (!key.startsWith('/registry/')) continue;
          events.push({ key, type: e.type as HistoryEvent['type'], rev: Number(e.kv.mod_revision), created: e.type === 'Put' && e.kv.create_revision === e.kv.mod_revision });
        }
      });
    });
    // Written after the watch exists, so its event marks the end of the history read.
    await client.put(SENTINEL).value(token);
    const revision = await withTimeout(sentinelSeen, 60_000, 'reading etcd history');
    await watcher.cancel();
    return { events, revision };
  } finally {
    client.close();
  }
}

/** etcd's current revision. */
export async function currentRevision(endpoint: string): Promise<number> {
  const client = new Etcd3({ hosts: endpoint });
  try {
    await client.put(SENTINEL).value(String(Date.now()));
    const res = await client.get(SENTINEL).exec();
    return Number(res.header.revision);
  } finally {
    client.close();
  }
}

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no end after ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** The etcd prefix holding the objects named `name` in namespace `namespace`, from a key in the history. */
export function prefixOf(history: readonly HistoryEvent[], namespace: string, name: string): string | undefined {
  const suffix = `/${namespace}/${name}`;
  const key = history.find((e) => e.key.endsWith(suffix))?.key;
  return key?.slice(0, key.length - name.length);
}

/**
 * Writes that etcd does not have: an acknowledged create or update whose resourceVersion is not a put of its
 * key, an acknowledged delete with no delete of its key after the write before it. Also the final state: the
 * last acknowledged write of a name stands, unless an unacknowledged attempt came after it.
 */
export function lostWrites(attempts: readonly Attempt[], history: readonly HistoryEvent[], prefix: string, current: ReadonlyMap<string, number>): string[] {
  const lost: string[] = [];
  const byName = new Map<string, Attempt[]>();
  for (const a of attempts) byName.set(a.name, [...(byName.get(a.name) ?? []), a]);
  for (const [name, tried] of byName) {
    const key = prefix + name;
    const events = history.filter((e) => e.key === key);
    let lastPut = 0;
    for (const a of tried) {
      if (!a.acked) continue;
      if (a.op === 'delete') {
        if (!events.some((e) => e.type === 'Delete' && e.rev > lastPut)) lost.push(`${name}: acknowledged delete (after ${lastPut}) is not in etcd's history`);
      } else {
        const rv = a.rv ?? NaN;
        if (!events.some((e) => e.type === 'Put' && e.rev === rv)) lost.push(`${name}: acknowledged ${a.op} at ${rv} is not in etcd's history`);
        lastPut = rv;
      }
    }
    const lastAcked = tried.map((a, i) => [a, i] as const).filter(([a]) => a.acked).at(-1);
    if (!lastAcked) continue;
    const [last, index] = lastAcked;
    const settled = tried.slice(index + 1).length === 0;
    const now = current.get(key);
    if (last.op === 'delete') {
      if (settled && now !== undefined) lost.push(`${name}: deleted (acknowledged) but present at ${now}`);
    } else if (now === undefined ? settled : now < (last.rv ?? NaN) || (settled && now !== last.rv)) {
      lost.push(`${name}: last acknowledged ${last.op} at ${last.rv}, but ${now === undefined ? 'gone' : `at ${now}`}`);
    }
  }
  return lost;
}

/**
 * What a watcher missed or made up against etcd: for each segment, the events of its prefix after `start` up to
 * its `end` must be exactly the ones it saw, in order, with the same types.
 */
export function watchGaps(segments: readonly Segment[], history: readonly HistoryEvent[], prefix: string): string[] {
  const gaps: string[] = [];
  for (const segment of segments) {
    gaps.push(...segment.outOfOrder.map((o) => `out of order: ${o}`));
    const expected: WatchEvent[] = history
      .filter((e) => e.key.startsWith(prefix) && e.rev > segment.start && e.rev <= segment.end)
      .map((e) => ({ type: e.type === 'Delete' ? 'DELETED' : e.created ? 'ADDED' : 'MODIFIED', rv: e.rev, name: e.key.slice(prefix.length) }));
    const seen = new Map(segment.events.map((e) => [e.rv, e]));
    const wanted = new Map(expected.map((e) => [e.rv, e]));
    for (const e of expected) {
      const got = seen.get(e.rv);
      if (!got) gaps.push(`missed ${e.type} ${e.name} at ${e.rv} (segment ${segment.start}..${segment.end})`);
      else if (got.type !== e.type || got.name !== e.name) gaps.push(`at ${e.rv} saw ${got.type} ${got.name}, etcd has ${e.type} ${e.name}`);
    }
    for (const e of segment.events) if (!wanted.has(e.rv)) gaps.push(`saw ${e.type} ${e.name} at ${e.rv}, which etcd does not have for the prefix`);
  }
  return gaps;
}
