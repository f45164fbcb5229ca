import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { peekClaims, signJwt, signingKeyPair, verificationKeys, verifyJwt } from './jwt.codec';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER, ServiceAccountTokens } from './service-account.token';

const pem = (type: 'ec' | 'rsa'): { priv: string; pub: string } => {
  const { privateKey, publicKey } = type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { priv: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), pub: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
};

describe('JWT signing and verification', () => {
  it.each([['ec', 'ES256'], ['rsa', 'RS256']] as const)('%s keys sign %s tokens their public key verifies', (type, alg) => {
    const { priv, pub } = pem(type);
    const signer = signingKeyPair(priv);
    const token = signJwt({ sub: 'x', n: 1 }, signer);
    const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { alg: string; kid: string };
    expect(header).toEqual({ alg, kid: signer.kid });
    expect(verifyJwt(token, verificationKeys(pub))).toEqual({ sub: 'x', n: 1 });
    // A private key file verifies too (kube's --service-account-key-file accepts both), with the same key id.
    expect(verificationKeys(priv)[0].kid).toBe(signer.kid);
  });

  it('rejects tampered claims, a foreign key, the wrong algorithm and garbage', () => {
    const { priv, pub } = pem('ec');
    const token = signJwt({ sub: 'alice' }, signingKeyPair(priv));
    const [h, , s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'admin' })).toString('base64url')}.${s}`;
    expect(verifyJwt(forged, verificationKeys(pub))).toBeUndefined();
    expect(verifyJwt(token, verificationKeys(pem('ec').pub))).toBeUndefined();
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${token.split('.')[1]}.`;
    expect(verifyJwt(none, verificationKeys(pub))).toBeUndefined();
    expect(verifyJwt('not.a.jwt', verificationKeys(pub))).toBeUndefined();
    expect(verifyJwt('abc', verificationKeys(pub))).toBeUndefined();
    expect(peekClaims(token)).toEqual({ sub: 'alice' });
  });
});

describe('ServiceAccountTokens', () => {
  const { priv, pub } = pem('ec');
  const accounts = new Map([['ns/robot', 'uid-1']]);
  const tokens = new ServiceAccountTokens({ issuer: DEFAULT_SERVICE_ACCOUNT_ISSUER, keyPem: pub, signingKeyPem: priv }, (ns, name) => accounts.get(`${ns}/${name}`));
  const now = new Date('2026-01-01T00:00:00Z');
  const issue = (extra: Partial<Parameters<ServiceAccountTokens['issue']>[0]> = {}): string =>
    tokens.issue({ namespace: 'ns', serviceAccount: { name: 'robot', uid: 'uid-1' }, audiences: [DEFAULT_SERVICE_ACCOUNT_ISSUER], expirationSeconds: 3600, ...extra }, now).token;

  it('issues kube\'s claims', () => {
    const { token, expirationTimestamp } = tokens.issue({ namespace: 'ns', serviceAccount: { name: 'robot', uid: 'uid-1' }, audiences: ['a'], expirationSeconds: 600, boundObject: { kind: 'Pod', name: 'p', uid: 'pod-uid' } }, now);
    const claims = peekClaims(token);
    expect(claims).toMatchObject({
      aud: ['a'],
      iss: DEFAULT_SERVICE_ACCOUNT_ISSUER,
      sub: 'system:serviceaccount:ns:robot',
      iat: 1767225600,
      nbf: 1767225600,
      exp: 1767226200,
      'kubernetes.io': { namespace: 'ns', serviceaccount: { name: 'robot', uid: 'uid-1' }, pod: { name: 'p', uid: 'pod-uid' } },
    });
    expect(typeof claims?.jti).toBe('string');
    expect(expirationTimestamp.toISOString()).toBe('2026-01-01T00:10:00.000Z');
  });

  it('authenticates as the ServiceAccount while it exists with the same uid, for the right audience and time', () => {
    const token = issue({ boundObject: { kind: 'Pod', name: 'p', uid: 'pod-uid' } });
    const at = now.getTime() + 1000;
    const user = tokens.authenticate(token, undefined, at);
    expect(user).toMatchObject({ name: 'system:serviceaccount:ns:robot', uid: 'uid-1', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated'] });
    expect(user?.extra?.['authentication.kubernetes.io/pod-name']).toEqual(['p']);
    expect(user?.extra?.['authentication.kubernetes.io/credential-id']?.[0]).toMatch(/^JTI=/);
    expect(tokens.authenticate(token, ['vault'], at)).toBeUndefined();
    expect(tokens.authenticate(token, undefined, now.getTime() + 3600_000 + 61_000)).toBeUndefined();
    expect(tokens.authenticate(token, undefined, now.getTime() - 61_000)).toBeUndefined();
    expect(tokens.authenticate(issue({ audiences: ['vault'] }), undefined, at)).toBeUndefined();
    expect(tokens.authenticate(issue({ audiences: ['vault'] }), ['vault'], at)?.name).toBe('system:serviceaccount:ns:robot');
    accounts.set('ns/robot', 'uid-2');
    expect(tokens.authenticate(token, undefined, at)).toBeUndefined();
    accounts.delete('ns/robot');
    expect(tokens.authenticate(token, undefined, at)).toBeUndefined();
  });

  it('ignores tokens of another issuer', () => {
    accounts.set('ns/robot', 'uid-1');
    const other = new ServiceAccountTokens({ issuer: 'https://elsewhere', keyPem: pub, signingKeyPem: priv }, () => 'uid-1');
    const token = other.issue({ namespace: 'ns', serviceAccount: { name: 'robot', uid: 'uid-1' }, audiences: [DEFAULT_SERVICE_ACCOUNT_ISSUER], expirationSeconds: 3600 }).token;
    expect(tokens.authenticate(token)).toBeUndefined();
  });
});
