import type { RequestLog } from '../logging/request.log';
import { whenAnswered, type Filter } from './api-request';

/** kube's WithHTTPLogging: one line per finished request, as the RequestLog decides (failures and slow ones by default). */
export function withLogging(log: RequestLog): Filter {
  return (next) =>
    whenAnswered(next, (r, code) =>
      log.done({ requestId: r.requestId, verb: r.req.method ?? 'GET', uri: r.req.url ?? '/', user: r.user?.name ?? '', code, latencyMs: Number(process.hrtime.bigint() - r.started) / 1e6, longRunning: r.longRunning, traceID: r.span?.spanContext().traceId }),
    );
}
