import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { INestApplicationContext } from '@nestjs/common';
import { ApiServerLifecycle, StructuredAuthentication } from '@kube/apiserver';
import { runKubectl, tempDir } from '@kube/testing';
import { SampleApiServerModule } from '../../apps/sample-apiserver/src/sample-apiserver.module';
import { bootAggregatedServer } from '../support/aggregated-server.boot';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { kubectlSession } from '../support/kubectl.session';
import { documentedConfig, TestOidcIssuer } from '../support/oidc.issuer';
import { until } from '../support/until';
import { tokenKubeconfig } from '../support/user.kubeconfig';

/**
 * KUBE_AUTHENTICATION_CONFIG end to end: a test OIDC issuer (HTTPS, its own CA, discovery and JWKS) signs ID
 * tokens; the front door maps them to users with the example of kube's documentation (only the issuer's URL, CA
 * and audiences changed), real kubectl 1.27 and 1.33 use them with --token.
 */
let stack: StackHarness;
let issuer: TestOidcIssuer;
let auth: StructuredAuthentication;
let configPath: string;
let kubeconfig: string;
const admin = kubectlSession('1.33', () => stack.kubeconfig);
const ns = 'oidc-users';

const claims = (over: Record<string, unknown> = {}): Record<string, unknown> => ({ aud: 'my-app', sub: 'uid-jane', username: 'jane', roles: 'developers,readers', tenant: 'acme', hd: 'example.com', ...over });

beforeAll(async () => {
  issuer = await TestOidcIssuer.start();
  configPath = join(tempDir('authn-config'), 'authentication-config.yaml');
  writeFileSync(configPath, documentedConfig(issuer));
  auth = StructuredAuthentication.fromFile(configPath, { reloadIntervalMs: 200 });
  stack = await startStack({ structuredAuthentication: auth, controllerManager: false });
  kubeconfig = tokenKubeconfig(stack);
  await admin.ok(['create', 'namespace', ns]);
  // RBAC for the mapped user and group, never for the raw claim values.
  await admin.ok(['create', 'role', 'configmap-writer', '--verb=get,list,create', '--resource=configmaps', `--namespace=${ns}`]);
  await admin.ok(['create', 'role', 'configmap-reader', '--verb=get,list', '--resource=configmaps', `--namespace=${ns}`]);
  await admin.ok(['create', 'rolebinding', 'jane-writes', '--role=configmap-writer', '--user=jane:external-user', `--namespace=${ns}`]);
  await admin.ok(['create', 'rolebinding', 'readers-read', '--role=configmap-reader', '--group=readers', `--namespace=${ns}`]);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  auth?.stop();
  await issuer?.stop();
});

describe.each(['1.27', '1.33'])('kubectl %s with an OIDC ID token', (version) => {
  const kubectl = (token: string, args: string[]) => runKubectl([`--token=${token}`, ...args], { kubeconfig, version });

  it('is the mapped user: whoami shows the username, groups and extra the claim mappings make', async () => {
    const r = await kubectl(issuer.token(claims()), ['auth', 'whoami', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const review = JSON.parse(r.stdout) as { status: { userInfo: Record<string, unknown> } };
    expect(review.status.userInfo).toEqual({ username: 'jane:external-user', uid: 'uid-jane', groups: ['developers', 'readers', 'system:authenticated'], extra: { 'example.com/tenant': ['acme'] } });
  });

  it('is authorized by RBAC as the mapped user and groups', async () => {
    const jane = issuer.token(claims());
    const created = await kubectl(jane, ['create', 'configmap', `from-jane-${version.replace('.', '-')}`, '--from-literal=a=1', `--namespace=${ns}`]);
    expect(created.code, created.stderr).toBe(0);
    // A reader (the group binding) can list but not create; cluster-wide, nobody bound them.
    const reader = issuer.token(claims({ username: 'rita', sub: 'uid-rita', roles: 'readers' }));
    expect((await kubectl(reader, ['get', 'configmaps', `--namespace=${ns}`])).code).toBe(0);
    const denied = await kubectl(reader, ['create', 'configmap', 'nope', `--namespace=${ns}`]);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain(`configmaps is forbidden: User "rita:external-user" cannot create resource "configmaps" in API group "" in the namespace "${ns}"`);
  });

  it("gets kube's 401 for a token failing a rule, expired, for another audience or from another issuer", async () => {
    const now = Math.floor(Date.now() / 1000);
    const other = await TestOidcIssuer.start({ path: '/elsewhere' });
    try {
      const refused: [string, string][] = [
        ['claim validation rule', issuer.token(claims({ hd: 'evil.example' }))],
        ['CEL claim validation rule', issuer.token(claims({ nbf: now, exp: now + 2 * 86400 }))],
        ['user validation rule', issuer.token(claims({ username: 'system:admin' }))],
        ['expired', issuer.token(claims({ iat: now - 7200, nbf: now - 7200, exp: now - 3600 }))],
        ['wrong audience', issuer.token(claims({ aud: 'someone-else' }))],
        ['wrong issuer', other.token(claims())],
      ];
      for (const [why, token] of refused) {
        const r = await kubectl(token, ['get', 'configmaps', `--namespace=${ns}`]);
        expect(r.code, why).not.toBe(0);
        expect(r.stderr, why).toContain('error: You must be logged in to the server (Unauthorized)');
        const raw = await stack.request('GET', `/api/v1/namespaces/${ns}/configmaps`, { anonymous: true, headers: { Authorization: `Bearer ${token}` } });
        expect(raw.status, why).toBe(401);
        expect(raw.json(), why).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
      }
    } finally {
      await other.stop();
    }
  });
});

describe('an aggregated server (SDK) sent an ID token directly', () => {
  let wardle: INestApplicationContext | undefined;
  afterAll(async () => {
    await wardle?.close();
  });

  it('asks the control plane by TokenReview and sees the mapped user, authorized by RBAC', async () => {
    wardle = await bootAggregatedServer(stack, { component: 'sample-apiserver', serviceDnsName: 'wardle-server.kube-system.svc', module: (options) => SampleApiServerModule.forRoot(options) });
    const flunders = `/apis/wardle.example.com/v1alpha1/namespaces/${ns}/flunders`;
    const server = `--server=https://127.0.0.1:${wardle.get(ApiServerLifecycle).port}`;
    const token = issuer.token(claims({ username: 'wanda', sub: 'uid-wanda', roles: 'flunder-fans' }));
    const direct = (t: string): ReturnType<typeof runKubectl> => runKubectl([server, `--token=${t}`, 'get', '--raw', flunders], { kubeconfig, version: '1.33' });
    const refused = await direct(token);
    expect(refused.stderr).toContain(`flunders.wardle.example.com is forbidden: User "wanda:external-user" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "${ns}"`);
    await admin.ok(['create', 'clusterrole', 'flunder-reader', '--verb=get,list', '--resource=flunders.wardle.example.com']);
    await admin.ok(['create', 'rolebinding', 'fans-read-flunders', '--clusterrole=flunder-reader', '--group=flunder-fans', `--namespace=${ns}`]);
    expect(await until(async () => (await direct(token)).stdout.includes('FlunderList'), 60_000)).toBe(true);
    const wrongAudience = await direct(issuer.token(claims({ username: 'wanda', aud: 'elsewhere' })));
    expect(wrongAudience.stderr).toMatch(/Unauthorized/);
  }, 120_000);
});

describe('the issuer and the file', () => {
  it('a TokenReview sees the mapped user', async () => {
    const token = issuer.token(claims({ username: 'reviewed' }));
    const r = await stack.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } }) });
    expect(r.status).toBe(201);
    expect(r.json<{ status: Record<string, unknown> }>().status).toMatchObject({ authenticated: true, user: { username: 'reviewed:external-user', uid: 'uid-jane', groups: ['developers', 'readers', 'system:authenticated'], extra: { 'example.com/tenant': ['acme'] } } });
  });

  it('picks up a key rotated at the issuer (a new kid)', async () => {
    issuer.rotate('ES256', true);
    const token = issuer.token(claims({ username: 'rotated' }));
    expect(
      await until(async () => {
        const r = await runKubectl([`--token=${token}`, 'auth', 'whoami', '-o', 'json'], { kubeconfig, version: '1.33' });
        return r.code === 0 && r.stdout.includes('rotated:external-user');
      }, 30_000),
    ).toBe(true);
  });

  it('reloads the file when it changes, keeps the last good one when it breaks, and exposes the metrics', async () => {
    writeFileSync(configPath, documentedConfig(issuer, ':v2'));
    const token = issuer.token(claims({ username: 'reload' }));
    expect(
      await until(async () => {
        const r = await runKubectl([`--token=${token}`, 'auth', 'whoami', '-o', 'json'], { kubeconfig, version: '1.33' });
        return r.stdout.includes('reload:v2');
      }, 30_000),
    ).toBe(true);
    writeFileSync(configPath, 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: "http://not-https"}\n');
    const metrics = async (): Promise<string> => (await stack.request('GET', '/metrics')).body;
    expect(await until(async () => /apiserver_authentication_config_controller_automatic_reloads_total\{status="failure",apiserver_id_hash="sha256:[0-9a-f]+"\} 1/.test(await metrics()), 30_000)).toBe(true);
    const fresh = issuer.token(claims({ username: 'still' }));
    const r = await runKubectl([`--token=${fresh}`, 'auth', 'whoami', '-o', 'json'], { kubeconfig, version: '1.33' });
    expect(r.stdout).toContain('still:v2');
    const text = await metrics();
    expect(text).toMatch(/apiserver_authentication_config_controller_automatic_reloads_total\{status="success",apiserver_id_hash="sha256:[0-9a-f]+"\} 1/);
    expect(text).toMatch(/apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds\{status="success",apiserver_id_hash="sha256:[0-9a-f]+"\} \d/);
    expect(text).toMatch(/apiserver_authentication_jwt_authenticator_latency_seconds_bucket\{le="[0-9.]+",result="success",jwt_issuer_hash="sha256:[0-9a-f]{64}"\}/);
  });
});
