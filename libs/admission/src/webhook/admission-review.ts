/** admission.k8s.io/v1 AdmissionReview: the request kube sends a webhook, and what it accepts back. */
import type { KubeObject } from '@kube/apimachinery';
import type { AdmissionAttributes } from '../admission.types';

export interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  requestKind: { group: string; version: string; kind: string };
  requestResource: { group: string; version: string; resource: string };
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: string;
  userInfo: { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  object: KubeObject | null;
  oldObject: KubeObject | null;
  dryRun: boolean;
  options: Record<string, unknown> | null;
}

export interface AdmissionResponse {
  uid?: string;
  allowed?: boolean;
  result?: { code?: number; reason?: string; message?: string; status?: string; details?: unknown };
  patch?: string;
  patchType?: string;
  auditAnnotations?: Record<string, string>;
  warnings?: string[];
}

const OPTIONS_KIND: Record<string, string> = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' };

/** The request of one admission attempt (one uid for every webhook it calls, as kube does). */
export function admissionRequest(a: AdmissionAttributes, uid: string): AdmissionRequest {
  const { group, version, kind, plural } = a.resource;
  const gvk = { group, version, kind };
  const gvr = { group, version, resource: plural };
  const user = a.ctx.user;
  const optionsKind = OPTIONS_KIND[a.operation];
  const options: Record<string, unknown> | null = optionsKind ? { kind: optionsKind, apiVersion: 'meta.k8s.io/v1' } : null;
  if (options && a.ctx.dryRun) options.dryRun = ['All'];
  if (options && a.options?.fieldManager && a.operation !== 'DELETE') options.fieldManager = a.options.fieldManager;
  return {
    uid,
    kind: gvk,
    resource: gvr,
    ...(a.subresource ? { subResource: a.subresource } : {}),
    requestKind: gvk,
    requestResource: gvr,
    ...(a.subresource ? { requestSubResource: a.subresource } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(a.namespace ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: { username: user.name, ...(user.uid ? { uid: user.uid } : {}), ...(user.groups.length ? { groups: user.groups } : {}), ...(user.extra && Object.keys(user.extra).length ? { extra: user.extra } : {}) },
    object: a.object ?? null,
    oldObject: a.oldObject ?? null,
    dryRun: a.ctx.dryRun,
    options,
  };
}

/** The review kube POSTs (admissionReviewVersions: v1 is what we speak; v1beta1 has the same shape). */
export function admissionReview(request: AdmissionRequest, version: string): { apiVersion: string; kind: string; request: AdmissionRequest } {
  return { apiVersion: `admission.k8s.io/${version}`, kind: 'AdmissionReview', request };
}

/** The response of a review, checked as kube's VerifyAdmissionResponse does; throws the reason it is unusable. */
export function admissionResponse(body: unknown, uid: string, version: string, mutating: boolean): AdmissionResponse {
  const review = body as { apiVersion?: string; kind?: string; response?: AdmissionResponse } | null;
  if (!review || typeof review !== 'object') throw new Error('expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview');
  if (version === 'v1' && (review.apiVersion !== 'admission.k8s.io/v1' || review.kind !== 'AdmissionReview')) {
    throw new Error(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${review.apiVersion ?? ''}, Kind=${review.kind ?? ''}`);
  }
  const response = review.response;
  if (!response) throw new Error('webhook response was absent');
  if (response.uid !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response.uid ?? '')}`);
  if (response.patch !== undefined || response.patchType !== undefined) {
    if (!mutating) throw new Error('validating webhooks may not return patches');
    if (response.patch !== undefined && response.patchType === undefined && version === 'v1') throw new Error('webhook returned response.patch but not response.patchType');
    if (response.patchType !== undefined && response.patchType !== 'JSONPatch') throw new Error(`webhook returned invalid response.patchType of ${JSON.stringify(response.patchType)}`);
  }
  return response;
}
