import { alwaysAllowAuthorizer, type AuthorizationAttributes, type AuthorizationResult, type Authorizer, type UserInfo } from '@kube/apiserver';
import type { RuleResolver, RuleResolvingAuthorizer, RulesResult } from './rbac.authorizer';
import { SYSTEM_PRIVILEGED_GROUP } from './rbac.types';

const NO_OPINION: AuthorizationResult = { decision: 'NoOpinion', reason: '' };
const ALLOW: AuthorizationResult = { decision: 'Allow', reason: '' };

/** authorizerfactory.NewPrivilegedGroups: members of these groups may do anything (kube's system:masters). */
export function privilegedGroupAuthorizer(groups: readonly string[] = [SYSTEM_PRIVILEGED_GROUP]): Authorizer {
  return {
    authorize: (attrs) => {
      for (const g of attrs.user.groups) if (groups.includes(g)) return ALLOW;
      return NO_OPINION;
    },
  };
}

function everything(): RulesResult {
  return { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false, errors: [] };
}

/** The AlwaysAllow mode with its rule resolver (everything on everything). */
export const alwaysAllow: RuleResolvingAuthorizer = { authorize: alwaysAllowAuthorizer.authorize, rulesFor: everything };

function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as Promise<T>)?.then === 'function';
}

/**
 * union.New: the first Allow or Deny wins (with its own error); when every authorizer has no opinion, their
 * reasons joined by newlines and their errors aggregated. Synchronous authorizers stay synchronous (the hot path
 * allocates no promise).
 */
export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  const decide = (attrs: AuthorizationAttributes, from: number, reasons?: string[], errors?: string[]): AuthorizationResult | Promise<AuthorizationResult> => {
    for (let i = from; i < authorizers.length; i++) {
      const r = authorizers[i].authorize(attrs);
      if (isPromise(r)) {
        return r.then((res) => {
          if (res.decision !== 'NoOpinion') return res;
          if (res.reason) (reasons ??= []).push(res.reason);
          if (res.error !== undefined) (errors ??= []).push(res.error);
          return decide(attrs, i + 1, reasons, errors);
        });
      }
      if (r.decision !== 'NoOpinion') return r;
      if (r.reason) (reasons ??= []).push(r.reason);
      if (r.error !== undefined) (errors ??= []).push(r.error);
    }
    if (!reasons && !errors) return NO_OPINION;
    const result: AuthorizationResult = { decision: 'NoOpinion', reason: reasons ? reasons.join('\n') : '' };
    // utilerrors.NewAggregate: one error as itself, several in brackets.
    if (errors) result.error = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
    return result;
  };
  return { authorize: (attrs) => decide(attrs, 0) };
}

/** union rule resolver: every resolver's rules together. */
export function unionRuleResolver(resolvers: readonly RuleResolver[]): RuleResolver {
  return {
    rulesFor: (user: UserInfo, namespace: string): RulesResult => {
      const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] };
      for (const r of resolvers) {
        const res = r.rulesFor(user, namespace);
        out.resourceRules.push(...res.resourceRules);
        out.nonResourceRules.push(...res.nonResourceRules);
        out.incomplete ||= res.incomplete;
        out.errors.push(...res.errors);
      }
      return out;
    },
  };
}
