/** A Pod's total requests or limits as the scheduler sees them (k8s.io/component-helpers/resource PodRequests / PodLimits). */
import type { Quantity } from '@kube/apimachinery';
import { add, toResourceList, type ResourceList } from './resource-list';

export interface ContainerResources {
  requests?: Record<string, unknown>;
  limits?: Record<string, unknown>;
}

export interface PodContainer {
  name?: string;
  restartPolicy?: string;
  resources?: ContainerResources;
}

export interface PodResourcesSpec {
  containers?: PodContainer[];
  initContainers?: PodContainer[];
  overhead?: Record<string, unknown>;
}

export const listOf = <T>(v: readonly T[] | undefined | null): readonly T[] => (Array.isArray(v) ? v : []);

/** Sets every entry of `into` to the larger of it and `list`'s. */
export function maxInto(into: ResourceList, list: ResourceList): void {
  for (const [name, q] of list) if (!into.has(name) || q.cmp(into.get(name) as Quantity) > 0) into.set(name, q);
}

/**
 * Containers summed, init containers at their peak (each one plus the sidecars started before it), sidecars
 * (restartPolicy Always) added; with `overhead`, spec.overhead added (to limits only where a limit exists).
 */
export function podTotals(spec: PodResourcesSpec, field: 'requests' | 'limits', overhead: boolean): ResourceList {
  let total: ResourceList = new Map();
  for (const c of listOf(spec.containers)) total = add(total, toResourceList(c.resources?.[field]));
  let sidecars: ResourceList = new Map();
  const initPeak: ResourceList = new Map();
  for (const c of listOf(spec.initContainers)) {
    const own = toResourceList(c.resources?.[field]);
    if (c.restartPolicy === 'Always') {
      total = add(total, own);
      sidecars = add(sidecars, own);
      maxInto(initPeak, sidecars);
    } else maxInto(initPeak, add(own, sidecars));
  }
  maxInto(total, initPeak);
  if (!overhead) return total;
  const extra = toResourceList(spec.overhead);
  if (field === 'requests') return add(total, extra);
  for (const [name, q] of extra) if (total.has(name)) total.set(name, (total.get(name) as Quantity).add(q));
  return total;
}
