import { describe, expect, it } from 'vitest';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import type { ResourceQuota } from '@kube/admission';
import { resourceQuotasResource } from './resourcequotas.resource';
import { cells, create, messages, meta, update } from './strategy.testing';

const rq = (spec: ResourceQuota['spec'], status?: ResourceQuota['status']): ResourceQuota => ({ metadata: meta('q', 'ns'), spec, ...(status ? { status } : {}) });

describe('resourcequotas', () => {
  it('is namespaced with the quota short name and a status subresource', () => {
    expect(resourceQuotasResource).toMatchObject({ kind: 'ResourceQuota', plural: 'resourcequotas', namespaced: true, shortNames: ['quota'] });
    expect(Object.keys(resourceQuotasResource.subresources ?? {})).toEqual(['status']);
  });

  it('stores quantities in canonical form and refuses what is no quantity with 400', () => {
    const q = rq({ hard: { cpu: '0.5', memory: '1024Mi', pods: '10' } });
    expect(create(resourceQuotasResource, q)).toEqual([]);
    expect(q.spec?.hard).toEqual({ cpu: '500m', memory: '1Gi', pods: '10' });
    let err: unknown;
    try {
      create(resourceQuotasResource, rq({ hard: { cpu: 'lots' } }));
    } catch (e) {
      err = e;
    }
    expect(isStatusError(err) && err.code).toBe(400);
    expect((err as Error).message).toBe(`ResourceQuota in version "v1" cannot be handled as a ResourceQuota: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  });

  it('validates resource names and values as ValidateResourceQuota', () => {
    expect(messages(create(resourceQuotasResource, rq({ hard: { foo: '1', 'pods': '1.5', services: '-1', 'count/deployments.apps': '2', 'example.com/widgets': '3' } })))).toEqual([
      'spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
      'spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota',
      'spec.hard[pods]: Invalid value: "1500m": must be an integer',
      'spec.hard[services]: Invalid value: "-1": must be greater than or equal to 0',
    ]);
  });

  it('validates scopes and the scope selector', () => {
    expect(messages(create(resourceQuotasResource, rq({ hard: { pods: '1', 'requests.cpu': '1' }, scopes: ['BestEffort', 'NotBestEffort'] })))).toEqual([
      'spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: unsupported scope applied to resource',
      'spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: conflicting scopes',
    ]);
    expect(messages(create(resourceQuotasResource, rq({ hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'Terminating', operator: 'In', values: ['x'] }, { scopeName: 'PriorityClass', operator: 'In' }, { scopeName: 'Bogus', operator: 'Exists' }] } })))).toEqual([
      `spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity`,
      "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
      'spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Bogus": unsupported scope',
    ]);
  });

  it('never changes its scopes', () => {
    const old = rq({ hard: { pods: '1' }, scopes: ['BestEffort'] });
    expect(messages(update(resourceQuotasResource, rq({ hard: { pods: '2' }, scopes: ['NotTerminating'] }), old))).toEqual(['spec.scopes: Invalid value: ["NotTerminating"]: field is immutable']);
    expect(update(resourceQuotasResource, rq({ hard: { pods: '2' }, scopes: ['BestEffort'] }), old)).toEqual([]);
  });

  it('prints AGE, then REQUEST and LIMIT as kube does', () => {
    const q = rq({ hard: {} }, { hard: { 'limits.cpu': '2', pods: '4', configmaps: '3' }, used: { 'limits.cpu': '500m', pods: '1' } }) as KubeObject;
    expect(cells(resourceQuotasResource, q)).toEqual({ Age: '10m', Request: 'configmaps: 0/3, pods: 1/4', Limit: 'limits.cpu: 500m/2' });
  });
});
