/**
 * What the quota controller recalculates (kube's quota.CalculateUsage): for every resource a quota tracks, the
 * usage of the namespace's objects that its scopes select, from a source of objects the caller provides.
 */
import { Quantity, type GroupResource, type KubeObject } from '@kube/apimachinery';
import { add, mask, toResourceList, type ResourceList } from './resource-list';
import { quotaScopes, type ResourceQuota } from './resource-quota.types';
import { evaluatorsFor } from './usage.evaluators';

export interface UsageSource {
  /** The objects of a resource in a namespace. */
  list(gr: GroupResource, namespace: string): Promise<readonly KubeObject[]>;
  /** How many objects of a resource a namespace holds (all an object count needs). */
  count(gr: GroupResource, namespace: string): Promise<number>;
}

/** The quota's new status.used: every tracked name recalculated, masked to spec.hard. */
export async function calculateUsage(quota: ResourceQuota, source: UsageSource): Promise<ResourceList> {
  const namespace = quota.metadata.namespace as string;
  const hard = toResourceList(quota.spec?.hard);
  const scopes = quotaScopes(quota);
  // Names no evaluator charges keep what they had (kube preserves past observations).
  let used = mask(toResourceList(quota.status?.used), hard.keys());
  for (const evaluator of evaluatorsFor(hard.keys())) {
    const matched = evaluator.matchingResources(hard.keys());
    let usage: ResourceList = new Map(matched.map((n) => [n, Quantity.zero]));
    if (evaluator.objectCount) {
      // Object counts match no scope: a scoped quota counts none of them.
      const n = scopes.length ? 0 : await source.count(evaluator.groupResource, namespace);
      usage = new Map(matched.map((name) => [name, Quantity.fromInt(n)]));
    } else {
      for (const obj of await source.list(evaluator.groupResource, namespace)) {
        if (scopes.every((s) => evaluator.matchesScope(s, obj))) usage = add(usage, mask(evaluator.usage(obj), matched));
      }
    }
    used = new Map([...used, ...usage]);
  }
  return used;
}
