import { createHash } from 'node:crypto';
import { compareKubeVersions } from '@kube/apimachinery';
import { backendGet } from '../proxy/backend.get';
import type { BackendAgents, BackendTarget } from '../proxy/backend.target';
import { convertAPIResourceList, type LegacyAPIResource } from './legacy-discovery.converter';
import { DISCOVERY_V2_ACCEPT, type DiscoveryGroup, type DiscoveryList, type DiscoveryVersion } from './discovery.types';

export interface CachedDocument {
  body: Buffer;
  etag: string;
  contentType: string;
}

/** What one backend serves, as last fetched. */
interface BackendDiscovery {
  core: DiscoveryGroup[];
  groups: DiscoveryGroup[];
  stale: boolean;
}

export interface GroupVersionOwner {
  group: string;
  version: string;
  backend: string;
}

export type PriorityOf = (group: string, version: string) => { group: number; version: number };


function doc(value: unknown, contentType: string): CachedDocument {
  const body = Buffer.from(JSON.stringify(value));
  return { body, etag: `"${createHash('sha256').update(body).digest('hex')}"`, contentType };
}

/** Thrown when a backend answers discovery, but not in the aggregated form (servers on older libraries). */
class NotAggregated extends Error {}

/** A backend's aggregated discovery document for /api or /apis. */
async function fetchDiscovery(target: BackendTarget, agents: BackendAgents, path: '/api' | '/apis'): Promise<DiscoveryList> {
  const res = await backendGet(target, agents, path, `${DISCOVERY_V2_ACCEPT},application/json`);
  // 406: the server cannot produce the aggregated form; 200 in another form: it ignored it. Both only know legacy discovery.
  if (res.status === 406 || (res.status === 200 && !res.contentType.includes('APIGroupDiscoveryList'))) throw new NotAggregated(`${path}: no aggregated discovery`);
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
  return JSON.parse(res.body.toString()) as DiscoveryList;
}

/** kube's aggregator fallback: the legacy APIResourceList of one group/version, converted. */
async function fetchLegacyDiscovery(target: BackendTarget, agents: BackendAgents, groupVersion: string): Promise<DiscoveryGroup[]> {
  const slash = groupVersion.indexOf('/');
  const [group, version] = [groupVersion.slice(0, slash), groupVersion.slice(slash + 1)];
  const res = await backendGet(target, agents, group ? `/apis/${group}/${version}` : `/api/${version}`, 'application/json');
  if (res.status !== 200) throw new Error(`${groupVersion}: HTTP ${res.status}`);
  const list = JSON.parse(res.body.toString()) as { resources?: LegacyAPIResource[] };
  return [{ metadata: { name: group }, versions: [convertAPIResourceList(version, list.resources ?? [])] }];
}

/**
 * Merged discovery of every backend. Fetched documents are kept in memory; a backend that fails keeps its last
 * good document marked `freshness: Stale`. The merged /api, /apis, /apis/<g> and aggregated documents (with
 * ETags) are rebuilt only when something changed, so serving them is a map lookup.
 */
export class DiscoveryMerger {
  private readonly backends = new Map<string, BackendDiscovery>();
  private docs = new Map<string, CachedDocument>();
  private owners = new Map<string, GroupVersionOwner>();

  constructor(
    private readonly agents: BackendAgents,
    private readonly serverAddress: string,
    private readonly priorityOf: PriorityOf,
    /** Groups the aggregator serves itself (apiregistration.k8s.io), listed first. */
    private readonly localGroups: DiscoveryGroup[],
  ) {
    this.rebuild();
  }

  /**
   * Forgets backends not among the targets and re-fetches (in parallel) those named in `names` (default: all)
   * and any not fetched yet; the rest keep their documents, as kube's discovery manager re-fetches only the
   * service whose APIService changed. `only` limits a backend to the group/versions its APIService names (an
   * aggregated server may serve more than it registered).
   */
  async refresh(targets: ReadonlyMap<string, BackendTarget>, only: ReadonlyMap<string, string> = new Map(), names?: ReadonlySet<string>): Promise<void> {
    for (const name of [...this.backends.keys()]) if (!targets.has(name)) this.backends.delete(name);
    const due = [...targets].filter(([name]) => !names || names.has(name) || !this.backends.has(name));
    await Promise.all(due.map(([name, t]) => this.refreshOne(name, t, only.get(name))));
    this.rebuild();
  }

  /** Group/versions that must be listed even when their backend cannot be reached (unavailable APIServices). */
  setDeclared(groupVersions: ReadonlyArray<{ group: string; version: string }>): void {
    // Every refresh declares again: rebuilding (and hashing) the documents is needed only when the list changed.
    if (groupVersions.length === this.declared.length && groupVersions.every((d, i) => d.group === this.declared[i].group && d.version === this.declared[i].version)) return;
    this.declared = [...groupVersions];
    this.rebuild();
  }

  private declared: Array<{ group: string; version: string }> = [];

  private async refreshOne(name: string, target: BackendTarget, only?: string): Promise<void> {
    try {
      const [core, all] = await Promise.all([
        only ? undefined : fetchDiscovery(target, this.agents, '/api').catch(() => undefined),
        fetchDiscovery(target, this.agents, '/apis').catch((err: unknown) => {
          if (err instanceof NotAggregated && only) return undefined;
          throw err;
        }),
      ]);
      if (!all) {
        this.backends.set(name, { core: [], groups: await fetchLegacyDiscovery(target, this.agents, only as string), stale: false });
        return;
      }
      const groups = only ? all.items.flatMap((g) => (g.versions.some((v) => `${g.metadata.name}/${v.version}` === only) ? [{ ...g, versions: g.versions.filter((v) => `${g.metadata.name}/${v.version}` === only) }] : [])) : all.items;
      this.backends.set(name, { core: core?.items ?? [], groups, stale: false });
    } catch {
      const last = this.backends.get(name);
      if (last) last.stale = true;
    }
  }

  /** True when at least one backend is known and every backend's last fetch succeeded. */
  get complete(): boolean {
    return this.backends.size > 0 && [...this.backends.values()].every((b) => !b.stale);
  }

  /** Which backend serves each group/version ("<group>/<version>"), first owner wins. */
  get groupVersions(): ReadonlyMap<string, GroupVersionOwner> {
    return this.owners;
  }

  get(path: string): CachedDocument | undefined {
    return this.docs.get(path);
  }

  aggregated(path: '/api' | '/apis', version: 'v2' | 'v2beta1'): CachedDocument | undefined {
    return this.docs.get(`${path}#${version}`);
  }

  private rebuild(): void {
    const owners = new Map<string, GroupVersionOwner>();
    const core = new Map<string, DiscoveryVersion>();
    const groups = new Map<string, Map<string, DiscoveryVersion>>();
    for (const g of this.localGroups) this.addGroup(groups, owners, g, 'aggregator', false);
    for (const [name, b] of this.backends) {
      for (const g of b.core) {
        for (const v of g.versions) {
          if (core.has(v.version)) continue;
          core.set(v.version, this.fresh(v, b.stale));
          owners.set(`/${v.version}`, { group: '', version: v.version, backend: name });
        }
      }
      for (const g of b.groups) this.addGroup(groups, owners, g, name, b.stale);
    }
    for (const d of this.declared) {
      if (d.group === '' || owners.has(`${d.group}/${d.version}`)) continue;
      const versions = groups.get(d.group) ?? new Map<string, DiscoveryVersion>();
      groups.set(d.group, versions);
      versions.set(d.version, { version: d.version, resources: [], freshness: 'Stale' });
    }
    this.owners = owners;
    const orderedGroups = this.order(groups);
    const coreGroup: DiscoveryGroup[] = core.size ? [{ metadata: { name: '' }, versions: [...core.values()] }] : [];
    const docs = new Map<string, CachedDocument>();
    docs.set('/api', doc({ kind: 'APIVersions', versions: [...core.keys()], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: this.serverAddress }] }, 'application/json'));
    const apiGroups = orderedGroups.map((g) => this.legacyGroup(g));
    docs.set('/apis', doc({ kind: 'APIGroupList', apiVersion: 'v1', groups: apiGroups }, 'application/json'));
    for (const g of apiGroups) docs.set(`/apis/${g.name}`, doc({ kind: 'APIGroup', apiVersion: 'v1', ...g }, 'application/json'));
    for (const v of ['v2', 'v2beta1'] as const) {
      const ct = `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`;
      docs.set(`/api#${v}`, doc({ kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${v}`, metadata: {}, items: coreGroup }, ct));
      docs.set(`/apis#${v}`, doc({ kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${v}`, metadata: {}, items: orderedGroups }, ct));
    }
    this.docs = docs;
  }

  private fresh(v: DiscoveryVersion, stale: boolean): DiscoveryVersion {
    return { ...v, freshness: stale ? 'Stale' : (v.freshness ?? 'Current') };
  }

  private addGroup(groups: Map<string, Map<string, DiscoveryVersion>>, owners: Map<string, GroupVersionOwner>, g: DiscoveryGroup, backend: string, stale: boolean): void {
    const name = g.metadata.name;
    const versions = groups.get(name) ?? new Map<string, DiscoveryVersion>();
    groups.set(name, versions);
    for (const v of g.versions) {
      const key = `${name}/${v.version}`;
      if (owners.has(key)) continue;
      owners.set(key, { group: name, version: v.version, backend });
      versions.set(v.version, this.fresh(v, stale));
    }
  }

  /** kube's APIService order: apiregistration first, then groupPriorityMinimum desc, versions by priority. */
  private order(groups: Map<string, Map<string, DiscoveryVersion>>): DiscoveryGroup[] {
    const entries = [...groups].filter(([, vs]) => vs.size > 0);
    const groupPriority = (name: string, versions: Map<string, DiscoveryVersion>): number => Math.max(...[...versions.keys()].map((v) => this.priorityOf(name, v).group));
    entries.sort(([a, av], [b, bv]) => {
      if (a === 'apiregistration.k8s.io') return -1;
      if (b === 'apiregistration.k8s.io') return 1;
      return groupPriority(b, bv) - groupPriority(a, av) || a.localeCompare(b);
    });
    return entries.map(([name, versions]) => ({
      metadata: { name },
      versions: [...versions.values()].sort((x, y) => this.priorityOf(name, y.version).version - this.priorityOf(name, x.version).version || compareKubeVersions(x.version, y.version)),
    }));
  }

  private legacyGroup(g: DiscoveryGroup): { name: string; versions: Array<{ groupVersion: string; version: string }>; preferredVersion: { groupVersion: string; version: string } } {
    const versions = g.versions.map((v) => ({ groupVersion: `${g.metadata.name}/${v.version}`, version: v.version }));
    return { name: g.metadata.name, versions, preferredVersion: versions[0] };
  }
}
