/**
 * Test fixtures for the APIService specs: the sample-apiserver's registration
 * (k8s.io/sample-apiserver artifacts/example/apiservice.yaml), a local built-in group/version, and a runner
 * that drives the strategy the way the generic REST handler does.
 */
import type { FieldError } from '@kube/apimachinery';
import type { RequestContext, ResourceDefinition } from '@kube/apiserver';
import type { APIService } from './apiservice.types';

export const ctx: RequestContext = { user: { name: 'tester', groups: [] }, dryRun: false, warnings: [] };

export function messages(errors: readonly FieldError[]): string[] {
  return errors.map((e) => e.toString());
}

/** default → prepareForCreate → validate, as a POST runs them. Mutates the object. */
export function create(def: ResourceDefinition, svc: APIService): FieldError[] {
  const s = def.strategy ?? {};
  s.default?.(svc);
  s.prepareForCreate?.(svc, ctx);
  return s.validate?.(svc, ctx) ?? [];
}

/** A PUT: default, prepareForUpdate, validateUpdate. Mutates the new object. */
export function update(def: ResourceDefinition, svc: APIService, old: APIService): FieldError[] {
  const s = def.strategy ?? {};
  s.default?.(svc);
  s.prepareForUpdate?.(svc, old, ctx);
  return s.validateUpdate?.(svc, old, ctx) ?? [];
}

/** v1alpha1.wardle.example.com as the sample-apiserver registers it (port left to defaulting). */
export function wardle(): APIService {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: 'v1alpha1.wardle.example.com' },
    spec: {
      insecureSkipTLSVerify: true,
      group: 'wardle.example.com',
      groupPriorityMinimum: 1000,
      versionPriority: 15,
      service: { name: 'api', namespace: 'wardle' },
      version: 'v1alpha1',
    },
  };
}

/** v1.coordination.k8s.io as autoregistration creates it for a built-in group/version: local, kube's priorities. */
export function coordination(): APIService {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: 'v1.coordination.k8s.io', labels: { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' } },
    spec: { group: 'coordination.k8s.io', version: 'v1', groupPriorityMinimum: 16500, versionPriority: 15 },
  };
}

/** A minimal APIService for ordering tests. */
export function apiService(group: string, version: string, groupPriorityMinimum: number, versionPriority: number): APIService {
  return { metadata: { name: `${version}.${group}` }, spec: { group, version, groupPriorityMinimum, versionPriority } };
}

/** A PEM bundle as the API carries it ([]byte → base64). */
export const CA_BUNDLE = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64');
