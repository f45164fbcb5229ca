import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { register } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StructuredAuthentication } from '@kube/apiserver';
import { tempDir } from '@kube/testing';
import { TestOidcIssuer } from '../support/oidc.issuer';
import { until } from '../support/until';

/** StructuredAuthentication against a real HTTPS issuer (discovery, JWKS, its own CA). */
let issuer: TestOidcIssuer;
let auth: StructuredAuthentication;
const logs: string[] = [];

function config(i: TestOidcIssuer, extra = ''): string {
  const ca = i.caPem.trim().split('\n').map((l) => `      ${l}`).join('\n');
  return `apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: ${i.url}
    certificateAuthority: |
${ca}
    audiences: [kube-ts, other]
    audienceMatchPolicy: MatchAny
  claimValidationRules:
  - claim: hd
    requiredValue: example.com
  - expression: 'claims.exp - claims.nbf <= 86400'
    message: total token lifetime must not exceed 24 hours
  claimMappings:
    username:
      expression: 'claims.username + ":external-user"'
    groups:
      expression: 'claims.roles.split(",")'
    uid:
      expression: 'claims.sub'
    extra:
    - key: example.com/tenant
      valueExpression: claims.tenant
  userValidationRules:
  - expression: "!user.username.startsWith('system:')"
    message: 'username cannot used reserved system: prefix'
${extra}`;
}

const good = (over: Record<string, unknown> = {}): Record<string, unknown> => ({ aud: 'kube-ts', sub: 'u-1', username: 'jane', roles: 'dev,ops', tenant: 't1', hd: 'example.com', ...over });

async function user(token: string): Promise<unknown> {
  return await auth.authenticate(token);
}

beforeAll(async () => {
  issuer = await TestOidcIssuer.start();
  auth = StructuredAuthentication.fromText(config(issuer), { log: (m) => logs.push(m) });
});

afterAll(async () => {
  auth?.stop();
  await issuer?.stop();
});

describe('JWT authenticator', () => {
  it('maps a valid token to the user the claim mappings say, plus system:authenticated', async () => {
    expect(await user(issuer.token(good()))).toEqual({ name: 'jane:external-user', uid: 'u-1', groups: ['dev', 'ops', 'system:authenticated'], extra: { 'example.com/tenant': ['t1'] } });
  });

  it("records the jti as kube's credential id, drops empty groups and refuses an empty CEL username", async () => {
    expect(await user(issuer.token(good({ jti: 'abc-123', roles: 'dev,,ops' })))).toMatchObject({ groups: ['dev', 'ops', 'system:authenticated'], extra: { 'example.com/tenant': ['t1'], 'authentication.kubernetes.io/credential-id': ['JTI=abc-123'] } });
    const empty = StructuredAuthentication.fromText(config(issuer).replace(`'claims.username + ":external-user"'`, 'claims.username'), { log: (m) => logs.push(m) });
    try {
      logs.length = 0;
      expect(await empty.authenticate(issuer.token(good({ username: '' })))).toBeUndefined();
      expect(logs.join('\n')).toContain('oidc: empty username via CEL expression is not allowed');
    } finally {
      empty.stop();
    }
  });

  it('answers a repeated token from its cache, without verifying it again', async () => {
    const token = issuer.token(good({ username: 'cached' }));
    await user(token);
    const again = auth.authenticate(token);
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toMatchObject({ name: 'cached:external-user' });
  });

  it('never answers from the cache past the token\'s own expiry', async () => {
    const now = Math.floor(Date.now() / 1000);
    // Seconds of validity left for the first, verified answer even on a loaded machine; then past `exp`.
    const exp = now + 5;
    const token = issuer.token(good({ username: 'short', iat: now, nbf: now, exp }));
    expect(await user(token)).toMatchObject({ name: 'short:external-user' });
    await new Promise((r) => setTimeout(r, exp * 1000 + 1200 - Date.now()));
    logs.length = 0;
    expect(await user(token)).toBeUndefined();
    expect(logs.join('\n')).toMatch(/oidc: token is expired/);
  });

  it('refuses tokens kube refuses, logging its reason', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string, RegExp][] = [
      ['wrong audience', issuer.token(good({ aud: 'someone-else' })), /oidc: expected audience in \["kube-ts","other"\] got \["someone-else"\]/],
      ['expired', issuer.token(good({ exp: now - 10, nbf: now - 100, iat: now - 100 })), /oidc: token is expired/],
      ['not yet valid (beyond 5 minutes)', issuer.token(good({ nbf: now + 600, exp: now + 3600 })), /before the nbf \(not before\) time/],
      ['claim rule', issuer.token(good({ hd: 'evil.com' })), /oidc: required claim hd value does not match. Got = evil.com, want = example.com/],
      ['CEL claim rule', issuer.token(good({ nbf: now, exp: now + 90_000 })), /validation expression 'claims.exp - claims.nbf <= 86400' failed: total token lifetime must not exceed 24 hours/],
      ['user rule', issuer.token(good({ username: 'system:admin' })), /oidc: error evaluating user info validation rule: validation expression '!user.username.startsWith\('system:'\)' failed/],
      ['bad signature', issuer.token(good()).replace(/\.[^.]+$/, '.AAAA'), /failed to verify id token signature/],
    ];
    for (const [why, token, reason] of cases) {
      logs.length = 0;
      expect(await user(token), why).toBeUndefined();
      expect(logs.join('\n'), why).toMatch(reason);
    }
    // Another issuer's token is not this authenticator's to judge (undefined at once, nothing fetched).
    const other = await TestOidcIssuer.start({ path: '/other' });
    try {
      expect(auth.authenticate(other.token(good()))).toBeUndefined();
    } finally {
      await other.stop();
    }
  });

  it('refuses an unsupported algorithm (HS256) and verifies PS256 and ES256', async () => {
    const [h, p] = issuer.token(good()).split('.');
    const forged = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(h, 'base64url').toString()), alg: 'HS256' })).toString('base64url')}.${p}.AAAA`;
    logs.length = 0;
    expect(await user(forged)).toBeUndefined();
    expect(logs.join('\n')).toMatch(/id token signed with unsupported algorithm/);
    expect(await user(issuer.token(good({ username: 'ps' }), { alg: 'PS256' }))).toMatchObject({ name: 'ps:external-user' });
    issuer.rotate('ES256');
    expect(await until(async () => (await user(issuer.token(good({ username: 'es' })))) !== undefined, 20_000)).toBe(true);
  });

  it("picks up a rotated key (a new kid) from the issuer's JWKS", async () => {
    const before = issuer.jwksFetches;
    issuer.rotate('RS256', true);
    const token = issuer.token(good({ username: 'rotated' }));
    // A kid not in the set refetches it (at most every few seconds).
    expect(await until(async () => (await user(token)) !== undefined, 20_000)).toBe(true);
    expect(issuer.jwksFetches).toBeGreaterThan(before);
  });

  it('finds the keys through issuer.discoveryURL when the issuer is not served at its own URL, and refuses a discovery document naming another issuer', async () => {
    const elsewhere = await TestOidcIssuer.start({ issuer: 'https://issuer.example.test/tenant-a' });
    const withDiscovery = (discoveryURL: string, url = elsewhere.url): string =>
      config(elsewhere).replace(`url: ${elsewhere.url}`, `url: ${url}\n    discoveryURL: ${discoveryURL}`);
    const ok = StructuredAuthentication.fromText(withDiscovery(elsewhere.discoveryURL), { log: (m) => logs.push(m) });
    const mismatch = StructuredAuthentication.fromText(withDiscovery(elsewhere.discoveryURL, 'https://issuer.example.test/tenant-b'), { log: (m) => logs.push(m) });
    try {
      expect(await ok.authenticate(elsewhere.token(good({ username: 'via-discovery' })))).toMatchObject({ name: 'via-discovery:external-user' });
      expect(await mismatch.authenticate(elsewhere.token(good({ iss: 'https://issuer.example.test/tenant-b' })))).toBeUndefined();
      expect(logs.join('\n')).toContain('oidc authenticator: initializing plugin: oidc: issuer did not match the issuer returned by provider, expected "https://issuer.example.test/tenant-b" got "https://issuer.example.test/tenant-a"');
      expect(logs.join('\n')).toContain('oidc: authenticator not initialized');
    } finally {
      ok.stop();
      mismatch.stop();
      await elsewhere.stop();
    }
  });

  it("records kube's latency metric per issuer hash", async () => {
    const text = await register.getSingleMetricAsString('apiserver_authentication_jwt_authenticator_latency_seconds');
    expect(text).toMatch(/apiserver_authentication_jwt_authenticator_latency_seconds_count\{result="success",jwt_issuer_hash="sha256:[0-9a-f]{64}"\} \d+/);
    expect(text).toMatch(/result="failure"/);
  });
});

describe('the configuration file', () => {
  it('reloads a changed file, keeps the last good one when the new one is invalid, and counts both', async () => {
    const dir = tempDir('authn-config');
    const path = join(dir, 'authentication-config.yaml');
    writeFileSync(path, config(issuer));
    const reloading = StructuredAuthentication.fromFile(path, { reloadIntervalMs: 100, log: (m) => logs.push(m) });
    try {
      const token = issuer.token(good({ username: 'reload' }));
      expect(await reloading.authenticate(token)).toMatchObject({ name: 'reload:external-user' });
      // The file watch's first look (a change before it is seen by the minute re-read).
      await new Promise((r) => setTimeout(r, 1000));
      writeFileSync(path, config(issuer).replace('":external-user"', '":v2"'));
      expect(await until(async () => (await reloading.authenticate(token)) !== undefined && ((await reloading.authenticate(token)) as { name: string }).name === 'reload:v2', 20_000)).toBe(true);
      writeFileSync(path, config(issuer).replace('audiences: [kube-ts, other]', 'audiences: []'));
      expect(await until(async () => (await register.getSingleMetricAsString('apiserver_authentication_config_controller_automatic_reloads_total')).includes('status="failure"'), 20_000)).toBe(true);
      expect(await reloading.authenticate(token)).toMatchObject({ name: 'reload:v2' });
      const metrics = await register.metrics();
      expect(metrics).toMatch(/apiserver_authentication_config_controller_automatic_reloads_total\{status="success",apiserver_id_hash="sha256:[0-9a-f]{64}"\} 1/);
      expect(metrics).toMatch(/apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds\{status="failure",apiserver_id_hash="sha256:[0-9a-f]{64}"\} \d/);
      expect(logs.join('\n')).toMatch(/is invalid: jwt\[0\]\.issuer\.audiences: Required value; keeping the current one|is invalid: jwt\[0\]\.issuer\.audiences: Required value: at least one/);
    } finally {
      reloading.stop();
    }
  });

  it("refuses, as kube, a reload that changes the anonymous section or whose new issuer does not answer, and keeps the current configuration", async () => {
    const dir = tempDir('authn-config');
    const path = join(dir, 'authentication-config.yaml');
    writeFileSync(path, config(issuer, 'anonymous:\n  enabled: true\n  conditions: [{path: /livez}]\n'));
    const failures = async (): Promise<number> => Number(/automatic_reloads_total\{status="failure",[^}]*\} (\d+)/.exec(await register.metrics())?.[1] ?? 0);
    const reloading = StructuredAuthentication.fromFile(path, { reloadIntervalMs: 60_000, readyTimeoutMs: 1500, log: (m) => logs.push(m) });
    try {
      const token = issuer.token(good({ username: 'kept' }));
      expect(await reloading.authenticate(token)).toMatchObject({ name: 'kept:external-user' });
      let before = await failures();
      writeFileSync(path, config(issuer, 'anonymous:\n  enabled: false\n').replace('":external-user"', '":changed"'));
      logs.length = 0;
      expect(await reloading.reload()).toBe(false);
      expect(await failures()).toBe(before + 1);
      expect(logs.join('\n')).toContain('anonymous: Forbidden: changed from initial configuration file');
      expect(await reloading.authenticate(token)).toMatchObject({ name: 'kept:external-user' });
      // A second issuer that does not answer: the reload fails (and is tried again at the next check).
      before = await failures();
      const unreachable = `- issuer:\n    url: https://127.0.0.1:1/nobody\n    audiences: [x]\n  claimMappings:\n    username: {claim: sub, prefix: ""}\n`;
      writeFileSync(path, config(issuer, `${unreachable}anonymous:\n  enabled: true\n  conditions: [{path: /livez}]\n`).replace('":external-user"', '":changed"'));
      expect(await reloading.reload()).toBe(false);
      expect(await failures()).toBe(before + 1);
      expect(await reloading.reload()).toBe(false);
      expect(await failures()).toBe(before + 2);
      expect(reloading.issuers).toEqual([issuer.url]);
      expect(await reloading.authenticate(token)).toMatchObject({ name: 'kept:external-user' });
    } finally {
      reloading.stop();
    }
  });

  it('reads a file changed while a reload waits for an issuer again once that reload is over, instead of dropping it', async () => {
    // An issuer that accepts connections and never answers: a reload adding it waits the whole readyTimeoutMs.
    let dialed = (): void => undefined;
    const reloadWaiting = new Promise<void>((resolve) => (dialed = resolve));
    const silent = createNetServer(() => dialed());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const dir = tempDir('authn-config');
    const path = join(dir, 'authentication-config.yaml');
    writeFileSync(path, config(issuer));
    const reloading = StructuredAuthentication.fromFile(path, { reloadIntervalMs: 100, readyTimeoutMs: 5000, log: (m) => logs.push(m) });
    try {
      // The file watch takes its first look a moment after the start; a change before that is seen by the minute re-read.
      await new Promise((r) => setTimeout(r, 1000));
      const hanging = `- issuer:\n    url: https://127.0.0.1:${(silent.address() as AddressInfo).port}/silent\n    audiences: [x]\n  claimMappings:\n    username: {claim: sub, prefix: ""}\n`;
      writeFileSync(path, config(issuer, hanging));
      // While that reload waits for the silent issuer (it has dialed it), the file changes again.
      await reloadWaiting;
      writeFileSync(path, config(issuer).replace('":external-user"', '":after"'));
      const token = issuer.token(good({ username: 'late' }));
      // Taken within seconds of the first reload giving up (the next periodic re-read is a minute away).
      expect(await until(async () => ((await reloading.authenticate(token)) as { name?: string } | undefined)?.name === 'late:after', 12_000)).toBe(true);
    } finally {
      reloading.stop();
      silent.close();
    }
  });

  it("exposes kube's JWKS fetch metrics per issuer", async () => {
    const text = await register.metrics();
    const issuerHash = `sha256:${createHash('sha256').update(issuer.url).digest('hex')}`;
    expect(text).toMatch(new RegExp(`apiserver_authentication_jwt_authenticator_jwks_fetch_last_timestamp_seconds\\{result="success",jwt_issuer_hash="${issuerHash}",apiserver_id_hash="sha256:[0-9a-f]{64}"\\} \\d`));
    expect(text).toMatch(new RegExp(`apiserver_authentication_jwt_authenticator_jwks_fetch_last_key_set_info\\{jwt_issuer_hash="${issuerHash}",apiserver_id_hash="sha256:[0-9a-f]{64}",hash="sha256:[0-9a-f]{64}"\\} 1`));
  });

  it('anonymous: enabled with conditions allows only those paths; disabled allows none', () => {
    const some = StructuredAuthentication.fromText(config(issuer, 'anonymous:\n  enabled: true\n  conditions:\n  - path: /livez\n'));
    const none = StructuredAuthentication.fromText(config(issuer, 'anonymous:\n  enabled: false\n'));
    try {
      expect([some.anonymousAllowed('/livez'), some.anonymousAllowed('/healthz'), none.anonymousAllowed('/livez'), auth.anonymousAllowed('/livez')]).toEqual([true, false, false, undefined]);
    } finally {
      some.stop();
      none.stop();
    }
  });
});
