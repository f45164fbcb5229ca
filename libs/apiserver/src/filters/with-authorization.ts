import { Errors, StatusError } from '@kube/apimachinery';
import { alwaysAllowAuthorizer, type AuthorizationAttributes, type Authorizer } from '../authorization/authorizer';
import type { UserInfo } from '../resource.definition';
import type { RequestInfo } from '../request-info';
import { respondWithError, type Filter } from './api-request';

/** kube's GetAuthorizerAttributes: what the request asks to do, from its user and request info. */
export function authorizationAttributes(user: UserInfo, info: RequestInfo): AuthorizationAttributes {
  return {
    user,
    verb: info.verb,
    resourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
  };
}

export const DECISION_ANNOTATION = 'authorization.k8s.io/decision';
export const REASON_ANNOTATION = 'authorization.k8s.io/reason';

// kube avoids messages that look like valid HTML; quotes are fine.
const sanitize = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Go's %q for the strings that appear here. */
const q = (s: string): string => JSON.stringify(s);

/** kube's responsewriters.forbiddenMessage. */
export function forbiddenMessage(a: AuthorizationAttributes): string {
  if (!a.resourceRequest) return `User ${q(a.user.name)} cannot ${a.verb} path ${q(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const where = a.namespace ? `in the namespace ${q(a.namespace)}` : 'at the cluster scope';
  return `User ${q(a.user.name)} cannot ${a.verb} resource ${q(resource)} in API group ${q(a.apiGroup)} ${where}`;
}

/** kube's responsewriters.Forbidden: 403 Forbidden naming who may not do what, with the authorizer's reason appended. */
export function forbidden(a: AuthorizationAttributes, reason = ''): StatusError {
  const msg = sanitize(forbiddenMessage(a));
  const why = reason ? `${msg}: ${reason}` : msg;
  if (!a.resource) return new StatusError(403, 'Forbidden', `forbidden: ${why}`, {});
  return Errors.forbidden({ group: a.apiGroup, resource: a.resource }, a.name, why);
}

/**
 * kube's WithAuthorization: asks the server's Authorizer about every request; anything but Allow answers 403
 * (an authorizer that fails answers 500). The default authorizer allows everything, and then the filter is
 * not on the hot path at all.
 */
export function withAuthorization(authorizer: Authorizer = alwaysAllowAuthorizer): Filter {
  if (authorizer === alwaysAllowAuthorizer) return (next) => next;
  return (next) => async (r) => {
    const user = r.user;
    if (!user) return respondWithError(r.res, Errors.unauthorized());
    const attributes = authorizationAttributes(user, r.info);
    let result;
    try {
      result = await authorizer.authorize(attributes);
    } catch (err) {
      return respondWithError(r.res, Errors.internal(err));
    }
    // kube's WithAuthorization annotates the audit event with the decision and the authorizer's reason.
    if (r.auditAnnotations) {
      r.auditAnnotations[DECISION_ANNOTATION] = result.decision === 'Allow' ? 'allow' : 'forbid';
      r.auditAnnotations[REASON_ANNOTATION] = result.reason;
    }
    if (result.decision === 'Allow') return next(r);
    // kube: a decision other than Allow that came with an evaluation error is the server's failure (500), not a 403.
    if (result.error !== undefined) return respondWithError(r.res, Errors.internal(new Error(result.error)));
    r.res.setHeader('X-Content-Type-Options', 'nosniff');
    return respondWithError(r.res, forbidden(attributes, result.reason));
  };
}
