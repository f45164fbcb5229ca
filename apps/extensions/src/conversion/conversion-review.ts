/**
 * The ConversionReview exchange of CRD conversion webhooks, as kube checks it (k8s.io/apiextensions-apiserver
 * pkg/apiserver/conversion/webhook_converter.go): which review version to send, what a response must carry, and
 * how converted objects are checked and get their metadata back. Pure functions; errors carry kube's texts.
 */
import { validateAnnotations, validateLabels, type FieldError, type KubeObject, type ObjectMeta } from '@kube/apimachinery';

export const CONVERSION_REVIEW_KIND = 'ConversionReview';
export type ConversionReviewVersion = 'v1' | 'v1beta1';

export interface ConversionRequest {
  uid: string;
  desiredAPIVersion: string;
  objects: KubeObject[];
}

export interface ConversionResponse {
  uid?: string;
  convertedObjects?: unknown[];
  result?: { status?: string; message?: string };
}

export interface ConversionReview {
  apiVersion: string;
  kind: typeof CONVERSION_REVIEW_KIND;
  request?: ConversionRequest;
  response?: ConversionResponse;
}

/** Go's GroupVersionKind.String(): "stable.example.com/v1, Kind=CronTab". */
export function formatGVK(apiVersion: string, kind: string): string {
  return `${apiVersion}, Kind=${kind}`;
}

/** createConversionReviewObjects: the first listed version this server speaks (kube keeps the CRD's order). */
export function reviewVersionFor(conversionReviewVersions: readonly string[]): ConversionReviewVersion {
  const version = conversionReviewVersions.find((v): v is ConversionReviewVersion => v === 'v1' || v === 'v1beta1');
  if (!version) throw new Error('no supported conversion review versions');
  return version;
}

export function conversionReview(version: ConversionReviewVersion, request: ConversionRequest): ConversionReview {
  return { apiVersion: `apiextensions.k8s.io/${version}`, kind: CONVERSION_REVIEW_KIND, request };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Go's %T of a decoded JSON value, for kube's "invalid ... of type %T" messages. */
function goType(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'number') return 'float64';
  return typeof v;
}

/**
 * getConvertedObjectsFromResponse: a v1 review must be a v1 ConversionReview answering our uid; both versions
 * need result.status Success (a webhook's failure message is passed on as is).
 */
export function convertedObjectsOf(version: ConversionReviewVersion, expectedUID: string, body: unknown): unknown[] {
  const review = isRecord(body) ? body : {};
  if (version === 'v1') {
    const expected = formatGVK('apiextensions.k8s.io/v1', CONVERSION_REVIEW_KIND);
    const got = formatGVK(String(review.apiVersion ?? ''), String(review.kind ?? ''));
    if (got !== expected) throw new Error(`expected webhook response of ${expected}, got ${got}`);
  }
  const response = review.response;
  if (!isRecord(response)) throw new Error('no response provided');
  // v1beta1 processing never verified the uid; kube skips it for compatibility.
  if (version === 'v1' && response.uid !== expectedUID) throw new Error(`expected response.uid=${JSON.stringify(expectedUID)}, got ${JSON.stringify(String(response.uid ?? ''))}`);
  const result = isRecord(response.result) ? response.result : {};
  if (result.status !== 'Success') {
    if (typeof result.message === 'string' && result.message) throw new Error(result.message);
    throw new Error(`response.result.status was '${String(result.status ?? '')}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

/** Which check failed: kube words its message by it (decoding, apiVersion/kind, identity, metadata). */
export type ConvertedObjectCheck = 'decode' | 'type' | 'identity' | 'metadata';

export class ConvertedObjectError extends Error {
  constructor(
    readonly check: ConvertedObjectCheck,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Checks one converted object against the object sent (getRawExtensionObject, apiVersion and kind,
 * validateConvertedObject) and returns it with the original metadata restored but the webhook's labels and
 * annotations (restoreObjectMeta). Throws a ConvertedObjectError.
 */
export function acceptConvertedObject(original: KubeObject, converted: unknown, desiredAPIVersion: string): KubeObject {
  const out = decodeConverted(converted);
  if (out.apiVersion !== desiredAPIVersion) throw new ConvertedObjectError('type', `invalid groupVersion (expected ${desiredAPIVersion}, received ${String(out.apiVersion ?? '')})`);
  if (out.kind !== original.kind) throw new ConvertedObjectError('type', `invalid kind (expected ${original.kind}, received ${String(out.kind ?? '')})`);
  validateConvertedObject(original, out);
  return { ...out, metadata: restoreObjectMeta(original.metadata, out.metadata) } as KubeObject;
}

/** Unstructured.UnmarshalJSON of a converted object: a JSON object with a kind. */
function decodeConverted(converted: unknown): Record<string, unknown> {
  if (!isRecord(converted)) throw new ConvertedObjectError('decode', `json: cannot unmarshal ${Array.isArray(converted) ? 'array' : typeof converted} into Go value of type map[string]interface {}`);
  if (typeof converted.kind !== 'string' || !converted.kind) throw new ConvertedObjectError('decode', `Object 'Kind' is missing in '${JSON.stringify(converted)}'`);
  return converted;
}

/** validateConvertedObject: the object's identity may not change (labels and annotations may). */
function validateConvertedObject(original: KubeObject, out: Record<string, unknown>): void {
  const meta: Record<string, unknown> = isRecord(out.metadata) ? out.metadata : {};
  const same: Array<[string, unknown, unknown]> = [
    ['kind', original.kind, out.kind],
    ['name', original.metadata.name, meta.name],
    ['namespace', original.metadata.namespace, meta.namespace],
    ['UID', original.metadata.uid, meta.uid],
  ];
  for (const [what, e, a] of same) {
    if ((e ?? '') !== (a ?? '')) throw new ConvertedObjectError('identity', `must have the same ${what}: ${String(e ?? '')} != ${String(a ?? '')}`);
  }
}

/** restoreObjectMeta: a deep copy of the original metadata, with the converted labels and annotations. */
export function restoreObjectMeta(original: ObjectMeta, converted: unknown): ObjectMeta {
  if (converted === undefined) throw new ConvertedObjectError('metadata', 'missing metadata in converted object');
  if (!isRecord(converted)) throw new ConvertedObjectError('metadata', `invalid metadata of type ${goType(converted)} in converted object`);
  const restored = structuredClone(original) as ObjectMeta & Record<string, unknown>;
  for (const field of ['labels', 'annotations'] as const) {
    const value = converted[field];
    if (value === undefined || value === null) {
      delete restored[field];
      continue;
    }
    const strings = stringMap(field, value);
    if (changed(restored[field], strings)) {
      const errs: FieldError[] = field === 'labels' ? validateLabels(strings, 'metadata.labels') : validateAnnotations(strings, 'metadata.annotation');
      if (errs.length) throw new ConvertedObjectError('metadata', aggregate(errs));
    }
    restored[field] = strings;
  }
  return restored;
}

function stringMap(field: string, value: unknown): Record<string, string> {
  if (!isRecord(value)) throw new ConvertedObjectError('metadata', `invalid metadata.${field} of type ${goType(value)} in converted object`);
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new ConvertedObjectError('metadata', `metadata.${field}[${k}] must be a string, but is ${goType(v)} in converted object`);
  }
  return value as Record<string, string>;
}

function changed(before: Record<string, string> | undefined, after: Record<string, string>): boolean {
  const old = before ?? {};
  return Object.keys(old).length !== Object.keys(after).length || Object.entries(after).some(([k, v]) => old[k] !== v);
}

/** field.ErrorList.ToAggregate().Error(). */
function aggregate(errs: FieldError[]): string {
  return errs.length === 1 ? errs[0].toString() : `[${errs.map((e) => e.toString()).join(', ')}]`;
}
