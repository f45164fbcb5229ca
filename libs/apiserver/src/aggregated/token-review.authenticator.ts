import { createHash } from 'node:crypto';
import { ExpiringCache } from '../expiring.cache';
import type { UserInfo } from '../resource.definition';

/** authentication.k8s.io/v1 TokenReviewStatus, as the control plane answers it. */
export interface TokenReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  audiences?: string[];
  error?: string;
}

/** Posts a TokenReview for `token` to the control plane and answers its status (ApiClient.tokenReview). */
export type TokenReviewer = (token: string) => Promise<TokenReviewStatus>;

/** kube's DelegatingAuthenticationOptions.CacheTTL: answers, good and bad, are kept 10 s. */
export const TOKEN_REVIEW_CACHE_TTL_MS = 10_000;
const CACHE_SIZE = 8192;

/**
 * Bearer tokens sent straight to an aggregated server (not through the front door), authenticated as
 * k8s.io/apiserver's delegating authenticator does: a TokenReview to the control plane, its answer cached by
 * the token's hash. A review that fails (control plane unreachable) authenticates nobody and is not cached.
 */
export class TokenReviewAuthenticator {
  private readonly cache: ExpiringCache<UserInfo | null>;

  constructor(
    private readonly review: TokenReviewer,
    private readonly ttlMs = TOKEN_REVIEW_CACHE_TTL_MS,
    now?: () => number,
  ) {
    this.cache = new ExpiringCache(CACHE_SIZE, now);
  }

  readonly authenticate = async (token: string): Promise<UserInfo | undefined> => {
    const key = createHash('sha256').update(token).digest('base64');
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit ?? undefined;
    let status: TokenReviewStatus;
    try {
      status = await this.review(token);
    } catch {
      return undefined;
    }
    const user = status.authenticated && status.user?.username ? toUserInfo(status.user) : null;
    this.cache.set(key, user, this.ttlMs);
    return user ?? undefined;
  };
}

function toUserInfo(u: NonNullable<TokenReviewStatus['user']>): UserInfo {
  return { name: u.username as string, uid: u.uid || undefined, groups: u.groups ?? [], extra: u.extra };
}
