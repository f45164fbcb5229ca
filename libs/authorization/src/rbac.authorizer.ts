import type { AuthorizationAttributes, AuthorizationResult, Authorizer, UserInfo } from '@kube/apiserver';
import { aggregateMessage } from './go.format';
import { allowReason, type RbacIndex } from './rbac.index';
import type { PolicyRule } from './rbac.types';

/** authorizer.ResourceRuleInfo / NonResourceRuleInfo as SelfSubjectRulesReview prints them. */
export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface RulesResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  incomplete: boolean;
  /** Resolution errors (a binding to a missing role), already formatted. */
  errors: string[];
}

/** authorizer.RuleResolver: what a user may do in a namespace (SelfSubjectRulesReview). */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): RulesResult;
}

export type RuleResolvingAuthorizer = Authorizer & RuleResolver;

/**
 * plugin/pkg/auth/authorizer/rbac: allows when a rule of a binding that names the user (or one of their groups,
 * or their ServiceAccount) matches; otherwise no opinion, with resolution errors as the reason.
 */
export class RbacAuthorizer implements RuleResolvingAuthorizer {
  constructor(private readonly index: RbacIndex) {}

  authorize(attrs: AuthorizationAttributes): AuthorizationResult {
    const found = this.index.findAllowing(attrs);
    if (found.entry) return { decision: 'Allow', reason: allowReason(found.entry, found.key) };
    return { decision: 'NoOpinion', reason: found.errors ? `RBAC: ${aggregateMessage(found.errors)}` : '' };
  }

  /** Every rule that applies to the user in the namespace (RulesFor), and the resolution errors met. */
  policyRulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    for (const entry of this.index.bindingsFor(user, namespace)) {
      const r = this.index.rulesOf(entry);
      if (r.error) errors.push(r.error);
      rules.push(...r.rules);
    }
    return { rules, errors };
  }

  rulesFor(user: UserInfo, namespace: string): RulesResult {
    const { rules, errors } = this.policyRulesFor(user, namespace);
    const result: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false, errors };
    for (const rule of rules) {
      if (rule.resources?.length) result.resourceRules.push({ verbs: rule.verbs ?? [], apiGroups: rule.apiGroups ?? [], resources: rule.resources, resourceNames: rule.resourceNames ?? [] });
      if (rule.nonResourceURLs?.length) result.nonResourceRules.push({ verbs: rule.verbs ?? [], nonResourceURLs: rule.nonResourceURLs });
    }
    return result;
  }
}
