/**
 * A bounded async queue: producers push, one consumer iterates. When the consumer falls too far behind the
 * channel closes with an error instead of buffering without limit (kube terminates slow watchers too).
 */
export class WatchChannel<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private waiting?: (r: IteratorResult<T>) => void;
  private done = false;
  private failure?: Error;
  private onCloseHandlers: Array<() => void> = [];

  /** `progress` tells up to which revision every event has been pushed (a watch's position, for bookmarks). */
  constructor(
    private readonly capacity = 10_000,
    private readonly progress?: () => number,
  ) {}

  /** The producer's position: every event up to this revision has been pushed (0 when it does not say). */
  get revision(): number {
    return this.progress?.() ?? 0;
  }

  /** Items pushed but not yet consumed. */
  get pending(): number {
    return this.buffer.length;
  }

  get closed(): boolean {
    return this.done;
  }

  push(item: T): void {
    if (this.done) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w({ value: item, done: false });
      return;
    }
    if (this.buffer.length >= this.capacity) {
      this.close(new Error('watch channel overflow: the client is too slow'));
      return;
    }
    this.buffer.push(item);
  }

  /** Ends the stream; a consumer sees the buffered items, then the end (or the error through `error`). */
  close(err?: Error): void {
    if (this.done) return;
    this.done = true;
    this.failure = err;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w({ value: undefined, done: true });
    }
    const handlers = this.onCloseHandlers;
    this.onCloseHandlers = [];
    handlers.forEach((h) => h());
  }

  get error(): Error | undefined {
    return this.failure;
  }

  /** Runs `handler` when the channel closes (at once if it is closed); returns a function that cancels it. */
  onClose(handler: () => void): () => void {
    if (this.done) {
      handler();
      return () => undefined;
    }
    this.onCloseHandlers.push(handler);
    return () => {
      const i = this.onCloseHandlers.indexOf(handler);
      if (i >= 0) this.onCloseHandlers.splice(i, 1);
    };
  }

  next(): Promise<IteratorResult<T>> {
    const item = this.buffer.shift();
    if (item !== undefined) return Promise.resolve({ value: item, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return { next: () => this.next(), return: async () => (this.close(), { value: undefined, done: true }) };
  }
}
