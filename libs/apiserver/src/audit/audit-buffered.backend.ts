import type { AuditEvent } from './audit.event';
import type { AuditBackend } from './audit.backend';
import { handlePluginError } from './audit.metrics';

/** kube's buffered.BatchConfig (--audit-*-batch-*). */
export interface AuditBatchConfig {
  bufferSize: number;
  maxBatchSize: number;
  maxBatchWaitMs: number;
  throttleEnable: boolean;
  throttleQPS: number;
  throttleBurst: number;
  /** Batches sent without waiting for the previous one (the webhook), or one after the other (the log). */
  asyncDelegate: boolean;
}

const PLUGIN = 'buffered';

/** client-go's token bucket (flowcontrol.NewTokenBucketRateLimiter): burst tokens, refilled at qps a second. */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();

  constructor(
    private readonly qps: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  /** How long the caller must wait before it may go (0: at once), taking a token. */
  reserve(): number {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * kube's buffered plugin (k8s.io/apiserver plugin/pkg/audit/buffered): requests only add to a bounded buffer;
 * a full buffer drops the event (apiserver_audit_error_total{plugin="buffered"}) and the request goes on.
 * One loop takes batches of up to maxBatchSize, or what arrived within maxBatchWait, waits for the throttle and
 * hands them to the delegate. Shutdown sends what is left and waits for the batches in flight.
 */
export class BufferedBackend implements AuditBackend {
  private buffer: AuditEvent[] = [];
  private stopping = false;
  /** Wakes the loop: a full batch is waiting (or, while the buffer was empty, any event), or shutdown. */
  private wake?: () => void;
  private wakeOnAny = false;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly throttle?: TokenBucket;
  private readonly loop: Promise<void>;
  private shutdownDone?: Promise<void>;

  constructor(
    private readonly delegate: AuditBackend,
    private readonly config: AuditBatchConfig,
  ) {
    if (config.throttleEnable) this.throttle = new TokenBucket(config.throttleQPS, config.throttleBurst);
    this.loop = this.run();
  }

  processEvents(events: readonly AuditEvent[]): boolean {
    if (this.stopping) {
      handlePluginError(PLUGIN, new Error('audit backend shut down'), events);
      return true;
    }
    const room = this.config.bufferSize - this.buffer.length;
    if (room < events.length) {
      if (room > 0) this.buffer.push(...events.slice(0, room));
      handlePluginError(PLUGIN, new Error('audit buffer queue blocked'), room > 0 ? events.slice(room) : events);
    } else {
      for (const e of events) this.buffer.push(e);
    }
    if (this.wake && (this.wakeOnAny || this.buffer.length >= this.config.maxBatchSize)) this.wake();
    // kube's answer too: a dropped event does not fail the request.
    return true;
  }

  async shutdown(): Promise<void> {
    this.shutdownDone ??= (async () => {
      this.stopping = true;
      this.delegate.stopRetries?.();
      this.wake?.();
      await this.loop;
      await this.delegate.shutdown();
    })();
    return this.shutdownDone;
  }

  stopRetries(): void {
    this.delegate.stopRetries?.();
  }

  toString(): string {
    return `${PLUGIN}<${String(this.delegate)}>`;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const batch = await this.collect();
      if (batch.length) await this.send(batch);
    }
    // What arrived before shutdown is still sent, in full batches, then the sends in flight are waited for.
    while (this.buffer.length) await this.send(this.buffer.splice(0, this.config.maxBatchSize));
    await Promise.all(this.inFlight);
  }

  /** kube's collectEvents: a full batch, or what the buffer holds when maxBatchWait passes (or on shutdown). */
  private async collect(): Promise<AuditEvent[]> {
    // An idle server's loop sleeps until the first event (kube's timer would send empty batches to nobody).
    if (this.buffer.length === 0) await this.waitFor(undefined, true);
    if (!this.stopping && this.buffer.length < this.config.maxBatchSize) {
      // A batch of one (the log in batch mode) goes as soon as its event does; larger ones wait at most maxBatchWait.
      await this.waitFor(this.config.maxBatchSize > 1 ? this.config.maxBatchWaitMs : undefined, false);
    }
    return this.buffer.splice(0, this.config.maxBatchSize);
  }

  private waitFor(timeoutMs: number | undefined, any: boolean): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(done, timeoutMs);
      timer?.unref();
      this.wakeOnAny = any;
      this.wake = done;
    });
  }

  private async send(batch: AuditEvent[]): Promise<void> {
    const wait = this.throttle?.reserve() ?? 0;
    if (wait > 0) await sleep(wait);
    const sent = Promise.resolve()
      .then(() => this.delegate.processEvents(batch))
      .catch((err: unknown) => handlePluginError(PLUGIN, err, batch));
    if (!this.config.asyncDelegate) {
      await sent;
      return;
    }
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }
}
