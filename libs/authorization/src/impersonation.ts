import { Errors } from '@kube/apimachinery';
import type { AuthorizationAttributes, Authorizer, UserInfo } from '@kube/apiserver';
import { forbiddenError } from './forbidden.message';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS_USER, serviceAccountGroups, serviceAccountUsername, splitServiceAccountUsername } from './rbac.types';

/** The Impersonate-* headers of a request (lower-cased, as node gives them). */
export type ImpersonationHeaders = Record<string, string | string[] | undefined>;

interface ImpersonationRequest {
  kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  namespace?: string;
  name: string;
  extraKey?: string;
}

function values(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).filter((s) => s !== '');
}

function describe(requests: ImpersonationRequest[]): string {
  return `[${requests.map((r) => `{${r.kind} ${r.namespace ?? ''} ${r.name}}`).join(' ')}]`;
}

function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** buildImpersonationRequests: one request per user, group, extra value and uid asked for. */
function impersonationRequests(headers: ImpersonationHeaders): ImpersonationRequest[] {
  const out: ImpersonationRequest[] = [];
  const user = values(headers['impersonate-user'])[0];
  if (user) {
    const sa = splitServiceAccountUsername(user);
    out.push(sa ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name } : { kind: 'User', name: user });
  }
  let others = false;
  for (const g of values(headers['impersonate-group'])) {
    others = true;
    out.push({ kind: 'Group', name: g });
  }
  for (const [h, v] of Object.entries(headers)) {
    if (!h.startsWith('impersonate-extra-')) continue;
    others = true;
    const extraKey = unescapeExtraKey(h.slice('impersonate-extra-'.length).toLowerCase());
    for (const value of values(v)) out.push({ kind: 'UserExtra', name: value, extraKey });
  }
  const uid = values(headers['impersonate-uid'])[0];
  if (uid) {
    others = true;
    out.push({ kind: 'UID', name: uid });
  }
  if (others && !user) throw Errors.internal(new Error(`requested ${describe(out)} without impersonating a user`));
  return out;
}

/**
 * k8s.io/apiserver WithImpersonation: every Impersonate-* value must be allowed by the authorizer (`impersonate`
 * on users, groups, serviceaccounts, userextras/<key>, uids), else 403 as kube words it; the request then runs
 * as the impersonated identity. Returns the caller unchanged when nothing is impersonated.
 */
export async function impersonate(headers: ImpersonationHeaders, requestor: UserInfo, authorizer: Authorizer): Promise<UserInfo> {
  const requests = impersonationRequests(headers);
  if (requests.length === 0) return requestor;
  const groupsSpecified = values(headers['impersonate-group']).length > 0;
  let username = '';
  let uid: string | undefined;
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    const attrs: AuthorizationAttributes = { user: requestor, verb: 'impersonate', resourceRequest: true, path: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: r.name };
    switch (r.kind) {
      case 'ServiceAccount':
        attrs.resource = 'serviceaccounts';
        attrs.namespace = r.namespace ?? '';
        username = serviceAccountUsername(r.namespace ?? '', r.name);
        if (!groupsSpecified) groups = serviceAccountGroups(r.namespace ?? '');
        break;
      case 'User':
        attrs.resource = 'users';
        username = r.name;
        break;
      case 'Group':
        attrs.resource = 'groups';
        groups.push(r.name);
        break;
      case 'UserExtra':
        attrs.apiGroup = 'authentication.k8s.io';
        attrs.resource = 'userextras';
        attrs.subresource = r.extraKey ?? '';
        (extra[r.extraKey ?? ''] ??= []).push(r.name);
        break;
      case 'UID':
        attrs.apiGroup = 'authentication.k8s.io';
        attrs.resource = 'uids';
        uid = r.name;
        break;
    }
    const result = await authorizer.authorize(attrs);
    if (result.decision !== 'Allow') throw forbiddenError(attrs, result.reason);
  }
  if (username !== ANONYMOUS_USER) {
    if (!groups.includes(ALL_AUTHENTICATED) && !groups.includes(ALL_UNAUTHENTICATED)) groups.push(ALL_AUTHENTICATED);
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) groups.push(ALL_UNAUTHENTICATED);
  return { name: username, uid, groups, extra };
}
