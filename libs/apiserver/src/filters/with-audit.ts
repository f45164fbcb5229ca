import type { AuditLog } from '../logging/audit.log';
import { whenAnswered, type Filter } from './api-request';

/**
 * kube's WithAudit: one audit event per finished request (who, what, answer, latency) when an audit log is
 * configured, else nothing at all on the hot path. It sits outside authentication so refused requests are
 * audited too (kube's WithFailedAuthenticationAudit).
 */
export function withAudit(audit: AuditLog | undefined): Filter {
  if (!audit?.enabled) return (next) => next;
  return (next) =>
    whenAnswered(next, (r, code) => {
      const method = r.req.method ?? '';
      audit.write({ requestId: r.requestId, user: r.user?.name ?? '', groups: r.user?.groups ?? [], verb: method, method, uri: r.req.url ?? '/', code, latencyMs: Number((process.hrtime.bigint() - r.started) / 1_000_000n), sourceIP: r.req.socket.remoteAddress ?? '' });
    });
}
