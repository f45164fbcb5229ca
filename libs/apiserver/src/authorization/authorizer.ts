import type { UserInfo } from '../resource.definition';

/**
 * What a request asks to do, as kube's authorizer.Attributes: the caller, the verb and either a resource
 * (group, version, resource, subresource, namespace, name) or a non-resource path.
 */
export interface AuthorizationAttributes {
  user: UserInfo;
  /** kube's verb: get, list, watch, create, update, patch, delete, deletecollection (or impersonate, bind, escalate,
   *  use…); for non-resource requests the lower-cased HTTP method. */
  verb: string;
  resourceRequest: boolean;
  /** The request path (non-resource requests are authorized on it). */
  path: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  /** '' for cluster-scoped resources and for all-namespace requests. */
  namespace: string;
  name: string;
}

/** kube's authorizer.Decision. */
export type AuthorizationDecision = 'Allow' | 'Deny' | 'NoOpinion';

export interface AuthorizationResult {
  decision: AuthorizationDecision;
  /** Why; appended to the Forbidden message when the decision is not Allow and it is not empty. */
  reason: string;
  /**
   * An evaluation error beside the decision (kube's third return value: a webhook that failed, a match condition
   * that did not evaluate). A request not allowed with an error answers 500; a review reports it as evaluationError.
   */
  error?: string;
}

/** Decides whether a request may proceed. Implementations must be cheap on the hot path (no storage round trip). */
export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): AuthorizationResult | Promise<AuthorizationResult>;
}

/** Allows everything: the default until an authorization mode is configured. */
export const alwaysAllowAuthorizer: Authorizer = {
  authorize: () => ({ decision: 'Allow', reason: '' }),
};
