/**
 * The aggregated API servers of the local stacks (npm start and docker-compose) and the access each needs in the
 * control plane. Each runs as its own user (system:kube-ts:<component>, a client certificate from the local PKI),
 * never as the admin: core-api applies the RBAC aggregatedServerRbac makes of these rows at every start
 * (KUBE_BOOTSTRAP_MANIFESTS). The Helm chart's `aggregatedApiservers` values carry the same rows (a test compares
 * the two). `npm run new-apiserver` adds a row above the marker.
 */
import type { AggregatedServerAccess } from '@kube/apiserver';

export const LOCAL_AGGREGATED_SERVERS: readonly AggregatedServerAccess[] = [
  { component: 'sample-apiserver', service: 'wardle-server', apiService: 'v1alpha1.wardle.example.com' },
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
