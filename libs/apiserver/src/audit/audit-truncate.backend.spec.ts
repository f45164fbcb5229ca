import { describe, expect, it } from 'vitest';
import { TruncatingBackend } from './audit-truncate.backend';
import { encodeEvent } from './audit.format';
import { auditErrors, RecordingBackend, testEvent } from './audit.testing';

const size = (e: ReturnType<typeof testEvent>): number => Buffer.byteLength(encodeEvent(e)) + 1;

describe('TruncatingBackend (kube plugin/pkg/audit/truncate)', () => {
  it('passes events within maxEventSize untouched', () => {
    const sink = new RecordingBackend();
    const e = testEvent('small', {}, 10);
    expect(new TruncatingBackend(sink, { maxEventSize: 10_000, maxBatchSize: 100_000 }).processEvents([e])).toBe(true);
    expect(sink.batches).toEqual([[e]]);
  });

  it('drops request and response objects of an event over maxEventSize and annotates it audit.k8s.io/truncated', () => {
    const sink = new RecordingBackend();
    const e = testEvent('big', { annotations: { 'authorization.k8s.io/decision': 'allow' } }, 5_000);
    expect(size(e)).toBeGreaterThan(10_000);
    new TruncatingBackend(sink, { maxEventSize: 2_000, maxBatchSize: 100_000 }).processEvents([e]);
    const [out] = sink.batches[0];
    expect(out.requestObject).toBeUndefined();
    expect(out.responseObject).toBeUndefined();
    expect(out.annotations).toEqual({ 'authorization.k8s.io/decision': 'allow', 'audit.k8s.io/truncated': 'true' });
    expect(out).toMatchObject({ auditID: 'big', verb: 'create', user: { username: 'bob' } });
    expect(size(out)).toBeLessThanOrEqual(2_000);
    // The original is not changed (it may go to the log backend too).
    expect(e.requestObject).toBeDefined();
  });

  it('drops an event still too large after truncating (or at Metadata, where there is nothing to drop), with an error', async () => {
    const sink = new RecordingBackend();
    const before = await auditErrors('truncate');
    const metadata = testEvent('meta', { requestURI: `/api/v1/${'x'.repeat(3_000)}` });
    expect(new TruncatingBackend(sink, { maxEventSize: 1_000, maxBatchSize: 100_000 }).processEvents([metadata, testEvent('ok')])).toBe(true);
    expect(sink.batches.map((b) => b.map((e) => e.auditID))).toEqual([['ok']]);
    expect((await auditErrors('truncate')) - before).toBe(1);
  });

  it('splits events into batches of at most maxBatchSize bytes', () => {
    const sink = new RecordingBackend();
    const events = ['1', '2', '3', '4', '5'].map((id) => testEvent(id, {}, 100));
    const one = size(events[0]);
    new TruncatingBackend(sink, { maxEventSize: one, maxBatchSize: one * 2 + 10 }).processEvents(events);
    expect(sink.batches.map((b) => b.map((e) => e.auditID))).toEqual([['1', '2'], ['3', '4'], ['5']]);
  });

  it("answers false when a delegate's batch fails, waiting for a blocking delegate", async () => {
    expect(await new TruncatingBackend(new RecordingBackend(false, 5), { maxEventSize: 10_000, maxBatchSize: 100_000 }).processEvents([testEvent('x')])).toBe(false);
  });
});
