/** etcd key layout: /registry/<resourcePrefix>/[<namespace>/]<name>, as kube-apiserver stores objects. */

export const REGISTRY_ROOT = '/registry/';

export function resourcePrefix(storagePrefix: string): string {
  return `${REGISTRY_ROOT}${storagePrefix}/`;
}

/** Key of one object; cluster-scoped objects have no namespace segment. */
export function objectKey(prefix: string, namespace: string | undefined, name: string): string {
  return namespace ? `${prefix}${namespace}/${name}` : `${prefix}${name}`;
}

/** Prefix of a collection: every object of the resource, or those of one namespace. */
export function collectionKey(prefix: string, namespace?: string): string {
  return namespace ? `${prefix}${namespace}/` : prefix;
}

/** The smallest key greater than every key with this prefix (etcd's range_end for a prefix). */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}
