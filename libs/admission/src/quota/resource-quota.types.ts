/** core/v1 ResourceQuota and LimitRange, the fields quota and limit ranges read. */
import type { KubeObject } from '@kube/apimachinery';

export type ResourceListJson = Record<string, string>;

export interface ScopedResourceSelectorRequirement {
  scopeName?: string;
  operator?: string;
  values?: string[];
}

export interface ResourceQuota extends KubeObject {
  spec?: {
    hard?: ResourceListJson;
    scopes?: string[];
    scopeSelector?: { matchExpressions?: ScopedResourceSelectorRequirement[] };
  };
  status?: { hard?: ResourceListJson; used?: ResourceListJson };
}

export interface LimitRangeItem {
  type?: string;
  max?: ResourceListJson;
  min?: ResourceListJson;
  default?: ResourceListJson;
  defaultRequest?: ResourceListJson;
  maxLimitRequestRatio?: ResourceListJson;
}

export interface LimitRange extends KubeObject {
  spec?: { limits?: LimitRangeItem[] };
}

export const RESOURCE_QUOTA_SCOPES: readonly string[] = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];

/** A quota's scopes and scope selector as one list of requirements (getScopeSelectorsFromQuota). */
export function quotaScopes(quota: ResourceQuota): ScopedResourceSelectorRequirement[] {
  const scopes = (Array.isArray(quota.spec?.scopes) ? quota.spec.scopes : []).map((scopeName) => ({ scopeName, operator: 'Exists' }));
  const selector = quota.spec?.scopeSelector?.matchExpressions;
  return [...scopes, ...(Array.isArray(selector) ? selector : [])];
}
