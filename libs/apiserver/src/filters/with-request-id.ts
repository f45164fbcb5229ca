import type { IncomingMessage } from 'node:http';
import { requestIdOf } from '../logging/request.log';
import type { Filter } from './api-request';

export interface RequestIdOptions {
  /** Whether the caller's own Audit-ID / X-Request-Id may be kept: every caller at the front door, only the front proxy at a backend. */
  trusted(req: IncomingMessage): boolean;
  /** Put the id on the request's headers, so a proxied request carries it to its backend (the front door). */
  forward?: boolean;
}

/** kube's WithAuditInit: one id per request, answered as `Audit-Id` and named in every log and audit line. */
export function withRequestId(options: RequestIdOptions): Filter {
  return (next) => (r) => {
    const id = requestIdOf(r.req.headers, options.trusted(r.req));
    r.requestId = id;
    if (options.forward) {
      r.req.headers['audit-id'] = id;
      r.req.headers['x-request-id'] = id;
    }
    r.res.setHeader('Audit-Id', id);
    return next(r);
  };
}
