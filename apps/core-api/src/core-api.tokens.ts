/** The server's AuthorizationSet (@kube/authorization): authorizer, rule resolver, RBAC informer, escalation checks. */
export const AUTHORIZATION = Symbol('AUTHORIZATION');

/** The cluster CA (cert and key) the CSR signer signs with, when configured (kube's --cluster-signing-cert-file). */
export const CLUSTER_SIGNING_CA = Symbol('CLUSTER_SIGNING_CA');
