/**
 * Which service may announce which group/version (docs/registration.md, threat model). NATS identities say
 * *who* speaks for a service; this says *what* a service may claim, so a compromised service with its own
 * identity cannot pull another's traffic to itself:
 *  - a group with a fixed owner (the built-ins: core-api's groups, extensions' apiextensions.k8s.io, the
 *    aggregator's own apiregistration.k8s.io) is accepted from that service only;
 *  - CustomResourceDefinition group/versions (source "crd") only from extensions;
 *  - any other group/version belongs to the first service that claims it, until that service's last claim
 *    is withdrawn or expires; replicas of the same service share it.
 */
import { GROUP_PRIORITIES } from './group-priority.table';
import { type GroupVersionKey, groupVersionKey } from './live-instance.table';
import type { AnnouncedGroupVersion, Announcement } from './registration.types';

export interface GroupOwnership {
  /** group ("" = core) → the only service allowed to announce it. */
  readonly groups: ReadonlyMap<string, string>;
  /** The only service allowed to announce CustomResourceDefinition group/versions (source "crd"). */
  readonly crd: string;
}

/** kube's built-in groups are core-api's, except the two served by extensions and by the aggregator itself. */
export const DEFAULT_GROUP_OWNERSHIP: GroupOwnership = Object.freeze({
  groups: new Map<string, string>([
    ...Object.keys(GROUP_PRIORITIES).map((gv): [string, string] => [gv.slice(0, gv.lastIndexOf('/')), 'core-api']),
    ['apiextensions.k8s.io', 'extensions'],
    // Served by the aggregator, never announced: nobody may claim it.
    ['apiregistration.k8s.io', 'aggregator'],
  ]),
  crd: 'extensions',
});

/**
 * Parses `group=service,group=service` (KUBE_REGISTRATION_GROUP_OWNERS) into owners added to (or replacing)
 * the defaults; `core` names the core group.
 */
export function groupOwnershipWith(extra: string | undefined, base: GroupOwnership = DEFAULT_GROUP_OWNERSHIP): GroupOwnership {
  const groups = new Map(base.groups);
  for (const entry of (extra ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const m = /^([a-z0-9.-]+)=([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)$/.exec(entry);
    if (!m) throw new Error(`group owner ${JSON.stringify(entry)}: expected <group>=<service> (core for the core group)`);
    groups.set(m[1] === 'core' ? '' : m[1], m[2]);
  }
  return { groups, crd: base.crd };
}

export interface RefusedClaim {
  readonly key: GroupVersionKey;
  readonly reason: string;
}

export interface OwnershipVerdict {
  /** The announcement with only the group/versions its service may claim. */
  readonly admitted: Announcement;
  readonly refused: readonly RefusedClaim[];
}

/**
 * Splits an announcement into what its service may claim and what it may not. `claimants` gives the
 * services currently serving a group/version (empty if none).
 */
export function admitClaims(announcement: Announcement, ownership: GroupOwnership, claimants: (key: GroupVersionKey) => readonly string[]): OwnershipVerdict {
  const { service, source } = announcement;
  const admitted: AnnouncedGroupVersion[] = [];
  const refused: RefusedClaim[] = [];
  for (const gv of announcement.groupVersions) {
    const key = groupVersionKey(gv);
    const owner = ownership.groups.get(gv.group);
    const others = claimants(key).filter((s) => s !== service);
    let reason: string | undefined;
    if (source === 'crd' && service !== ownership.crd) reason = `only ${ownership.crd} announces CustomResourceDefinition group/versions`;
    else if (owner !== undefined && owner !== service) reason = `group "${gv.group}" belongs to ${owner}`;
    else if (owner === undefined && others.length > 0 && !claimants(key).includes(service)) reason = `it is served by ${others.join(', ')}`;
    if (reason) refused.push({ key, reason });
    else admitted.push(gv);
  }
  return { admitted: refused.length ? { ...announcement, groupVersions: admitted } : announcement, refused };
}
