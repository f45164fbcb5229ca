import { FieldError } from '@kube/apimachinery';
import { validateCustomResourceDefinitionSchema, validateStructuralSchema } from '@kube/apiextensions';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { copy, create, cronTab, messages, multiVersion, scalable, stored, update } from './crd.testing';
import { validateSelectableFields } from './crd-version-fields.validation';
import { validateCustomResourceDefinitionStatusUpdate } from './crd.validation';
import { customResourceDefinitionsResource as crds } from './customresourcedefinitions.resource';

vi.mock('@kube/apiextensions', () => ({ validateStructuralSchema: vi.fn(() => []), validateCustomResourceDefinitionSchema: vi.fn(() => []) }));

const structural = vi.mocked(validateStructuralSchema);
const openAPI = vi.mocked(validateCustomResourceDefinitionSchema);
const schemaPaths = (): unknown[] => structural.mock.calls.map((call) => call[1]);

describe('CRD validation', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    structural.mockReturnValue([]);
    openAPI.mockReturnValue([]);
  });

  describe('schemas', () => {
    it('are checked at spec.validation when every version shares one (kube hoists it)', () => {
      const crd = multiVersion();
      crd.spec.versions[0].schema = structuredClone(crd.spec.versions[1].schema);
      expect(create(crds, crd)).toEqual([]);
      expect(schemaPaths()).toEqual(['spec.validation.openAPIV3Schema']);
      expect(openAPI.mock.calls.map((call) => call[1])).toEqual(['spec.validation.openAPIV3Schema']);
    });

    it('are checked per version when they differ', () => {
      expect(create(crds, multiVersion())).toEqual([]);
      expect(schemaPaths()).toEqual(['spec.versions[0].schema.openAPIV3Schema', 'spec.versions[1].schema.openAPIV3Schema']);
    });

    it('reports the library errors after the CRD-level root checks', () => {
      structural.mockReturnValue([FieldError.required('spec.validation.openAPIV3Schema.properties[spec].type', 'must not be empty for specified object fields')]);
      openAPI.mockReturnValue([FieldError.forbidden('spec.validation.openAPIV3Schema.uniqueItems', 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic')]);
      const crd = cronTab();
      const schema = crd.spec.versions[0].schema?.openAPIV3Schema;
      if (schema) schema.nullable = true;
      expect(messages(create(crds, crd))).toEqual([
        'spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root',
        'spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
        'spec.validation.openAPIV3Schema.uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ]);
    });

    it('allow only object-ish keywords at the root when /status is enabled', () => {
      const crd = scalable();
      const schema = crd.spec.versions[0].schema?.openAPIV3Schema;
      if (schema) schema.anyOf = [{ required: ['spec'] }];
      const errs = create(crds, crd);
      expect(errs.map((e) => `${e.field}: ${e.detail}`)).toEqual([
        'spec.validation.openAPIV3Schema: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled',
      ]);
      const array = scalable();
      array.spec.versions[0].schema = { openAPIV3Schema: { type: 'array', items: { type: 'string' } } };
      expect(messages(create(crds, array))).toContain(
        'spec.validation.openAPIV3Schema.type: Invalid value: "array": only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
      );
    });

    it('are not required from stored CRDs that never had them (except for served versions)', () => {
      const old = stored(crds, cronTab());
      delete old.spec.versions[0].schema;
      const next = copy(old);
      next.spec.versions.push({ name: 'v2', served: false, storage: false });
      expect(messages(update(crds, next, old))).toEqual(['spec.versions[0].schema.openAPIV3Schema: Required value: because otherwise all fields are pruned']);
    });
  });

  describe('selectable fields', () => {
    const schema = scalable().spec.versions[0].schema?.openAPIV3Schema;

    it('must name string, boolean or integer fields outside metadata, once each, at most 8', () => {
      const fields = ['.spec.size', '.spec.replicas', '.spec', '.metadata.name', 'spec.size', '.spec.size', '.spec.colour'].map((jsonPath) => ({ jsonPath }));
      expect(messages(validateSelectableFields(fields, schema, 'spec.selectableFields'))).toEqual([
        'spec.selectableFields[2].jsonPath: Invalid value: ".spec": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
        'spec.selectableFields[3].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field',
        'spec.selectableFields[4].jsonPath: Invalid value: "spec.size": is an invalid path: expected [ or . but got: spec',
        'spec.selectableFields[5].jsonPath: Duplicate value: ".spec.size"',
        'spec.selectableFields[6].jsonPath: Invalid value: ".spec.colour": is an invalid path: does not refer to a valid field',
      ]);
      const many = Array.from({ length: 9 }, (_, i) => ({ jsonPath: `.spec.f${i}` }));
      const wide = { type: 'object' as const, properties: { spec: { type: 'object' as const, properties: Object.fromEntries(many.map((_, i) => [`f${i}`, { type: 'string' as const }])) } } };
      expect(messages(validateSelectableFields(many, wide, 'spec.selectableFields'))).toEqual(['spec.selectableFields: Too many: 9: must have at most 8 items']);
    });

    it('reject metadata fields even when the schema declares them', () => {
      const withMeta = { type: 'object' as const, properties: { metadata: { type: 'object' as const, properties: { name: { type: 'string' as const } } } } };
      expect(messages(validateSelectableFields([{ jsonPath: '.metadata.name' }], withMeta, 'x'))).toEqual(['x[0].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata']);
    });

    it('follow map keys through additionalProperties', () => {
      const labels = { type: 'object' as const, properties: { spec: { type: 'object' as const, additionalProperties: { type: 'string' as const } } } };
      expect(validateSelectableFields([{ jsonPath: '.spec.team' }], labels, 'x')).toEqual([]);
    });

    it('shared by versions with different schemas are rejected as kube v0.33 does', () => {
      const crd = multiVersion();
      for (const v of crd.spec.versions) v.selectableFields = [{ jsonPath: '.spec.color' }];
      expect(messages(create(crds, crd))).toEqual(['spec.selectableFields: Invalid value: "": selectableFields may only be set when validations.schema is included']);
    });
  });

  describe('conversion', () => {
    it('needs a client config with exactly one of url or service', () => {
      const crd = multiVersion();
      crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'] } };
      expect(messages(create(crds, crd))).toEqual(['spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook']);
      const both = multiVersion();
      both.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1', 'v1'], clientConfig: { url: 'https://x.example.com', service: { namespace: 'a', name: 'b' } } } };
      expect(messages(create(crds, both))).toEqual([
        'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
        'spec.conversion.conversionReviewVersions[1]: Invalid value: "v1": duplicate version',
      ]);
    });

    it('forbids webhook settings with strategy None, and unknown strategies', () => {
      const crd = cronTab();
      crd.spec.conversion = { strategy: 'None', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://x.example.com' } } };
      expect(messages(create(crds, crd))).toEqual([
        'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
        'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
      ]);
      const other = cronTab();
      other.spec.conversion = { strategy: 'Magic' as 'None' };
      expect(messages(create(crds, other))).toEqual(['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"']);
    });

    it('checks the service reference', () => {
      const crd = multiVersion();
      crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: [], clientConfig: { service: { namespace: '', name: 'conv', port: 0, path: 'convert' } } } };
      expect(messages(create(crds, crd))).toEqual([
        'spec.conversion.webhookClientConfig.service.namespace: Required value: service namespace is required',
        'spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
        `spec.conversion.webhookClientConfig.service.path: Invalid value: "convert": must start with a '/'`,
        'spec.conversion.conversionReviewVersions: Required value',
      ]);
    });

    it('lets a stored CRD keep conversion review versions this server does not know', () => {
      const old = stored(crds, multiVersion());
      old.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v2'], clientConfig: { service: { namespace: 'gadgets', name: 'converter', port: 443 } } } };
      const next = copy(old);
      next.metadata.labels = { team: 'gadgets' };
      expect(update(crds, next, old)).toEqual([]);
    });

    it('checks the CA bundle once the CRD is Established and its bundle was valid', () => {
      const old = stored(crds, multiVersion());
      const next = copy(old);
      const clientConfig = next.spec.conversion?.webhook?.clientConfig;
      if (clientConfig) clientConfig.caBundle = Buffer.from('not a certificate').toString('base64');
      expect(messages(update(crds, next, old))).toEqual([
        `spec.conversion.webhookClientConfig.caBundle: Invalid value: "${clientConfig?.caBundle}": unable to load root certificates: unable to parse bytes as PEM block`,
      ]);
      expect(update(crds, copy(next), stored(crds, multiVersion(), false))).toEqual([]);
    });
  });

  describe('API approval and pruning', () => {
    it('requires the approval annotation in *.k8s.io groups', () => {
      const crd = cronTab();
      crd.spec.group = 'stable.k8s.io';
      crd.metadata.name = 'crontabs.stable.k8s.io';
      expect(messages(create(crds, copy(crd)))).toEqual([
        'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
      ]);
      crd.metadata.annotations = { 'api-approved.kubernetes.io': 'yes' };
      expect(messages(create(crds, copy(crd)))).toEqual([
        'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "yes": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
      ]);
      for (const value of ['https://github.com/kubernetes/kubernetes/pull/78458', 'unapproved, experimental-only']) {
        crd.metadata.annotations = { 'api-approved.kubernetes.io': value };
        expect(create(crds, copy(crd))).toEqual([]);
      }
    });

    it('rejects preserveUnknownFields: true on new CRDs', () => {
      const crd = cronTab();
      crd.spec.preserveUnknownFields = true;
      expect(messages(create(crds, crd))).toEqual([
        'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ]);
    });
  });

  describe('/status', () => {
    it('checks acceptedNames but leaves storedVersions to the storage migrator', () => {
      const crd = stored(crds, cronTab());
      crd.status = { acceptedNames: { plural: 'Cron-Tabs', kind: 'CronTab' }, storedVersions: [] };
      expect(messages(validateCustomResourceDefinitionStatusUpdate(crd))).toEqual([
        `status.acceptedNames.plural: Invalid value: "Cron-Tabs": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      ]);
    });
  });
});
