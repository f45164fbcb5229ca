/**
 * The registry's state, free of NATS and timers: what every live (service, instance, source) claims to serve,
 * and the per-group/version view the aggregator routes by.
 */
import type { AnnouncedGroupVersion, Announcement, RegistrationGroupVersionRef, RegistrationSource, Withdrawal } from './registration.types';

/** The APIService name of a group/version: "<version>.<group>", "v1." for the core group. */
export type GroupVersionKey = string;

export function groupVersionKey(gv: RegistrationGroupVersionRef): GroupVersionKey {
  return `${gv.version}.${gv.group}`;
}

/** One live backend of a group/version. */
export interface RegisteredEndpoint {
  readonly service: string;
  readonly instance: string;
  readonly endpoint: string;
  /** base64 PEM, as announced. */
  readonly caBundle: string;
}

/** A group/version served by at least one live instance. */
export interface RegisteredGroupVersion {
  readonly group: string;
  readonly version: string;
  readonly groupPriorityMinimum: number;
  readonly versionPriority: number;
  readonly source: RegistrationSource;
  /** Sorted by service, then instance; never empty. */
  readonly endpoints: readonly RegisteredEndpoint[];
}

/** Every live group/version keyed by APIService name, in key order. */
export type RegistrationSnapshot = ReadonlyMap<GroupVersionKey, RegisteredGroupVersion>;

/** Identifies what one announcement replaces: one instance's set for one source. */
export type ClaimKey = string;

export function claimKey(c: { readonly service: string; readonly instance: string; readonly source: RegistrationSource }): ClaimKey {
  return `${c.service}/${c.instance}/${c.source}`;
}

/** Heartbeats repeat the same content with a new sentAt: compare without it so they change nothing. */
function sameContent(a: Announcement, b: Announcement): boolean {
  return JSON.stringify({ ...a, sentAt: '' }) === JSON.stringify({ ...b, sentAt: '' });
}

/** One claim's entry for one group/version. */
interface Candidate {
  readonly claim: Announcement;
  readonly gv: AnnouncedGroupVersion;
}

/**
 * When announcers disagree about one group/version, a built-in ("onstart") wins over a CRD, then the higher
 * priorities, then service/instance name: deterministic, so every aggregator replica picks the same.
 */
function preferred(a: Candidate, b: Candidate): number {
  if (a.claim.source !== b.claim.source) return a.claim.source === 'onstart' ? -1 : 1;
  return (
    b.gv.groupPriorityMinimum - a.gv.groupPriorityMinimum ||
    b.gv.versionPriority - a.gv.versionPriority ||
    a.claim.service.localeCompare(b.claim.service) ||
    a.claim.instance.localeCompare(b.claim.instance)
  );
}

function endpointOrder(a: RegisteredEndpoint, b: RegisteredEndpoint): number {
  return a.service.localeCompare(b.service) || a.instance.localeCompare(b.instance) || a.endpoint.localeCompare(b.endpoint);
}

function toRegistered(candidates: readonly Candidate[]): RegisteredGroupVersion {
  const [best] = [...candidates].sort(preferred);
  const endpoints = new Map<string, RegisteredEndpoint>();
  for (const { claim } of candidates) {
    const ep = { service: claim.service, instance: claim.instance, endpoint: claim.endpoint, caBundle: claim.caBundle };
    endpoints.set(`${ep.service}/${ep.instance}/${ep.endpoint}`, ep); // one instance may claim a GV under both sources
  }
  return {
    group: best.gv.group,
    version: best.gv.version,
    groupPriorityMinimum: best.gv.groupPriorityMinimum,
    versionPriority: best.gv.versionPriority,
    source: best.claim.source,
    endpoints: [...endpoints.values()].sort(endpointOrder),
  };
}

export class LiveInstanceTable {
  private readonly claims = new Map<ClaimKey, Announcement>();

  get size(): number {
    return this.claims.size;
  }

  get(key: ClaimKey): Announcement | undefined {
    return this.claims.get(key);
  }

  keys(): ClaimKey[] {
    return [...this.claims.keys()];
  }

  /** Replaces the claim of (service, instance, source); an empty set removes it. True if the view changed. */
  apply(announcement: Announcement): boolean {
    const key = claimKey(announcement);
    const previous = this.claims.get(key);
    if (announcement.groupVersions.length === 0) return this.claims.delete(key);
    this.claims.set(key, announcement); // also when unchanged: keeps the newest sentAt for diagnostics
    return previous === undefined || !sameContent(previous, announcement);
  }

  /** Removes some or all group/versions of a claim. True if the view changed. */
  withdraw(withdrawal: Withdrawal): boolean {
    const key = claimKey(withdrawal);
    const claim = this.claims.get(key);
    if (!claim) return false;
    if (withdrawal.groupVersions === undefined) return this.claims.delete(key);
    const gone = new Set(withdrawal.groupVersions.map(groupVersionKey));
    const kept = claim.groupVersions.filter((gv) => !gone.has(groupVersionKey(gv)));
    if (kept.length === claim.groupVersions.length) return false;
    this.apply({ ...claim, groupVersions: kept });
    return true;
  }

  remove(key: ClaimKey): boolean {
    return this.claims.delete(key);
  }

  clear(): void {
    this.claims.clear();
  }

  snapshot(): RegistrationSnapshot {
    const byKey = new Map<GroupVersionKey, Candidate[]>();
    for (const claim of this.claims.values()) {
      for (const gv of claim.groupVersions) {
        const key = groupVersionKey(gv);
        const list = byKey.get(key) ?? [];
        list.push({ claim, gv });
        byKey.set(key, list);
      }
    }
    const keys = [...byKey.keys()].sort();
    return new Map(keys.map((key) => [key, toRegistered(byKey.get(key) ?? [])]));
  }
}

/** A stable string form of a snapshot, to tell real changes from repeated heartbeats. */
export function snapshotFingerprint(snapshot: RegistrationSnapshot): string {
  return JSON.stringify([...snapshot]);
}
