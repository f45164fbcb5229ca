import { parseRequestInfo } from '../request-info';
import type { Filter } from './api-request';
import { queryBool } from '../query.params';

/** kube's WithRequestInfo: path, query and what the request is about (verb, group, resource, …), parsed once. */
export const withRequestInfo: Filter = (next) => (r) => {
  const url = r.req.url ?? '/';
  const q = url.indexOf('?');
  r.path = q < 0 ? url : url.slice(0, q);
  if (q >= 0) r.query = new URLSearchParams(url.slice(q + 1));
  // kube's parameter codec: watch is true unless absent, "0" or "false" (any case).
  r.info = parseRequestInfo(r.req.method ?? 'GET', r.path, queryBool(r.query, 'watch'));
  r.longRunning = r.info.verb === 'watch' || r.upgrade !== undefined || r.req.headers.upgrade !== undefined;
  return next(r);
};
