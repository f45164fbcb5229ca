import { Logger } from '@nestjs/common';
import type { AuditEvent } from '../audit/audit.event';
import type { AuditBackend } from '../audit/audit.backend';
import { LogBackend } from '../audit/audit-log.backend';
import { auditEventTotal } from '../audit/audit.metrics';
import { auditLogSink, defaultAuditOptions } from '../audit/audit.options';
import { AuditPolicyChecker, DEFAULT_AUDIT_POLICY, type AuditPolicy } from '../audit/audit.policy';

/**
 * The audit sink the request chain writes to: the policy that decides each request's level, and the backend
 * (kube's log, webhook, or both) its events go to. Built from buildAuditBackend(auditOptionsFromEnv()), or from
 * a log path alone (kube's log defaults: JSON, rotated at 100 MB). Without a backend nothing is audited.
 */
export class AuditLog {
  private readonly backend?: AuditBackend;
  readonly policy: AuditPolicyChecker;

  constructor(target: AuditBackend | string | undefined, policy: AuditPolicy = DEFAULT_AUDIT_POLICY) {
    if (typeof target === 'string') {
      const d = defaultAuditOptions().log;
      target = new LogBackend(auditLogSink({ ...d, path: target }), d.format);
    } else if (target) {
      new Logger('Audit').log(`Using audit backend: ${String(target)}`);
    }
    this.backend = target;
    this.policy = new AuditPolicyChecker(policy);
  }

  get enabled(): boolean {
    return this.backend !== undefined;
  }

  /**
   * kube's ProcessEventStage: true once the event is handled, synchronously unless a blocking backend has to
   * wait (then a promise); false only in blocking-strict mode when the backend failed.
   */
  write(event: AuditEvent): boolean | Promise<boolean> {
    if (!this.backend) return true;
    auditEventTotal.inc();
    return this.backend.processEvents([event]);
  }

  /** Flushes buffered events (a batch webhook's, a file's queue) and stops; later events are dropped. */
  async close(): Promise<void> {
    await this.backend?.shutdown();
  }
}
