/**
 * kube's bootstrap RBAC policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go and namespace_policy.go):
 * the default roles and bindings every cluster starts with, for the APIs a generic control plane serves. The
 * spec beside this file compares them with kube's golden testdata.
 */
import { RBAC_API_VERSION, RBAC_GROUP, type ClusterRole, type PolicyRule, type Role, type RoleBinding, type Subject } from './rbac.types';

export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
export const BOOTSTRAPPING_LABEL = 'kubernetes.io/bootstrapping';
export const AGGREGATE_TO = (role: 'admin' | 'edit' | 'view'): string => `rbac.authorization.k8s.io/aggregate-to-${role}`;

const READ = ['get', 'list', 'watch'];
const READ_WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];

const sorted = (values: readonly string[]): string[] => [...new Set(values)].sort();

/** rbacv1helpers.NewRule(verbs…).Groups(…).Resources(…)/.URLs(…).Names(…): every list sorted and deduplicated. */
function rule(verbs: readonly string[], groups: readonly string[], resources: readonly string[], names?: readonly string[]): PolicyRule {
  const r: PolicyRule = { verbs: sorted(verbs), apiGroups: sorted(groups), resources: sorted(resources) };
  if (names?.length) r.resourceNames = sorted(names);
  return r;
}

function urls(verbs: readonly string[], paths: readonly string[]): PolicyRule {
  return { verbs: sorted(verbs), nonResourceURLs: sorted(paths) };
}

function meta(name: string, labels: Record<string, string> = {}, namespace?: string): ClusterRole['metadata'] {
  return { name, ...(namespace ? { namespace } : {}), labels: { [BOOTSTRAPPING_LABEL]: 'rbac-defaults', ...labels }, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } };
}

function clusterRole(name: string, rules: PolicyRule[], labels?: Record<string, string>): ClusterRole {
  return { apiVersion: RBAC_API_VERSION, kind: 'ClusterRole', metadata: meta(name, labels), rules };
}

function aggregated(name: string, to: 'admin' | 'edit' | 'view', labels?: Record<string, string>): ClusterRole {
  return { apiVersion: RBAC_API_VERSION, kind: 'ClusterRole', metadata: meta(name, labels), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [AGGREGATE_TO(to)]: 'true' } }] }, rules: [] };
}

const group = (name: string): Subject => ({ apiGroup: RBAC_GROUP, kind: 'Group', name });
const user = (name: string): Subject => ({ apiGroup: RBAC_GROUP, kind: 'User', name });

function clusterRoleBinding(role: string, subjects: Subject[]): RoleBinding {
  return { apiVersion: RBAC_API_VERSION, kind: 'ClusterRoleBinding', metadata: meta(role), roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role }, subjects };
}

const CERTIFICATES_GROUP = 'certificates.k8s.io';
const APPS_GROUP = 'apps';
const DISCOVERY_URLS = ['/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'];
const PUBLIC_INFO_URLS = ['/livez', '/readyz', '/healthz', '/version', '/version/'];

export const BOOTSTRAP_CLUSTER_ROLES: readonly ClusterRole[] = [
  clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
  aggregated('admin', 'admin'),
  aggregated('edit', 'edit', { [AGGREGATE_TO('admin')]: 'true' }),
  aggregated('view', 'view', { [AGGREGATE_TO('edit')]: 'true' }),
  clusterRole(
    'system:aggregate-to-admin',
    [rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']), rule(READ_WRITE, [RBAC_GROUP], ['roles', 'rolebindings'])],
    { [AGGREGATE_TO('admin')]: 'true' },
  ),
  clusterRole(
    'system:aggregate-to-edit',
    [
      rule(READ, [''], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
      rule(['impersonate'], [''], ['serviceaccounts']),
      rule(WRITE, [''], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
      rule(['create'], [''], ['pods/eviction']),
      rule(WRITE, [''], ['replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets', 'events']),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(WRITE, ['apps'], ['statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'replicasets', 'replicasets/scale']),
      rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(WRITE, ['batch'], ['jobs', 'cronjobs']),
      rule(WRITE, ['extensions'], ['daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'ingresses', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale', 'networkpolicies']),
      rule(WRITE, ['policy'], ['poddisruptionbudgets']),
      rule(WRITE, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
      rule(READ_WRITE, ['coordination.k8s.io'], ['leases']),
    ],
    { [AGGREGATE_TO('edit')]: 'true' },
  ),
  clusterRole(
    'system:aggregate-to-view',
    [
      rule(READ, [''], ['pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps']),
      rule(READ, [''], ['limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log']),
      rule(READ, [''], ['namespaces']),
      rule(READ, ['discovery.k8s.io'], ['endpointslices']),
      rule(READ, ['apps'], ['controllerrevisions', 'statefulsets', 'statefulsets/status', 'statefulsets/scale', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/status', 'deployments/scale', 'replicasets', 'replicasets/status', 'replicasets/scale']),
      rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(READ, ['batch'], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
      rule(READ, ['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale', 'networkpolicies']),
      rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(READ, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
    ],
    { [AGGREGATE_TO('view')]: 'true' },
  ),
  clusterRole('system:auth-delegator', [rule(['create'], ['authentication.k8s.io'], ['tokenreviews']), rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews'])]),
  clusterRole('system:basic-user', [rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']), rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews'])]),
  // The Certificates API's (CertificateApproval checks `approve` on signers/<signerName>): kube creates them unbound.
  clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [rule(['create'], [CERTIFICATES_GROUP], ['certificatesigningrequests/nodeclient'])]),
  clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [rule(['create'], [CERTIFICATES_GROUP], ['certificatesigningrequests/selfnodeclient'])]),
  ...['kube-apiserver-client', 'kube-apiserver-client-kubelet', 'kubelet-serving', 'legacy-unknown'].map((signer) =>
    clusterRole(`system:certificates.k8s.io:${signer}-approver`, [rule(['approve'], [CERTIFICATES_GROUP], ['signers'], [`kubernetes.io/${signer}`])]),
  ),
  clusterRole('system:discovery', [urls(['get'], DISCOVERY_URLS)]),
  clusterRole('system:kube-aggregator', [rule(READ, [''], ['endpoints', 'services'])]),
  clusterRole('system:monitoring', [urls(['get'], ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'])]),
  clusterRole('system:public-info-viewer', [urls(['get'], PUBLIC_INFO_URLS)]),
  clusterRole('system:service-account-issuer-discovery', [urls(['get'], ['/.well-known/openid-configuration', '/openid/v1/jwks'])]),
];

export const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: readonly RoleBinding[] = [
  clusterRoleBinding('cluster-admin', [group('system:masters')]),
  clusterRoleBinding('system:basic-user', [group('system:authenticated')]),
  clusterRoleBinding('system:discovery', [group('system:authenticated')]),
  clusterRoleBinding('system:monitoring', [group('system:monitoring')]),
  clusterRoleBinding('system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]),
  clusterRoleBinding('system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
];

/**
 * The front door's own user when it keeps its apiserver identity Lease through core-api and collects expired ones
 * (kube's apiserver does both as its loopback user, in system:masters): Leases in kube-system, nothing else.
 */
export const APISERVER_IDENTITY_ROLE = 'system:kube-ts:apiserver-identity';
export const APISERVER_IDENTITY_USER = 'system:kube-apiserver';

/** kube-system's extension-apiserver-authentication-reader (aggregated servers read the authentication ConfigMap with it). */
export const BOOTSTRAP_ROLES: readonly Role[] = [
  {
    apiVersion: RBAC_API_VERSION,
    kind: 'Role',
    metadata: meta('extension-apiserver-authentication-reader', {}, 'kube-system'),
    rules: [rule(READ, [''], ['configmaps'], ['extension-apiserver-authentication'])],
  },
];

export const BOOTSTRAP_ROLE_BINDINGS: readonly RoleBinding[] = [
  {
    apiVersion: RBAC_API_VERSION,
    kind: 'RoleBinding',
    metadata: meta('system::extension-apiserver-authentication-reader', {}, 'kube-system'),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: 'extension-apiserver-authentication-reader' },
    subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler')],
  },
];

/** Not kube's (its apiservers are system:masters): the Role and RoleBinding of APISERVER_IDENTITY_USER. */
export const APISERVER_IDENTITY_ROLES: readonly Role[] = [
  {
    apiVersion: RBAC_API_VERSION,
    kind: 'Role',
    metadata: meta(APISERVER_IDENTITY_ROLE, {}, 'kube-system'),
    rules: [rule(['get', 'list', 'watch', 'create', 'update', 'delete'], ['coordination.k8s.io'], ['leases'])],
  },
];
export const APISERVER_IDENTITY_ROLE_BINDINGS: readonly RoleBinding[] = [
  {
    apiVersion: RBAC_API_VERSION,
    kind: 'RoleBinding',
    metadata: meta(APISERVER_IDENTITY_ROLE, {}, 'kube-system'),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: APISERVER_IDENTITY_ROLE },
    subjects: [user(APISERVER_IDENTITY_USER)],
  },
];

const eventsRule = (): PolicyRule => rule(['create', 'update', 'patch'], ['', 'events.k8s.io'], ['events']);

/** The controller-manager's own role for its simulated nodes (kube has kubelets and a scheduler instead). */
export const SIMULATED_NODES_ROLE = 'system:kube-ts:simulated-nodes';

/** kube's controller roles (controller_policy.go) for the controllers apps/controller-manager runs. */
const CONTROLLER_ROLES: readonly ClusterRole[] = [
  clusterRole('system:controller:certificate-controller', [
    rule(['get', 'list', 'watch', 'delete'], [CERTIFICATES_GROUP], ['certificatesigningrequests']),
    rule(['update'], [CERTIFICATES_GROUP], ['certificatesigningrequests/status', 'certificatesigningrequests/approval']),
    rule(['approve'], [CERTIFICATES_GROUP], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
    rule(['sign'], [CERTIFICATES_GROUP], ['signers'], ['kubernetes.io/legacy-unknown', 'kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving']),
    rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    eventsRule(),
  ]),
  clusterRole('system:controller:deployment-controller', [
    rule(['get', 'list', 'watch', 'update'], [APPS_GROUP, 'extensions'], ['deployments']),
    rule(['update'], [APPS_GROUP, 'extensions'], ['deployments/status']),
    rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], [APPS_GROUP, 'extensions'], ['replicasets']),
    rule(['get', 'list', 'watch', 'update'], [''], ['pods']),
    eventsRule(),
  ]),
  clusterRole('system:controller:replicaset-controller', [
    rule(['get', 'list', 'watch', 'update'], [APPS_GROUP, 'extensions'], ['replicasets']),
    rule(['update'], [APPS_GROUP, 'extensions'], ['replicasets/status']),
    rule(['update'], [APPS_GROUP, 'extensions'], ['replicasets/finalizers']),
    rule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
    eventsRule(),
  ]),
  clusterRole('system:controller:replication-controller', [
    rule(['get', 'list', 'watch', 'update'], [''], ['replicationcontrollers']),
    rule(['update'], [''], ['replicationcontrollers/status']),
    rule(['update'], [''], ['replicationcontrollers/finalizers']),
    rule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
    eventsRule(),
  ]),
  clusterRole('system:controller:statefulset-controller', [
    rule(['get', 'list', 'watch'], [APPS_GROUP], ['statefulsets']),
    rule(['update'], [APPS_GROUP], ['statefulsets/status']),
    rule(['update'], [APPS_GROUP], ['statefulsets/finalizers']),
    rule(['get', 'create', 'delete', 'update', 'patch'], [''], ['pods']),
    rule(['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'], [APPS_GROUP], ['controllerrevisions']),
    rule(['get', 'create'], [''], ['persistentvolumeclaims']),
    rule(['update', 'delete'], [''], ['persistentvolumeclaims']),
    eventsRule(),
  ]),
  clusterRole('system:controller:daemon-set-controller', [
    rule(['get', 'list', 'watch'], [APPS_GROUP, 'extensions'], ['daemonsets']),
    rule(['update'], [APPS_GROUP, 'extensions'], ['daemonsets/status']),
    rule(['update'], [APPS_GROUP, 'extensions'], ['daemonsets/finalizers']),
    rule(['list', 'watch'], [''], ['nodes']),
    rule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
    rule(['create'], [''], ['pods/binding']),
    rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], [APPS_GROUP], ['controllerrevisions']),
    eventsRule(),
  ]),
  clusterRole('system:controller:job-controller', [
    rule(['get', 'list', 'watch', 'update', 'patch'], ['batch'], ['jobs']),
    rule(['update', 'patch'], ['batch'], ['jobs/status']),
    rule(['update'], ['batch'], ['jobs/finalizers']),
    rule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
    eventsRule(),
  ]),
  clusterRole('system:controller:cronjob-controller', [
    rule(['get', 'list', 'watch', 'update'], ['batch'], ['cronjobs']),
    rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], ['batch'], ['jobs']),
    rule(['update'], ['batch'], ['cronjobs/status']),
    rule(['update'], ['batch'], ['cronjobs/finalizers']),
    rule(['list', 'delete'], [''], ['pods']),
    eventsRule(),
  ]),
  clusterRole('system:controller:ttl-after-finished-controller', [rule(['get', 'list', 'watch', 'delete'], ['batch'], ['jobs']), eventsRule()]),
  clusterRole('system:controller:endpointslicemirroring-controller', [
    rule(['get', 'list', 'watch'], [''], ['services', 'endpoints']),
    rule(['update'], [''], ['services/finalizers']),
    rule(['update'], [''], ['endpoints/finalizers']),
    rule(['get', 'list', 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices']),
    eventsRule(),
  ]),
  clusterRole('system:controller:disruption-controller', [
    rule(['get', 'list', 'watch'], [APPS_GROUP, 'extensions'], ['deployments']),
    rule(['get', 'list', 'watch'], [APPS_GROUP, 'extensions'], ['replicasets']),
    rule(['get', 'list', 'watch'], [''], ['replicationcontrollers']),
    rule(['get', 'list', 'watch'], ['policy'], ['poddisruptionbudgets']),
    rule(['get', 'list', 'watch'], [APPS_GROUP], ['statefulsets']),
    rule(['update'], ['policy'], ['poddisruptionbudgets/status']),
    rule(['get'], ['*'], ['*/scale']),
    eventsRule(),
  ]),
  clusterRole('system:controller:horizontal-pod-autoscaler', [
    rule(['get', 'list', 'watch'], ['autoscaling'], ['horizontalpodautoscalers']),
    rule(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
    rule(['get', 'update'], ['*'], ['*/scale']),
    rule(['list'], [''], ['pods']),
    rule(['list'], ['metrics.k8s.io'], ['pods']),
    rule(['get', 'list'], ['custom.metrics.k8s.io'], ['*']),
    rule(['get', 'list'], ['external.metrics.k8s.io'], ['*']),
    eventsRule(),
  ]),
  clusterRole('system:controller:pod-garbage-collector', [
    rule(['list', 'watch', 'delete'], [''], ['pods']),
    rule(['get', 'list'], [''], ['nodes']),
    rule(['patch'], [''], ['pods/status']),
  ]),
  clusterRole('system:controller:endpoint-controller', [
    rule(['get', 'list', 'watch'], [''], ['services', 'pods']),
    rule(['get', 'list', 'create', 'update', 'delete'], [''], ['endpoints']),
    rule(['create'], [''], ['endpoints/restricted']),
    eventsRule(),
  ]),
  clusterRole('system:controller:endpointslice-controller', [
    rule(['get', 'list', 'watch'], [''], ['services', 'pods', 'nodes']),
    rule(['update'], [''], ['services/finalizers']),
    rule(['get', 'list', 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices']),
    eventsRule(),
  ]),
  clusterRole('system:controller:clusterrole-aggregation-controller', [rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], [RBAC_GROUP], ['clusterroles'])]),
  clusterRole('system:controller:generic-garbage-collector', [rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']), eventsRule()]),
  clusterRole('system:controller:namespace-controller', [
    rule(['get', 'list', 'watch', 'delete'], [''], ['namespaces']),
    rule(['update'], [''], ['namespaces/finalize', 'namespaces/status']),
    rule(['get', 'list', 'watch', 'delete', 'deletecollection'], ['*'], ['*']),
  ]),
  clusterRole('system:controller:resourcequota-controller', [rule(['list', 'watch'], ['*'], ['*']), rule(['update'], [''], ['resourcequotas/status']), eventsRule()]),
  clusterRole('system:controller:root-ca-cert-publisher', [rule(['create', 'update'], [''], ['configmaps']), eventsRule()]),
  clusterRole('system:controller:service-account-controller', [rule(['create'], [''], ['serviceaccounts']), eventsRule()]),
];

/**
 * kube's system:kube-controller-manager role (policy.go) and the controller roles above. kube binds each
 * controller role to the controller's ServiceAccount in kube-system (--use-service-account-credentials); the
 * controller-manager here acts with its own certificate, so each binding also names User system:kube-controller-manager.
 */
export const CONTROLLER_MANAGER_CLUSTER_ROLES: readonly ClusterRole[] = [
  clusterRole('system:kube-controller-manager', [
    eventsRule(),
    rule(['create'], ['coordination.k8s.io'], ['leases']),
    rule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-controller-manager']),
    rule(['create'], [''], ['endpoints']),
    rule(['get', 'update'], [''], ['endpoints'], ['kube-controller-manager']),
    rule(['create'], [''], ['secrets', 'serviceaccounts']),
    rule(['delete'], [''], ['secrets']),
    rule(['get'], [''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
    rule(['update'], [''], ['secrets', 'serviceaccounts']),
    rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    rule(['list', 'watch'], ['*'], ['*']),
    rule(['create'], [''], ['serviceaccounts/token']),
  ]),
  ...CONTROLLER_ROLES,
  // Not kube's: what the simulated nodes (KUBE_SIMULATED_NODES) in the controller-manager do as kubelets and scheduler.
  clusterRole(SIMULATED_NODES_ROLE, [
    rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], [''], ['nodes']),
    rule(['patch', 'update'], [''], ['nodes/status']),
    rule(['get', 'create', 'update', 'patch'], ['coordination.k8s.io'], ['leases']),
    rule(['get', 'list', 'watch', 'delete'], [''], ['pods']),
    rule(['patch', 'update'], [''], ['pods/status']),
    rule(['create'], [''], ['pods/binding']),
    eventsRule(),
  ]),
];

const serviceAccount = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

export const CONTROLLER_MANAGER_CLUSTER_ROLE_BINDINGS: readonly RoleBinding[] = [
  clusterRoleBinding('system:kube-controller-manager', [user('system:kube-controller-manager')]),
  clusterRoleBinding(SIMULATED_NODES_ROLE, [user('system:kube-controller-manager')]),
  ...CONTROLLER_ROLES.map((r) => {
    const name = r.metadata.name as string;
    return clusterRoleBinding(name, [serviceAccount('kube-system', name.slice('system:controller:'.length)), user('system:kube-controller-manager')]);
  }),
];
