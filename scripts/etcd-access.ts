/**
 * Who may touch which etcd keys, in every deployment (npm start, docker-compose, the Helm chart's bundled etcd):
 * one etcd user per API server (the CN of its etcd client certificate, issued by the etcd CA), each with a role of
 * its own (libs/storage reconcileEtcdAuth applies them at every start, then `auth enable`).
 *
 * - The control plane (core-api, extensions, the aggregator) reads all of /registry/: each keeps one etcd watch on
 *   /registry/ whose position is etcd's revision (libs/storage RegistryWatch), which is what proves a consistent
 *   read from its watch caches fresh, and each reads what the others own (RBAC for authorization, service accounts
 *   and secrets for tokens, admission configuration, namespaces, flowcontrol, APIServices). kube-apiserver, whose
 *   three servers these are, holds one etcd credential for all of it. Writes are split: each may write only the
 *   keys of what it serves (a test compares the table with the servers' resources).
 * - extensions serves every CustomResourceDefinition's group, which no role can name in advance: it may write all
 *   of /registry/ but the other servers' keys (etcd roles only grant, so this is granted as the ranges in between).
 * - An aggregated server reads and writes /registry/<its group>/ and nothing else: no control-plane key, not even
 *   readable (it reads the control plane through the front door, as itself). kube's aggregated servers have an
 *   etcd of their own; a role confined to one prefix of the shared etcd is the local equivalent.
 */
import { COMPACT_REV_KEY, ETCD_ROOT_USER, EtcdClient, type EtcdGrant, type EtcdTls, type EtcdUserAccess, keyGrant, prefixGrant, rangesExcept, reconcileEtcdAuth, REGISTRY_ROOT } from '@kube/storage';

/** etcd users of the API servers are `kube-ts:<component>`; reconciliation deletes those no longer wanted. */
export const ETCD_USER_PREFIX = 'kube-ts:';

export function etcdUser(component: string): string {
  return `${ETCD_USER_PREFIX}${component}`;
}

/** The setup step's identity (etcd's root): it alone holds this certificate, never an API server. */
export const ETCD_ROOT_CLIENT = ETCD_ROOT_USER;

/** The control-plane servers, each with an etcd user of its own. */
export const CONTROL_PLANE_ETCD_CLIENTS: readonly string[] = ['core-api', 'extensions', 'aggregator'];

const registry = (segment: string): string => `${REGISTRY_ROOT}${segment}/`;

/**
 * core-api's keys (kube's layout, libs/apiserver storagePrefixOf): the core group's resources under
 * /registry/<plural>/ (with kube's own placements: RBAC and admissionregistration kinds, events.k8s.io Events), the
 * named groups it serves under /registry/<group>/, and the Service IP and NodePort allocations.
 */
export const CORE_API_ETCD_PREFIXES: readonly string[] = [
  ...[
    'configmaps', 'endpoints', 'events', 'limitranges', 'namespaces', 'nodes', 'persistentvolumeclaims', 'persistentvolumes', 'pods', 'podtemplates',
    'replicationcontrollers', 'resourcequotas', 'secrets', 'serviceaccounts', 'services',
    'clusterrolebindings', 'clusterroles', 'rolebindings', 'roles',
    'mutatingwebhookconfigurations', 'validatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings',
    'allocations',
  ].map(registry),
  ...[
    'apps', 'autoscaling', 'batch', 'certificates.k8s.io', 'coordination.k8s.io', 'discovery.k8s.io', 'flowcontrol.apiserver.k8s.io', 'networking.k8s.io',
    'node.k8s.io', 'policy', 'scheduling.k8s.io', 'storage.k8s.io',
  ].map(registry),
];

/**
 * The aggregator's: APIServices, each front door's master lease (kube's lease endpoint reconciler: core-api rewrites
 * the `kubernetes` Endpoints from them), and its leader-election key (its autoregistration controller).
 */
export const AGGREGATOR_ETCD_PREFIXES: readonly string[] = [registry('apiregistration.k8s.io'), registry('masterleases')];
export const AGGREGATOR_LEADER_ELECTION_KEY = `${REGISTRY_ROOT}leader-election/kube-aggregator`;

/** Control-plane coordination keys, nobody's data: not in the ranges extensions may write. */
const LEADER_ELECTION_PREFIX = registry('leader-election');

/** extensions also charges ResourceQuotas for custom resources (the quota's status), as core-api does. */
const EXTENSIONS_SHARED_PREFIXES: readonly string[] = [registry('resourcequotas')];

/** An aggregated server: its component name and the API group whose keys it keeps (/registry/<group>/). */
export interface AggregatedEtcdClient {
  readonly component: string;
  readonly group: string;
}

/** The prefix an aggregated server is confined to (libs/apiserver derives the same from its resources). */
export function aggregatedEtcdPrefix(group: string): string {
  return registry(group);
}

/** The group of an APIService name `<version>.<group>`. */
export function apiServiceGroup(apiService: string): string {
  const dot = apiService.indexOf('.');
  if (dot < 1 || dot === apiService.length - 1) throw new Error(`${apiService}: expected an APIService name <version>.<group>`);
  return apiService.slice(dot + 1);
}

/**
 * Every etcd user and its grants: the three control-plane servers and each aggregated server given. The order of
 * the grants is the order `etcdctl role get` would print them in (by key).
 */
export function etcdAccess(aggregated: readonly AggregatedEtcdClient[]): EtcdUserAccess[] {
  const groups = new Set<string>();
  for (const server of aggregated) {
    if (groups.has(server.group)) throw new Error(`two aggregated servers keep /registry/${server.group}/`);
    groups.add(server.group);
  }
  const readRegistry = prefixGrant(REGISTRY_ROOT, 'read');
  const compaction = keyGrant(COMPACT_REV_KEY, 'readwrite');
  const own = (prefixes: readonly string[]): EtcdGrant[] => prefixes.map((p) => prefixGrant(p, 'readwrite'));
  const core = own(CORE_API_ETCD_PREFIXES);
  const aggregator = [...own(AGGREGATOR_ETCD_PREFIXES), keyGrant(AGGREGATOR_LEADER_ELECTION_KEY, 'readwrite')];
  const aggregatedGrants = aggregated.map((s) => prefixGrant(aggregatedEtcdPrefix(s.group), 'readwrite'));
  const othersThanExtensions = [...core, ...aggregator, prefixGrant(LEADER_ELECTION_PREFIX, 'readwrite'), ...aggregatedGrants];
  const extensions = [...rangesExcept(REGISTRY_ROOT, othersThanExtensions, 'readwrite'), ...own(EXTENSIONS_SHARED_PREFIXES)];
  const sorted = (grants: EtcdGrant[]): EtcdGrant[] => grants.sort((a, b) => Buffer.compare(Buffer.from(a.key, 'latin1'), Buffer.from(b.key, 'latin1')));
  return [
    { user: etcdUser('core-api'), grants: sorted([readRegistry, ...core, compaction]) },
    { user: etcdUser('extensions'), grants: sorted([readRegistry, ...extensions, compaction]) },
    { user: etcdUser('aggregator'), grants: sorted([readRegistry, ...aggregator, compaction]) },
    ...aggregated.map((s, i) => ({ user: etcdUser(s.component), grants: [aggregatedGrants[i]] })),
  ];
}

/** The etcd clients of aggregated servers described by their APIService (scripts/local-aggregated-servers.ts rows). */
export function aggregatedEtcdClients(servers: ReadonlyArray<{ readonly component: string; readonly apiService: string }>): AggregatedEtcdClient[] {
  return servers.map((s) => ({ component: s.component, group: apiServiceGroup(s.apiService) }));
}

/** In a PKI directory written by generate-pki: the aggregated servers (JSON AggregatedEtcdClient[]) whose etcd users etcd-auth applies. */
export const ETCD_AGGREGATED_FILE = 'etcd-aggregated-servers.json';

/** An ETCD_AGGREGATED_FILE's content, checked. */
export function parseAggregatedEtcdClients(json: string): AggregatedEtcdClient[] {
  const value: unknown = JSON.parse(json);
  if (!Array.isArray(value)) throw new Error('expected a JSON array of {component, group}');
  return value.map((v: { component?: unknown; group?: unknown }) => parseAggregatedEtcdClient(`${String(v?.component)}=${String(v?.group)}`));
}

/** `component=group` (the CLI's --aggregated) into an AggregatedEtcdClient. */
export function parseAggregatedEtcdClient(raw: string): AggregatedEtcdClient {
  const m = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)=([a-z0-9]([-a-z0-9.]*[a-z0-9])?)$/.exec(raw);
  if (!m) throw new Error(`--aggregated ${raw}: expected COMPONENT=GROUP, e.g. sample-apiserver=wardle.example.com`);
  return { component: m[1], group: m[3] };
}

export interface ApplyEtcdAccessOptions {
  readonly endpoints: readonly string[];
  /** The root client certificate (CN root) and the etcd CA, PEM. */
  readonly tls: EtcdTls;
  readonly aggregated: readonly AggregatedEtcdClient[];
  /** Keep trying this long while etcd does not answer yet (it may be starting). Default 60 s. */
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
}

/**
 * Connects as etcd's root and reconciles the users and roles of etcdAccess, then enables authentication: what
 * `npm start`, docker-compose's etcd-auth one-shot and the Helm chart's Job run before any API server starts.
 */
export async function applyEtcdAccess(options: ApplyEtcdAccessOptions): Promise<void> {
  const log = options.log ?? (() => undefined);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const access = etcdAccess(options.aggregated);
  for (let attempt = 1; ; attempt++) {
    const client = new EtcdClient({ endpoints: [...options.endpoints], tls: options.tls });
    try {
      const changes = await reconcileEtcdAuth(client, access, { managedPrefix: ETCD_USER_PREFIX });
      for (const change of changes) log(change);
      log(`etcd authentication enabled; users ${access.map((a) => a.user).join(', ')} (${changes.length ? `${changes.length} changes` : 'unchanged'})`);
      return;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // Only "not reachable yet" is worth waiting for; a refused certificate or a missing permission is not.
      if (!/UNAVAILABLE|DEADLINE_EXCEEDED|ECONNREFUSED|No connection established/i.test(message) || Date.now() > deadline) {
        throw new Error(`applying etcd users and roles at ${options.endpoints.join(',')}: ${message}`);
      }
      if (attempt === 1) log(`waiting for etcd at ${options.endpoints.join(',')} (${message.split('\n')[0]})`);
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      client.close();
    }
  }
}
