import type { ResourcePath, RestClient } from './rest.client';

/** One resource as discovery lists it (the preferred version of its group unless asked otherwise). */
export interface DiscoveredResource extends ResourcePath {
  kind: string;
  verbs: string[];
}

/** What one discovery pass found: every resource of every served version, and the group/versions that failed. */
export interface DiscoverySnapshot {
  /** The preferred version of each group: client-go's ServerPreferredResources. */
  preferred: DiscoveredResource[];
  /** Every version's resources, to map an ownerReference's apiVersion/kind to its resource (kube's RESTMapper). */
  all: DiscoveredResource[];
  /** Group/versions discovery could not read (a Stale aggregated document: the backend is down). */
  failed: string[];
}

interface ApiResourceDiscovery {
  resource: string;
  responseKind?: { group: string; version: string; kind: string };
  scope: 'Namespaced' | 'Cluster';
  verbs?: string[];
}

interface ApiGroupDiscovery {
  metadata?: { name?: string };
  versions?: Array<{ version: string; resources?: ApiResourceDiscovery[]; freshness?: string }>;
}

/** kube's aggregated discovery (apidiscovery.k8s.io/v2): two requests list everything the front door serves. */
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

/** client-go's discovery client, on the aggregated documents of /api and /apis. */
export async function discoverResources(client: RestClient): Promise<DiscoverySnapshot> {
  const snapshot: DiscoverySnapshot = { preferred: [], all: [], failed: [] };
  for (const path of ['/api', '/apis']) {
    const doc = await client.get<{ items?: ApiGroupDiscovery[] }>(path, { accept: AGGREGATED });
    for (const group of doc.items ?? []) {
      const name = group.metadata?.name ?? '';
      // Versions are listed by preference: the first one that reads is the group's preferred version.
      let preferredTaken = false;
      for (const v of group.versions ?? []) {
        if (v.freshness === 'Stale') {
          snapshot.failed.push(name ? `${name}/${v.version}` : v.version);
          continue;
        }
        for (const r of v.resources ?? []) {
          const resource: DiscoveredResource = { group: name, version: v.version, resource: r.resource, namespaced: r.scope === 'Namespaced', kind: r.responseKind?.kind ?? '', verbs: r.verbs ?? [] };
          snapshot.all.push(resource);
          if (!preferredTaken) snapshot.preferred.push(resource);
        }
        preferredTaken = true;
      }
    }
  }
  return snapshot;
}

/** Resources that support every one of `verbs`. */
export function withVerbs(resources: readonly DiscoveredResource[], ...verbs: string[]): DiscoveredResource[] {
  return resources.filter((r) => verbs.every((v) => r.verbs.includes(v)));
}
