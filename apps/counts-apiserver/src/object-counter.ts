/**
 * Counts the objects of each namespace by reading the core API through the front door. Collections are read
 * as PartialObjectMetadataList (metadata only), one request per counted resource for all namespaces at once.
 */
import type { KubeList, KubeObject, ObjectMeta } from '@kube/apimachinery';
import type { ApiClient } from '@kube/apiserver';

/** The core/v1 collections counted, in the order they are printed. */
export const COUNTED_RESOURCES = ['configmaps', 'secrets', 'serviceaccounts', 'services', 'pods'] as const;
export type CountedResource = (typeof COUNTED_RESOURCES)[number];

export type Counts = Record<CountedResource, number>;

/** What is known about one namespace: its metadata and how many objects of each resource it holds. */
export interface NamespaceCounts {
  namespace: ObjectMeta;
  counts: Counts;
}

const METADATA_ONLY = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

/** The reads the counter needs: GET as JSON, a non-2xx answer thrown as its Status (ApiClient does that). */
export type CoreApiReader = Pick<ApiClient, 'getJson'>;

function zeroCounts(): Counts {
  return Object.fromEntries(COUNTED_RESOURCES.map((r) => [r, 0])) as Counts;
}

export class ObjectCounter {
  constructor(private readonly api: CoreApiReader) {}

  /** Every namespace with its counts. */
  async all(): Promise<NamespaceCounts[]> {
    const [namespaces, ...collections] = await Promise.all([
      this.api.getJson<KubeList>('/api/v1/namespaces', METADATA_ONLY),
      ...COUNTED_RESOURCES.map((r) => this.api.getJson<KubeList>(`/api/v1/${r}`, METADATA_ONLY)),
    ]);
    const byNamespace = new Map<string, NamespaceCounts>(namespaces.items.map((ns) => [ns.metadata.name ?? '', { namespace: ns.metadata, counts: zeroCounts() }]));
    COUNTED_RESOURCES.forEach((resource, i) => {
      for (const item of collections[i].items) {
        const entry = byNamespace.get(item.metadata.namespace ?? '');
        if (entry) entry.counts[resource]++;
      }
    });
    return [...byNamespace.values()];
  }

  /** One namespace; a missing namespace is the core API's own 404, rethrown. */
  async one(name: string): Promise<NamespaceCounts> {
    const path = encodeURIComponent(name);
    const [namespace, ...collections] = await Promise.all([
      this.api.getJson<KubeObject>(`/api/v1/namespaces/${path}`),
      ...COUNTED_RESOURCES.map((r) => this.api.getJson<KubeList>(`/api/v1/namespaces/${path}/${r}`, METADATA_ONLY)),
    ]);
    const counts = zeroCounts();
    COUNTED_RESOURCES.forEach((resource, i) => (counts[resource] = collections[i].items.length));
    return { namespace: namespace.metadata, counts };
  }
}
