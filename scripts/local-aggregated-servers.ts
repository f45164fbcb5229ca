/**
 * The aggregated API servers of the local stacks (npm start and docker-compose) and the access each needs in the
 * control plane. Each runs as its own user (system:kube-ts:<component>, a client certificate from the local PKI),
 * never as the admin: core-api applies the RBAC aggregatedServerRbac makes of these rows at every start
 * (KUBE_BOOTSTRAP_MANIFESTS). The Helm chart's `aggregatedApiservers` values carry the same rows (a test compares
 * the two). `npm run new-apiserver` adds a row above the marker.
 */
import { writeFile } from 'node:fs/promises';
import { type AggregatedServerAccess, aggregatedServerRbac, aggregatedServerUser } from '@kube/apiserver';
import type { ClientIdentity } from '@kube/pki';
import { stringify } from 'yaml';

export const LOCAL_AGGREGATED_SERVERS: readonly AggregatedServerAccess[] = [
  {
    component: 'sample-apiserver',
    service: 'wardle-server',
    apiService: 'v1alpha1.wardle.example.com',
    // Its NamespaceLifecycle and ResourceQuota admission read Namespaces (granted to every aggregated server) and
    // ResourceQuotas, and charge Flunders to quotas, through the front door: its etcd role reaches only its own keys.
    rules: [
      { apiGroups: [''], resources: ['resourcequotas'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['resourcequotas/status'], verbs: ['update'] },
    ],
  },
  {
    component: 'counts-apiserver',
    service: 'counts-apiserver',
    apiService: 'v1alpha1.counts.example.com',
    // It counts these objects in every namespace, reading them through the front door.
    rules: [{ apiGroups: [''], resources: ['namespaces', 'configmaps', 'secrets', 'serviceaccounts', 'services', 'pods'], verbs: ['list'] }],
  },
  // new-apiserver: access rows of scaffolded servers go above this line.
];

/** The row of `component`; a server without one would start with no rights at all, so its absence is an error. */
export function localAggregatedServer(component: string): AggregatedServerAccess {
  const row = LOCAL_AGGREGATED_SERVERS.find((s) => s.component === component);
  if (!row) throw new Error(`${component} has no row in scripts/local-aggregated-servers.ts (its RBAC in the local stacks)`);
  return row;
}

/**
 * Writes the RBAC of `components` to `file` (a manifest for core-api's KUBE_BOOTSTRAP_MANIFESTS) and answers the
 * client certificate each needs (EnsurePkiOptions.clientCertificates).
 */
export async function writeAggregatedServerAccess(file: string, components: readonly string[]): Promise<Record<string, ClientIdentity>> {
  const rows = components.map(localAggregatedServer);
  const docs = rows.flatMap(aggregatedServerRbac).map((o) => stringify(o));
  await writeFile(file, `# The RBAC of the local aggregated servers (scripts/local-aggregated-servers.ts).\n---\n${docs.join('---\n')}`, { mode: 0o644 });
  return Object.fromEntries(rows.map((r) => [r.component, { user: aggregatedServerUser(r.component) }]));
}
