import { buildTable, type KubeObject } from '@kube/apimachinery';
import { afterEach, describe, expect, it, vi } from 'vitest';
// By path: @kube/apiserver's index boots the whole server module graph, and only the metadata checks are needed.
import { validateObjectMeta } from '../../../../libs/apiserver/src/object-meta';
import { CA_BUNDLE, coordination, create, messages, update, wardle } from './apiservice.testing';
import type { APIService } from './apiservice.types';
import { validateAPIServiceStatus } from './apiservice.validation';
import { apiServicesResource as apiservices } from './apiservices.resource';

const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_LABEL =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/** What a POST reports: the generic metadata checks, then the strategy's. */
function createErrors(svc: APIService): string[] {
  const strategy = create(apiservices, svc);
  return messages([...validateObjectMeta(svc, apiservices.namespaced, apiservices.nameValidation), ...strategy]);
}

function withSpec(svc: APIService, spec: Partial<APIService['spec']>): APIService {
  return { ...svc, spec: { ...svc.spec, ...spec } };
}

function stored(svc: APIService): APIService {
  expect(create(apiservices, svc)).toEqual([]);
  svc.metadata = { ...svc.metadata, uid: 'u1', resourceVersion: '7', generation: 1, creationTimestamp: '2024-05-01T10:00:00Z' };
  return svc;
}

afterEach(() => vi.useRealTimers());

describe('apiservices', () => {
  it('is the cluster-scoped apiregistration.k8s.io/v1 kind with a status subresource and the published schema', () => {
    expect(apiservices).toMatchObject({
      group: 'apiregistration.k8s.io',
      version: 'v1',
      kind: 'APIService',
      plural: 'apiservices',
      singular: 'apiservice',
      categories: ['api-extensions'],
      namespaced: false,
      subresources: { status: expect.objectContaining({ verbs: ['get', 'patch', 'update'], discovered: true }) },
    });
    expect(apiservices.shortNames).toBeUndefined();
    expect(apiservices.strategy).toMatchObject({ allowCreateOnUpdate: false, allowUnconditionalUpdate: false });
    expect(apiservices.schema?.name).toBe('io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService');
    expect(apiservices.schema?.components[apiservices.schema.name]).toBeDefined();
  });

  describe('create', () => {
    it('accepts the sample-apiserver registration, defaults port 443 and leaves it for the availability check', () => {
      const svc = wardle();
      svc.status = { conditions: [{ type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' }] };
      expect(createErrors(svc)).toEqual([]);
      expect(svc.spec.service).toEqual({ name: 'api', namespace: 'wardle', port: 443 });
      expect(svc.status).toEqual({});
    });

    it('marks a local APIService Available at once', () => {
      vi.useFakeTimers({ now: Date.parse('2024-05-01T10:00:00.500Z') });
      const svc = coordination();
      svc.status = { conditions: [{ type: 'Available', status: 'False', reason: 'Made', message: 'up' }] };
      expect(createErrors(svc)).toEqual([]);
      expect(svc.status).toEqual({
        conditions: [{ type: 'Available', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'Local', message: 'Local APIServices are always available' }],
      });
    });

    it('keeps an explicit port, and accepts the legacy core group as "v1."', () => {
      const svc = withSpec(wardle(), { service: { namespace: 'wardle', name: 'api', port: 8443 } });
      expect(createErrors(svc)).toEqual([]);
      expect(svc.spec.service?.port).toBe(8443);
      const core: APIService = { metadata: { name: 'v1.' }, spec: { group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 } };
      expect(createErrors(core)).toEqual([]);
    });
  });

  describe('validation', () => {
    it('requires the name to be <version>.<group>', () => {
      const svc = wardle();
      svc.metadata.name = 'wardle.example.com';
      expect(createErrors(svc)).toEqual(['metadata.name: Invalid value: "wardle.example.com": must be `spec.version+"."+spec.group`: "v1alpha1.wardle.example.com"']);
      const core: APIService = { metadata: { name: 'v1' }, spec: { version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 } };
      expect(createErrors(core)).toEqual(['metadata.name: Invalid value: "v1": must be `spec.version+"."+spec.group`: "v1."']);
    });

    it('reports a name that cannot be a path segment once, without the <version>.<group> rule', () => {
      const svc = wardle();
      svc.metadata.name = 'v1alpha1/wardle.example.com';
      expect(createErrors(svc)).toEqual([`metadata.name: Invalid value: "v1alpha1/wardle.example.com": may not contain '/'`]);
    });

    it('applies the name rule to generateName too, as ValidateObjectMeta does', () => {
      const svc = wardle();
      // As the generic server leaves it: a name generated from the prefix.
      svc.metadata = { generateName: 'wardle-', name: 'wardle-x7k2p' };
      const rule = 'must be `spec.version+"."+spec.group`: "v1alpha1.wardle.example.com"';
      expect(createErrors(svc)).toEqual([`metadata.generateName: Invalid value: "wardle-": ${rule}`, `metadata.name: Invalid value: "wardle-x7k2p": ${rule}`]);
    });

    it('allows an empty group only for v1', () => {
      const svc: APIService = { metadata: { name: 'v2.' }, spec: { group: '', version: 'v2', groupPriorityMinimum: 18000, versionPriority: 1 } };
      expect(createErrors(svc)).toEqual(['spec.group: Required value: only v1 may have an empty group and it better be legacy kube']);
    });

    it('requires a DNS-1123 subdomain group and a DNS-1035 label version', () => {
      const svc = withSpec(wardle(), { group: 'Wardle.example.com', version: '1alpha1' });
      svc.metadata.name = '1alpha1.Wardle.example.com';
      expect(createErrors(svc)).toEqual([
        `spec.group: Invalid value: "Wardle.example.com": ${DNS1123_SUBDOMAIN}`,
        `spec.version: Invalid value: "1alpha1": ${DNS1035_LABEL}`,
      ]);
    });

    it('requires both priorities within range, with no defaults', () => {
      const svc = wardle();
      const { groupPriorityMinimum: _g, versionPriority: _v, ...rest } = svc.spec;
      svc.spec = rest as APIService['spec'];
      expect(createErrors(svc)).toEqual([
        'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
        'spec.versionPriority: Invalid value: 0: must be positive and less than 1000',
      ]);
      expect(createErrors(withSpec(wardle(), { groupPriorityMinimum: 20001, versionPriority: -5 }))).toEqual([
        'spec.groupPriorityMinimum: Invalid value: 20001: must be positive and less than 20000',
        'spec.versionPriority: Invalid value: -5: must be positive and less than 1000',
      ]);
      expect(createErrors(withSpec(wardle(), { groupPriorityMinimum: 20000, versionPriority: 1000 }))).toEqual([]);
      expect(createErrors(withSpec(wardle(), { versionPriority: 1001 }))).toEqual(['spec.versionPriority: Invalid value: 1001: must be positive and less than 1000']);
    });

    it('forbids TLS settings on a local APIService', () => {
      const svc = withSpec(coordination(), { caBundle: CA_BUNDLE, insecureSkipTLSVerify: true });
      expect(createErrors(svc)).toEqual([
        `spec.caBundle: Invalid value: "${Buffer.from(CA_BUNDLE, 'base64').length} bytes": local APIServices may not have a caBundle`,
        'spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
      ]);
    });

    it('requires the service namespace and name, and a valid port', () => {
      const svc = withSpec(wardle(), { service: { port: 0 } });
      expect(createErrors(svc)).toEqual([
        'spec.service.namespace: Required value',
        'spec.service.name: Required value',
        'spec.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      ]);
      expect(createErrors(withSpec(wardle(), { service: { namespace: 'wardle', name: 'api', port: 65536 } }))).toEqual([
        'spec.service.port: Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive',
      ]);
    });

    it('forbids insecureSkipTLSVerify together with a caBundle', () => {
      expect(createErrors(withSpec(wardle(), { caBundle: CA_BUNDLE }))).toEqual(['spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present']);
      expect(createErrors(withSpec(wardle(), { caBundle: CA_BUNDLE, insecureSkipTLSVerify: false }))).toEqual([]);
    });

    it('reports everything wrong with an empty spec, as kube does for a bare APIService', () => {
      const svc: APIService = { metadata: { name: 'wardle' }, spec: {} as APIService['spec'] };
      expect(createErrors(svc)).toEqual([
        'metadata.name: Invalid value: "wardle": must be `spec.version+"."+spec.group`: "."',
        'spec.group: Required value: only v1 may have an empty group and it better be legacy kube',
        `spec.version: Invalid value: "": ${DNS1035_LABEL}`,
        'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
        'spec.versionPriority: Invalid value: 0: must be positive and less than 1000',
      ]);
    });

    it('rejects fields of the wrong JSON type before anything else, as Go decoding would', () => {
      const svc = wardle();
      const spec = svc.spec as unknown as Record<string, unknown>;
      spec.groupPriorityMinimum = '1000';
      spec.versionPriority = 1.5;
      spec.caBundle = 'not base64!';
      (spec.service as Record<string, unknown>).port = '443';
      expect(createErrors(svc)).toEqual([
        'spec.caBundle: Invalid value: "not base64!": must be of type base64-encoded string',
        'spec.groupPriorityMinimum: Invalid value: "1000": must be of type int32',
        'spec.versionPriority: Invalid value: 1.5: must be of type int32',
        'spec.service.port: Invalid value: "443": must be of type int32',
      ]);
      expect(createErrors({ metadata: { name: 'v1.x' }, spec: 'v1' } as unknown as APIService)).toEqual(['spec: Invalid value: "v1": must be of type object']);
    });

    it('accepts only True, False or Unknown as a condition status', () => {
      expect(messages(validateAPIServiceStatus({ conditions: [{ type: 'Available', status: 'True' }, { type: 'Available', status: 'Maybe' as 'True' }] }))).toEqual([
        'status.conditions[1].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"',
      ]);
    });
  });

  describe('update', () => {
    it('keeps the stored status and validates the new spec', () => {
      const old = stored(coordination());
      const next = structuredClone(old);
      next.status = { conditions: [{ type: 'Available', status: 'False', reason: 'Forged' }] };
      next.spec.versionPriority = 20;
      expect(update(apiservices, next, old)).toEqual([]);
      expect(next.status).toEqual(old.status);
    });

    it('defaults a newly added service and rejects an invalid change', () => {
      const old = stored(wardle());
      const next = structuredClone(old);
      next.spec.service = { namespace: 'wardle', name: 'api-v2' };
      next.spec.groupPriorityMinimum = 0;
      expect(messages(update(apiservices, next, old))).toEqual(['spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000']);
      expect(next.spec.service.port).toBe(443);
    });
  });

  describe('table', () => {
    const columns = apiservices.tableColumns ?? [];
    const row = (svc: KubeObject): unknown[] => buildTable(columns, [svc], {}).rows[0].cells;

    it('prints NAME, SERVICE, AVAILABLE and AGE with kube descriptions', () => {
      const table = buildTable(columns, [], {});
      expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Service', 'Available', 'Age']);
      expect(table.columnDefinitions[1]).toMatchObject({ type: 'string', description: 'The reference to the service that hosts this API endpoint.' });
      expect(table.columnDefinitions[2]).toMatchObject({ type: 'string', description: 'Whether this service is available.' });
    });

    it('prints a local APIService as Local and True', () => {
      expect(row(stored(coordination())).slice(0, 3)).toEqual(['v1.coordination.k8s.io', 'Local', 'True']);
    });

    it('prints a remote APIService as <ns>/<name>, Unknown until checked, then the status with its reason', () => {
      const svc = stored(wardle());
      expect(row(svc).slice(0, 3)).toEqual(['v1alpha1.wardle.example.com', 'wardle/api', 'Unknown']);
      svc.status = { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints', message: 'endpoints for service/api in "wardle" have no addresses with port name ""' }] };
      expect(row(svc)[2]).toBe('False (MissingEndpoints)');
      svc.status = { conditions: [{ type: 'Available', status: 'Unknown' }] };
      expect(row(svc)[2]).toBe('Unknown');
      svc.status = { conditions: [{ type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' }] };
      expect(row(svc)[2]).toBe('True');
    });

    it('prints AGE from creationTimestamp', () => {
      vi.useFakeTimers({ now: Date.parse('2024-05-01T10:05:00Z') });
      expect(row(stored(wardle()))[3]).toBe('5m');
    });
  });
});
