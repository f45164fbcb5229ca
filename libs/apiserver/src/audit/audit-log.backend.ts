import type { AuditEvent } from './audit.event';
import type { AuditBackend } from './audit.backend';
import { encodeEvent, eventString } from './audit.format';
import { handlePluginError } from './audit.metrics';
import { RotatingFileWriter, type RotationOptions } from './rotating-file.writer';

/** kube's --audit-log-format values. */
export type AuditLogFormat = 'json' | 'legacy';
export const AUDIT_LOG_FORMATS: readonly AuditLogFormat[] = ['legacy', 'json'];

const PLUGIN = 'log';

/** Where the log backend writes: standard output ("-") or a file rotated as kube's lumberjack rotates it. */
export type AuditLogSink = { kind: 'stdout' } | { kind: 'file'; path: string; rotation: RotationOptions };

/**
 * kube's log backend (k8s.io/apiserver plugin/pkg/audit/log): one line per event, audit.k8s.io/v1 JSON or
 * the legacy one-line text. Writing a file never blocks a request: lines are queued in order and written in
 * batches. The answer is false while the file cannot be written (what fails a request in blocking-strict mode).
 */
export class LogBackend implements AuditBackend {
  private readonly file?: RotatingFileWriter;

  constructor(
    sink: AuditLogSink,
    private readonly format: AuditLogFormat = 'json',
  ) {
    if (sink.kind === 'file') this.file = new RotatingFileWriter(sink.path, sink.rotation, (err, lines) => handlePluginError(PLUGIN, err, lines));
  }

  processEvents(events: readonly AuditEvent[]): boolean {
    for (const ev of events) {
      const line = this.format === 'legacy' ? `${eventString(ev)}\n` : `${encodeEvent(ev)}\n`;
      if (!this.file) process.stdout.write(line);
      // Events of requests still finishing after shutdown are dropped, as kube's closed log drops them.
      else if (!this.file.write(line)) return false;
    }
    return !this.file?.failed;
  }

  async shutdown(): Promise<void> {
    await this.file?.close();
  }

  /** Resolves once every line queued so far is written. */
  async flushed(): Promise<void> {
    await this.file?.idle();
  }

  toString(): string {
    return PLUGIN;
  }
}
