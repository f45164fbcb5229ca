/**
 * kube's pkg/controller/deployment/util as pure functions: revisions and their annotations, template equality
 * and hashing, maxSurge/maxUnavailable, the conditions and what complete, progressing and timed out mean.
 */
import { stableStringify, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import { formatTimestamp } from '@kube/apiserver';
import type { ReplicaSetLike } from './replicaset.controller';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
/** Annotations of a Deployment that are not copied onto its ReplicaSets (annotationsToSkip). */
const SKIPPED_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration', REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION, DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, 'deprecated.deployment.rollback.to']);

// Condition reasons (deployment/util: *Reason).
export const FOUND_NEW_RS_REASON = 'FoundNewReplicaSet';
export const NEW_RS_CREATED_REASON = 'NewReplicaSetCreated';
export const RS_UPDATED_REASON = 'ReplicaSetUpdated';
export const NEW_RS_AVAILABLE_REASON = 'NewReplicaSetAvailable';
export const TIMED_OUT_REASON = 'ProgressDeadlineExceeded';
export const PAUSED_REASON = 'DeploymentPaused';
export const RESUMED_REASON = 'DeploymentResumed';
export const MIN_AVAILABLE_REASON = 'MinimumReplicasAvailable';
export const MIN_UNAVAILABLE_REASON = 'MinimumReplicasUnavailable';
export const FAILED_RS_CREATE_REASON = 'ReplicaSetCreateError';

export type IntOrString = number | string;

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; [k: string]: unknown };
  spec?: unknown;
}

export interface DeploymentCondition {
  type: string;
  status: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

export interface Deployment extends KubeObject {
  spec?: {
    replicas?: number;
    selector?: MetaV1LabelSelector | null;
    template?: PodTemplate;
    strategy?: { type?: string; rollingUpdate?: { maxSurge?: IntOrString; maxUnavailable?: IntOrString } };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    paused?: boolean;
    progressDeadlineSeconds?: number;
  };
  status?: DeploymentStatus;
}

export interface ReplicaSet extends ReplicaSetLike {
  spec?: ReplicaSetLike['spec'] & { selector?: MetaV1LabelSelector | null; template?: PodTemplate & { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> } } };
}

export const replicasOf = (d: Deployment): number => d.spec?.replicas ?? 1;
export const rsReplicas = (rs: ReplicaSet | undefined): number => rs?.spec?.replicas ?? 0;

/** Revision of a ReplicaSet (0 when missing or not a number). */
export function revisionOf(obj: KubeObject): number {
  const v = Number.parseInt(obj.metadata.annotations?.[REVISION_ANNOTATION] ?? '', 10);
  return Number.isFinite(v) ? v : 0;
}

export const maxRevision = (sets: readonly ReplicaSet[]): number => sets.reduce((m, rs) => Math.max(m, revisionOf(rs)), 0);

/**
 * The value as Go's semantic equality sees it: nulls, empty objects and empty lists are absent (a client that
 * decoded the template into Go structs sends `creationTimestamp: null` and `resources: {}` back, as `kubectl
 * rollout undo` does).
 */
function semantic(v: unknown): unknown {
  if (Array.isArray(v)) {
    const items = v.map(semantic);
    return items.length ? items : undefined;
  }
  if (v === null) return undefined;
  if (typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const n = semantic(x);
    if (n !== undefined) out[k] = n;
  }
  return Object.keys(out).length ? out : undefined;
}

function templateWithoutHash(t: PodTemplate | undefined): unknown {
  const copy = structuredClone(t ?? {});
  delete copy.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL];
  return semantic(copy) ?? {};
}

/** EqualIgnoreHash: the templates are the same but for the pod-template-hash label. */
export function equalIgnoreHash(a: PodTemplate | undefined, b: PodTemplate | undefined): boolean {
  return stableStringify(templateWithoutHash(a)) === stableStringify(templateWithoutHash(b));
}

const SAFE_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** controller.ComputeHash: FNV-32a of the template (and the collision count), spelt with rand.SafeEncodeString. */
export function computeHash(template: PodTemplate | undefined, collisionCount: number | undefined): string {
  let text = stableStringify(templateWithoutHash(template));
  if (collisionCount !== undefined) text += `#${collisionCount}`;
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return [...String(h)].map((c) => SAFE_ALPHANUMS[c.charCodeAt(0) % SAFE_ALPHANUMS.length]).join('');
}

/** intstr.GetScaledValueFromIntOrPercent. */
function scaled(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) return Number.parseInt(v, 10) || 0;
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

export const isRollingUpdate = (d: Deployment): boolean => (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

/** ResolveFenceposts: maxSurge rounded up, maxUnavailable down; both 0 means 1 unavailable. */
export function resolveFenceposts(d: Deployment): { surge: number; unavailable: number } {
  const desired = replicasOf(d);
  const ru = d.spec?.strategy?.rollingUpdate;
  const surge = scaled(ru?.maxSurge ?? '25%', desired, true);
  let unavailable = scaled(ru?.maxUnavailable ?? '25%', desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function maxSurge(d: Deployment): number {
  return isRollingUpdate(d) ? resolveFenceposts(d).surge : 0;
}

export function maxUnavailable(d: Deployment): number {
  if (!isRollingUpdate(d) || replicasOf(d) === 0) return 0;
  return Math.min(resolveFenceposts(d).unavailable, replicasOf(d));
}

/** SetReplicasAnnotations: desired and max replicas on the ReplicaSet; whether they changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = (rs.metadata.annotations ??= {});
  let changed = false;
  for (const [k, v] of [
    [DESIRED_REPLICAS_ANNOTATION, String(desired)],
    [MAX_REPLICAS_ANNOTATION, String(max)],
  ] as const) {
    if (a[k] !== v) {
      a[k] = v;
      changed = true;
    }
  }
  return changed;
}

/** SetNewReplicaSetAnnotations: the Deployment's annotations, the new revision (the old one into revision-history), the replicas annotations. */
export function setNewReplicaSetAnnotations(d: Deployment, rs: ReplicaSet, newRevision: number, exists: boolean): boolean {
  const a = (rs.metadata.annotations ??= {});
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (SKIPPED_ANNOTATIONS.has(k) || a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  const oldRevision = a[REVISION_ANNOTATION];
  const old = Number.parseInt(oldRevision ?? '', 10);
  if (!Number.isFinite(old) || old < newRevision) {
    a[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (oldRevision) a[REVISION_HISTORY_ANNOTATION] = a[REVISION_HISTORY_ANNOTATION] ? `${a[REVISION_HISTORY_ANNOTATION]},${oldRevision}` : oldRevision;
  }
  if (!exists && setReplicasAnnotations(rs, replicasOf(d), replicasOf(d) + maxSurge(d))) changed = true;
  return changed;
}

export function getCondition(status: DeploymentStatus | undefined, type: string): DeploymentCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

export function newCondition(type: string, status: string, reason: string, message: string, now = new Date()): DeploymentCondition {
  const ts = formatTimestamp(now);
  return { type, status, lastUpdateTime: ts, lastTransitionTime: ts, reason, message };
}

/** SetDeploymentCondition: no change when status and reason are the same; the transition time kept when only the reason moved. */
export function setCondition(status: DeploymentStatus, c: DeploymentCondition): void {
  const current = getCondition(status, c.type);
  if (current && current.status === c.status && current.reason === c.reason) return;
  const next = { ...c };
  if (current && current.status === c.status) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((x) => x.type !== c.type), next];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  if (status.conditions) status.conditions = status.conditions.filter((c) => c.type !== type);
}

/** HasProgressDeadline: set and not MaxInt32. */
export const hasProgressDeadline = (d: Deployment): boolean => d.spec?.progressDeadlineSeconds !== undefined && d.spec.progressDeadlineSeconds !== 2147483647;

/** DeploymentComplete. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const want = replicasOf(d);
  return (s.updatedReplicas ?? 0) === want && (s.replicas ?? 0) === want && (s.availableReplicas ?? 0) === want && (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}

/** DeploymentProgressing: more updated, fewer old, more ready or more available replicas than the stored status. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) || newOld < oldOld || (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) || (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0);
}

/** DeploymentTimedOut: the Progressing condition's last update is older than progressDeadlineSeconds. */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, now = Date.now()): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s, 'Progressing');
  if (!c || c.reason === NEW_RS_AVAILABLE_REASON) return false;
  if (c.reason === TIMED_OUT_REASON) return true;
  const from = Date.parse(c.lastUpdateTime ?? '');
  return Number.isFinite(from) && from + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 < now;
}

/** ReplicaSetsByCreationTimestamp (oldest first, then by name). */
export function byCreation(a: KubeObject, b: KubeObject): number {
  const d = (Date.parse(a.metadata.creationTimestamp ?? '') || 0) - (Date.parse(b.metadata.creationTimestamp ?? '') || 0);
  return d || String(a.metadata.name).localeCompare(String(b.metadata.name));
}
