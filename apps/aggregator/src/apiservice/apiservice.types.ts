/**
 * apiregistration.k8s.io/v1 APIService (k8s.io/kube-aggregator pkg/apis/apiregistration/v1/types.go) and the
 * helpers the aggregator's controllers, discovery and routing share (pkg/apis/apiregistration/v1/helper).
 * Objects stay plain JSON: these types describe what a valid, defaulted APIService looks like on the wire.
 */
import { compareKubeVersions, type GroupVersion, type KubeList, type KubeObject } from '@kube/apimachinery';

export const APIREGISTRATION_GROUP = 'apiregistration.k8s.io';
export const APIREGISTRATION_VERSION = 'v1';

export type ConditionStatus = 'True' | 'False' | 'Unknown';
export const CONDITION_STATUSES: readonly ConditionStatus[] = ['True', 'False', 'Unknown'];

/** The only condition type kube defines for APIServices. */
export type APIServiceConditionType = 'Available';

/** Reasons the local and remote availability controllers write into the Available condition. */
export type AvailableReason =
  | 'Local'
  | 'Passed'
  | 'ServiceNotFound'
  | 'ServiceAccessError'
  | 'ServicePortError'
  | 'EndpointsNotFound'
  | 'EndpointsAccessError'
  | 'MissingEndpoints'
  | 'FailedDiscoveryCheck';

export const LOCAL_AVAILABLE_MESSAGE = 'Local APIServices are always available';

/** A Service in the cluster that serves the group/version (ServiceReference). */
export interface ServiceReference {
  namespace?: string;
  name?: string;
  /** Defaulted to 443 (SetDefaults_ServiceReference). */
  port?: number;
}

export interface APIServiceSpec {
  /** Absent (or null) means "Local": the group/version is served by the delegate chain, not proxied. */
  service?: ServiceReference | null;
  /** Empty for the legacy core group only ("v1."). */
  group?: string;
  version?: string;
  insecureSkipTLSVerify?: boolean;
  /** base64 of a PEM bundle ([]byte in Go); empty means the system trust roots. */
  caBundle?: string;
  groupPriorityMinimum: number;
  versionPriority: number;
}

export interface APIServiceCondition {
  type: APIServiceConditionType;
  status: ConditionStatus;
  /** metav1.Time: RFC 3339, second precision. */
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface APIServiceStatus {
  /** A list map keyed by type. */
  conditions?: APIServiceCondition[];
}

export interface APIService extends KubeObject {
  spec: APIServiceSpec;
  status?: APIServiceStatus;
}

export type APIServiceList = KubeList<APIService>;

/** The name an APIService must have: "<version>.<group>", so "v1." for the legacy core group. */
export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

/** APIServiceNameToGroupVersion: splits at the first dot ("v1." → core group, version v1). */
export function apiServiceGroupVersion(name: string): GroupVersion {
  const dot = name.indexOf('.');
  return dot < 0 ? { group: '', version: name } : { group: name.slice(dot + 1), version: name.slice(0, dot) };
}

/** The group/version an APIService registers, from its spec. */
export function groupVersionOf(svc: APIService): GroupVersion {
  return { group: svc.spec.group ?? '', version: svc.spec.version ?? '' };
}

/** Local APIServices (no spec.service) are served by the delegate chain rather than proxied. */
export function isLocal(svc: APIService): boolean {
  return svc.spec.service === undefined || svc.spec.service === null;
}

/** "Local" or "<namespace>/<name>", as kubectl prints the SERVICE column. */
export function serviceDescription(svc: APIService): string {
  const service = svc.spec.service;
  return service ? `${service.namespace ?? ''}/${service.name ?? ''}` : 'Local';
}

export function availableCondition(svc: APIService): APIServiceCondition | undefined {
  return svc.status?.conditions?.find((c) => c.type === 'Available');
}

/** IsAPIServiceConditionTrue(Available): only a present and strictly True condition counts. */
export function isAvailable(svc: APIService): boolean {
  return availableCondition(svc)?.status === 'True';
}

/** metav1.Now() as JSON: RFC 3339 in UTC without fractional seconds. */
export function conditionTimestamp(now: number = Date.now()): string {
  return new Date(now).toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * SetAPIServiceCondition for Available, in place. lastTransitionTime moves only when the status flips, so it
 * tells when availability last changed rather than when it was last checked. Returns whether anything changed,
 * letting controllers skip writes that would change nothing.
 */
export function setAvailableCondition(svc: APIService, status: ConditionStatus, reason: string, message: string, now: number = Date.now()): boolean {
  const conditions = ((svc.status ??= {}).conditions ??= []);
  const existing = conditions.find((c) => c.type === 'Available');
  if (!existing) {
    conditions.push(withText({ type: 'Available', status, lastTransitionTime: conditionTimestamp(now) }, reason, message));
    return true;
  }
  const changed = existing.status !== status || (existing.reason ?? '') !== reason || (existing.message ?? '') !== message;
  if (existing.status !== status) {
    existing.status = status;
    existing.lastTransitionTime = conditionTimestamp(now);
  }
  withText(existing, reason, message);
  return changed;
}

/** Sets reason and message; Go's omitempty drops empty strings from the JSON. */
function withText(condition: APIServiceCondition, reason: string, message: string): APIServiceCondition {
  if (reason) condition.reason = reason;
  else delete condition.reason;
  if (message) condition.message = message;
  else delete condition.message;
  return condition;
}

/** Go's < on strings (byte order), which is what kube sorts names with. */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** ByGroupPriorityMinimum: highest groupPriorityMinimum first, then by name (alphabetically, not reversed). */
export function compareByGroupPriority(a: APIService, b: APIService): number {
  const byPriority = b.spec.groupPriorityMinimum - a.spec.groupPriorityMinimum;
  return byPriority !== 0 ? byPriority : compareStrings(a.metadata.name ?? '', b.metadata.name ?? '');
}

/** ByVersionPriority: highest versionPriority first, then the kube-aware version order (v2 > v1 > v1beta1 > foo). */
export function compareByVersionPriority(a: APIService, b: APIService): number {
  const byPriority = b.spec.versionPriority - a.spec.versionPriority;
  return byPriority !== 0 ? byPriority : compareKubeVersions(a.spec.version ?? '', b.spec.version ?? '');
}

/**
 * SortedByGroupAndVersion: one array per group, most preferred group first; inside a group, most preferred
 * version first. A group is placed by its highest groupPriorityMinimum, because groups are collected in the
 * order their first (highest-priority) APIService appears.
 */
export function sortGroupsAndVersions(list: readonly APIService[]): APIService[][] {
  const groups = new Map<string, APIService[]>();
  for (const svc of [...list].sort(compareByGroupPriority)) {
    const group = svc.spec.group ?? '';
    const members = groups.get(group);
    if (members) members.push(svc);
    else groups.set(group, [svc]);
  }
  return [...groups.values()].map((members) => members.sort(compareByVersionPriority));
}

/** Every APIService in discovery order: groups by preference, each group's versions by preference. */
export function sortAPIServices(list: readonly APIService[]): APIService[] {
  return sortGroupsAndVersions(list).flat();
}
