import type { DiscoveryResource, DiscoveryVersion } from './discovery.types';

/** One entry of a legacy APIResourceList (`/apis/<group>/<version>`), as older API server libraries serve it. */
export interface LegacyAPIResource {
  name: string;
  singularName?: string;
  namespaced?: boolean;
  group?: string;
  version?: string;
  kind?: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
}

interface SubresourceDiscovery {
  subresource: string;
  verbs?: string[];
  responseKind: { group: string; version: string; kind: string };
}

/**
 * kube's endpoints.ConvertGroupVersionIntoToDiscovery, which the aggregator applies to backends that do not
 * serve aggregated discovery: resources first, then each `parent/sub` attached to its parent (a missing parent
 * is created empty). A subresource whose scope differs from its parent's makes the list unusable, as in kube.
 */
export function convertAPIResourceList(version: string, list: readonly LegacyAPIResource[]): DiscoveryVersion {
  const resources: Array<DiscoveryResource & { subresources?: SubresourceDiscovery[] }> = [];
  const parents = new Map<string, number>();
  for (const r of list) {
    if (r.name.includes('/')) continue;
    const resource: DiscoveryResource = {
      resource: r.name,
      responseKind: { group: r.group ?? '', version: r.version ?? '', kind: r.kind ?? '' },
      scope: r.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: r.singularName ?? '',
      verbs: r.verbs ?? [],
    };
    if (r.shortNames?.length) resource.shortNames = r.shortNames;
    if (r.categories?.length) resource.categories = r.categories;
    resources.push(resource);
    parents.set(r.name, resources.length - 1);
  }
  for (const r of list) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    const split = [r.name.slice(0, slash), r.name.slice(slash + 1)];
    const scope = r.namespaced ? 'Namespaced' : 'Cluster';
    let index = parents.get(split[0]);
    if (index === undefined) {
      resources.push({ resource: split[0], scope, responseKind: { group: '', version: '', kind: '' }, verbs: [] });
      index = resources.length - 1;
      parents.set(split[0], index);
    }
    const parent = resources[index];
    if (parent.scope !== scope) throw new Error(`Error: Parent ${split[0]} (scope: ${String(parent.scope)}) and subresource ${split[1]} (scope: ${scope}) scope do not match`);
    // An empty responseKind, never a missing one: client-go 0.26.0–0.26.3 dereference it (kubernetes#118361).
    const sub: SubresourceDiscovery = { subresource: split[1], verbs: r.verbs ?? [], responseKind: r.kind ? { group: r.group ?? '', version: r.version ?? '', kind: r.kind } : { group: '', version: '', kind: '' } };
    parent.subresources = [...(parent.subresources ?? []), sub];
  }
  return { version, resources, freshness: 'Current' };
}
