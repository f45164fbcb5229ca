import type { KubeObject } from '@kube/apimachinery';

/** Index values of an object (client-go's IndexFunc). */
export type IndexFunc = (obj: KubeObject) => string[];

export const NAMESPACE_INDEX = 'namespace';

/** client-go's MetaNamespaceKeyFunc: `namespace/name`, or `name` for cluster-scoped objects. */
export function metaNamespaceKey(obj: KubeObject): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name}` : String(name);
}

/** client-go's MetaNamespaceIndexFunc. */
export const namespaceIndexFunc: IndexFunc = (obj) => (obj.metadata.namespace ? [obj.metadata.namespace] : []);

/** Read access to an informer's cache (client-go's Indexer as a lister sees it). */
export interface Lister {
  get(key: string): KubeObject | undefined;
  list(): KubeObject[];
  keys(): string[];
  byIndex(index: string, value: string): KubeObject[];
}

/**
 * client-go's thread-safe store with indexers: objects by key, and for each named index the keys per index
 * value. Always indexed by namespace; custom indexers are added before the informer starts.
 */
export class Indexer implements Lister {
  private readonly items = new Map<string, KubeObject>();
  private readonly indexers = new Map<string, IndexFunc>([[NAMESPACE_INDEX, namespaceIndexFunc]]);
  private readonly indices = new Map<string, Map<string, Set<string>>>([[NAMESPACE_INDEX, new Map()]]);

  addIndexers(indexers: Record<string, IndexFunc>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (this.indexers.has(name)) throw new Error(`indexer conflict: ${name}`);
      this.indexers.set(name, fn);
      const index = new Map<string, Set<string>>();
      this.indices.set(name, index);
      for (const [key, obj] of this.items) for (const v of fn(obj)) addTo(index, v, key);
    }
  }

  /** Adds or replaces the object; returns the previous one. */
  set(obj: KubeObject): KubeObject | undefined {
    const key = metaNamespaceKey(obj);
    const old = this.items.get(key);
    if (old) this.unindex(key, old);
    this.items.set(key, obj);
    this.index(key, obj);
    return old;
  }

  delete(key: string): KubeObject | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.items.delete(key);
    return old;
  }

  get(key: string): KubeObject | undefined {
    return this.items.get(key);
  }

  list(): KubeObject[] {
    return [...this.items.values()];
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  byIndex(index: string, value: string): KubeObject[] {
    const idx = this.indices.get(index);
    if (!idx) throw new Error(`index ${index} does not exist`);
    return [...(idx.get(value) ?? [])].map((k) => this.items.get(k) as KubeObject);
  }

  private index(key: string, obj: KubeObject): void {
    for (const [name, fn] of this.indexers) for (const v of fn(obj)) addTo(this.indices.get(name) as Map<string, Set<string>>, v, key);
  }

  private unindex(key: string, obj: KubeObject): void {
    for (const [name, fn] of this.indexers) {
      const idx = this.indices.get(name) as Map<string, Set<string>>;
      for (const v of fn(obj)) {
        const keys = idx.get(v);
        keys?.delete(key);
        if (keys?.size === 0) idx.delete(v);
      }
    }
  }
}

function addTo(index: Map<string, Set<string>>, value: string, key: string): void {
  const keys = index.get(value) ?? new Set<string>();
  keys.add(key);
  index.set(value, keys);
}
