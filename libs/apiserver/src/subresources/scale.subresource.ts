import { Errors, FieldError, labelSelectorFromMetav1, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import type { SubresourceStrategy } from './subresource.strategy';

/** A /scale subresource mapped onto the object through simple JSON paths (".spec.replicas"), as CRDs declare it. */
export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** autoscaling/v1 Scale, the view /scale gives of an object. */
export interface Scale extends KubeObject {
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

function segments(path: string): string[] {
  return path.replace(/^\./, '').split('.').filter(Boolean);
}

export function getPath(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const seg of segments(path)) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

export function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const segs = segments(path);
  let cur = obj;
  for (const seg of segs.slice(0, -1)) {
    const next = cur[seg];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) cur[seg] = {};
    cur = cur[seg] as Record<string, unknown>;
  }
  cur[segs[segs.length - 1]] = value;
}

/** A built-in kind's metav1.LabelSelector as its scale shows it (LabelSelectorAsSelector(…).String()). */
function formattedSelector(selector: MetaV1LabelSelector): string | undefined {
  try {
    return labelSelectorFromMetav1(selector).toString();
  } catch {
    return undefined;
  }
}

/** The Scale of an object (kube's CRD scale conversion; a label selector object for the built-in kinds). */
export function toScale(obj: KubeObject, sub: ScaleSubresource): Scale {
  const replicas = getPath(obj, sub.specReplicasPath);
  const statusReplicas = getPath(obj, sub.statusReplicasPath);
  const selector = sub.labelSelectorPath ? getPath(obj, sub.labelSelectorPath) : undefined;
  const m = obj.metadata;
  const scale: Scale = {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: typeof replicas === 'number' ? { replicas } : {},
    status: { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0 },
  };
  if (!m.namespace) delete scale.metadata.namespace;
  if (typeof selector === 'string') scale.status.selector = selector;
  else if (selector && typeof selector === 'object') scale.status.selector = formattedSelector(selector as MetaV1LabelSelector);
  return scale;
}

/** Writes a Scale's spec.replicas back into the object; a bad Scale is a 422 like kube's. */
export function applyScale(obj: KubeObject, scale: unknown, sub: ScaleSubresource): void {
  const replicas = (scale as Partial<Scale> | undefined)?.spec?.replicas;
  const name = obj.metadata.name ?? '';
  if (replicas === undefined) throw Errors.invalid(SCALE_GK, name, [FieldError.required('spec.replicas')]);
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw Errors.invalid(SCALE_GK, name, [FieldError.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
  }
  setPath(obj as unknown as Record<string, unknown>, sub.specReplicasPath, replicas);
}

const SCALE_GK = { group: 'autoscaling', kind: 'Scale' };

/**
 * kube's `/scale`: an autoscaling/v1 Scale view of the object. Writes change spec.replicas only and are
 * validated as updates of the resource itself.
 */
export function scaleSubresource(paths: ScaleSubresource): SubresourceStrategy {
  return {
    verbs: ['get', 'patch', 'update'],
    discovered: true,
    view: {
      kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      get: (obj) => toScale(obj, paths),
      apply: (obj, scale) => applyScale(obj, scale, paths),
      patchTypes: ['application/json-patch+json', 'application/merge-patch+json'],
    },
    // The view was applied onto a copy of the stored object already.
    prepareForUpdate: (incoming) => incoming,
    validateUpdate: (obj, old, ctx, resource) => resource?.validateUpdate?.(obj, old, ctx) ?? resource?.validate?.(obj, ctx) ?? [],
  };
}
