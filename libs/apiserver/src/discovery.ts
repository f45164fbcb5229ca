import { createHash } from 'node:crypto';
import { compareKubeVersions, formatGroupVersion, type GroupVersion } from '@kube/apimachinery';
import { servedVerbs, type ResourceDefinition } from './resource.definition';
import { subresourceKind, type SubresourceStrategy } from './subresources/subresource.strategy';

export interface CachedDocument {
  body: Buffer;
  etag: string;
  contentType: string;
}

interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

const DISCOVERY_V2 = 'apidiscovery.k8s.io/v2';
const DISCOVERY_V2BETA1 = 'apidiscovery.k8s.io/v2beta1';

function document(value: unknown, contentType = 'application/json'): CachedDocument {
  const body = Buffer.from(JSON.stringify(value));
  return { body, etag: `"${createHash('sha256').update(body).digest('hex')}"`, contentType };
}

/** kube's storageVersionHash: base64 of the first 8 bytes of sha256("<group>/<version>/<kind>"). */
export function storageVersionHash(def: ResourceDefinition): string {
  return createHash('sha256').update(`${def.group}/${def.version}/${def.kind}`).digest().subarray(0, 8).toString('base64');
}

function verbsOf(def: ResourceDefinition): string[] {
  return [...(servedVerbs(def))].sort();
}

/** The subresources discovery lists, in declaration order. */
function discoveredSubresources(def: ResourceDefinition): Array<[string, SubresourceStrategy]> {
  return Object.entries(def.subresources ?? {}).filter(([, sub]) => sub.discovered);
}

function apiResources(defs: ResourceDefinition[]): APIResource[] {
  const out: APIResource[] = [];
  for (const def of defs) {
    const r: APIResource = { name: def.plural, singularName: def.singular, namespaced: def.namespaced, kind: def.kind, verbs: verbsOf(def) };
    if (def.shortNames?.length) r.shortNames = def.shortNames;
    if (def.categories?.length) r.categories = def.categories;
    r.storageVersionHash = storageVersionHash(def);
    out.push(r);
    for (const [name, sub] of discoveredSubresources(def)) {
      const kind = subresourceKind(sub);
      // kube names the group and version only of a kind from another group version (Scale, Eviction, TokenRequest).
      const other = kind && (kind.group !== def.group || kind.version !== def.version);
      out.push({ name: `${def.plural}/${name}`, singularName: '', namespaced: def.namespaced, ...(other ? { group: kind.group, version: kind.version } : {}), kind: kind?.kind ?? def.kind, verbs: [...sub.verbs] });
    }
  }
  return out;
}

function aggregatedResources(defs: ResourceDefinition[]): unknown[] {
  return defs.map((def) => {
    const r: Record<string, unknown> = {
      resource: def.plural,
      responseKind: { group: def.group, version: def.version, kind: def.kind },
      scope: def.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: def.singular,
      verbs: verbsOf(def),
    };
    if (def.shortNames?.length) r.shortNames = def.shortNames;
    if (def.categories?.length) r.categories = def.categories;
    const subresources = discoveredSubresources(def).map(([name, sub]) => ({ subresource: name, responseKind: subresourceKind(sub) ?? { group: def.group, version: def.version, kind: def.kind }, verbs: [...sub.verbs] }));
    if (subresources.length) r.subresources = subresources;
    return r;
  });
}

interface GroupEntry {
  name: string;
  versions: Map<string, ResourceDefinition[]>;
}

/**
 * Every discovery document of one server, each built (JSON and ETag) the first time it is asked for after a
 * change of the resource set, then served from memory. Built on demand, not on every change: with 1,000 CRDs a
 * change used to re-encode and hash some 2,000 documents, and CRD churn makes many changes a second.
 * /api, /apis, /apis/<g>, /api/v1, /apis/<g>/<v>, and aggregated discovery.
 */
export class DiscoveryDocuments {
  private docs = new Map<string, CachedDocument>();
  private builders = new Map<string, () => CachedDocument>();
  private groupOrder: string[] = [];

  constructor(private serverAddress: string) {}

  rebuild(defs: ResourceDefinition[], groupPriority: (group: string) => number = () => 0): void {
    const groups = new Map<string, GroupEntry>();
    for (const def of defs) {
      const g = groups.get(def.group) ?? { name: def.group, versions: new Map() };
      groups.set(def.group, g);
      const list = g.versions.get(def.version) ?? [];
      list.push(def);
      g.versions.set(def.version, list);
    }
    const builders = new Map<string, () => CachedDocument>();
    const named = [...groups.values()].filter((g) => g.name !== '');
    named.sort((a, b) => groupPriority(b.name) - groupPriority(a.name) || a.name.localeCompare(b.name));
    this.groupOrder = named.map((g) => g.name);

    const core = groups.get('');
    builders.set('/api', () => document({ kind: 'APIVersions', versions: core ? this.sortedVersions(core) : [], serverAddressByClientCIDRs: this.addresses() }));
    for (const g of groups.values()) {
      for (const [version, list] of g.versions) {
        const gv: GroupVersion = { group: g.name, version };
        const path = g.name === '' ? `/api/${version}` : `/apis/${g.name}/${version}`;
        builders.set(path, () => document({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: formatGroupVersion(gv), resources: apiResources(list) }));
      }
    }
    for (const g of named) builders.set(`/apis/${g.name}`, () => document({ kind: 'APIGroup', apiVersion: 'v1', ...this.apiGroup(g) }));
    builders.set('/apis', () => document({ kind: 'APIGroupList', apiVersion: 'v1', groups: named.map((g) => this.apiGroup(g)) }));
    for (const [apiVersion, suffix] of [[DISCOVERY_V2, 'v2'], [DISCOVERY_V2BETA1, 'v2beta1']] as const) {
      const ct = `application/json;g=apidiscovery.k8s.io;v=${suffix};as=APIGroupDiscoveryList`;
      builders.set(`/api#${suffix}`, () => document(this.buildAggregated(apiVersion, core ? [core] : []), ct));
      builders.set(`/apis#${suffix}`, () => document(this.buildAggregated(apiVersion, named), ct));
    }
    this.builders = builders;
    this.docs = new Map();
  }

  get(path: string): CachedDocument | undefined {
    let doc = this.docs.get(path);
    if (doc === undefined) {
      const build = this.builders.get(path);
      if (build === undefined) return undefined;
      doc = build();
      this.docs.set(path, doc);
    }
    return doc;
  }

  /** Aggregated discovery for /api or /apis in v2 or v2beta1. */
  aggregated(path: '/api' | '/apis', version: 'v2' | 'v2beta1'): CachedDocument | undefined {
    return this.get(`${path}#${version}`);
  }

  get groups(): readonly string[] {
    return this.groupOrder;
  }

  private addresses(): unknown[] {
    return [{ clientCIDR: '0.0.0.0/0', serverAddress: this.serverAddress }];
  }

  private sortedVersions(g: GroupEntry): string[] {
    return [...g.versions.keys()].sort(compareKubeVersions);
  }

  private apiGroup(g: GroupEntry): Record<string, unknown> {
    const versions = this.sortedVersions(g).map((v) => ({ groupVersion: `${g.name}/${v}`, version: v }));
    return { name: g.name, versions, preferredVersion: versions[0] };
  }

  private buildAggregated(apiVersion: string, groups: GroupEntry[]): unknown {
    return {
      kind: 'APIGroupDiscoveryList',
      apiVersion,
      metadata: {},
      items: groups.map((g) => ({
        metadata: { name: g.name },
        versions: this.sortedVersions(g).map((v) => ({ version: v, resources: aggregatedResources(g.versions.get(v) ?? []), freshness: 'Current' })),
      })),
    };
  }
}
