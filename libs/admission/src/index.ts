export type { AdmissionAttributes, AdmissionContext, AdmissionOperation, AdmissionOptions, AdmissionPlugin, AdmissionResource } from './admission.types';
export { NamespaceLifecycleAdmission, IMMORTAL_NAMESPACES } from './namespace/namespace-lifecycle.admission';
export { ResourceQuotaAdmission } from './quota/resource-quota.admission';
export { evaluatorFor, evaluatorsFor, type QuotaEvaluator } from './quota/usage.evaluators';
export { add as addResources, canonicalizeResourceList, equals as equalResources, fromResourceList, mask as maskResources, toResourceList, type ResourceList } from './quota/resource-list';
export * from './quota/resource-names';
export { quotaScopes, RESOURCE_QUOTA_SCOPES, type LimitRange, type LimitRangeItem, type ResourceQuota, type ScopedResourceSelectorRequirement } from './quota/resource-quota.types';
export { LimitRangerAdmission, LIMIT_RANGER_ANNOTATION } from './limitrange/limit-ranger.admission';
export { calculateUsage, type UsageSource } from './quota/usage.calculator';
