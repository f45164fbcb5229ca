/**
 * admissionregistration.k8s.io/v1: webhook configurations, ValidatingAdmissionPolicies and their bindings. The
 * defaults, validation and the admission they configure are @kube/admission's; these are their REST definitions.
 */
import type { KubeObject } from '@kube/apimachinery';
import { statusSubresource, type ResourceDefinition } from '@kube/apiserver';
import {
  ADMISSION_REGISTRATION_GROUP,
  defaultValidatingAdmissionPolicy,
  defaultValidatingAdmissionPolicyBinding,
  defaultWebhookConfiguration,
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
  validateWebhookConfiguration,
  type ValidatingAdmissionPolicy,
  type ValidatingAdmissionPolicyBinding,
  type WebhookConfiguration,
} from '@kube/admission';

function webhookConfigurationResource(mutating: boolean): ResourceDefinition {
  const kind = mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
  const validate = validateWebhookConfiguration(mutating);
  return {
    group: ADMISSION_REGISTRATION_GROUP,
    version: 'v1',
    kind,
    plural: `${kind.toLowerCase()}s`,
    singular: kind.toLowerCase(),
    namespaced: false,
    tracksGeneration: true,
    categories: ['api-extensions'],
    // kube's key layout: /registry/<resource>/<name>
    storagePrefix: `${kind.toLowerCase()}s`,
    strategy: { default: defaultWebhookConfiguration(mutating), validate, validateUpdate: validate, allowCreateOnUpdate: false },
    tableColumns: [{ name: 'Webhooks', type: 'integer', description: 'Webhooks is a list of webhooks and the affected resources and operations.', cell: (obj: KubeObject) => ((obj as WebhookConfiguration).webhooks ?? []).length }],
  };
}

export const mutatingWebhookConfigurationsResource = webhookConfigurationResource(true);
export const validatingWebhookConfigurationsResource = webhookConfigurationResource(false);

export const validatingAdmissionPoliciesResource: ResourceDefinition = {
  tracksGeneration: true,
  group: ADMISSION_REGISTRATION_GROUP,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicy',
  plural: 'validatingadmissionpolicies',
  singular: 'validatingadmissionpolicy',
  namespaced: false,
  categories: ['api-extensions'],
  storagePrefix: 'validatingadmissionpolicies',
  subresources: { status: statusSubresource() },
  strategy: {
    allowCreateOnUpdate: false,
    default: defaultValidatingAdmissionPolicy,
    validate: validateValidatingAdmissionPolicy,
    validateUpdate: validateValidatingAdmissionPolicy,
  },
  tableColumns: [
    { name: 'Validations', type: 'integer', description: 'Validations contain CEL expressions which is used to apply the validation.', cell: (obj: KubeObject) => ((obj as ValidatingAdmissionPolicy).spec?.validations ?? []).length },
    { name: 'ParamKind', type: 'string', description: 'ParamKind specifies the kind of resources used to parameterize this policy', cell: (obj: KubeObject) => paramKind(obj as ValidatingAdmissionPolicy) },
  ],
};

function paramKind(p: ValidatingAdmissionPolicy): string {
  const k = p.spec?.paramKind;
  return k ? `${k.apiVersion ?? ''}/${k.kind ?? ''}` : '<unset>';
}

export const validatingAdmissionPolicyBindingsResource: ResourceDefinition = {
  tracksGeneration: true,
  group: ADMISSION_REGISTRATION_GROUP,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  plural: 'validatingadmissionpolicybindings',
  singular: 'validatingadmissionpolicybinding',
  namespaced: false,
  categories: ['api-extensions'],
  storagePrefix: 'validatingadmissionpolicybindings',
  strategy: { default: defaultValidatingAdmissionPolicyBinding, validate: validateValidatingAdmissionPolicyBinding, validateUpdate: validateValidatingAdmissionPolicyBinding, allowCreateOnUpdate: false },
  tableColumns: [
    { name: 'PolicyName', type: 'string', description: 'PolicyName references a ValidatingAdmissionPolicy name which the ValidatingAdmissionPolicyBinding binds to.', cell: (obj: KubeObject) => (obj as ValidatingAdmissionPolicyBinding).spec?.policyName ?? '' },
    { name: 'ParamRef', type: 'string', description: 'paramRef specifies the parameter resource used to configure the admission control policy.', cell: (obj: KubeObject) => paramRef(obj as ValidatingAdmissionPolicyBinding) },
  ],
};

function paramRef(b: ValidatingAdmissionPolicyBinding): string {
  const r = b.spec?.paramRef;
  if (!r) return '<unset>';
  return r.name ? `${r.namespace ? `${r.namespace}/` : ''}${r.name}` : '*/*';
}

export const admissionRegistrationResources: ResourceDefinition[] = [
  mutatingWebhookConfigurationsResource,
  validatingWebhookConfigurationsResource,
  validatingAdmissionPoliciesResource,
  validatingAdmissionPolicyBindingsResource,
];
