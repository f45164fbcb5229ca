import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../admission.types';
import { admissionRequest, admissionResponse } from './admission-review';

const attrs = (over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'UPDATE',
  resource: { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true },
  subresource: 'scale',
  namespace: 'dev',
  name: 'web',
  object: { metadata: { name: 'web' } },
  oldObject: { metadata: { name: 'web', labels: { a: 'b' } } },
  ctx: { user: { name: 'alice', uid: 'u1', groups: ['devs'], extra: {} }, dryRun: true, warnings: [] },
  options: { fieldManager: 'kubectl' },
  ...over,
});

describe('AdmissionReview v1', () => {
  it('describes the request as kube does', () => {
    expect(admissionRequest(attrs(), 'uid-1')).toEqual({
      uid: 'uid-1',
      kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: 'scale',
      requestKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      requestResource: { group: 'apps', version: 'v1', resource: 'deployments' },
      requestSubResource: 'scale',
      name: 'web',
      namespace: 'dev',
      operation: 'UPDATE',
      userInfo: { username: 'alice', uid: 'u1', groups: ['devs'] },
      object: { metadata: { name: 'web' } },
      oldObject: { metadata: { name: 'web', labels: { a: 'b' } } },
      dryRun: true,
      options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'], fieldManager: 'kubectl' },
    });
    expect(admissionRequest(attrs({ operation: 'DELETE', object: undefined, subresource: '' }), 'u').options).toEqual({ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] });
  });

  it('checks the response as VerifyAdmissionResponse does', () => {
    const review = (response: Record<string, unknown>, apiVersion = 'admission.k8s.io/v1'): unknown => ({ apiVersion, kind: 'AdmissionReview', response });
    expect(admissionResponse(review({ uid: 'u', allowed: true }), 'u', 'v1', false)).toEqual({ uid: 'u', allowed: true });
    expect(() => admissionResponse(review({ uid: 'x', allowed: true }), 'u', 'v1', false)).toThrow('expected response.uid="u", got "x"');
    expect(() => admissionResponse(review({ uid: 'u' }, 'admission.k8s.io/v1beta1'), 'u', 'v1', false)).toThrow('expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview');
    expect(() => admissionResponse(review({ uid: 'u', allowed: true, patch: 'W10=', patchType: 'JSONPatch' }), 'u', 'v1', false)).toThrow('validating webhooks may not return patches');
    expect(() => admissionResponse(review({ uid: 'u', allowed: true, patch: 'W10=' }), 'u', 'v1', true)).toThrow('webhook returned response.patch but not response.patchType');
    expect(() => admissionResponse(review({ uid: 'u', allowed: true, patch: 'W10=', patchType: 'Merge' }), 'u', 'v1', true)).toThrow('webhook returned invalid response.patchType of "Merge"');
    expect(() => admissionResponse({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }, 'u', 'v1', true)).toThrow('webhook response was absent');
  });
});
