import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { FieldError, isDNS1123Subdomain } from '@kube/apimachinery';
import type { UserInfo } from '../resource.definition';
import type { RequestInfo } from '../request-info';

/** How much of a request an audit event records (audit.k8s.io/v1 Level), least first. */
export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

export const AUDIT_LEVELS: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
const STAGES: readonly AuditStage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

export interface GroupResources {
  group?: string;
  resources?: string[];
  resourceNames?: string[];
}

export interface PolicyRule {
  level: AuditLevel;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: AuditStage[];
  omitManagedFields?: boolean;
}

/** audit.k8s.io/v1 Policy. */
export interface AuditPolicy {
  apiVersion: 'audit.k8s.io/v1';
  kind: 'Policy';
  rules: PolicyRule[];
  omitStages?: AuditStage[];
  omitManagedFields?: boolean;
}

/** What a request is audited at: its level, the stages it skips, and whether managedFields are dropped from bodies. */
export interface AuditDecision {
  level: AuditLevel;
  omitStages: ReadonlySet<AuditStage>;
  omitManagedFields: boolean;
}

/** The request attributes a rule matches on (kube's authorizer.Attributes); user is absent when authentication failed. */
export interface AuditAttributes {
  user: UserInfo | undefined;
  info: RequestInfo;
}

function has(list: readonly string[] | undefined, v: string): boolean {
  return list !== undefined && list.includes(v);
}

function nonEmpty<T>(list: readonly T[] | undefined): list is readonly T[] {
  return list !== undefined && list.length > 0;
}

/** kube's pathMatches: "*", the exact path, or a prefix ending in "*". */
function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(rule: PolicyRule, info: RequestInfo): boolean {
  if (!info.isResourceRequest) return false;
  if (nonEmpty(rule.namespaces) && !rule.namespaces.includes(info.namespace)) return false;
  if (!nonEmpty(rule.resources)) return true;
  const combined = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  for (const gr of rule.resources) {
    if ((gr.group ?? '') !== info.group) continue;
    if (!nonEmpty(gr.resources)) return true;
    if (nonEmpty(gr.resourceNames) && !gr.resourceNames.includes(info.name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (info.subresource && res.startsWith('*/') && res.slice(2) === info.subresource) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === info.resource) return true;
    }
  }
  return false;
}

/** kube's ruleMatches (k8s.io/apiserver pkg/audit/policy/checker.go). */
export function ruleMatches(rule: PolicyRule, { user, info }: AuditAttributes): boolean {
  if (nonEmpty(rule.users) && (!user || !rule.users.includes(user.name))) return false;
  if (nonEmpty(rule.userGroups) && (!user || !user.groups.some((g) => has(rule.userGroups, g)))) return false;
  if (nonEmpty(rule.verbs) && !rule.verbs.includes(info.verb)) return false;
  if (nonEmpty(rule.namespaces) || nonEmpty(rule.resources)) return resourceMatches(rule, info);
  if (nonEmpty(rule.nonResourceURLs)) return !info.isResourceRequest && rule.nonResourceURLs.some((spec) => pathMatches(info.path, spec));
  return true;
}

/**
 * kube's policy Checker: the first rule that matches decides, else level None. Each rule's omitStages is
 * unioned with the policy's once, here, not per request.
 */
export class AuditPolicyChecker {
  private readonly rules: Array<{ rule: PolicyRule; decision: AuditDecision }>;
  private readonly fallback: AuditDecision;

  constructor(policy: Pick<AuditPolicy, 'rules' | 'omitStages' | 'omitManagedFields'>) {
    const policyOmit = policy.omitStages ?? [];
    this.rules = policy.rules.map((rule) => ({
      rule,
      decision: { level: rule.level, omitStages: new Set([...policyOmit, ...(rule.omitStages ?? [])]), omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false },
    }));
    this.fallback = { level: 'None', omitStages: new Set(policyOmit), omitManagedFields: policy.omitManagedFields ?? false };
  }

  decide(attrs: AuditAttributes): AuditDecision {
    for (const { rule, decision } of this.rules) if (ruleMatches(rule, attrs)) return decision;
    return this.fallback;
  }
}

/**
 * Without KUBE_AUDIT_POLICY_FILE: every request at Metadata, one ResponseComplete event each (the front door's
 * behaviour before policies existed; kube-apiserver without a policy audits nothing, but it also writes no log).
 */
export const DEFAULT_AUDIT_POLICY: AuditPolicy = { apiVersion: 'audit.k8s.io/v1', kind: 'Policy', omitStages: ['RequestReceived'], rules: [{ level: 'Metadata' }] };

function strings(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.every((s) => typeof s === 'string'));
}

/** kube's ValidatePolicy (pkg/apis/audit/validation). */
export function validateAuditPolicy(policy: AuditPolicy): FieldError[] {
  const errs: FieldError[] = [];
  policy.rules.forEach((rule, i) => {
    const p = `rules[${i}]`;
    if (!rule.level) errs.push(FieldError.required(`${p}.level`));
    else if (!AUDIT_LEVELS.includes(rule.level)) errs.push(FieldError.notSupported(`${p}.level`, rule.level, [...AUDIT_LEVELS]));
    (rule.nonResourceURLs ?? []).forEach((url, j) => {
      if (url === '*') return;
      if (!url.startsWith('/')) errs.push(FieldError.invalid(`${p}.nonResourceURLs[${j}]`, url, "non-resource URL rules must begin with a '/' character"));
      if (url !== '' && url.slice(0, -1).includes('*')) errs.push(FieldError.invalid(`${p}.nonResourceURLs[${j}]`, url, "non-resource URL wildcards '*' must be the final character of the rule"));
    });
    for (const gr of rule.resources ?? []) {
      if (gr.group) {
        const msgs = isDNS1123Subdomain(gr.group);
        if (msgs.length) errs.push(FieldError.invalid(`${p}.resources.group`, gr.group, msgs.join(',')));
      }
      if (nonEmpty(gr.resourceNames) && !nonEmpty(gr.resources)) errs.push(FieldError.invalid(`${p}.resources.resourceNames`, gr.resourceNames, 'using resourceNames requires at least one resource'));
    }
    (rule.omitStages ?? []).forEach((s, j) => {
      if (!STAGES.includes(s)) errs.push(FieldError.invalid(`${p}.omitStages[${j}]`, s, `allowed stages are ${STAGES.join(',')}`));
    });
    if (nonEmpty(rule.nonResourceURLs) && (nonEmpty(rule.resources) || nonEmpty(rule.namespaces))) {
      errs.push(FieldError.invalid(`${p}.nonResourceURLs`, rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
  });
  return errs;
}

/** kube's LoadPolicyFromBytes: decode (YAML or JSON), check the group version, validate, refuse an empty policy. */
export function parseAuditPolicy(text: string): AuditPolicy {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new Error(`failed decoding: ${(err as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`failed decoding: Object 'Kind' is missing in '${text.trim()}'`);
  const obj = doc as Record<string, unknown>;
  if (typeof obj.kind !== 'string' || !obj.kind) throw new Error(`failed decoding: Object 'Kind' is missing in '${text.trim()}'`);
  const [group, version] = typeof obj.apiVersion === 'string' && obj.apiVersion.includes('/') ? obj.apiVersion.split('/', 2) : ['', String(obj.apiVersion ?? '')];
  if (group !== 'audit.k8s.io' || version !== 'v1' || obj.kind !== 'Policy') {
    if (group === 'audit.k8s.io' && version === 'v1') throw new Error(`failed decoding: no kind "${obj.kind}" is registered for version "audit.k8s.io/v1" in scheme "pkg/audit/scheme.go:30"`);
    throw new Error(`failed decoding: no kind "${obj.kind}" is registered for version "${obj.apiVersion ?? ''}" in scheme "pkg/audit/scheme.go:30"`);
  }
  const rules = obj.rules ?? [];
  if (!Array.isArray(rules) || !rules.every((r) => r && typeof r === 'object' && !Array.isArray(r))) throw new Error('failed decoding: json: cannot unmarshal rules into Go struct field Policy.rules of type []v1.PolicyRule');
  for (const r of rules as Array<Record<string, unknown>>) {
    for (const k of ['users', 'userGroups', 'verbs', 'namespaces', 'nonResourceURLs', 'omitStages'] as const) {
      if (!strings(r[k])) throw new Error(`failed decoding: json: cannot unmarshal ${k} into Go struct field PolicyRule.rules.${k} of type []string`);
    }
  }
  const policy = { ...obj, rules } as unknown as AuditPolicy;
  const errs = validateAuditPolicy(policy);
  if (errs.length === 1) throw new Error(errs[0].toString());
  if (errs.length > 1) throw new Error(`[${errs.map((e) => e.toString()).join(', ')}]`);
  if (policy.rules.length === 0) throw new Error('loaded illegal policy with 0 rules');
  return policy;
}

/** kube's LoadPolicyFromFile (--audit-policy-file): its errors are what the server refuses to start with. */
export function loadAuditPolicy(path: string): AuditPolicy {
  if (!path) throw new Error('file path not specified');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`failed to read file path "${path}": ${(err as Error).message}`);
  }
  try {
    return parseAuditPolicy(text);
  } catch (err) {
    throw new Error(`${(err as Error).message}: from file ${path}`);
  }
}
