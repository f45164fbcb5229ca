import 'reflect-metadata';
import { createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { kubectlSession, type KubectlSession } from '../support/kubectl.session';
import { until } from '../support/until';
import { tokenKubeconfig } from '../support/user.kubeconfig';

/** ServiceAccount tokens through the front door with real kubectl: TokenRequest, bearer JWTs, RBAC, revocation. */
let stack: StackHarness;
let tokenConfig = '';

beforeAll(async () => {
  stack = await startStack();
  tokenConfig = tokenKubeconfig(stack);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
}

describe.each(['1.27', '1.33'])('kubectl %s', (version) => {
  const ns = `sa-tokens-${version.replace('.', '')}`;
  const admin: KubectlSession = kubectlSession(version, () => stack.kubeconfig);
  const bearer: KubectlSession = kubectlSession(version, () => tokenConfig);

  beforeAll(async () => {
    await admin.ok(['create', 'namespace', ns]);
    await admin.ok(['create', 'serviceaccount', 'robot', '-n', ns]);
  });

  it('creates a bound, expiring token with kube\'s claims (kubectl create token)', async () => {
    const uid = await admin.ok(['get', 'sa', 'robot', '-n', ns, '-o', 'jsonpath={.metadata.uid}']);
    const token = (await admin.ok(['create', 'token', 'robot', '-n', ns, '--duration=20m'])).trim();
    const claims = claimsOf(token);
    expect(claims.iss).toBe('https://kubernetes.default.svc.cluster.local');
    expect(claims.sub).toBe(`system:serviceaccount:${ns}:robot`);
    expect(claims.aud).toEqual(['https://kubernetes.default.svc.cluster.local']);
    expect((claims.exp as number) - (claims.iat as number)).toBe(1200);
    expect(claims['kubernetes.io']).toEqual({ namespace: ns, serviceaccount: { name: 'robot', uid } });
    const custom = claimsOf((await admin.ok(['create', 'token', 'robot', '-n', ns, '--audience=vault', '--audience=other'])).trim());
    expect(custom.aud).toEqual(['vault', 'other']);
    const short = await admin.k(['create', 'token', 'robot', '-n', ns, '--duration=1m']);
    expect(short.stderr).toContain('spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
    const missing = await admin.k(['create', 'token', 'nobody', '-n', ns]);
    expect(missing.stderr).toContain('serviceaccounts "nobody" not found');
  });

  it('authenticates as the ServiceAccount, RBAC applies, and stops once the ServiceAccount is deleted', async () => {
    const token = (await admin.ok(['create', 'token', 'robot', '-n', ns])).trim();
    const who = await bearer.ok(['--token', token, 'auth', 'whoami', '-o', 'json']);
    const info = (JSON.parse(who) as { status: { userInfo: { username: string; groups: string[]; extra?: Record<string, string[]> } } }).status.userInfo;
    expect(info.username).toBe(`system:serviceaccount:${ns}:robot`);
    expect(info.groups).toEqual(['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated']);
    expect(info.extra?.['authentication.kubernetes.io/credential-id']?.[0]).toMatch(/^JTI=/);

    const forbidden = await bearer.k(['--token', token, 'get', 'configmaps', '-n', ns]);
    expect(forbidden.stderr).toContain(`configmaps is forbidden: User "system:serviceaccount:${ns}:robot" cannot list resource "configmaps" in API group "" in the namespace "${ns}"`);
    await admin.ok(['create', 'rolebinding', 'robot-view', '--clusterrole=view', `--serviceaccount=${ns}:robot`, '-n', ns]);
    expect(await until(async () => (await bearer.k(['--token', token, 'get', 'configmaps', '-n', ns])).code === 0)).toBe(true);

    await admin.ok(['delete', 'sa', 'robot', '-n', ns]);
    expect(await until(async () => (await bearer.k(['--token', token, 'get', 'configmaps', '-n', ns])).stderr.includes('Unauthorized'))).toBe(true);
    // A ServiceAccount recreated under the same name has another uid: the old token stays rejected.
    await admin.ok(['create', 'serviceaccount', 'robot', '-n', ns]);
    const fresh = (await admin.ok(['create', 'token', 'robot', '-n', ns])).trim();
    expect(await until(async () => (await bearer.k(['--token', fresh, 'get', 'configmaps', '-n', ns])).code === 0)).toBe(true);
    const old = await bearer.k(['--token', token, 'get', 'configmaps', '-n', ns]);
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('Unauthorized');
  });
});

describe('TokenReview', () => {
  it('answers for service-account tokens', async () => {
    const admin = kubectlSession(undefined, () => stack.kubeconfig);
    await admin.ok(['create', 'namespace', 'token-review']);
    await admin.ok(['create', 'serviceaccount', 'reviewed', '-n', 'token-review']);
    const token = (await admin.ok(['create', 'token', 'reviewed', '-n', 'token-review'])).trim();
    const review = (body: object) => admin.ok(['create', '-o', 'json', '-f', '-'], JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: body }));
    const ok = JSON.parse(await review({ token })) as { status: { authenticated?: boolean; user: { username?: string; groups?: string[] }; audiences?: string[] } };
    expect(ok.status.authenticated).toBe(true);
    expect(ok.status.user.username).toBe('system:serviceaccount:token-review:reviewed');
    expect(ok.status.audiences).toEqual(['https://kubernetes.default.svc.cluster.local']);
    const otherAudience = JSON.parse(await review({ token, audiences: ['vault'] })) as { status: { authenticated?: boolean } };
    expect(otherAudience.status.authenticated).toBeFalsy();
    const tampered = JSON.parse(await review({ token: `${token.slice(0, -4)}AAAA` })) as { status: { authenticated?: boolean } };
    expect(tampered.status.authenticated).toBeFalsy();
  });
});

describe('service account issuer discovery', () => {
  it('serves the OpenID configuration and the keys that verify issued tokens, to service accounts', async () => {
    const admin = kubectlSession('1.33', () => stack.kubeconfig);
    const bearer = kubectlSession('1.33', () => tokenConfig);
    await admin.ok(['create', 'namespace', 'oidc']);
    await admin.ok(['create', 'serviceaccount', 'discoverer', '-n', 'oidc']);
    const token = (await admin.ok(['create', 'token', 'discoverer', '-n', 'oidc'])).trim();
    expect(await until(async () => (await bearer.k(['--token', token, 'auth', 'whoami'])).code === 0)).toBe(true);
    // system:service-account-issuer-discovery is bound to system:serviceaccounts.
    const config = JSON.parse(await bearer.ok(['--token', token, 'get', '--raw', '/.well-known/openid-configuration'])) as Record<string, unknown>;
    expect(config).toEqual({
      issuer: 'https://kubernetes.default.svc.cluster.local',
      jwks_uri: 'https://kubernetes.default.svc.cluster.local/openid/v1/jwks',
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
    });
    const jwks = JSON.parse(await bearer.ok(['--token', token, 'get', '--raw', '/openid/v1/jwks'])) as { keys: Array<Record<string, string>> };
    const [header, claims, signature] = token.split('.');
    const kid = (JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string }).kid;
    const jwk = jwks.keys.find((k) => k.kid === kid);
    expect(jwk).toMatchObject({ use: 'sig', kty: 'EC', crv: 'P-256', alg: 'ES256' });
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))).toBe(true);
    // The same documents straight from core-api.
    const direct = await stack.core.request('GET', '/openid/v1/jwks');
    expect(direct.headers['content-type']).toBe('application/jwk-set+json');
    expect(direct.json()).toEqual(jwks);
  });
});
