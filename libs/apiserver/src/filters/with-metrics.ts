import { requestDuration, requestTotal } from '../apiserver.metrics';
import { whenAnswered, type ApiRequest, type Filter } from './api-request';

const METRIC_VERBS: Record<string, string> = { get: 'GET', list: 'LIST', watch: 'WATCH', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE' };

/**
 * apiserver_request_total and apiserver_request_duration_seconds (kube's endpoint metrics) for API requests
 * this server answered itself: health and other plain paths are not counted, nor requests it proxied (their
 * backend counts them).
 */
export const withMetrics: Filter = (next) => whenAnswered(next, record);

function record(r: ApiRequest, code: number): void {
  const info = r.info;
  if (r.proxied || (!info.isResourceRequest && info.apiPrefix === '')) return;
  const labels = {
    verb: METRIC_VERBS[info.verb] ?? info.verb.toUpperCase(),
    dry_run: r.query.get('dryRun') ?? '',
    group: info.group,
    version: info.version,
    resource: info.resource,
    subresource: info.subresource,
    scope: info.namespace ? 'namespace' : 'cluster',
    component: 'apiserver',
  };
  requestTotal.inc({ ...labels, code: String(code) });
  if (info.verb !== 'watch') requestDuration.observe(labels, Number(process.hrtime.bigint() - r.started) / 1e9);
}
