/**
 * Which requests a rule selects (kube's k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules) and the
 * configuration objects admission never intercepts (IsExemptAdmissionConfigurationResource).
 */
import type { AdmissionAttributes } from '../admission.types';
import { ADMISSION_REGISTRATION_GROUP, type NamedRuleWithOperations, type RuleWithOperations } from '../registration/admissionregistration.types';

const EXEMPT_RESOURCES = new Set(['validatingwebhookconfigurations', 'mutatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']);

/** Webhooks and policies are never called for their own configuration objects: a bad one could lock the cluster. */
export function isExemptAdmissionConfiguration(group: string, resource: string): boolean {
  return group === ADMISSION_REGISTRATION_GROUP && EXEMPT_RESOURCES.has(resource);
}

/** The request as rules see it: one string key per (group, version, resource, subresource, operation, scope). */
export interface RuleRequest {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  operation: string;
  /** The request has a namespace (Namespace objects themselves are cluster-scoped). */
  namespaced: boolean;
}

export function ruleRequest(a: AdmissionAttributes): RuleRequest {
  return {
    group: a.resource.group,
    version: a.resource.version,
    resource: a.resource.plural,
    subresource: a.subresource,
    operation: a.operation,
    namespaced: a.namespace !== '' && !(a.resource.group === '' && a.resource.plural === 'namespaces'),
  };
}

/** A key that identifies everything rules look at, so match results can be memoized per key. */
export function ruleKey(r: RuleRequest): string {
  return `${r.group}/${r.version}/${r.resource}/${r.subresource}/${r.operation}/${r.namespaced ? 'ns' : 'cluster'}`;
}

function matchesList(values: readonly string[] | undefined, value: string): boolean {
  return (values ?? []).some((v) => v === '*' || v === value);
}

function matchesResource(resources: readonly string[] | undefined, resource: string, subresource: string): boolean {
  return (resources ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === resource) && (sub === '*' || sub === subresource);
  });
}

export function ruleMatches(rule: RuleWithOperations, r: RuleRequest): boolean {
  const scope = rule.scope ?? '*';
  if (scope === 'Namespaced' && !r.namespaced) return false;
  if (scope === 'Cluster' && r.namespaced) return false;
  return matchesList(rule.operations, r.operation) && matchesList(rule.apiGroups, r.group) && matchesList(rule.apiVersions, r.version) && matchesResource(rule.resources, r.resource, r.subresource);
}

/** A named rule also limits the objects by name (policies' resourceNames). */
export function namedRuleMatches(rule: NamedRuleWithOperations, r: RuleRequest, name: string): boolean {
  if (!ruleMatches(rule, r)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}
