import type { AuditEvent } from './audit.event';
import type { AuditBackend } from './audit.backend';
import { auditErrorTotal } from './audit.metrics';

/** An audit event for the specs: a configmap create by bob, with bodies of `bodyBytes` when asked. */
export function testEvent(auditID: string, extra: Partial<AuditEvent> = {}, bodyBytes = 0): AuditEvent {
  const body = bodyBytes ? { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c' }, data: { k: 'x'.repeat(bodyBytes) } } : undefined;
  return {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: bodyBytes ? 'RequestResponse' : 'Metadata',
    auditID,
    stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/a/configmaps',
    verb: 'create',
    user: { username: 'bob', groups: ['ops', 'system:authenticated'] },
    sourceIPs: ['127.0.0.1'],
    userAgent: 'kubectl/v1.33.0',
    objectRef: { resource: 'configmaps', namespace: 'a', name: 'c', apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 201 },
    requestObject: body,
    responseObject: body,
    requestReceivedTimestamp: '2026-11-28T04:30:00.123400Z',
    stageTimestamp: '2026-11-28T04:30:00.223400Z',
    ...extra,
  };
}

/** A backend that records the batches it gets and answers `answer` (a promise when `delayMs` is set). */
export class RecordingBackend implements AuditBackend {
  readonly batches: AuditEvent[][] = [];
  shutDown = false;
  constructor(
    private readonly answer = true,
    private readonly delayMs = 0,
  ) {}
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    this.batches.push([...events]);
    if (!this.delayMs) return this.answer;
    return new Promise((resolve) => setTimeout(() => resolve(this.answer), this.delayMs));
  }
  async shutdown(): Promise<void> {
    this.shutDown = true;
  }
  toString(): string {
    return 'recording';
  }
}

/** apiserver_audit_error_total{plugin} now. */
export async function auditErrors(plugin: string): Promise<number> {
  return (await auditErrorTotal.get()).values.find((v) => v.labels.plugin === plugin)?.value ?? 0;
}
