import { Logger } from '@nestjs/common';
import { Counter, register } from 'prom-client';
import type { AuditEvent } from './audit.event';
import { eventString } from './audit.format';

function metric<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

/** kube's audit metrics (k8s.io/apiserver pkg/audit/metrics.go), same names, help and labels. */
export const auditEventTotal = metric('apiserver_audit_event_total', () => new Counter({ name: 'apiserver_audit_event_total', help: 'Counter of audit events generated and sent to the audit backend.' }));

export const auditErrorTotal = metric(
  'apiserver_audit_error_total',
  () => new Counter({ name: 'apiserver_audit_error_total', help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.', labelNames: ['plugin'] }),
);

export const auditLevelTotal = metric(
  'apiserver_audit_level_total',
  () => new Counter({ name: 'apiserver_audit_level_total', help: 'Counter of policy levels for audit events (1 per request).', labelNames: ['level'] }),
);

export const auditRequestsRejectedTotal = metric(
  'apiserver_audit_requests_rejected_total',
  () => new Counter({ name: 'apiserver_audit_requests_rejected_total', help: 'Counter of apiserver requests rejected due to an error in audit logging backend.' }),
);

const logger = new Logger('Audit');
/** Per plugin: when it last logged, and how many errors were not logged since (a full buffer fails every event). */
const lastLogged = new Map<string, { at: number; suppressed: number }>();
const LOG_INTERVAL_MS = 1_000;

/**
 * kube's HandlePluginError: counts the impacted events in apiserver_audit_error_total{plugin} and logs them in
 * the legacy one-line format. Unlike klog's line per call, at most one line a second per plugin, with the count
 * of the errors left out: a full buffer drops every event, and a line per event would slow the server further.
 */
export function handlePluginError(plugin: string, err: unknown, impacted: readonly AuditEvent[] | number): void {
  const count = typeof impacted === 'number' ? impacted : impacted.length;
  auditErrorTotal.inc({ plugin }, count);
  const now = Date.now();
  const last = lastLogged.get(plugin);
  if (last && now - last.at < LOG_INTERVAL_MS) {
    last.suppressed++;
    return;
  }
  const more = last?.suppressed ? ` (${last.suppressed} more errors in this plugin since the last line)` : '';
  lastLogged.set(plugin, { at: now, suppressed: 0 });
  const message = err instanceof Error ? err.message : String(err);
  const events = typeof impacted === 'number' ? '' : `\nImpacted events:\n${impacted.map((e) => eventString(e)).join('\n')}`;
  logger.error(`Error in audit plugin '${plugin}' affecting ${count} audit events: ${message}${more}${events}`);
}
