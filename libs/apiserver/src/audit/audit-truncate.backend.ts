import type { AuditEvent } from './audit.event';
import { allProcessed, type AuditBackend } from './audit.backend';
import { encodeEvent } from './audit.format';
import { handlePluginError } from './audit.metrics';

/** kube's truncate.Config (--audit-*-truncate-max-event-size, --audit-*-truncate-max-batch-size), in bytes. */
export interface AuditTruncateConfig {
  maxEventSize: number;
  maxBatchSize: number;
}

const PLUGIN = 'truncate';
const ANNOTATION = 'audit.k8s.io/truncated';

/** The encoded size as kube's sizer counts it: the JSON and the newline Go's encoder ends it with. */
function sizeOf(event: AuditEvent): number {
  return Buffer.byteLength(encodeEvent(event)) + 1;
}

/** kube's truncate: a shallow copy without request and response objects, annotated as truncated. */
function truncate(event: AuditEvent): AuditEvent {
  const { requestObject: _req, responseObject: _res, ...rest } = event;
  return { ...rest, annotations: { ...event.annotations, [ANNOTATION]: 'true' } };
}

/**
 * kube's truncate plugin (k8s.io/apiserver plugin/pkg/audit/truncate): an event over maxEventSize loses its
 * request and response objects (only at Request level and above, where it has them), one still too large is
 * dropped with an error, and events are passed on in batches of at most maxBatchSize encoded bytes.
 */
export class TruncatingBackend implements AuditBackend {
  constructor(
    private readonly delegate: AuditBackend,
    private readonly config: AuditTruncateConfig,
  ) {}

  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    const results: Array<boolean | Promise<boolean>> = [];
    const impacted: AuditEvent[] = [];
    let batch: AuditEvent[] = [];
    let batchSize = 0;
    for (let event of events) {
      let size = sizeOf(event);
      if (size > this.config.maxEventSize && (event.level === 'Request' || event.level === 'RequestResponse')) {
        event = truncate(event);
        size = sizeOf(event);
      }
      if (size > this.config.maxEventSize) {
        impacted.push(event);
        continue;
      }
      if (batch.length > 0 && batchSize + size > this.config.maxBatchSize) {
        results.push(this.delegate.processEvents(batch));
        batch = [];
        batchSize = 0;
      }
      batchSize += size;
      batch.push(event);
    }
    if (batch.length > 0) results.push(this.delegate.processEvents(batch));
    if (impacted.length > 0) handlePluginError(PLUGIN, new Error('event is too large even after truncating'), impacted);
    return allProcessed(results);
  }

  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }

  stopRetries(): void {
    this.delegate.stopRetries?.();
  }

  toString(): string {
    return `${PLUGIN}<${String(this.delegate)}>`;
  }
}
