/**
 * Counts the objects of each namespace by reading the core API through the front door with the SDK's client
 * (@kubernetes/client-node). Collections are read as PartialObjectMetadataList (metadata only), one request per
 * counted resource for all namespaces at once.
 */
import type { KubernetesObject, V1ObjectMeta } from '@kubernetes/client-node';
import type { ObjectMeta } from '@kube/apimachinery';
import { type ApiClient, formatTimestamp } from '@kube/apiserver';

/** The core/v1 collections counted, in the order they are printed, with their kinds. */
const KINDS = { configmaps: 'ConfigMap', secrets: 'Secret', serviceaccounts: 'ServiceAccount', services: 'Service', pods: 'Pod' } as const;
export type CountedResource = keyof typeof KINDS;
export const COUNTED_RESOURCES = Object.keys(KINDS) as readonly CountedResource[];

export type Counts = Record<CountedResource, number>;

/** What is known about one namespace: its metadata and how many objects of each resource it holds. */
export interface NamespaceCounts {
  namespace: ObjectMeta;
  counts: Counts;
}

const METADATA_ONLY = { metadataOnly: true };

/** The reads the counter needs; a refusal is thrown as the core API's Status (ApiClient does that). */
export type CoreApiReader = Pick<ApiClient, 'list' | 'read'>;

function zeroCounts(): Counts {
  return Object.fromEntries(COUNTED_RESOURCES.map((r) => [r, 0])) as Counts;
}

/** The namespace fields an ObjectCount shows, with its creation time back in kube's format. */
function namespaceMeta(meta: V1ObjectMeta | undefined): ObjectMeta {
  const created = meta?.creationTimestamp;
  return { name: meta?.name, labels: meta?.labels, creationTimestamp: created === undefined ? undefined : formatTimestamp(new Date(created)) };
}

export class ObjectCounter {
  constructor(private readonly api: CoreApiReader) {}

  /** Every namespace with its counts. */
  async all(): Promise<NamespaceCounts[]> {
    const [namespaces, ...collections] = await Promise.all([
      this.api.list('v1', 'Namespace', undefined, METADATA_ONLY),
      ...COUNTED_RESOURCES.map((r) => this.api.list('v1', KINDS[r], undefined, METADATA_ONLY)),
    ]);
    const byNamespace = new Map<string, NamespaceCounts>(namespaces.items.map((ns) => [ns.metadata?.name ?? '', { namespace: namespaceMeta(ns.metadata), counts: zeroCounts() }]));
    COUNTED_RESOURCES.forEach((resource, i) => {
      for (const item of collections[i].items) {
        const entry = byNamespace.get(item.metadata?.namespace ?? '');
        if (entry) entry.counts[resource]++;
      }
    });
    return [...byNamespace.values()];
  }

  /** One namespace; a missing namespace is the core API's own 404, rethrown. */
  async one(name: string): Promise<NamespaceCounts> {
    const [namespace, ...collections] = await Promise.all([
      this.api.read<KubernetesObject>('v1', 'Namespace', name),
      ...COUNTED_RESOURCES.map((r) => this.api.list('v1', KINDS[r], name, METADATA_ONLY)),
    ]);
    const counts = zeroCounts();
    COUNTED_RESOURCES.forEach((resource, i) => (counts[resource] = collections[i].items.length));
    return { namespace: namespaceMeta(namespace.metadata), counts };
  }
}
