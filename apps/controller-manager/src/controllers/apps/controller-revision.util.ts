/**
 * kube's pkg/controller/history as used by the StatefulSet and DaemonSet controllers: a ControllerRevision per
 * distinct pod template, named `<owner>-<hash>`, holding the patch that restores the template (what `kubectl
 * rollout undo` applies), numbered in order; unused ones beyond revisionHistoryLimit are deleted.
 */
import { isStatusError, stableStringify, type KubeObject } from '@kube/apimachinery';
import { resourcePath, type ResourcePath, type RestClient } from '@kube/client';
import { newControllerRef, type ControllerKind } from './controller-ref.manager';
import { computeHash, type PodTemplate } from './deployment.util';

export const CONTROLLER_REVISIONS: ResourcePath = { group: 'apps', version: 'v1', resource: 'controllerrevisions', namespaced: true };
/** The label a StatefulSet's or DaemonSet's pods carry naming their revision (apps.ControllerRevisionHashLabelKey). */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';

export interface ControllerRevision extends KubeObject {
  data?: { spec?: { template?: PodTemplate } };
  revision: number;
}

/** getPatch: the template as a strategic merge patch that replaces it whole. */
export function revisionData(template: PodTemplate | undefined): { spec: { template: PodTemplate & { $patch: string } } } {
  return { spec: { template: { ...structuredClone(template ?? {}), $patch: 'replace' } } };
}

/** The template a revision restores. */
export function templateOf(rev: ControllerRevision): PodTemplate {
  const t = structuredClone(rev.data?.spec?.template ?? {}) as PodTemplate & { $patch?: string };
  delete t.$patch;
  return t;
}

const sameData = (a: ControllerRevision, template: PodTemplate | undefined): boolean => stableStringify(a.data ?? {}) === stableStringify(revisionData(template));

export interface RevisionOwner extends KubeObject {
  spec?: { template?: PodTemplate; revisionHistoryLimit?: number };
  status?: { collisionCount?: number };
}

/**
 * The update revision for the owner's template: an existing revision with the same data (renumbered to the newest
 * when it is not: a rollback), else a new one. `revisions` are those the owner controls.
 */
export async function ensureUpdateRevision(client: RestClient, owner: RevisionOwner, kind: ControllerKind, revisions: ControllerRevision[]): Promise<ControllerRevision> {
  const template = owner.spec?.template;
  const max = revisions.reduce((m, r) => Math.max(m, r.revision), 0);
  const equal = revisions.filter((r) => sameData(r, template)).sort((a, b) => b.revision - a.revision);
  const ns = owner.metadata.namespace;
  if (equal.length) {
    const found = equal[0];
    if (found.revision === max) return found;
    const updated = await client.request<ControllerRevision>('PUT', resourcePath(CONTROLLER_REVISIONS, ns, found.metadata.name), { body: { ...found, revision: max + 1 } });
    return updated;
  }
  let collision = owner.status?.collisionCount ?? 0;
  for (let attempt = 0; attempt < 5; attempt++, collision++) {
    const hash = computeHash(template, collision === 0 ? undefined : collision);
    const body: ControllerRevision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `${owner.metadata.name as string}-${hash}`,
        namespace: ns,
        labels: { ...(template?.metadata?.labels ?? {}), 'controller.kubernetes.io/hash': hash },
        ...(owner.metadata.annotations ? { annotations: { ...owner.metadata.annotations } } : {}),
        ownerReferences: [newControllerRef(owner, kind)],
      },
      data: revisionData(template),
      revision: max + 1,
    };
    try {
      return await client.request<ControllerRevision>('POST', resourcePath(CONTROLLER_REVISIONS, ns), { body });
    } catch (err) {
      if (!(isStatusError(err) && err.code === 409)) throw err;
      // Same name: ours with the same data (a lagging cache) is the one; anything else is a hash collision.
      const existing = await client.get<ControllerRevision>(resourcePath(CONTROLLER_REVISIONS, ns, body.metadata.name));
      if (existing.metadata.ownerReferences?.some((r) => r.uid === owner.metadata.uid) && sameData(existing, template)) return existing;
    }
  }
  throw new Error(`cannot create a ControllerRevision for ${owner.metadata.name as string}: hash collisions`);
}

/** truncateHistory: deletes the oldest revisions no pod uses, beyond revisionHistoryLimit (default 10). */
export async function truncateHistory(client: RestClient, owner: RevisionOwner, revisions: ControllerRevision[], live: ReadonlySet<string>): Promise<void> {
  const limit = owner.spec?.revisionHistoryLimit ?? 10;
  const history = revisions.filter((r) => !live.has(r.metadata.name as string)).sort((a, b) => a.revision - b.revision);
  for (const r of history.slice(0, Math.max(0, history.length - limit))) {
    await client.request('DELETE', resourcePath(CONTROLLER_REVISIONS, r.metadata.namespace, r.metadata.name)).catch((err: unknown) => {
      if (!(isStatusError(err) && err.code === 404)) throw err;
    });
  }
}

/** intstr.GetScaledValueFromIntOrPercent. */
export function scaledValue(v: number | string | undefined, total: number, roundUp: boolean, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) return Number.parseInt(v, 10) || 0;
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}
