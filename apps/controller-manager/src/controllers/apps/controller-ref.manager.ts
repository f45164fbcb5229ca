import { isStatusError, type KubeObject, type LabelSelector, type OwnerReference } from '@kube/apimachinery';
import { resourcePath, type ResourcePath, type RestClient } from '@kube/client';

const SMP = 'application/strategic-merge-patch+json';

export function controllerRefOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

export interface ControllerKind {
  apiVersion: string;
  kind: string;
}

/** The controller reference a controller puts on what it makes (metav1.NewControllerRef). */
export function newControllerRef(owner: KubeObject, kind: ControllerKind): OwnerReference {
  return { apiVersion: kind.apiVersion, kind: kind.kind, name: owner.metadata.name as string, uid: owner.metadata.uid as string, controller: true, blockOwnerDeletion: true };
}

/**
 * kube's BaseControllerRefManager.ClaimObject for one owner: of the namespace's `candidates`, keeps what it
 * controls and still selects, adopts orphans it selects (a strategic merge patch adding the controller
 * reference, after one fresh read proved the owner still exists and is not being deleted: RecheckDeletionTimestamp),
 * and releases what it controls but no longer selects. Returns what it owns afterwards.
 */
export async function claimObjects(
  client: RestClient,
  owner: KubeObject,
  kind: ControllerKind,
  ownerPath: ResourcePath,
  selector: LabelSelector,
  candidates: readonly KubeObject[],
  candidatePath: ResourcePath,
  filter: (obj: KubeObject) => boolean = () => true,
): Promise<KubeObject[]> {
  const claimed: KubeObject[] = [];
  let canAdopt: Promise<boolean> | undefined;
  const ownerAlive = async (): Promise<boolean> => {
    const fresh = await client.get(resourcePath(ownerPath, owner.metadata.namespace, owner.metadata.name)).catch(() => undefined);
    return !!fresh && fresh.metadata.uid === owner.metadata.uid && !fresh.metadata.deletionTimestamp;
  };
  const patch = async (obj: KubeObject, body: unknown): Promise<boolean> => {
    try {
      await client.request('PATCH', resourcePath(candidatePath, obj.metadata.namespace, obj.metadata.name), { body, contentType: SMP });
      return true;
    } catch (err) {
      // Gone, or changed its uid: not ours to claim (kube ignores NotFound and Invalid here).
      if (isStatusError(err) && (err.code === 404 || err.code === 422 || err.code === 409)) return false;
      throw err;
    }
  };
  for (const obj of candidates) {
    const ref = controllerRefOf(obj);
    const selected = selector.matches(obj.metadata.labels ?? {}) && filter(obj);
    if (ref) {
      if (ref.uid !== owner.metadata.uid) continue;
      if (selected) {
        claimed.push(obj);
        continue;
      }
      // Release: the owner no longer selects it (an owner being deleted keeps what it has).
      if (owner.metadata.deletionTimestamp) continue;
      await patch(obj, { metadata: { ownerReferences: [{ $patch: 'delete', uid: owner.metadata.uid }], uid: obj.metadata.uid } });
      continue;
    }
    if (!selected || owner.metadata.deletionTimestamp || obj.metadata.deletionTimestamp) continue;
    canAdopt ??= ownerAlive();
    if (!(await canAdopt)) continue;
    if (await patch(obj, { metadata: { ownerReferences: [newControllerRef(owner, kind)], uid: obj.metadata.uid } })) claimed.push(obj);
  }
  return claimed;
}
