import { parseRequestInfo, type RequestInfo } from '../request-info';
import type { Filter } from './api-request';
import { queryBool } from '../query.params';

/** kube-apiserver's BasicLongRunningRequestCheck(sets.NewString("watch", "proxy"), …): */
const LONG_RUNNING_VERBS: ReadonlySet<string> = new Set(['watch', 'proxy']);
/** … sets.NewString("attach", "exec", "proxy", "log", "portforward")). */
const LONG_RUNNING_SUBRESOURCES: ReadonlySet<string> = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/**
 * Whether a request is long-running (exempt from max-in-flight/APF seats, the timeout and body auditing),
 * decided as kube decides it: from the verb and subresource alone. Headers play no part: an `Upgrade:` header
 * on any other path must not buy a request a way around those limits.
 */
export function isLongRunning(info: RequestInfo): boolean {
  return LONG_RUNNING_VERBS.has(info.verb) || (info.isResourceRequest && LONG_RUNNING_SUBRESOURCES.has(info.subresource));
}

/** kube's WithRequestInfo: path, query and what the request is about (verb, group, resource, …), parsed once. */
export const withRequestInfo: Filter = (next) => (r) => {
  const url = r.req.url ?? '/';
  const q = url.indexOf('?');
  r.path = q < 0 ? url : url.slice(0, q);
  if (q >= 0) r.query = new URLSearchParams(url.slice(q + 1));
  // kube's parameter codec: watch is true unless absent, "0" or "false" (any case).
  r.info = parseRequestInfo(r.req.method ?? 'GET', r.path, queryBool(r.query, 'watch'));
  r.longRunning = isLongRunning(r.info);
  return next(r);
};
