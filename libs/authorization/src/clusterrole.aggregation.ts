import { labelSelectorFromMetav1 } from '@kube/apimachinery';
import type { ClusterRole, PolicyRule } from './rbac.types';

function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  const eq = (x: readonly string[] | undefined, y: readonly string[] | undefined): boolean => (x ?? []).length === (y ?? []).length && (x ?? []).every((v, i) => v === (y ?? [])[i]);
  return eq(a.verbs, b.verbs) && eq(a.apiGroups, b.apiGroups) && eq(a.resources, b.resources) && eq(a.resourceNames, b.resourceNames) && eq(a.nonResourceURLs, b.nonResourceURLs);
}

export function sameRules(a: readonly PolicyRule[] | null | undefined, b: readonly PolicyRule[] | null | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((r, i) => sameRule(r, y[i]));
}

/**
 * The rules an aggregated ClusterRole should hold (pkg/controller/clusterroleaggregation syncClusterRole): for
 * each selector in order, the rules of every other matching ClusterRole sorted by name, without duplicates.
 * Undefined when the role has no aggregationRule.
 */
export function aggregatedRules(target: ClusterRole, all: Iterable<ClusterRole>): PolicyRule[] | undefined {
  const selectors = target.aggregationRule?.clusterRoleSelectors;
  if (!target.aggregationRule) return undefined;
  const roles = [...all].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  const rules: PolicyRule[] = [];
  for (const sel of selectors ?? []) {
    let selector;
    try {
      selector = labelSelectorFromMetav1(sel);
    } catch {
      continue;
    }
    for (const role of roles) {
      if (role.metadata.name === target.metadata.name || !selector.matches(role.metadata.labels)) continue;
      for (const rule of role.rules ?? []) if (!rules.some((r) => sameRule(r, rule))) rules.push(rule);
    }
  }
  return rules;
}
