/** The server's AuthorizationSet (@kube/authorization): authorizer, rule resolver, RBAC informer, escalation checks. */
export const AUTHORIZATION = Symbol('AUTHORIZATION');

