/**
 * client-go's workqueue.Typed (util/workqueue/queue.go): a FIFO of keys with de-duplication.
 *
 * - `dirty`: keys that need processing; adding a dirty key again is a no-op.
 * - `processing`: keys handed out by `get()` and not yet `done()`. A key added while it is processed is not
 *   handed to a second worker; `done()` puts it back once, so one more pass sees the latest state.
 */
export class WorkQueue<T> {
  private readonly queue: T[] = [];
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private readonly waiters: Array<(item: T | undefined) => void> = [];
  private shuttingDown = false;
  private drained?: () => void;

  add(item: T): void {
    if (this.shuttingDown || this.dirty.has(item)) return;
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    this.push(item);
  }

  /** Keys waiting to be handed out. */
  len(): number {
    return this.queue.length;
  }

  /** The next key; `undefined` once the queue is shut down (a worker then exits). */
  get(): Promise<T | undefined> {
    if (this.queue.length) return Promise.resolve(this.take());
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Marks a key processed; if it was added meanwhile it is queued again. */
  done(item: T): void {
    this.processing.delete(item);
    if (this.dirty.has(item)) this.push(item);
    else if (this.drained && this.processing.size === 0) this.drained();
  }

  /** True while the key is queued or being processed. */
  has(item: T): boolean {
    return this.dirty.has(item) || this.processing.has(item);
  }

  isProcessing(item: T): boolean {
    return this.processing.has(item);
  }

  isDirty(item: T): boolean {
    return this.dirty.has(item);
  }

  /** Refuses new keys and releases waiting workers; keys already queued are dropped. */
  shutDown(): void {
    this.shuttingDown = true;
    this.queue.length = 0;
    this.dirty.clear();
    for (const w of this.waiters.splice(0)) w(undefined);
  }

  /** shutDown, then waits until every key handed out is done (client-go's ShutDownWithDrain). */
  async shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return;
    await new Promise<void>((resolve) => (this.drained = resolve));
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  private push(item: T): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      this.processing.add(item);
      this.dirty.delete(item);
      waiter(item);
      return;
    }
    this.queue.push(item);
  }

  private take(): T {
    const item = this.queue.shift() as T;
    this.processing.add(item);
    this.dirty.delete(item);
    return item;
  }
}
