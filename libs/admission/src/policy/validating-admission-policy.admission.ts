/**
 * ValidatingAdmissionPolicy (kube's k8s.io/apiserver/pkg/admission/plugin/policy/validating): every binding of a
 * policy whose constraints and matchResources select the request evaluates the policy's CEL validations, once
 * per parameter object, and applies its validationActions (Deny: the request fails with kube's message and the
 * validation's reason; Warn: a `Warning` header; Audit: recorded nowhere yet). Policies and bindings are
 * compiled once per change and their pairs indexed by rule key, so a request nothing selects costs a map lookup.
 */
import { Errors, LabelSelector, StatusError, type KubeObject, type StatusReason } from '@kube/apimachinery';
import type { AdmissionAttributes, AdmissionPlugin } from '../admission.types';
import { celValue, compileExpression, evaluationError, type Activation, type CompiledExpression } from '../cel/admission.cel';
import type { AdmissionSources } from '../configuration/admission.sources';
import { compileMatchConditions, evaluateMatchConditions, type CompiledMatchCondition } from '../matching/match-conditions';
import { matchesNamespaceSelector, matchesObjectSelector, namespaceObject, selectorOf } from '../matching/object.matcher';
import { isExemptAdmissionConfiguration, namedRuleMatches, ruleKey, ruleRequest, type RuleRequest } from '../matching/rule.matcher';
import type { MatchResources, NamedRuleWithOperations, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding, ValidationAction } from '../registration/admissionregistration.types';
import { admissionRequest } from '../webhook/admission-review';

const REASON_CODES: Record<string, number> = { Unauthorized: 401, Forbidden: 403, Invalid: 422, RequestEntityTooLarge: 413 };

/** A policy's or binding's match constraints, compiled. */
class CompiledMatch {
  readonly rules: readonly NamedRuleWithOperations[];
  readonly exclude: readonly NamedRuleWithOperations[];
  readonly namespaceSelector?: LabelSelector;
  readonly objectSelector?: LabelSelector;

  constructor(m: MatchResources | undefined) {
    this.rules = m?.resourceRules ?? [];
    this.exclude = m?.excludeResourceRules ?? [];
    this.namespaceSelector = selectorOf(m?.namespaceSelector);
    this.objectSelector = selectorOf(m?.objectSelector);
  }

  /** The rule part (cacheable per rule key, except resourceNames, checked per request). */
  mayMatch(r: RuleRequest, constrainsWhenEmpty: boolean): boolean {
    if (this.rules.length === 0) return !constrainsWhenEmpty;
    return this.rules.some((rule) => namedRuleMatches({ ...rule, resourceNames: [] }, r, ''));
  }

  async matches(a: AdmissionAttributes, r: RuleRequest, sources: AdmissionSources): Promise<boolean> {
    if (this.rules.length && !this.rules.some((rule) => namedRuleMatches(rule, r, a.name))) return false;
    if (this.exclude.some((rule) => namedRuleMatches(rule, r, a.name))) return false;
    return matchesObjectSelector(this.objectSelector, a) && (await matchesNamespaceSelector(this.namespaceSelector, a, sources));
  }
}

interface CompiledValidation {
  expression: CompiledExpression;
  message?: string;
  messageExpression?: CompiledExpression;
  reason?: string;
}

class CompiledPolicy {
  readonly name: string;
  readonly ignoreFailures: boolean;
  readonly match: CompiledMatch;
  readonly conditions: CompiledMatchCondition[];
  readonly variables: Array<{ name: string; expression: CompiledExpression }>;
  readonly validations: CompiledValidation[];
  readonly paramKind?: { apiVersion: string; kind: string };

  constructor(policy: ValidatingAdmissionPolicy) {
    const spec = policy.spec ?? {};
    this.name = policy.metadata.name ?? '';
    this.ignoreFailures = spec.failurePolicy === 'Ignore';
    this.match = new CompiledMatch(spec.matchConstraints);
    this.conditions = compileMatchConditions(spec.matchConditions);
    this.variables = (spec.variables ?? []).map((v) => ({ name: v.name, expression: compileExpression(v.expression, 'dyn') }));
    this.validations = (spec.validations ?? []).map((v) => ({
      expression: compileExpression(v.expression, 'bool'),
      message: v.message,
      messageExpression: v.messageExpression ? compileExpression(v.messageExpression, 'string') : undefined,
      reason: v.reason,
    }));
    if (spec.paramKind?.kind) this.paramKind = { apiVersion: spec.paramKind.apiVersion ?? 'v1', kind: spec.paramKind.kind };
  }
}

interface PolicyBinding {
  policy: CompiledPolicy;
  binding: ValidatingAdmissionPolicyBinding;
  name: string;
  match?: CompiledMatch;
  actions: ReadonlySet<ValidationAction>;
}

/** One policy decision that did not admit: why, and with which reason. */
interface Decision {
  message: string;
  reason: string;
}

/** kube's policy validator: match conditions, variables, then each validation. */
function evaluate(policy: CompiledPolicy, vars: Activation): { skipped: true } | { skipped: false; decisions: Decision[] } {
  const conditions = evaluateMatchConditions(policy.conditions, () => vars);
  if (!conditions.matches && !conditions.error) return { skipped: true };
  if (conditions.error) return policy.ignoreFailures ? { skipped: true } : { skipped: false, decisions: [{ message: conditions.error, reason: 'Invalid' }] };
  const variables = new Map<string, unknown>();
  vars.variables = variables;
  for (const v of policy.variables) {
    if (!v.expression.ok) continue;
    try {
      variables.set(v.name, v.expression.evaluate(vars));
    } catch {
      // an unusable variable fails the expressions that read it
    }
  }
  const decisions: Decision[] = [];
  for (const v of policy.validations) {
    const failure = (message: string): void => {
      if (!policy.ignoreFailures) decisions.push({ message, reason: 'Invalid' });
    };
    if (!v.expression.ok) {
      failure(`compilation error: ${v.expression.error}`);
      continue;
    }
    let result: unknown;
    try {
      result = v.expression.evaluate(vars);
    } catch (err) {
      failure(`expression '${v.expression.source.trim()}' resulted in error: ${evaluationError(err)}`);
      continue;
    }
    if (result === true) continue;
    if (result !== false) {
      failure(`expression '${v.expression.source.trim()}' resulted in error: no such overload`);
      continue;
    }
    decisions.push({ message: validationMessage(v, vars), reason: v.reason || 'Invalid' });
  }
  return { skipped: false, decisions };
}

/** messageExpression when it yields a usable string, else message, else kube's "failed expression: …". */
function validationMessage(v: CompiledValidation, vars: Activation): string {
  if (v.messageExpression?.ok) {
    try {
      const m = v.messageExpression.evaluate(vars);
      if (typeof m === 'string' && m.trim() !== '' && !m.includes('\n')) return m.trim();
    } catch {
      // kube falls back to message
    }
  }
  return v.message?.trim() || `failed expression: ${v.expression.source.trim()}`;
}

export class ValidatingAdmissionPolicyAdmission implements AdmissionPlugin {
  readonly name = 'ValidatingAdmissionPolicy';
  private generation = '';
  private pairs: PolicyBinding[] = [];
  private readonly byRule = new Map<string, PolicyBinding[]>();

  constructor(private readonly sources: AdmissionSources) {}

  async validate(a: AdmissionAttributes): Promise<void> {
    if (isExemptAdmissionConfiguration(a.resource.group, a.resource.plural)) return;
    const ready = this.sources.ready(a);
    if (ready) await ready;
    const r = ruleRequest(a);
    const candidates = this.candidates(r);
    if (candidates.length === 0) return;
    let base: Activation | undefined;
    const denied: Array<{ pair: PolicyBinding; decision: Decision }> = [];
    for (const pair of candidates) {
      if (!(await pair.policy.match.matches(a, r, this.sources))) continue;
      if (pair.match && !(await pair.match.matches(a, r, this.sources))) continue;
      base ??= await this.activation(a);
      for (const decision of await this.decide(pair, a, base)) {
        if (pair.actions.has('Deny')) denied.push({ pair, decision });
        if (pair.actions.has('Warn')) a.ctx.warnings.push(`Validation failed for ValidatingAdmissionPolicy '${pair.policy.name}' with binding '${pair.name}': ${decision.message}`);
      }
    }
    if (denied.length) throw this.denial(a, denied[0].pair, denied[0].decision);
  }

  /** The pairs whose rules can select this request (resourceNames and selectors are checked per request). */
  private candidates(r: RuleRequest): readonly PolicyBinding[] {
    const policies = this.sources.set('validatingadmissionpolicies');
    const bindings = this.sources.set('validatingadmissionpolicybindings');
    const generation = `${policies.generation}/${bindings.generation}`;
    if (generation !== this.generation) {
      this.generation = generation;
      this.byRule.clear();
      const compiled = new Map(policies.list().map((p) => [p.metadata.name ?? '', new CompiledPolicy(p as ValidatingAdmissionPolicy)]));
      this.pairs = bindings.list().flatMap((obj) => {
        const b = obj as ValidatingAdmissionPolicyBinding;
        const policy = compiled.get(b.spec?.policyName ?? '');
        if (!policy) return [];
        return [{ policy, binding: b, name: b.metadata.name ?? '', match: b.spec?.matchResources ? new CompiledMatch(b.spec.matchResources) : undefined, actions: new Set(b.spec?.validationActions ?? []) }];
      });
    }
    if (this.pairs.length === 0) return this.pairs;
    const key = ruleKey(r);
    let found = this.byRule.get(key);
    if (!found) {
      found = this.pairs.filter((p) => p.policy.match.mayMatch(r, true) && (!p.match || p.match.mayMatch(r, false)));
      this.byRule.set(key, found);
    }
    return found;
  }

  private async activation(a: AdmissionAttributes): Promise<Activation> {
    const ns = await namespaceObject(a, this.sources);
    return {
      object: celValue(a.object ?? null),
      oldObject: celValue(a.oldObject ?? null),
      request: celValue(admissionRequest(a, '')),
      namespaceObject: celValue(ns ?? null),
      authorizer: null,
      params: null,
    };
  }

  /** The decisions of one binding: per parameter object, or a configuration failure under the failurePolicy. */
  private async decide(pair: PolicyBinding, a: AdmissionAttributes, base: Activation): Promise<Decision[]> {
    const { policy } = pair;
    let params: Array<KubeObject | null> = [null];
    if (policy.paramKind) {
      const found = await this.params(pair, a);
      if (typeof found === 'string') return policy.ignoreFailures ? [] : [{ message: found, reason: 'Invalid' }];
      params = found;
    }
    const decisions: Decision[] = [];
    for (const param of params) {
      const result = evaluate(policy, { ...base, params: celValue(param) });
      if (!result.skipped) decisions.push(...result.decisions);
    }
    return decisions;
  }

  /** The binding's parameter objects, or why there are none that may be used. */
  private async params(pair: PolicyBinding, a: AdmissionAttributes): Promise<KubeObject[] | string> {
    const kind = pair.policy.paramKind!;
    const ref = pair.binding.spec?.paramRef;
    if (!ref) return `failed to configure binding: no paramRef specified for binding '${pair.name}'`;
    const namespace = ref.namespace || a.namespace;
    let found: KubeObject[];
    if (ref.name) {
      const one = await this.sources.param(kind.apiVersion, kind.kind, namespace, ref.name);
      found = one ? [one] : [];
    } else found = await this.sources.params(kind.apiVersion, kind.kind, namespace, selectorOf(ref.selector) ?? LabelSelector.everything());
    if (found.length === 0) {
      if (ref.parameterNotFoundAction === 'Allow') return [];
      return 'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction';
    }
    return found;
  }

  /** kube's denial: a Forbidden-worded Status carrying the validation's reason and its code. */
  private denial(a: AdmissionAttributes, pair: PolicyBinding, decision: Decision): StatusError {
    const message = `ValidatingAdmissionPolicy '${pair.policy.name}' with binding '${pair.name}' denied request: ${decision.message}`;
    const forbidden = Errors.forbidden({ group: a.resource.group, resource: a.resource.plural }, a.name, message);
    const reason = decision.reason as StatusReason;
    return new StatusError(REASON_CODES[reason] ?? 422, reason, forbidden.message, { ...forbidden.status.details, causes: [{ message }] });
  }
}

