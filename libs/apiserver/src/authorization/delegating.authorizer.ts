import { ExpiringCache } from '../expiring.cache';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from './authorizer';

/** authorization.k8s.io/v1 SubjectAccessReviewSpec, as kube's webhook authorizer sends it. */
export interface SubjectAccessReviewSpec {
  user: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
  resourceAttributes?: { namespace: string; verb: string; group: string; version: string; resource: string; subresource: string; name: string };
  nonResourceAttributes?: { path: string; verb: string };
}

/** authorization.k8s.io/v1 SubjectAccessReviewStatus. */
export interface SubjectAccessReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

/** Posts a SubjectAccessReview to the control plane and answers its status (ApiClient.subjectAccessReview). */
export type SubjectAccessReviewer = (spec: SubjectAccessReviewSpec) => Promise<SubjectAccessReviewStatus>;

export interface DelegatingAuthorizerOptions {
  /** kube's --authorization-webhook-cache-authorized-ttl (delegating default 10 s). */
  allowCacheTtlMs?: number;
  /** kube's --authorization-webhook-cache-unauthorized-ttl (delegating default 10 s). */
  denyCacheTtlMs?: number;
  /** Non-resource paths allowed without asking (kube's --authorization-always-allow-paths); a trailing `*` matches a prefix. */
  alwaysAllowPaths?: readonly string[];
  /** Groups allowed without asking (kube's DelegatingAuthorizationOptions.AlwaysAllowGroups). */
  alwaysAllowGroups?: readonly string[];
  /** The clock, for tests. */
  now?: () => number;
}

/** kube's DelegatingAuthorizationOptions defaults (k8s.io/apiserver pkg/server/options/authorization.go). */
export const DELEGATING_AUTHORIZATION_DEFAULTS = {
  allowCacheTtlMs: 10_000,
  denyCacheTtlMs: 10_000,
  alwaysAllowPaths: ['/healthz', '/readyz', '/livez'],
  alwaysAllowGroups: ['system:masters'],
} as const;

/** Past this many answers the oldest are dropped (kube's webhook cache is an 8192-entry LRU). */
const CACHE_SIZE = 8192;

/** kube's webhook authorizer's request body: the caller and what it asks, resource or non-resource. */
export function subjectAccessReviewSpec(a: AuthorizationAttributes): SubjectAccessReviewSpec {
  const spec: SubjectAccessReviewSpec = { user: a.user.name, uid: a.user.uid, groups: a.user.groups, extra: a.user.extra };
  if (a.resourceRequest) {
    spec.resourceAttributes = { namespace: a.namespace, verb: a.verb, group: a.apiGroup, version: a.apiVersion, resource: a.resource, subresource: a.subresource, name: a.name };
  } else {
    spec.nonResourceAttributes = { path: a.path, verb: a.verb };
  }
  return spec;
}

/** kube's path authorizer: allows listed non-resource paths, has no opinion on anything else. */
function pathMatcher(paths: readonly string[]): (a: AuthorizationAttributes) => boolean {
  const exact = new Set(paths.filter((p) => !p.endsWith('*')));
  const prefixes = paths.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
  return (a) => !a.resourceRequest && (exact.has(a.path) || prefixes.some((p) => a.path.startsWith(p)));
}

/**
 * Authorization delegated to the control plane, as k8s.io/apiserver's delegating authorizer: always-allowed
 * paths and privileged groups first, then a SubjectAccessReview per distinct request, its answer cached
 * (allowed and denied each for their TTL). A failed review is an error (the chain answers 500), never cached.
 */
export class DelegatingAuthorizer implements Authorizer {
  private readonly allowTtl: number;
  private readonly denyTtl: number;
  private readonly alwaysAllowedPath: (a: AuthorizationAttributes) => boolean;
  private readonly alwaysAllowGroups: ReadonlySet<string>;
  private readonly cache: ExpiringCache<AuthorizationResult>;

  constructor(
    private readonly review: SubjectAccessReviewer,
    options: DelegatingAuthorizerOptions = {},
  ) {
    this.allowTtl = options.allowCacheTtlMs ?? DELEGATING_AUTHORIZATION_DEFAULTS.allowCacheTtlMs;
    this.denyTtl = options.denyCacheTtlMs ?? DELEGATING_AUTHORIZATION_DEFAULTS.denyCacheTtlMs;
    this.alwaysAllowedPath = pathMatcher(options.alwaysAllowPaths ?? DELEGATING_AUTHORIZATION_DEFAULTS.alwaysAllowPaths);
    this.alwaysAllowGroups = new Set(options.alwaysAllowGroups ?? DELEGATING_AUTHORIZATION_DEFAULTS.alwaysAllowGroups);
    this.cache = new ExpiringCache(CACHE_SIZE, options.now);
  }

  authorize(a: AuthorizationAttributes): AuthorizationResult | Promise<AuthorizationResult> {
    if (this.alwaysAllowedPath(a)) return { decision: 'Allow', reason: '' };
    if (a.user.groups.some((g) => this.alwaysAllowGroups.has(g))) return { decision: 'Allow', reason: '' };
    const spec = subjectAccessReviewSpec(a);
    const key = JSON.stringify(spec);
    return this.cache.get(key) ?? this.ask(key, spec);
  }

  private async ask(key: string, spec: SubjectAccessReviewSpec): Promise<AuthorizationResult> {
    const status = await this.review(spec);
    // kube's webhook: allowed, else denied, else no opinion (another authorizer could still allow).
    const result: AuthorizationResult = { decision: status.allowed ? 'Allow' : status.denied ? 'Deny' : 'NoOpinion', reason: status.reason ?? '' };
    this.cache.set(key, result, status.allowed ? this.allowTtl : this.denyTtl);
    return result;
  }
}
