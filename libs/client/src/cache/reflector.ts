import { Logger } from '@nestjs/common';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import type { ListerWatcher, WatchEvent, WatchStream } from './lister-watcher';

/** Where a reflector puts what it lists and watches (the informer's cache and its event handlers). */
export interface ReflectorSink {
  /** The full state after a (re)list: objects not in `items` are gone. */
  replace(items: KubeObject[], resourceVersion: string): void;
  apply(event: WatchEvent): void;
}

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

/** client-go backs off 800 ms → 30 s; ours starts lower and stays lower so a restarted etcd is followed within seconds. */
export const DEFAULT_REFLECTOR_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 5000 };

/** A watch that ended because its resourceVersion is gone from the server's history (410 Gone / Expired). */
export function isResourceExpired(err: unknown): boolean {
  return isStatusError(err) && err.code === 410;
}

/**
 * client-go's Reflector (tools/cache/reflector.go): list, then watch from the list's resourceVersion; a broken
 * watch resumes from the last resourceVersion seen; a watch refused or ended with 410 Gone relists; failures back
 * off exponentially (reset by a watch that delivered events).
 */
export class Reflector {
  private readonly logger: Logger;
  private lastSyncResourceVersion = '';
  private relist = true;
  private stopped = false;
  private stream?: WatchStream;
  private wake?: () => void;
  private delayMs: number;

  constructor(
    readonly name: string,
    private readonly lw: ListerWatcher,
    private readonly sink: ReflectorSink,
    private readonly backoff: BackoffOptions = DEFAULT_REFLECTOR_BACKOFF,
  ) {
    this.logger = new Logger(`Reflector ${name}`);
    this.delayMs = backoff.initialMs;
  }

  /** The resourceVersion of the last list or event applied. */
  get resourceVersion(): string {
    return this.lastSyncResourceVersion;
  }

  /** Runs until `stop()`. */
  async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.listAndWatch();
      } catch (err) {
        if (this.stopped) break;
        if (isResourceExpired(err)) this.relist = true;
        else this.logger.warn(`${(err as Error).message}`);
      }
      if (!this.stopped) await this.sleep();
    }
  }

  stop(): void {
    this.stopped = true;
    this.stream?.close();
    this.wake?.();
  }

  private async listAndWatch(): Promise<void> {
    if (this.relist) {
      const list = await this.lw.list();
      if (this.stopped) return;
      this.sink.replace(list.items, list.resourceVersion);
      this.lastSyncResourceVersion = list.resourceVersion;
      this.relist = false;
    }
    while (!this.stopped) {
      const stream = await this.lw.watch(this.lastSyncResourceVersion);
      this.stream = stream;
      if (this.stopped) return stream.close();
      for await (const ev of stream) {
        if (this.stopped) break;
        const rv = ev.object.metadata.resourceVersion;
        if (ev.type !== 'BOOKMARK') this.sink.apply(ev);
        if (rv) this.lastSyncResourceVersion = rv;
        this.delayMs = this.backoff.initialMs;
      }
      this.stream = undefined;
      // A watch that ends cleanly is simply reopened; one that failed goes through the backoff in run().
      if (stream.error) throw stream.error;
    }
  }

  private async sleep(): Promise<void> {
    const ms = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, this.backoff.maxMs);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.wake = () => (clearTimeout(timer), resolve());
    });
    this.wake = undefined;
  }
}
