import { describe, expect, it } from 'vitest';
import type { FieldError, KubeObject } from '@kube/apimachinery';
import { defaultValidatingAdmissionPolicyBinding, defaultWebhookConfiguration } from './admissionregistration.defaults';
import { validateValidatingAdmissionPolicy, validateValidatingAdmissionPolicyBinding, validateWebhookConfiguration } from './admissionregistration.validation';

const messages = (errs: FieldError[]): string[] => errs.map((e) => e.toString());
const hook = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'hook.example.com',
  clientConfig: { url: 'https://hook.example.com/validate' },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...over,
});
const config = (...webhooks: Array<Record<string, unknown>>): KubeObject => ({ metadata: { name: 'c' }, webhooks });

describe('admissionregistration.k8s.io/v1 defaults and validation', () => {
  it("defaults webhooks as kube's v1 defaults.go", () => {
    const obj = config(hook({ clientConfig: { service: { namespace: 'ns', name: 'svc' } } }));
    defaultWebhookConfiguration(true)(obj);
    expect((obj.webhooks as unknown[])[0]).toMatchObject({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      reinvocationPolicy: 'Never',
      clientConfig: { service: { port: 443 } },
      rules: [{ scope: '*' }],
    });
    const binding: KubeObject = { metadata: { name: 'b' }, spec: { policyName: 'p', paramRef: { name: 'x' }, matchResources: {}, validationActions: ['Deny'] } };
    defaultValidatingAdmissionPolicyBinding(binding);
    expect(binding.spec).toMatchObject({ paramRef: { parameterNotFoundAction: 'Deny' }, matchResources: { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} } });
  });

  it('accepts a valid configuration', () => {
    expect(validateWebhookConfiguration(false)(config(hook()))).toEqual([]);
  });

  it("refuses what kube's validation refuses, with its messages", () => {
    const errs = messages(
      validateWebhookConfiguration(true)(
        config(
          hook({ name: 'short', sideEffects: undefined, admissionReviewVersions: ['v2'], timeoutSeconds: 0, reinvocationPolicy: 'Always', clientConfig: {} }),
          hook({ rules: [{ operations: ['CREATE', '*'], apiGroups: [], apiVersions: ['v1'], resources: ['a/b/c'] }], matchConditions: [{ name: 'c', expression: 'object.' }] }),
          hook(),
        ),
      ),
    );
    expect(errs).toEqual(
      expect.arrayContaining([
        'webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
        'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
        'webhooks[0].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1',
        'webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds',
        'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
        'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
        "webhooks[1].rules[0].operations: Invalid value: [\"CREATE\",\"*\"]: if '*' is present, must not specify other operations",
        'webhooks[1].rules[0].apiGroups: Required value',
        'webhooks[1].rules[0].resources[0]: Invalid value: "a/b/c": must be of the form <resource>, <resource>/<subresource>, or <resource>/*',
        'webhooks[2].name: Duplicate value: "hook.example.com"',
      ]),
    );
    expect(errs.find((e) => e.startsWith('webhooks[1].matchConditions[0].expression: Invalid value: "object.": compilation failed: ERROR: <input>:1:'))).toBeDefined();
  });

  it('validates policies and bindings', () => {
    expect(messages(validateValidatingAdmissionPolicy({ metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: [] }, validations: [{ expression: "'a'" }] } }))).toEqual([
      'spec.matchConstraints.resourceRules: Required value',
      'spec.validations[0].expression: Invalid value: "\'a\'": must evaluate to bool',
    ]);
    expect(messages(validateValidatingAdmissionPolicyBinding({ metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny', 'Warn'] } }))).toEqual([
      'spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ]);
    expect(messages(validateValidatingAdmissionPolicyBinding({ metadata: { name: 'b' }, spec: { policyName: 'p' } }))).toEqual(['spec.validationActions: Required value: at least one validation action is required']);
  });
});
