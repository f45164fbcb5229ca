import { beforeEach, describe, expect, it, vi } from 'vitest';
import { copy, create, cronTab, messages, multiVersion, scalable, stored, update } from './crd.testing';
import { customResourceDefinitionsResource as crds, createdAt } from './customresourcedefinitions.resource';

// The schema checks belong to @kube/apiextensions; here they only need to pass.
vi.mock('@kube/apiextensions', () => ({ validateStructuralSchema: vi.fn(() => []), validateCustomResourceDefinitionSchema: vi.fn(() => []) }));

describe('customresourcedefinitions', () => {
  beforeEach(() => vi.clearAllMocks());

  it('is the cluster-scoped apiextensions.k8s.io/v1 kind kubectl knows as crd', () => {
    expect(crds).toMatchObject({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      kind: 'CustomResourceDefinition',
      plural: 'customresourcedefinitions',
      singular: 'customresourcedefinition',
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      namespaced: false,
      subresources: { status: expect.objectContaining({ verbs: ['get', 'patch', 'update'], discovered: true }) },
      nameValidation: 'subdomain',
    });
    expect(crds.schema?.name).toBe('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition');
    expect(crds.schema?.components[crds.schema.name]).toBeDefined();
    expect(crds.strategy).toMatchObject({ allowCreateOnUpdate: false, allowUnconditionalUpdate: false });
  });

  describe('create', () => {
    it('accepts the CronTab example and defaults it as v1 does', () => {
      const crd = cronTab();
      expect(create(crds, crd)).toEqual([]);
      expect(crd.spec.names).toEqual({ plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] });
      expect(crd.spec.conversion).toEqual({ strategy: 'None' });
      expect(crd.status).toEqual({ acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    });

    it('drops client-supplied status but records the storage version', () => {
      const crd = multiVersion();
      crd.status = { storedVersions: ['v0'], conditions: [{ type: 'Established', status: 'True' }] };
      expect(create(crds, crd)).toEqual([]);
      expect(crd.status).toEqual({ acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    });

    it('defaults singular, listKind, the webhook service port and missing served/storage flags', () => {
      const crd = multiVersion();
      expect(create(crds, crd)).toEqual([]);
      expect(crd.spec.names).toMatchObject({ singular: 'gadget', listKind: 'GadgetList' });
      expect(crd.spec.conversion?.webhook?.clientConfig?.service?.port).toBe(443);
      const bare = cronTab();
      delete (bare.spec.versions[0] as Partial<(typeof bare.spec.versions)[0]>).served;
      create(crds, bare);
      expect(bare.spec.versions[0].served).toBe(false);
    });

    it('accepts a CRD with scale subresource, printer columns and selectable fields', () => {
      expect(create(crds, scalable())).toEqual([]);
    });

    it('requires metadata.name to be <plural>.<group>', () => {
      const crd = cronTab();
      crd.metadata.name = 'crontab.stable.example.com';
      expect(messages(create(crds, crd))).toEqual(['metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group']);
    });

    it('requires a group with at least one dot', () => {
      const crd = cronTab();
      crd.spec.group = 'stable';
      crd.metadata.name = 'crontabs.stable';
      expect(messages(create(crds, crd))).toEqual(['spec.group: Invalid value: "stable": should be a domain with at least one dot']);
    });

    it('checks scope, names and short names', () => {
      const crd = cronTab();
      crd.spec.scope = 'Global' as 'Cluster';
      crd.spec.names = { plural: 'crontabs', kind: 'Cron_Tab', listKind: 'Cron_Tab', shortNames: ['c t'] };
      const label = (v: string): string =>
        `Invalid value: "${v}": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`;
      expect(messages(create(crds, crd))).toEqual([
        'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
        // singular defaults to the lowercased kind, so it inherits the underscore.
        'spec.names.singular: ' + label('cron_tab'),
        'spec.names.kind: ' + label('Cron_Tab').replace(': a DNS', ': may have mixed case, but should otherwise match: a DNS'),
        'spec.names.listKind: ' + label('Cron_Tab').replace(': a DNS', ': may have mixed case, but should otherwise match: a DNS'),
        'spec.names.shortNames[0]: ' + label('c t'),
        'spec.names.listKind: Invalid value: "Cron_Tab": kind and listKind may not be the same',
      ]);
    });

    it('requires exactly one storage version', () => {
      const crd = multiVersion();
      crd.spec.versions[1].storage = false;
      const errs = create(crds, crd);
      expect(errs.map((e) => `${e.field}: ${e.detail}`)).toEqual([
        'spec.versions: must have exactly one version marked as storage version',
        'status.storedVersions: must have at least one stored version',
      ]);
      expect(errs[1].toString()).toBe('status.storedVersions: Invalid value: []: must have at least one stored version');
    });

    it('reports no versions through the storage rules, as kube does', () => {
      const crd = cronTab();
      crd.spec.versions = [];
      expect(messages(create(crds, crd))).toEqual([
        'spec.versions: Invalid value: []: must have exactly one version marked as storage version',
        'status.storedVersions: Invalid value: []: must have at least one stored version',
      ]);
    });

    it('requires unique DNS-1035 version names (the first is also checked as spec.version)', () => {
      const crd = multiVersion();
      crd.spec.versions[0].name = 'V1';
      crd.spec.versions.push({ ...crd.spec.versions[0], storage: false });
      const errs = create(crds, crd);
      const dns = `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`;
      expect(errs.map((e) => `${e.field}: ${e.detail}`)).toEqual([
        `spec.versions[0].name: ${dns}`,
        `spec.versions[2].name: ${dns}`,
        'spec.versions: must contain unique version names',
        `spec.version: ${dns}`,
      ]);
    });

    it('requires a schema for every version', () => {
      const crd = cronTab();
      delete crd.spec.versions[0].schema;
      expect(messages(create(crds, crd))).toEqual(['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']);
    });

    it('rejects scale paths outside .spec and .status at the hoisted spec.subresources path', () => {
      const crd = scalable();
      crd.spec.versions[0].subresources = { status: {}, scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: '.spec.replicas', labelSelectorPath: '.metadata.labels' } };
      expect(messages(create(crds, crd))).toEqual([
        'spec.subresources.scale.specReplicasPath: Invalid value: "spec.replicas": must be a simple json path starting with .',
        'spec.subresources.scale.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status',
        'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status',
      ]);
    });

    it('checks printer columns (kube names the path segment JSONPath)', () => {
      const crd = scalable();
      crd.spec.versions[0].additionalPrinterColumns = [
        { name: 'Replicas', type: 'float', format: 'percent', jsonPath: '.spec.replicas' },
        { name: 'Size', type: 'string', jsonPath: 'spec.size' },
        { name: '', type: '', jsonPath: '' },
      ];
      expect(messages(create(crds, crd))).toEqual([
        'spec.additionalPrinterColumns[0].type: Invalid value: "float": must be one of boolean,date,integer,number,string',
        'spec.additionalPrinterColumns[0].format: Invalid value: "percent": must be one of byte,date,date-time,double,float,int32,int64,password',
        'spec.additionalPrinterColumns[1].JSONPath: Invalid value: "spec.size": must be a simple json path starting with .',
        'spec.additionalPrinterColumns[2].name: Required value',
        'spec.additionalPrinterColumns[2].type: Required value: must be one of boolean,date,integer,number,string',
        'spec.additionalPrinterColumns[2].JSONPath: Required value',
      ]);
    });

    it('reports per-version paths when versions differ', () => {
      const crd = multiVersion();
      crd.spec.versions[1].subresources = { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: '' } };
      crd.spec.versions[1].additionalPrinterColumns = [{ name: 'Color', type: 'text', jsonPath: '.spec.color' }];
      expect(messages(create(crds, crd))).toEqual([
        'spec.versions[1].subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
        'spec.versions[1].subresources.scale.statusReplicasPath: Required value',
        'spec.versions[1].additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
      ]);
    });

    it('validates the conversion webhook under the internal webhookClientConfig path', () => {
      const crd = multiVersion();
      crd.spec.conversion = {
        strategy: 'Webhook',
        webhook: { conversionReviewVersions: ['v2'], clientConfig: { url: 'http://converter.example.com/convert?debug=1#x' } },
      };
      expect(messages(create(crds, crd))).toEqual([
        `spec.conversion.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
        'spec.conversion.webhookClientConfig.url: Invalid value: "x": fragments are not permitted in the URL',
        'spec.conversion.webhookClientConfig.url: Invalid value: "debug=1": query parameters are not permitted in the URL',
        'spec.conversion.conversionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1',
      ]);
    });

    it('only allows deprecationWarning on deprecated versions, up to 256 bytes', () => {
      const crd = multiVersion();
      crd.spec.versions[0].deprecationWarning = 'x'.repeat(257);
      crd.spec.versions[1].deprecationWarning = 'use v2';
      expect(messages(create(crds, crd))).toEqual([
        `spec.versions[0].deprecationWarning: Invalid value: "${'x'.repeat(257)}": must be <= 256 characters long`,
        'spec.versions[1].deprecationWarning: Invalid value: "use v2": can only be set for deprecated versions',
      ]);
    });
  });

  describe('update', () => {
    it('keeps status, and records a new storage version in status.storedVersions', () => {
      const old = stored(crds, multiVersion());
      const next = copy(old);
      next.status = { storedVersions: [] };
      next.spec.versions[0].storage = true;
      next.spec.versions[1].storage = false;
      expect(update(crds, next, old)).toEqual([]);
      expect(next.status?.storedVersions).toEqual(['v1', 'v1beta1']);
      expect(next.status?.conditions?.[0].type).toBe('Established');
    });

    it('refuses to drop a version that is still in status.storedVersions', () => {
      const old = stored(crds, multiVersion());
      old.status = { ...old.status, storedVersions: ['v1beta1', 'v1'] };
      const next = copy(old);
      next.spec.versions = next.spec.versions.filter((v) => v.name !== 'v1beta1');
      expect(messages(update(crds, next, old))).toEqual([
        'status.storedVersions[0]: Invalid value: "v1beta1": missing from spec.versions; v1beta1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1beta1 and removes v1beta1 from status.storedVersions',
      ]);
    });

    it('freezes group and plural; scope and kind once Established', () => {
      const old = stored(crds, cronTab());
      const next = copy(old);
      next.spec.group = 'other.example.com';
      next.spec.scope = 'Cluster';
      next.spec.names = { ...next.spec.names, plural: 'crontabz', kind: 'Crontab', listKind: 'CrontabList' };
      expect(messages(update(crds, next, old))).toEqual([
        'spec.scope: Invalid value: "Cluster": field is immutable',
        'spec.names.kind: Invalid value: "Crontab": field is immutable',
        'spec.group: Invalid value: "other.example.com": field is immutable',
        'spec.names.plural: Invalid value: "crontabz": field is immutable',
      ]);
    });

    it('lets scope and kind change before the CRD is Established', () => {
      const old = stored(crds, cronTab(), false);
      const next = copy(old);
      next.spec.scope = 'Cluster';
      next.spec.names = { ...next.spec.names, kind: 'Crontab', listKind: 'CrontabList' };
      expect(update(crds, next, old)).toEqual([]);
    });

    it('does not re-check the name rule (name, group and plural cannot change anyway)', () => {
      const old = stored(crds, scalable());
      const next = copy(old);
      next.spec.versions[0].additionalPrinterColumns = [];
      expect(update(crds, next, old)).toEqual([]);
    });
  });

  describe('table', () => {
    it('prints NAME and CREATED AT as an RFC 3339 timestamp, like kube', () => {
      const column = crds.tableColumns?.[0];
      expect(column).toMatchObject({ name: 'Created At', type: 'date' });
      expect(column?.description).toMatch(/^CreationTimestamp is a timestamp/);
      expect(column?.cell({ metadata: { name: 'x', creationTimestamp: '2024-05-06T07:08:09Z' } })).toBe('2024-05-06T07:08:09Z');
      expect(createdAt('2024-05-06T09:08:09.123+02:00')).toBe('2024-05-06T07:08:09Z');
      expect(createdAt(undefined)).toBe('0001-01-01T00:00:00Z');
    });
  });

  describe('deletion', () => {
    it('holds the first DELETE with the cleanup finalizer and a Terminating condition', () => {
      const crd = stored(crds, cronTab());
      const hooks = crds.hooks;
      expect(hooks?.pendingFinalizers?.(crd)).toBe(true);
      hooks?.onDeletionStarted?.(crd);
      expect(crd.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
      expect(crd.status?.conditions?.find((c) => c.type === 'Terminating')).toMatchObject({
        status: 'True',
        reason: 'InstanceDeletionPending',
        message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
      });
      // Once marked, only the finalizer keeps it: the finalizer controller's removal completes the delete.
      expect(hooks?.pendingFinalizers?.({ ...crd, metadata: { ...crd.metadata, deletionTimestamp: '2024-01-01T00:00:00Z', finalizers: [] } })).toBe(false);
    });
  });
});
