import { describe, expect, it } from 'vitest';
import { TokenReviewAuthenticator, type TokenReviewStatus } from './token-review.authenticator';

function reviewer(answers: Record<string, TokenReviewStatus | Error>): { review: (t: string) => Promise<TokenReviewStatus>; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    review: async (token) => {
      calls.push(token);
      const a = answers[token];
      if (a instanceof Error) throw a;
      return a ?? { authenticated: false, error: 'unknown token' };
    },
  };
}

describe('TokenReviewAuthenticator', () => {
  it('maps an authenticated review to the user, and caches good and bad answers for the TTL', async () => {
    let now = 0;
    const r = reviewer({ good: { authenticated: true, user: { username: 'system:serviceaccount:ns:sa', uid: 'u1', groups: ['system:serviceaccounts'], extra: { 'authentication.kubernetes.io/pod-name': ['p'] } } } });
    const authn = new TokenReviewAuthenticator(r.review, 10_000, () => now);
    const user = { name: 'system:serviceaccount:ns:sa', uid: 'u1', groups: ['system:serviceaccounts'], extra: { 'authentication.kubernetes.io/pod-name': ['p'] } };
    expect(await authn.authenticate('good')).toEqual(user);
    expect(await authn.authenticate('bad')).toBeUndefined();
    now = 9_999;
    expect(await authn.authenticate('good')).toEqual(user);
    expect(await authn.authenticate('bad')).toBeUndefined();
    expect(r.calls).toEqual(['good', 'bad']);
    now = 10_001;
    await authn.authenticate('good');
    expect(r.calls).toEqual(['good', 'bad', 'good']);
  });

  it('authenticates nobody when the review fails, and asks again next time', async () => {
    const r = reviewer({ t: new Error('connect ECONNREFUSED') });
    const authn = new TokenReviewAuthenticator(r.review);
    expect(await authn.authenticate('t')).toBeUndefined();
    expect(await authn.authenticate('t')).toBeUndefined();
    expect(r.calls).toEqual(['t', 't']);
  });

  it('does not take an authenticated review without a user name', async () => {
    const authn = new TokenReviewAuthenticator(reviewer({ t: { authenticated: true, user: {} } }).review);
    expect(await authn.authenticate('t')).toBeUndefined();
  });
});
