import type { IncomingHttpHeaders } from 'node:http';
import { alwaysAllowAuthorizer, type AuthorizationResult, type Authorizer, type UserInfo } from '@kube/apiserver';
import type { AuthorizationSet } from './authorization.mode';
import { impersonate } from './impersonation';
import { unionAuthorizer } from './authorizers';

const ALLOW: AuthorizationResult = { decision: 'Allow', reason: '' };
const NO_OPINION: AuthorizationResult = { decision: 'NoOpinion', reason: '' };

/**
 * The paths kube's system:public-info-viewer opens to everyone, authenticated or not (health probes, load
 * balancers). Allowed before RBAC is asked, so probes pass while the bootstrap policy is still being written.
 */
const PUBLIC_INFO_PATHS: ReadonlySet<string> = new Set(['/healthz', '/livez', '/readyz', '/version', '/version/']);

const publicInfoAuthorizer: Authorizer = {
  authorize: (a) => (!a.resourceRequest && a.verb === 'get' && PUBLIC_INFO_PATHS.has(a.path) ? ALLOW : NO_OPINION),
};

/**
 * The Authorizer an API server's handler chain asks about every request it serves (its AUTHORIZER), from the
 * server's AuthorizationSet: the public info paths, then system:masters, then RBAC, the same index the review
 * APIs and escalation checks read. Resolves once the RBAC objects are listed, so the server listens only then and
 * nobody gets a spurious 403 at start. AlwaysAllow answers the allow-all authorizer, which keeps the filter off
 * the request path, as before.
 */
export async function servingAuthorizer(authz: AuthorizationSet): Promise<Authorizer> {
  if (authz.mode === 'AlwaysAllow') return alwaysAllowAuthorizer;
  await authz.start();
  return unionAuthorizer([publicInfoAuthorizer, authz.authorizer]);
}

/** Impersonate-* decided by the server's own authorizer, as at the front door (GenericApiServer's `impersonation`). */
export function authorizedImpersonation(authorizer: Authorizer): (headers: IncomingHttpHeaders, user: UserInfo) => Promise<UserInfo> {
  return (headers, user) => impersonate(headers, user, authorizer);
}
