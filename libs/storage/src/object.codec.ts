import type { KubeObject } from '@kube/apimachinery';

/** Objects are stored as JSON without metadata.resourceVersion: the etcd mod_revision is the version. */
export function encodeObject(obj: KubeObject): Buffer {
  const { resourceVersion: _rv, ...meta } = obj.metadata ?? {};
  return Buffer.from(JSON.stringify({ ...obj, metadata: meta }));
}

export function decodeObject(value: Buffer, modRevision: number | string): KubeObject {
  const obj = JSON.parse(value.toString('utf8')) as KubeObject;
  obj.metadata = obj.metadata ?? {};
  obj.metadata.resourceVersion = String(modRevision);
  return obj;
}
