/** kube's defaulting of admissionregistration.k8s.io/v1 (pkg/apis/admissionregistration/v1/defaults.go). */
import type { KubeObject } from '@kube/apimachinery';
import type { MatchResources, Rule, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding, Webhook, WebhookConfiguration } from './admissionregistration.types';

function defaultRules(rules: Rule[] | undefined): void {
  for (const r of rules ?? []) r.scope ??= '*';
}

function defaultWebhook(hook: Webhook, mutating: boolean): void {
  hook.failurePolicy ??= 'Fail';
  hook.matchPolicy ??= 'Equivalent';
  hook.namespaceSelector ??= {};
  hook.objectSelector ??= {};
  hook.timeoutSeconds ??= 10;
  if (mutating) hook.reinvocationPolicy ??= 'Never';
  if (hook.clientConfig?.service) hook.clientConfig.service.port ??= 443;
  defaultRules(hook.rules);
}

export function defaultWebhookConfiguration(mutating: boolean): (obj: KubeObject) => void {
  return (obj) => {
    for (const hook of (obj as WebhookConfiguration).webhooks ?? []) if (hook && typeof hook === 'object') defaultWebhook(hook, mutating);
  };
}

function defaultMatchResources(m: MatchResources | undefined): void {
  if (!m) return;
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  defaultRules(m.resourceRules);
  defaultRules(m.excludeResourceRules);
}

export function defaultValidatingAdmissionPolicy(obj: KubeObject): void {
  const spec = (obj as ValidatingAdmissionPolicy).spec;
  if (!spec) return;
  spec.failurePolicy ??= 'Fail';
  defaultMatchResources(spec.matchConstraints);
}

export function defaultValidatingAdmissionPolicyBinding(obj: KubeObject): void {
  const spec = (obj as ValidatingAdmissionPolicyBinding).spec;
  if (!spec) return;
  defaultMatchResources(spec.matchResources);
  if (spec.paramRef) spec.paramRef.parameterNotFoundAction ??= 'Deny';
}
