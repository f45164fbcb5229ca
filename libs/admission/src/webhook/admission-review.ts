/**
 * admission.k8s.io/v1 AdmissionReview: the request kube sends a webhook, and what it accepts back. Field names are
 * k8s.io/api admission/v1's JSON names (the response's result travels as `status`).
 */
import { GO_ANY, GO_BOOL, GO_INT32, GO_STRING, goDecodeError, goMap, goNamedString, goSlice, goStruct, type KubeObject, type StatusDetails } from '@kube/apimachinery';
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

/** metav1.Status as a webhook answers it. */
export interface AdmissionResult {
  code?: number;
  reason?: string;
  message?: string;
  status?: string;
  details?: StatusDetails;
}

export interface AdmissionResponse {
  uid?: string;
  allowed?: boolean;
  /** `Result *metav1.Status json:"status,omitempty"`: a refusal's code and message. */
  status?: AdmissionResult;
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
  if (options && a.operation === 'DELETE') Object.assign(options, definedOnly(a.options?.delete ?? {}));
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

function definedOnly(o: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** The review kube POSTs (admissionReviewVersions: v1 is what we speak; v1beta1 has the same shape). */
export function admissionReview(request: AdmissionRequest, version: string): { apiVersion: string; kind: string; request: AdmissionRequest } {
  return { apiVersion: `admission.k8s.io/${version}`, kind: 'AdmissionReview', request };
}

const STATUS_GO_TYPE = goStruct('v1.Status', {
  kind: GO_STRING,
  apiVersion: GO_STRING,
  metadata: GO_ANY,
  status: GO_STRING,
  message: GO_STRING,
  reason: goNamedString('v1.StatusReason'),
  details: goStruct('v1.StatusDetails', {
    name: GO_STRING,
    group: GO_STRING,
    kind: GO_STRING,
    uid: goNamedString('types.UID'),
    causes: goSlice(goStruct('v1.StatusCause', { reason: goNamedString('v1.CauseType'), message: GO_STRING, field: GO_STRING })),
    retryAfterSeconds: GO_INT32,
  }),
  code: GO_INT32,
});

/** admission/v1 AdmissionReview as Go's decoder reads a webhook's answer (the request part is not read back). */
const ADMISSION_REVIEW_GO_TYPE = goStruct('v1.AdmissionReview', {
  kind: GO_STRING,
  apiVersion: GO_STRING,
  response: goStruct('v1.AdmissionResponse', {
    uid: goNamedString('types.UID'),
    allowed: GO_BOOL,
    status: STATUS_GO_TYPE,
    patch: GO_STRING,
    patchType: goNamedString('v1.PatchType'),
    auditAnnotations: goMap(GO_STRING),
    warnings: goSlice(GO_STRING),
  }),
});

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A webhook's answer decoded as client-go decodes it into an AdmissionReview: a JSON value of the wrong type
 * (`"allowed":"yes"`) or a patch that is not base64 fails as the decoder fails (kube: "failed to call webhook").
 */
export function decodeAdmissionReview(body: unknown): unknown {
  const err = goDecodeError(body, ADMISSION_REVIEW_GO_TYPE);
  if (err) throw new Error(err);
  const patch = (body as { response?: { patch?: unknown } } | null)?.response?.patch;
  if (typeof patch === 'string') {
    const at = base64ErrorAt(patch);
    if (at !== undefined) throw new Error(`illegal base64 data at input byte ${at}`);
  }
  return body;
}

/** Where Go's base64.StdEncoding stops decoding `s` (a []byte field is base64 in JSON), or undefined. */
function base64ErrorAt(s: string): number | undefined {
  if (BASE64.test(s)) return undefined;
  const bad = s.search(/[^A-Za-z0-9+/=]/);
  if (bad >= 0) return bad;
  const pad = s.indexOf('=');
  return pad >= 0 && pad < s.length - 2 ? pad : s.length - (s.length % 4);
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
