/**
 * etcd's own access control (etcd's RBAC, `etcdctl user|role|auth`) as data: each user a role of its own with the
 * key ranges it may read or read and write, reconciled idempotently through the Auth API and then enabled. With
 * etcd's --client-cert-auth the CN of a verified client certificate is the user (no password), so a deployment
 * issues one client certificate per user. etcd roles only grant, never deny: "everything but" is granted as the
 * ranges in between (rangesExcept).
 */
import type { IPermission } from 'etcd3';
import type { EtcdClient } from './etcd.client';
import { prefixEnd } from './keys';

export type EtcdPermission = 'read' | 'readwrite';

/** One permission of a role: the keys in [key, rangeEnd), or the key alone when rangeEnd is ''. */
export interface EtcdGrant {
  readonly permission: EtcdPermission;
  readonly key: string;
  readonly rangeEnd: string;
}

/** An etcd user (the CN of its client certificate) and what its role grants. */
export interface EtcdUserAccess {
  readonly user: string;
  readonly grants: readonly EtcdGrant[];
}

/** The user etcd requires before `auth enable`; it holds the role `root` (everything, and the Auth API). */
export const ETCD_ROOT_USER = 'root';

/** Every key starting with `prefix`. */
export function prefixGrant(prefix: string, permission: EtcdPermission): EtcdGrant {
  return { permission, key: prefix, rangeEnd: prefixEnd(Buffer.from(prefix, 'latin1')).toString('latin1') };
}

/** The one key `key`. */
export function keyGrant(key: string, permission: EtcdPermission): EtcdGrant {
  return { permission, key, rangeEnd: '' };
}

/**
 * The keys from `prefix` on, except the given prefixes and keys: the ranges between them, in key order. This is how
 * "all of /registry/ but the other servers' keys" is granted, since a role cannot deny.
 */
export function rangesExcept(prefix: string, excluded: readonly EtcdGrant[], permission: EtcdPermission): EtcdGrant[] {
  const end = prefixEnd(Buffer.from(prefix, 'latin1')).toString('latin1');
  // Each excluded grant as [from, to); a single key k is [k, k + '\0').
  const holes = excluded
    .map((g) => ({ from: g.key, to: g.rangeEnd === '' ? `${g.key}\u0000` : g.rangeEnd }))
    .filter((h) => h.to > prefix && h.from < end)
    .sort((a, b) => compare(a.from, b.from));
  const ranges: EtcdGrant[] = [];
  let at = prefix;
  for (const hole of holes) {
    if (compare(hole.from, at) > 0) ranges.push({ permission, key: at, rangeEnd: hole.from });
    if (compare(hole.to, at) > 0) at = hole.to;
  }
  if (compare(end, at) > 0) ranges.push({ permission, key: at, rangeEnd: end });
  return ranges;
}

/** Byte order, as etcd compares keys (latin1 strings compare by code unit, which is the byte). */
function compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'latin1'), Buffer.from(b, 'latin1'));
}

export interface ReconcileEtcdAuthOptions {
  /**
   * Users (and their roles) whose names start with this and that are no longer desired are deleted: an aggregated
   * server taken out of a deployment loses its access. Users outside it are left alone. Default: none deleted.
   */
  readonly managedPrefix?: string;
}

const PERMISSION_TYPE: Readonly<Record<EtcdPermission, IPermission['permType']>> = { read: 'Read', readwrite: 'Readwrite' };

/**
 * Makes etcd's users, roles and permissions what `desired` says, then enables authentication; run at every start
 * of a deployment, as etcd's root (a client certificate with CN root, or any client before auth is enabled).
 * Idempotent: an etcd that already matches is only read. Each desired user gets a role of the same name holding
 * exactly its grants (others are revoked) and no other role. Answers what it changed, for the log.
 */
export async function reconcileEtcdAuth(client: EtcdClient, desired: readonly EtcdUserAccess[], options: ReconcileEtcdAuthOptions = {}): Promise<string[]> {
  const auth = client.raw.auth;
  const changes: string[] = [];
  if (desired.some((u) => u.user === ETCD_ROOT_USER)) throw new Error(`the ${ETCD_ROOT_USER} user is etcd's own; it cannot be given grants`);
  const users = new Set((await auth.userList()).users ?? []);
  const roles = new Set((await auth.roleList()).roles ?? []);

  const ensureUser = async (name: string): Promise<void> => {
    if (users.has(name)) return;
    // Authenticated by its client certificate's CN: no password.
    await auth.userAdd({ name, options: { no_password: true } });
    users.add(name);
    changes.push(`user ${name} added`);
  };
  const ensureRole = async (name: string): Promise<void> => {
    if (roles.has(name)) return;
    await auth.roleAdd({ name });
    roles.add(name);
    changes.push(`role ${name} added`);
  };

  await ensureUser(ETCD_ROOT_USER);
  await ensureRole(ETCD_ROOT_USER);
  await ensureUserRoles(client, ETCD_ROOT_USER, [ETCD_ROOT_USER], changes);

  for (const { user, grants } of desired) {
    await ensureUser(user);
    await ensureRole(user);
    await ensureRolePermissions(client, user, grants, changes);
    await ensureUserRoles(client, user, [user], changes);
  }

  const wanted = new Set(desired.map((u) => u.user));
  if (options.managedPrefix) {
    for (const stale of [...users].filter((u) => u.startsWith(options.managedPrefix as string) && !wanted.has(u))) {
      await auth.userDelete({ name: stale });
      changes.push(`user ${stale} deleted`);
      if (roles.has(stale)) {
        await auth.roleDelete({ role: stale });
        changes.push(`role ${stale} deleted`);
      }
    }
  }

  // Idempotent: enabling an enabled etcd succeeds.
  await auth.authEnable();
  return changes;
}

async function ensureRolePermissions(client: EtcdClient, role: string, grants: readonly EtcdGrant[], changes: string[]): Promise<void> {
  const auth = client.raw.auth;
  const id = (type: string, key: Buffer, end: Buffer): string => `${type}:${key.toString('hex')}:${end.toString('hex')}`;
  const desired = new Map(grants.map((g) => [id(PERMISSION_TYPE[g.permission], Buffer.from(g.key, 'latin1'), Buffer.from(g.rangeEnd, 'latin1')), g]));
  const present = (await auth.roleGet({ role })).perm ?? [];
  const presentIds = new Set<string>();
  for (const perm of present) {
    const key = perm.key ?? Buffer.alloc(0);
    const end = perm.range_end ?? Buffer.alloc(0);
    const pid = id(perm.permType, key, end);
    presentIds.add(pid);
    if (desired.has(pid)) continue;
    await auth.roleRevokePermission({ role, key, range_end: end });
    changes.push(`role ${role}: revoked ${perm.permType} ${describeRange(key.toString('latin1'), end.toString('latin1'))}`);
  }
  for (const [gid, grant] of desired) {
    if (presentIds.has(gid)) continue;
    await auth.roleGrantPermission({
      name: role,
      perm: { permType: PERMISSION_TYPE[grant.permission], key: Buffer.from(grant.key, 'latin1'), range_end: Buffer.from(grant.rangeEnd, 'latin1') },
    });
    changes.push(`role ${role}: granted ${grant.permission} ${describeRange(grant.key, grant.rangeEnd)}`);
  }
}

async function ensureUserRoles(client: EtcdClient, user: string, roles: readonly string[], changes: string[]): Promise<void> {
  const auth = client.raw.auth;
  const present = new Set((await auth.userGet({ name: user })).roles ?? []);
  for (const role of present) {
    if (roles.includes(role)) continue;
    await auth.userRevokeRole({ name: user, role });
    changes.push(`user ${user}: role ${role} revoked`);
  }
  for (const role of roles) {
    if (present.has(role)) continue;
    await auth.userGrantRole({ user, role });
    changes.push(`user ${user}: role ${role} granted`);
  }
}

/** A grant as etcdctl shows it: a key, a prefix, or [from, to). */
export function describeRange(key: string, rangeEnd: string): string {
  const printable = (s: string): string => JSON.stringify(s).slice(1, -1);
  if (rangeEnd === '') return printable(key);
  if (rangeEnd === prefixEnd(Buffer.from(key, 'latin1')).toString('latin1')) return `${printable(key)}*`;
  return `[${printable(key)}, ${printable(rangeEnd)})`;
}
