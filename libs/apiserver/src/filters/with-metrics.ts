import { requestDuration, requestTotal } from '../apiserver.metrics';
import { whenAnswered, type ApiRequest, type Filter } from './api-request';

const METRIC_VERBS: Record<string, string> = { get: 'GET', list: 'LIST', watch: 'WATCH', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE' };
/** kube's validRequestMethods: any other verb is reported as "other". */
const VALID_VERBS = new Set(['APPLY', 'CONNECT', 'CREATE', 'DELETE', 'DELETECOLLECTION', 'GET', 'LIST', 'PATCH', 'POST', 'PROXY', 'PUT', 'UPDATE', 'WATCH', 'WATCHLIST']);

/** kube's cleanVerb: the request's verb, APPLY for apply patches, "other" for anything unknown. */
function metricVerb(r: ApiRequest): string {
  const verb = METRIC_VERBS[r.info.verb] ?? r.info.verb.toUpperCase();
  if (verb === 'PATCH' && r.req.headers['content-type'] === 'application/apply-patch+yaml') return 'APPLY';
  return VALID_VERBS.has(verb) ? verb : 'other';
}

/** kube's cleanDryRun: "" or the sorted distinct values when they are all valid ("All"), else "invalid". */
function dryRunLabel(query: URLSearchParams): string {
  const values = query.getAll('dryRun');
  if (values.length === 0) return '';
  if (values.some((v) => v !== 'All')) return 'invalid';
  return 'All';
}

/**
 * apiserver_request_total and apiserver_request_duration_seconds (kube's endpoint metrics) for API requests
 * this server answered itself: health and other plain paths are not counted, nor requests it proxied (their
 * backend counts them).
 */
export const withMetrics: Filter = (next) => whenAnswered(next, record);

function record(r: ApiRequest, code: number): void {
  const info = r.info;
  if (r.proxied || (!info.isResourceRequest && info.apiPrefix === '')) return;
  // Labels from the path only for what this server serves: unknown paths share one series, so no caller (even an
  // unauthenticated one) can grow the metrics without bound.
  const known = r.resolved;
  const labels = {
    verb: metricVerb(r),
    dry_run: dryRunLabel(r.query),
    group: known ? info.group : '',
    version: known ? info.version : '',
    resource: known ? info.resource : info.isResourceRequest ? 'other' : '',
    subresource: known ? info.subresource : '',
    scope: info.namespace ? 'namespace' : 'cluster',
    component: 'apiserver',
  };
  requestTotal.inc({ ...labels, code: String(code) });
  if (info.verb !== 'watch') requestDuration.observe(labels, Number(process.hrtime.bigint() - r.started) / 1e9);
}
