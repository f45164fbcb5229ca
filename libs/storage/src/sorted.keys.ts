/**
 * The keys of one resource's watch cache by collection (a namespace's `<prefix><namespace>/`, or the
 * resource's own prefix for cluster-scoped objects), each collection's kept sorted once asked for. A LIST of
 * one namespace reads that namespace's keys, in etcd's order, instead of scanning and sorting every key of the
 * resource (kube's watch cache keeps a sorted tree for the same reason).
 */
export class SortedKeys {
  private readonly byCollection = new Map<string, Set<string>>();
  private readonly sorted = new Map<string, string[]>();
  private allSorted?: string[];

  constructor(private readonly prefix: string) {}

  add(key: string): void {
    const c = collectionOf(key);
    let keys = this.byCollection.get(c);
    if (!keys) {
      keys = new Set();
      this.byCollection.set(c, keys);
    }
    if (keys.has(key)) return;
    keys.add(key);
    this.changed(c);
  }

  delete(key: string): void {
    const c = collectionOf(key);
    const keys = this.byCollection.get(c);
    if (!keys?.delete(key)) return;
    if (keys.size === 0) this.byCollection.delete(c);
    this.changed(c);
  }

  clear(): void {
    this.byCollection.clear();
    this.sorted.clear();
    this.allSorted = undefined;
  }

  /**
   * The keys under keyPrefix in key order, when keyPrefix is the resource's prefix or one collection (an empty
   * one included); undefined for any other prefix.
   */
  under(keyPrefix: string): readonly string[] | undefined {
    if (keyPrefix === this.prefix) {
      this.allSorted ??= [...this.byCollection.values()].flatMap((keys) => [...keys]).sort(compare);
      return this.allSorted;
    }
    if (!keyPrefix.startsWith(this.prefix)) return undefined;
    const rest = keyPrefix.slice(this.prefix.length);
    if (rest.length < 2 || rest.indexOf('/') !== rest.length - 1) return undefined;
    const keys = this.byCollection.get(keyPrefix);
    if (!keys) return [];
    let sorted = this.sorted.get(keyPrefix);
    if (!sorted) {
      sorted = [...keys].sort(compare);
      this.sorted.set(keyPrefix, sorted);
    }
    return sorted;
  }

  private changed(collection: string): void {
    this.sorted.delete(collection);
    this.allSorted = undefined;
  }
}

function collectionOf(key: string): string {
  return key.slice(0, key.lastIndexOf('/') + 1);
}

/** Code-unit order, as etcd orders keys (byte order; the same for the ASCII names Kubernetes allows). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
