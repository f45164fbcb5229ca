/**
 * Matching a request to a FlowSchema (k8s.io/apiserver pkg/util/flowcontrol/rule.go), compiled once per set of
 * FlowSchemas: schemas in kube's order (matchingPrecedence, then name), each rule a closure over its own lists.
 */
import type { UserInfo } from '@kube/apimachinery';
import type { RequestInfo } from '../request-info';
import { NAME_ALL, type FlowSchema, type NonResourcePolicyRule, type PolicyRulesWithSubjects, type ResourcePolicyRule, type Subject } from './flowcontrol.types';

type UserMatcher = (user: UserInfo) => boolean;
type RequestMatcher = (info: RequestInfo) => boolean;

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** containsString with kube's wildcard rule: a list that is exactly [wildcard] matches anything. */
function membership(list: readonly string[] | undefined): (x: string) => boolean {
  const items = list ?? [];
  if (items.length === 1 && items[0] === NAME_ALL) return () => true;
  const set = new Set(items);
  return (x) => set.has(x);
}

function subjectMatcher(subject: Subject): UserMatcher | undefined {
  switch (subject.kind) {
    case 'User': {
      const name = subject.user?.name;
      if (name === undefined) return undefined;
      return name === NAME_ALL ? () => true : (u) => u.name === name;
    }
    case 'Group': {
      const name = subject.group?.name;
      if (name === undefined) return undefined;
      return name === NAME_ALL ? () => true : (u) => u.groups.includes(name);
    }
    case 'ServiceAccount': {
      const sa = subject.serviceAccount;
      if (!sa) return undefined;
      const exact = `${SERVICE_ACCOUNT_PREFIX}${sa.namespace}:${sa.name}`;
      const inNamespace = `${SERVICE_ACCOUNT_PREFIX}${sa.namespace}:`;
      return sa.name === NAME_ALL ? (u) => u.name.startsWith(inNamespace) : (u) => u.name === exact;
    }
    default:
      return undefined;
  }
}

function resourceRuleMatcher(rule: ResourcePolicyRule): RequestMatcher {
  const verb = membership(rule.verbs);
  const resource = membership(rule.resources);
  const group = membership(rule.apiGroups);
  const namespace = membership(rule.namespaces);
  const clusterScope = rule.clusterScope === true;
  return (ri) => {
    if (!verb(ri.verb)) return false;
    if (!resource(ri.subresource ? `${ri.resource}/${ri.subresource}` : ri.resource)) return false;
    if (!group(ri.group)) return false;
    return ri.namespace === '' ? clusterScope : namespace(ri.namespace);
  };
}

/** matchPolicyRuleNonResourceURL: exact, `*`, or a prefix ending in `/*` (which also matches the bare prefix). */
function nonResourceRuleMatcher(rule: NonResourcePolicyRule): RequestMatcher {
  const verb = membership(rule.verbs);
  const urls = rule.nonResourceURLs ?? [];
  if (urls.includes(NAME_ALL)) return (ri) => verb(ri.verb);
  const exact = new Set(urls);
  const prefixes = urls.map((u) => {
    const p = u.endsWith('*') ? u.slice(0, -1) : u;
    return p.endsWith('/') ? p : `${p}/`;
  });
  return (ri) => verb(ri.verb) && (exact.has(ri.path) || prefixes.some((p) => ri.path.startsWith(p)));
}

function anyOf<T>(matchers: Array<(x: T) => boolean>): (x: T) => boolean {
  if (matchers.length === 1) return matchers[0];
  return (x) => {
    for (const m of matchers) if (m(x)) return true;
    return false;
  };
}

function ruleMatcher(rule: PolicyRulesWithSubjects): (user: UserInfo, info: RequestInfo) => boolean {
  const subjects = anyOf((rule.subjects ?? []).map(subjectMatcher).filter((m): m is UserMatcher => !!m));
  const resource = anyOf((rule.resourceRules ?? []).map(resourceRuleMatcher));
  const nonResource = anyOf((rule.nonResourceRules ?? []).map(nonResourceRuleMatcher));
  return (user, info) => subjects(user) && (info.isResourceRequest ? resource(info) : nonResource(info));
}

/** kube's order of evaluation: lower matchingPrecedence first, then name. */
export function byMatchingPrecedence(a: FlowSchema, b: FlowSchema): number {
  const d = (a.spec.matchingPrecedence ?? 0) - (b.spec.matchingPrecedence ?? 0);
  if (d !== 0) return d;
  const an = a.metadata.name ?? '';
  const bn = b.metadata.name ?? '';
  return an < bn ? -1 : an > bn ? 1 : 0;
}

/** Whether a request matches a FlowSchema (matchesFlowSchema). */
export function flowSchemaMatcher(fs: FlowSchema): (user: UserInfo, info: RequestInfo) => boolean {
  const rules = (fs.spec.rules ?? []).map(ruleMatcher);
  if (rules.length === 1) return rules[0];
  return (user, info) => {
    for (const rule of rules) if (rule(user, info)) return true;
    return false;
  };
}

/** The flow distinguisher (ByUser: the user's name, ByNamespace: the request's namespace, none: ""). */
export function flowDistinguisher(fs: FlowSchema, user: UserInfo, info: RequestInfo): string {
  switch (fs.spec.distinguisherMethod?.type) {
    case 'ByUser':
      return user.name;
    case 'ByNamespace':
      return info.namespace;
    default:
      return '';
  }
}
