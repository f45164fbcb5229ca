import type { IncomingMessage } from 'node:http';
import { Errors } from '@kube/apimachinery';
import type { UserInfo } from '@kube/apiserver';

const PRIVILEGED_GROUP = 'system:masters';

function list(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',').map((x) => x.trim())).filter(Boolean);
}

/**
 * Impersonate-User / -Group / -Uid / -Extra-*: the identity is replaced when the caller may impersonate
 * (members of system:masters until RBAC exists), otherwise 403 as kube words it.
 */
export function impersonate(req: IncomingMessage, user: UserInfo): UserInfo {
  const target = req.headers['impersonate-user'];
  const groups = list(req.headers['impersonate-group']);
  const extraKeys = Object.keys(req.headers).filter((h) => h.startsWith('impersonate-extra-'));
  if (target === undefined && !groups.length && !extraKeys.length && req.headers['impersonate-uid'] === undefined) return user;
  if (target === undefined) throw Errors.internal(new Error('requested impersonation of groups or extra without a user'));
  const name = Array.isArray(target) ? target[0] : target;
  if (!user.groups.includes(PRIVILEGED_GROUP)) {
    throw Errors.forbidden({ group: '', resource: 'users' }, name, `User "${user.name}" cannot impersonate resource "users" in API group "" at the cluster scope`);
  }
  const extra: Record<string, string[]> = {};
  for (const h of extraKeys) extra[decodeURIComponent(h.slice('impersonate-extra-'.length))] = list(req.headers[h]);
  const uid = req.headers['impersonate-uid'];
  const impersonatedGroups = name.startsWith('system:serviceaccount:') ? [...groups, 'system:serviceaccounts', `system:serviceaccounts:${name.split(':')[2]}`] : groups;
  return { name, uid: Array.isArray(uid) ? uid[0] : uid, groups: [...new Set([...impersonatedGroups, 'system:authenticated'])], extra };
}
