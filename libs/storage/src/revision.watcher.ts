import type { IKeyValue, IWatchResponse, Watcher } from 'etcd3';
import { CompactedError, type EtcdClient } from './etcd.client';

export interface RawWatchEvent {
  type: 'put' | 'delete';
  key: string;
  value?: Buffer;
  prevValue?: Buffer;
  modRevision: number;
  /** For puts: 0 create revision means this put created the key. */
  createRevision: number;
}

export interface RevisionWatcherHandlers {
  /** Events of one etcd revision batch, in revision order. */
  onEvents(events: RawWatchEvent[]): void;
  /** etcd says every event up to `revision` has been delivered (progress notify). */
  onProgress?(revision: number): void;
  /** Compaction or an unexpected cancel: the caller must re-list. */
  onError(err: Error): void;
}

interface MutableWatchRequest {
  start_revision?: string | number;
}

/**
 * Watches a prefix from a revision and keeps its own position: the etcd3 client resumes a broken watch from
 * the last response header's revision + 1, which skips events when the connection drops during catch-up.
 * We overwrite the resume revision with (last delivered mod_revision + 1) after every response, and drop any
 * event at or below what we already delivered, so a resume has neither gaps nor duplicates.
 */
export class RevisionWatcher {
  private watcher?: Watcher;
  private delivered: number;
  private closed = false;

  constructor(
    private readonly client: EtcdClient,
    private readonly prefix: string,
    fromRevision: number,
    private readonly handlers: RevisionWatcherHandlers,
  ) {
    this.delivered = fromRevision - 1;
  }

  /** The last revision whose events have all been handed to onEvents. */
  get revision(): number {
    return this.delivered;
  }

  start(): void {
    const w = this.client.raw
      .watch()
      .prefix(this.prefix)
      .withPreviousKV()
      .startRevision(String(this.delivered + 1))
      .watcher();
    this.watcher = w;
    w.on('data', (res: IWatchResponse) => this.onData(res));
    w.on('connected', () => this.pinResumeRevision());
    w.on('disconnected', () => this.pinResumeRevision());
    w.on('error', (err: Error) => this.onWatchError(err));
  }

  async stop(): Promise<void> {
    this.closed = true;
    const w = this.watcher;
    this.watcher = undefined;
    if (w) await w.cancel().catch(() => undefined);
  }

  private onData(res: IWatchResponse): void {
    if (this.closed) return;
    const fresh: RawWatchEvent[] = [];
    for (const ev of res.events) {
      const rev = Number(ev.kv.mod_revision);
      if (rev <= this.delivered) continue;
      fresh.push(toRawEvent(ev.type, ev.kv, ev.prev_kv));
    }
    if (fresh.length) {
      this.delivered = fresh[fresh.length - 1].modRevision;
      this.handlers.onEvents(fresh);
    } else if (res.events.length === 0 && !res.created) {
      const progress = Number(res.header.revision);
      if (progress > this.delivered) {
        this.delivered = progress;
        this.handlers.onProgress?.(progress);
      }
    }
    this.pinResumeRevision();
  }

  private pinResumeRevision(): void {
    const w = this.watcher as unknown as { request?: MutableWatchRequest } | undefined;
    if (w?.request) w.request.start_revision = String(this.delivered + 1);
  }

  private onWatchError(err: Error): void {
    if (this.closed) return;
    this.closed = true;
    // etcd cancels a watch whose start revision was compacted with its compact_revision and no cancel_reason:
    // the etcd3 client reports that as "Watcher canceled: " (other cancels carry their reason).
    const compacted = /compact/i.test(err.message) || /^Watcher canceled:\s*$/.test(err.message);
    this.handlers.onError(compacted ? new CompactedError(this.delivered + 1, 0) : err);
  }
}

function toRawEvent(type: string, kv: IKeyValue, prev: IKeyValue | undefined): RawWatchEvent {
  const isDelete = String(type).toLowerCase() === 'delete';
  return {
    type: isDelete ? 'delete' : 'put',
    key: kv.key.toString(),
    value: isDelete ? undefined : kv.value,
    prevValue: prev?.value,
    modRevision: Number(kv.mod_revision),
    createRevision: Number(kv.create_revision),
  };
}
