import type { KubeObject } from '@kube/apimachinery';

/** An RBAC rule (rbac.authorization.k8s.io/v1 PolicyRule). */
export interface RbacRule {
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly verbs: readonly string[];
}

/** What an aggregated server's least-privilege RBAC is made from. */
export interface AggregatedServerAccess {
  /** Its component name: the user is system:kube-ts:<component>. */
  readonly component: string;
  /** The Service (in AGGREGATED_SERVICE_NAMESPACE) its APIService points at, which it registers itself. */
  readonly service: string;
  /** Its APIService's name, <version>.<group>. */
  readonly apiService: string;
  /** What else it reads or writes in the control plane (counts-apiserver lists what it counts). */
  readonly rules?: readonly RbacRule[];
}

/** The user an aggregated server authenticates as with its own client certificate (or the Helm chart's). */
export function aggregatedServerUser(component: string): string {
  return `system:kube-ts:${component}`;
}

const RBAC = 'rbac.authorization.k8s.io/v1';

/**
 * Where the local stacks' aggregated servers keep the Service and Endpoints their APIService points at: a system
 * namespace of their own, as metrics-server keeps kube-system/metrics-server, never `default` (where clusters keep
 * only `kubernetes`, and kubectl's command tests expect nothing else), and one no user can delete.
 */
export const AGGREGATED_SERVICE_NAMESPACE = 'kube-system';
const NAMESPACE = AGGREGATED_SERVICE_NAMESPACE;

/**
 * The RBAC an aggregated server needs in the control plane, and nothing more: what kube's sample-apiserver
 * manifests grant (system:auth-delegator for TokenReviews and SubjectAccessReviews; reading
 * kube-system/extension-apiserver-authentication), creating its APIService, Service and Endpoints and updating only
 * those (resourceNames), and reading what its admission is configured by (kube's sample-apiserver-reader).
 * npm start and docker-compose apply these through core-api's KUBE_BOOTSTRAP_MANIFESTS; the Helm chart renders the
 * same objects (deploy/helm/kube-ts/templates/core-api/bootstrap-manifests-configmap.yaml; a test compares them).
 */
export function aggregatedServerRbac(access: AggregatedServerAccess): KubeObject[] {
  const user = aggregatedServerUser(access.component);
  const name = `kube-ts:${access.component}`;
  const subjects = [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }];
  const roleRef = (kind: 'ClusterRole' | 'Role', ref: string): Record<string, string> => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name: ref });
  const object = (kind: string, metadata: Record<string, string>, body: Record<string, unknown>): KubeObject => ({ apiVersion: RBAC, kind, metadata, ...body }) as KubeObject;
  return [
    object('ClusterRoleBinding', { name: `${name}:system:auth-delegator` }, { roleRef: roleRef('ClusterRole', 'system:auth-delegator'), subjects }),
    object('RoleBinding', { name: `${name}:authentication-reader`, namespace: 'kube-system' }, { roleRef: roleRef('Role', 'extension-apiserver-authentication-reader'), subjects }),
    object('ClusterRole', { name: `${name}:registration` }, {
      rules: [
        { apiGroups: ['apiregistration.k8s.io'], resources: ['apiservices'], verbs: ['create'] },
        { apiGroups: ['apiregistration.k8s.io'], resources: ['apiservices'], resourceNames: [access.apiService], verbs: ['get', 'patch', 'update'] },
        ...(access.rules ?? []),
      ],
    }),
    object('ClusterRoleBinding', { name: `${name}:registration` }, { roleRef: roleRef('ClusterRole', `${name}:registration`), subjects }),
    object('ClusterRole', { name: `${name}:admission` }, {
      rules: [
        { apiGroups: ['admissionregistration.k8s.io'], resources: ['*'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['services', 'endpoints'], verbs: ['get'] },
      ],
    }),
    object('ClusterRoleBinding', { name: `${name}:admission` }, { roleRef: roleRef('ClusterRole', `${name}:admission`), subjects }),
    object('Role', { name: `${name}:registration`, namespace: NAMESPACE }, {
      rules: [
        { apiGroups: [''], resources: ['services', 'endpoints'], verbs: ['create'] },
        { apiGroups: [''], resources: ['services'], resourceNames: [access.service], verbs: ['get', 'patch', 'update'] },
        { apiGroups: [''], resources: ['endpoints'], resourceNames: [access.service], verbs: ['get', 'patch', 'update'] },
      ],
    }),
    object('RoleBinding', { name: `${name}:registration`, namespace: NAMESPACE }, { roleRef: roleRef('Role', `${name}:registration`), subjects }),
  ];
}
