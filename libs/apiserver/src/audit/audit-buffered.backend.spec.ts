import { describe, expect, it } from 'vitest';
import { BufferedBackend, TokenBucket, type AuditBatchConfig } from './audit-buffered.backend';
import { auditErrors, RecordingBackend, testEvent } from './audit.testing';

const config = (c: Partial<AuditBatchConfig> = {}): AuditBatchConfig => ({ bufferSize: 100, maxBatchSize: 3, maxBatchWaitMs: 60_000, throttleEnable: false, throttleQPS: 0, throttleBurst: 0, asyncDelegate: true, ...c });
const tick = (ms = 20): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('BufferedBackend (kube plugin/pkg/audit/buffered)', () => {
  it('sends a batch as soon as maxBatchSize events are buffered, in order', async () => {
    const sink = new RecordingBackend();
    const b = new BufferedBackend(sink, config());
    for (const id of ['1', '2', '3', '4']) expect(b.processEvents([testEvent(id)])).toBe(true);
    await tick();
    expect(sink.batches.map((batch) => batch.map((e) => e.auditID))).toEqual([['1', '2', '3']]);
    await b.shutdown();
    expect(sink.batches.map((batch) => batch.map((e) => e.auditID))).toEqual([['1', '2', '3'], ['4']]);
    expect(sink.shutDown).toBe(true);
  });

  it('sends a partial batch once maxBatchWait has passed', async () => {
    const sink = new RecordingBackend();
    const b = new BufferedBackend(sink, config({ maxBatchSize: 400, maxBatchWaitMs: 1_000 }));
    b.processEvents([testEvent('a')]);
    b.processEvents([testEvent('b')]);
    await tick(20);
    expect(sink.batches).toEqual([]);
    for (let i = 0; i < 100 && !sink.batches.length; i++) await tick(100);
    expect(sink.batches.map((batch) => batch.map((e) => e.auditID))).toEqual([['a', 'b']]);
    await b.shutdown();
  });

  it('never blocks a request: a full buffer drops the event, counts it under plugin="buffered", answers true', async () => {
    // A delegate that takes long: the loop holds one batch, the buffer fills behind it.
    const sink = new RecordingBackend(true, 200);
    const b = new BufferedBackend(sink, config({ bufferSize: 5, maxBatchSize: 5, asyncDelegate: false }));
    const before = await auditErrors('buffered');
    for (let i = 0; i < 5; i++) b.processEvents([testEvent(`first-${i}`)]);
    await tick();
    // The answer is a plain `true`, not a promise: the request does not wait for the buffer to drain.
    for (let i = 0; i < 8; i++) expect(b.processEvents([testEvent(`second-${i}`)])).toBe(true);
    expect((await auditErrors('buffered')) - before).toBe(3);
    await b.shutdown();
    expect(sink.batches.flat()).toHaveLength(10);
  });

  it('counts events that arrive after shutdown as errors', async () => {
    const b = new BufferedBackend(new RecordingBackend(), config());
    await b.shutdown();
    const before = await auditErrors('buffered');
    expect(b.processEvents([testEvent('late')])).toBe(true);
    expect((await auditErrors('buffered')) - before).toBe(1);
  });

  it('shutdown waits for batches in flight to the delegate', async () => {
    let finished = false;
    const slow = new RecordingBackend(true, 150);
    const wrapped = { ...slow, processEvents: (e: Parameters<typeof slow.processEvents>[0]) => Promise.resolve(slow.processEvents(e)).then((r) => ((finished = true), r)), shutdown: () => slow.shutdown(), toString: () => 'slow' };
    const b = new BufferedBackend(wrapped, config({ maxBatchSize: 1 }));
    b.processEvents([testEvent('x')]);
    await tick();
    await b.shutdown();
    expect(finished).toBe(true);
  });

  it('throttles batches to the delegate (client-go token bucket: burst, then qps)', () => {
    const t = new TokenBucket(10, 2);
    expect(t.reserve()).toBe(0);
    expect(t.reserve()).toBe(0);
    const wait = t.reserve();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(100);
  });
});
