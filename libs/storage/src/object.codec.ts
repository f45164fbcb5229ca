import type { KubeObject } from '@kube/apimachinery';

/** Objects are stored as JSON without metadata.resourceVersion: the etcd mod_revision is the version. */
export function encodeObject(obj: KubeObject): Buffer {
  const { resourceVersion: _rv, ...meta } = obj.metadata ?? {};
  return Buffer.from(JSON.stringify({ ...obj, metadata: meta }));
}

/**
 * Whether two objects hold the same content, resourceVersion aside: key order and undefined fields do not count
 * (kube compares the bytes of Go's encoding, whose field order is fixed and whose map keys are sorted).
 */
export function sameStoredContent(a: KubeObject, b: KubeObject): boolean {
  const { resourceVersion: _a, ...metaA } = a.metadata ?? {};
  const { resourceVersion: _b, ...metaB } = b.metadata ?? {};
  return sameJson({ ...a, metadata: metaA }, { ...b, metadata: metaB });
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keysA = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const keysB = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return keysA.length === keysB.length && keysA.every((k) => Object.hasOwn(rb, k) && sameJson(ra[k], rb[k]));
}

export function decodeObject(value: Buffer, modRevision: number | string): KubeObject {
  const obj = JSON.parse(value.toString('utf8')) as KubeObject;
  obj.metadata = obj.metadata ?? {};
  obj.metadata.resourceVersion = String(modRevision);
  return obj;
}
