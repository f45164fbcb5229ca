/** kube's validation of admissionregistration.k8s.io/v1 (pkg/apis/admissionregistration/validation), its common cases. */
import { FieldError, isDNS1123Subdomain, isQualifiedName, type KubeObject } from '@kube/apimachinery';
import { compileExpression } from '../cel/admission.cel';
import type { MatchCondition, MatchResources, NamedRuleWithOperations, RuleWithOperations, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding, Webhook, WebhookConfiguration } from './admissionregistration.types';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const SIDE_EFFECTS_V1 = ['None', 'NoneOnDryRun'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const REVIEW_VERSIONS = ['v1', 'v1beta1'];
const VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'];
const REASONS = ['Unauthorized', 'Forbidden', 'Invalid', 'RequestEntityTooLarge'];

function supported(errs: FieldError[], path: string, value: string | undefined, allowed: string[]): void {
  if (value !== undefined && !allowed.includes(value)) errs.push(FieldError.notSupported(path, value, allowed));
}

function validateRule(rule: RuleWithOperations | NamedRuleWithOperations, path: string, errs: FieldError[]): void {
  const list = (name: 'apiGroups' | 'apiVersions' | 'resources' | 'operations'): string[] => rule[name] ?? [];
  for (const name of ['operations', 'apiGroups', 'apiVersions', 'resources'] as const) {
    const values = list(name);
    if (values.length === 0) errs.push(FieldError.required(`${path}.${name}`, ''));
    else if (values.length > 1 && values.includes('*')) errs.push(FieldError.invalid(`${path}.${name}`, values, "if '*' is present, must not specify other " + (name === 'operations' ? 'operations' : name === 'apiGroups' ? 'API groups' : name === 'apiVersions' ? 'API versions' : 'resources')));
  }
  list('operations').forEach((op, i) => supported(errs, `${path}.operations[${i}]`, op, OPERATIONS));
  list('resources').forEach((r, i) => {
    if (r === '') errs.push(FieldError.required(`${path}.resources[${i}]`, ''));
    else if (r.split('/').length > 2) errs.push(FieldError.invalid(`${path}.resources[${i}]`, r, 'must be of the form <resource>, <resource>/<subresource>, or <resource>/*'));
  });
  supported(errs, `${path}.scope`, rule.scope, SCOPES);
}

function validateMatchConditions(conditions: MatchCondition[] | undefined, path: string, errs: FieldError[]): void {
  const names = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const p = `${path}[${i}]`;
    if (!c.name) errs.push(FieldError.required(`${p}.name`, ''));
    else {
      for (const msg of isQualifiedName(c.name)) errs.push(FieldError.invalid(`${p}.name`, c.name, msg));
      if (names.has(c.name)) errs.push(FieldError.duplicate(`${p}.name`, c.name));
      names.add(c.name);
    }
    validateExpression(c.expression, 'bool', `${p}.expression`, errs);
  });
  if ((conditions ?? []).length > 64) errs.push(FieldError.tooMany(path, conditions!.length, 64));
}

function validateExpression(expression: string | undefined, returns: 'bool' | 'string' | 'dyn', path: string, errs: FieldError[]): void {
  if (!expression) {
    errs.push(FieldError.required(path, ''));
    return;
  }
  const compiled = compileExpression(expression, returns);
  if (!compiled.ok) errs.push(FieldError.invalid(path, expression, compiled.error));
}

function validateClientConfig(hook: Webhook, path: string, errs: FieldError[]): void {
  const cc = hook.clientConfig ?? {};
  if (!!cc.url === !!cc.service) {
    errs.push(FieldError.required(`${path}.clientConfig`, 'exactly one of url or service is required'));
    return;
  }
  if (cc.url) {
    let url: URL | undefined;
    try {
      url = new URL(cc.url);
    } catch {
      errs.push(FieldError.invalid(`${path}.clientConfig.url`, cc.url, 'host must be specified'));
    }
    if (url && url.protocol !== 'https:') errs.push(FieldError.invalid(`${path}.clientConfig.url`, cc.url, "'https' is the only allowed URL scheme"));
    if (url && (url.username || url.password)) errs.push(FieldError.invalid(`${path}.clientConfig.url`, cc.url, 'user information is not permitted in the URL'));
    if (url && (url.hash || url.search)) errs.push(FieldError.invalid(`${path}.clientConfig.url`, cc.url, 'fragments and query parameters are not permitted'));
  }
  const svc = cc.service;
  if (svc) {
    if (!svc.name) errs.push(FieldError.required(`${path}.clientConfig.service.name`, 'service name is required'));
    if (!svc.namespace) errs.push(FieldError.required(`${path}.clientConfig.service.namespace`, 'service namespace is required'));
    if (svc.port !== undefined && (svc.port < 1 || svc.port > 65535)) errs.push(FieldError.invalid(`${path}.clientConfig.service.port`, svc.port, 'port is not valid: must be between 1 and 65535, inclusive'));
    if (svc.path !== undefined && svc.path !== '' && !svc.path.startsWith('/')) errs.push(FieldError.invalid(`${path}.clientConfig.service.path`, svc.path, "must start with a '/'"));
  }
}

function validateWebhook(hook: Webhook, path: string, mutating: boolean, errs: FieldError[]): void {
  const segments = (hook.name ?? '').split('.');
  if (!hook.name) errs.push(FieldError.required(`${path}.name`, ''));
  else {
    if (segments.length < 3) errs.push(FieldError.invalid(`${path}.name`, hook.name, 'should be a domain with at least three segments separated by dots'));
    for (const msg of isDNS1123Subdomain(hook.name)) errs.push(FieldError.invalid(`${path}.name`, hook.name, msg));
  }
  (hook.rules ?? []).forEach((r, i) => validateRule(r, `${path}.rules[${i}]`, errs));
  supported(errs, `${path}.failurePolicy`, hook.failurePolicy, FAILURE_POLICIES);
  supported(errs, `${path}.matchPolicy`, hook.matchPolicy, MATCH_POLICIES);
  if (!hook.sideEffects) errs.push(FieldError.required(`${path}.sideEffects`, `must specify one of ${SIDE_EFFECTS_V1.join(', ')}`));
  else supported(errs, `${path}.sideEffects`, hook.sideEffects, SIDE_EFFECTS_V1);
  if (hook.timeoutSeconds !== undefined && (hook.timeoutSeconds < 1 || hook.timeoutSeconds > 30)) errs.push(FieldError.invalid(`${path}.timeoutSeconds`, hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  const versions = hook.admissionReviewVersions ?? [];
  if (versions.length === 0) errs.push(FieldError.required(`${path}.admissionReviewVersions`, `must specify one of ${REVIEW_VERSIONS.join(', ')}`));
  else if (!versions.some((v) => REVIEW_VERSIONS.includes(v))) errs.push(FieldError.invalid(`${path}.admissionReviewVersions`, versions, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  if (mutating) supported(errs, `${path}.reinvocationPolicy`, hook.reinvocationPolicy, REINVOCATION_POLICIES);
  validateMatchConditions(hook.matchConditions, `${path}.matchConditions`, errs);
  validateClientConfig(hook, path, errs);
}

export function validateWebhookConfiguration(mutating: boolean): (obj: KubeObject) => FieldError[] {
  return (obj) => {
    const errs: FieldError[] = [];
    const names = new Set<string>();
    ((obj as WebhookConfiguration).webhooks ?? []).forEach((hook, i) => {
      const path = `webhooks[${i}]`;
      validateWebhook(hook, path, mutating, errs);
      if (hook.name && names.has(hook.name)) errs.push(FieldError.duplicate(`${path}.name`, hook.name));
      names.add(hook.name);
    });
    return errs;
  };
}

function validateMatchResources(m: MatchResources | undefined, path: string, errs: FieldError[], requireRules: boolean): void {
  if (!m) {
    if (requireRules) errs.push(FieldError.required(path, ''));
    return;
  }
  supported(errs, `${path}.matchPolicy`, m.matchPolicy, MATCH_POLICIES);
  if (requireRules && (m.resourceRules ?? []).length === 0) errs.push(FieldError.required(`${path}.resourceRules`, ''));
  (m.resourceRules ?? []).forEach((r, i) => validateRule(r, `${path}.resourceRules[${i}]`, errs));
  (m.excludeResourceRules ?? []).forEach((r, i) => validateRule(r, `${path}.excludeResourceRules[${i}]`, errs));
}

export function validateValidatingAdmissionPolicy(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = (obj as ValidatingAdmissionPolicy).spec;
  if (!spec) return [FieldError.required('spec', '')];
  if (spec.paramKind) {
    if (!spec.paramKind.apiVersion) errs.push(FieldError.required('spec.paramKind.apiVersion', ''));
    if (!spec.paramKind.kind) errs.push(FieldError.required('spec.paramKind.kind', ''));
  }
  validateMatchResources(spec.matchConstraints, 'spec.matchConstraints', errs, true);
  if ((spec.validations ?? []).length === 0 && (spec.auditAnnotations ?? []).length === 0) errs.push(FieldError.required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
  supported(errs, 'spec.failurePolicy', spec.failurePolicy, FAILURE_POLICIES);
  validateMatchConditions(spec.matchConditions, 'spec.matchConditions', errs);
  (spec.variables ?? []).forEach((v, i) => {
    if (!v.name) errs.push(FieldError.required(`spec.variables[${i}].name`, ''));
    validateExpression(v.expression, 'dyn', `spec.variables[${i}].expression`, errs);
  });
  (spec.validations ?? []).forEach((v, i) => {
    const p = `spec.validations[${i}]`;
    validateExpression(v.expression, 'bool', `${p}.expression`, errs);
    if (v.messageExpression) validateExpression(v.messageExpression, 'string', `${p}.messageExpression`, errs);
    if (v.message?.includes('\n')) errs.push(FieldError.invalid(`${p}.message`, v.message, 'message must not contain line breaks'));
    supported(errs, `${p}.reason`, v.reason, REASONS);
  });
  (spec.auditAnnotations ?? []).forEach((a, i) => {
    const p = `spec.auditAnnotations[${i}]`;
    if (!a.key) errs.push(FieldError.required(`${p}.key`, ''));
    validateExpression(a.valueExpression, 'dyn', `${p}.valueExpression`, errs);
  });
  return errs;
}

export function validateValidatingAdmissionPolicyBinding(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = (obj as ValidatingAdmissionPolicyBinding).spec;
  if (!spec) return [FieldError.required('spec', '')];
  if (!spec.policyName) errs.push(FieldError.required('spec.policyName', ''));
  const ref = spec.paramRef;
  if (ref) {
    if (ref.name && ref.selector) errs.push(FieldError.forbidden('spec.paramRef.name', 'name and selector are mutually exclusive'));
    if (!ref.name && !ref.selector) errs.push(FieldError.required('spec.paramRef', 'one of name or selector must be specified'));
    supported(errs, 'spec.paramRef.parameterNotFoundAction', ref.parameterNotFoundAction, ['Allow', 'Deny']);
  }
  validateMatchResources(spec.matchResources, 'spec.matchResources', errs, false);
  const actions = spec.validationActions ?? [];
  if (actions.length === 0) errs.push(FieldError.required('spec.validationActions', 'at least one validation action is required'));
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    supported(errs, `spec.validationActions[${i}]`, a, VALIDATION_ACTIONS);
    if (seen.has(a)) errs.push(FieldError.duplicate(`spec.validationActions[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) errs.push(FieldError.invalid('spec.validationActions', actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  return errs;
}
