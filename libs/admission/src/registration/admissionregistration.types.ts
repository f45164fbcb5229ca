/** admissionregistration.k8s.io/v1 objects as the admission machinery reads them (kube's k8s.io/api/admissionregistration/v1). */
import type { KubeObject, MetaV1LabelSelector } from '@kube/apimachinery';
import type { WebhookClientConfig } from '../webhook/webhook.client';

export const ADMISSION_REGISTRATION_GROUP = 'admissionregistration.k8s.io';

export type FailurePolicy = 'Fail' | 'Ignore';
export type MatchPolicy = 'Exact' | 'Equivalent';
export type SideEffectClass = 'None' | 'NoneOnDryRun' | 'Some' | 'Unknown';
export type ReinvocationPolicy = 'Never' | 'IfNeeded';
export type RuleScope = '*' | 'Cluster' | 'Namespaced';
export type ValidationAction = 'Deny' | 'Warn' | 'Audit';

export interface Rule {
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: RuleScope;
}

export interface RuleWithOperations extends Rule {
  operations?: string[];
}

export interface NamedRuleWithOperations extends RuleWithOperations {
  resourceNames?: string[];
}

export interface MatchCondition {
  name: string;
  expression: string;
}

export interface Webhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: FailurePolicy;
  matchPolicy?: MatchPolicy;
  namespaceSelector?: MetaV1LabelSelector;
  objectSelector?: MetaV1LabelSelector;
  sideEffects?: SideEffectClass;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  matchConditions?: MatchCondition[];
  /** Mutating webhooks only. */
  reinvocationPolicy?: ReinvocationPolicy;
}

export interface WebhookConfiguration extends KubeObject {
  webhooks?: Webhook[];
}

export interface MatchResources {
  namespaceSelector?: MetaV1LabelSelector;
  objectSelector?: MetaV1LabelSelector;
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  matchPolicy?: MatchPolicy;
}

export interface Validation {
  expression: string;
  message?: string;
  reason?: string;
  messageExpression?: string;
}

export interface AuditAnnotation {
  key: string;
  valueExpression: string;
}

export interface Variable {
  name: string;
  expression: string;
}

export interface ValidatingAdmissionPolicy extends KubeObject {
  spec?: {
    paramKind?: { apiVersion?: string; kind?: string };
    matchConstraints?: MatchResources;
    validations?: Validation[];
    failurePolicy?: FailurePolicy;
    auditAnnotations?: AuditAnnotation[];
    matchConditions?: MatchCondition[];
    variables?: Variable[];
  };
  status?: {
    observedGeneration?: number;
    typeChecking?: { expressionWarnings?: Array<{ fieldRef: string; warning: string }> };
    conditions?: unknown[];
  };
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: MetaV1LabelSelector;
  parameterNotFoundAction?: 'Allow' | 'Deny';
}

export interface ValidatingAdmissionPolicyBinding extends KubeObject {
  spec?: {
    policyName?: string;
    paramRef?: ParamRef;
    matchResources?: MatchResources;
    validationActions?: ValidationAction[];
  };
}
