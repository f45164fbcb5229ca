import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../admission.types';
import { admissionRequest, admissionResponse, decodeAdmissionReview } from './admission-review';
import { deniedBy } from './webhook.admission';

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

/**
 * The JSON names of k8s.io/api admission/v1 (types.go), and answers shaped as the upstream documentation's
 * examples (Dynamic Admission Control): every field a webhook sets must be read from its kube name.
 */
describe('AdmissionReview v1 on the wire (k8s.io/api admission/v1 JSON names)', () => {
  const UPSTREAM_REQUEST_FIELDS = ['uid', 'kind', 'resource', 'subResource', 'requestKind', 'requestResource', 'requestSubResource', 'name', 'namespace', 'operation', 'userInfo', 'object', 'oldObject', 'dryRun', 'options'];
  const UID = '705ab4f5-6393-11e8-b7cc-42010a800002';
  const review = (response: Record<string, unknown>): unknown => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: UID, ...response } });
  const read = (body: unknown, mutating = true): ReturnType<typeof admissionResponse> => admissionResponse(decodeAdmissionReview(body), UID, 'v1', mutating);

  it('sends only fields AdmissionRequest has, userInfo as authentication/v1 UserInfo', () => {
    const request = admissionRequest(attrs({ ctx: { user: { name: 'alice', uid: 'u1', groups: ['devs'], extra: { scopes: ['a'] } }, dryRun: false, warnings: [] } }), 'u');
    for (const key of Object.keys(request)) expect(UPSTREAM_REQUEST_FIELDS).toContain(key);
    expect(Object.keys(request.userInfo).sort()).toEqual(['extra', 'groups', 'uid', 'username']);
    // Always sent, as kube sets them (dryRun is a *bool kube always fills; object and oldObject are RawExtensions).
    expect(request).toMatchObject({ dryRun: false, object: { metadata: { name: 'web' } } });
  });

  it('sends a DELETE\'s DeleteOptions, dryRun included', () => {
    const del = admissionRequest(attrs({ operation: 'DELETE', object: undefined, subresource: '', options: { delete: { propagationPolicy: 'Foreground', gracePeriodSeconds: 0, preconditions: { uid: 'x' } } } }), 'u');
    expect(del.options).toEqual({ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Foreground', gracePeriodSeconds: 0, preconditions: { uid: 'x' }, dryRun: ['All'] });
    expect(del.object).toBeNull();
  });

  it('reads a refusal from `status` (metav1.Status): code, message, reason, details', () => {
    const denied = read(review({ allowed: false, status: { code: 403, message: 'You cannot do this because it is Tuesday and your name starts with A' } }), false);
    const err = deniedBy('tuesday.example.com', denied.status);
    expect(err.status).toMatchObject({ code: 403, status: 'Failure', message: 'admission webhook "tuesday.example.com" denied the request: You cannot do this because it is Tuesday and your name starts with A' });
    const full = read(review({ allowed: false, status: { status: 'Failure', code: 422, reason: 'Invalid', message: 'bad', details: { name: 'n', kind: 'widgets', causes: [{ reason: 'FieldValueInvalid', field: 'spec.x', message: 'no' }] } } }), false);
    expect(deniedBy('w', full.status).status).toMatchObject({ code: 422, reason: 'Invalid', message: 'admission webhook "w" denied the request: bad', details: { name: 'n', kind: 'widgets', causes: [{ field: 'spec.x' }] } });
    // A reason alone explains; nothing explains nothing; a code under 400 becomes 400 (ToStatusErr).
    expect(deniedBy('w', read(review({ allowed: false, status: { reason: 'NotAllowed', code: 200 } }), false).status).status).toMatchObject({ code: 400, message: 'admission webhook "w" denied the request: NotAllowed' });
    expect(deniedBy('w', read(review({ allowed: false }), false).status).status).toMatchObject({ code: 400, message: 'admission webhook "w" denied the request without explanation' });
    // `result` is no field of AdmissionResponse: kube ignores it, and so do we.
    expect(deniedBy('w', read(review({ allowed: false, result: { code: 403, message: 'not read' } }), false).status).status.message).toBe('admission webhook "w" denied the request without explanation');
  });

  it('reads a mutation (patchType, base64 patch), warnings and auditAnnotations', () => {
    const answer = read(review({
      allowed: true,
      patchType: 'JSONPatch',
      patch: 'W3sib3AiOiAiYWRkIiwgInBhdGgiOiAiL3NwZWMvcmVwbGljYXMiLCAidmFsdWUiOiAzfV0=',
      warnings: ['duplicate envvar entries specified with name MY_ENV', 'memory request less than 4MB specified for container mycontainer, which will not start successfully'],
      auditAnnotations: { 'myplugin.example.com/mykey': 'myvalue' },
    }));
    expect(answer.allowed).toBe(true);
    expect(JSON.parse(Buffer.from(answer.patch ?? '', 'base64').toString())).toEqual([{ op: 'add', path: '/spec/replicas', value: 3 }]);
    expect(answer.warnings).toHaveLength(2);
    expect(answer.auditAnnotations).toEqual({ 'myplugin.example.com/mykey': 'myvalue' });
  });

  it('refuses what Go would not decode into an AdmissionReview, with the decoder\'s message', () => {
    expect(() => decodeAdmissionReview(review({ allowed: 'true' }))).toThrow('json: cannot unmarshal string into Go struct field AdmissionResponse.response.allowed of type bool');
    expect(() => decodeAdmissionReview(review({ allowed: false, status: { code: '403' } }))).toThrow('json: cannot unmarshal string into Go struct field Status.response.status.code of type int32');
    expect(() => decodeAdmissionReview(review({ allowed: false, status: 'denied' }))).toThrow('json: cannot unmarshal string into Go struct field AdmissionResponse.response.status of type v1.Status');
    expect(() => decodeAdmissionReview(review({ allowed: true, warnings: 'careful' }))).toThrow('json: cannot unmarshal string into Go struct field AdmissionResponse.response.warnings of type []string');
    expect(() => decodeAdmissionReview(review({ allowed: true, patchType: 'JSONPatch', patch: 'not base64!' }))).toThrow('illegal base64 data at input byte 3');
    expect(() => decodeAdmissionReview('ok')).toThrow('json: cannot unmarshal string into Go value of type v1.AdmissionReview');
  });
});
