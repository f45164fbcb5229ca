import type { IncomingHttpHeaders } from 'node:http';
import { Errors } from '@kube/apimachinery';
import type { UserInfo } from '../resource.definition';
import { headerLines } from '../header.lines';
import { respondWithError, type ApiRequest, type Filter, type RequestHandler } from './api-request';
import { forbidden } from './with-authorization';

const PRIVILEGED_GROUP = 'system:masters';
const USER = 'impersonate-user';
const UID = 'impersonate-uid';
const GROUP = 'impersonate-group';
const EXTRA = 'impersonate-extra-';

/** Every value of a header, one per line (see headerLines: a value may hold a comma). */
function list(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).filter(Boolean);
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The identity a request asks to act as (Impersonate-User / -Group / -Uid / -Extra-*), or undefined when it asks
 * for none. Only members of system:masters may impersonate until RBAC authorizes the `impersonate` verb;
 * anyone else gets kube's 403.
 */
export function impersonatedUser(headers: IncomingHttpHeaders, user: UserInfo): UserInfo | undefined {
  const target = first(headers[USER]);
  const groups = list(headers[GROUP]);
  const extraKeys = Object.keys(headers).filter((h) => h.startsWith(EXTRA));
  if (target === undefined && !groups.length && !extraKeys.length && headers[UID] === undefined) return undefined;
  if (target === undefined) throw Errors.internal(new Error('requested impersonation of groups or extra without a user'));
  if (!user.groups.includes(PRIVILEGED_GROUP)) {
    throw forbidden({ user, verb: 'impersonate', resourceRequest: true, path: '', apiGroup: '', apiVersion: '', resource: 'users', subresource: '', namespace: '', name: target });
  }
  const extra: Record<string, string[]> = {};
  for (const h of extraKeys) extra[decodeURIComponent(h.slice(EXTRA.length))] = list(headers[h]);
  const impersonatedGroups = target.startsWith('system:serviceaccount:') ? [...groups, 'system:serviceaccounts', `system:serviceaccounts:${target.split(':')[2]}`] : groups;
  return { name: target, uid: first(headers[UID]), groups: [...new Set([...impersonatedGroups, 'system:authenticated'])], extra };
}

/**
 * Who a request acts as, given its Impersonate-* headers and its authenticated user (the user itself when it
 * asks for nobody); throws a Status (403) when it may not. With an authorizer, @kube/authorization's
 * `impersonate` authorizes every value as kube does.
 */
export type Impersonator = (headers: IncomingHttpHeaders, user: UserInfo) => UserInfo | Promise<UserInfo>;

/** Without an authorizer to ask: system:masters only. */
const mastersOnly: Impersonator = (headers, user) => impersonatedUser(headers, user) ?? user;

/**
 * kube's WithImpersonation: the request continues as the impersonated user, and its Impersonate-* headers are
 * removed so nothing further down (a backend behind the proxy) acts on them again.
 */
export function withImpersonation(impersonator: Impersonator = mastersOnly): Filter {
  const impersonating = async (r: ApiRequest, user: UserInfo, next: RequestHandler): Promise<number> => {
    const headers = r.req.headers;
    try {
      // The Impersonate-* headers line by line, as kube reads them (node's req.headers joins repeated ones with ", ").
      r.user = await impersonator(headerLines(r.req, (h) => h.startsWith('impersonate-')), user);
    } catch (err) {
      return respondWithError(r.res, err);
    }
    for (const h of Object.keys(headers)) if (h.startsWith('impersonate-')) delete headers[h];
    return next(r);
  };
  return (next) => (r) => {
    const headers = r.req.headers;
    // The common case, no impersonation: a few property lookups, no promise of its own.
    if (!r.user || (headers[USER] === undefined && headers[GROUP] === undefined && headers[UID] === undefined && !hasExtra(headers))) return next(r);
    return impersonating(r, r.user, next);
  };
}

function hasExtra(headers: IncomingHttpHeaders): boolean {
  for (const h in headers) if (h.startsWith(EXTRA)) return true;
  return false;
}
