import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiServerLifecycle, delegatedAuthentication } from '@kube/apiserver';
import { SampleApiServerModule } from '../../apps/sample-apiserver/src/sample-apiserver.module';
import { adminTarget, bootAggregatedServer } from '../support/aggregated-server.boot';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { kubectlSession } from '../support/kubectl.session';
import { until } from '../support/until';
import { tokenKubeconfig, userKubeconfig } from '../support/user.kubeconfig';

// Tests here wait up to a minute for the stack to converge (until(…, 60_000)); on a loaded CI machine such a wait
// and the rest of the test together outgrow the default 60 s.
vi.setConfig({ testTimeout: 180_000 });

/**
 * The wardle server authorizes on its own, by SubjectAccessReview to the control plane (DelegatingAuthorizer):
 * requests that reach it without passing the front door's RBAC (straight to its port, with front-proxy
 * headers or a client certificate) are refused by wardle itself until RBAC allows them.
 */
let stack: StackHarness;
let wardle: INestApplicationContext;
const ns = 'delegated';
const admin = kubectlSession('1.33', () => stack.kubeconfig);
const pem = (path: string): string => readFileSync(path, 'utf8');
const flundersPath = `/apis/wardle.example.com/v1alpha1/namespaces/${ns}/flunders`;

/** A GET straight to wardle as its front proxy would send it: the front-proxy client certificate and X-Remote-* headers. */
function viaFrontProxyHeaders(path: string, user: string): Promise<{ status: number; body: { message?: string; reason?: string } | string }> {
  const port = wardle.get(ApiServerLifecycle).port;
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'GET',
        ca: pem(stack.pki.caCert),
        cert: pem(stack.pki.frontProxyClientCert),
        key: pem(stack.pki.frontProxyClientKey),
        headers: { 'X-Remote-User': user, 'X-Remote-Group': 'system:authenticated', Accept: 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let body: { message?: string } | string = text;
          try {
            body = JSON.parse(text) as { message?: string };
          } catch {
            /* health checks answer text */
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  stack = await startStack();
  wardle = await bootAggregatedServer(stack, { component: 'sample-apiserver', serviceDnsName: 'wardle-server.kube-system.svc', module: (options) => SampleApiServerModule.forRoot(options) });
  expect(await until(async () => (await admin.k(['get', 'flunders', '-A'])).code === 0, 60_000)).toBe(true);
  await admin.ok(['create', 'namespace', ns]);
  await admin.ok(['create', 'clusterrole', 'flunder-reader', '--verb=get,list,watch', '--resource=flunders.wardle.example.com']);
}, 180_000);

afterAll(async () => {
  await wardle?.close();
  await stack?.stop();
});

describe('wardle authorizes by SubjectAccessReview', () => {
  it('refuses front-proxied users RBAC does not allow, with kube\'s message, and serves them once a RoleBinding does', async () => {
    const denied = await viaFrontProxyHeaders(flundersPath, 'carol');
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      reason: 'Forbidden',
      message: `flunders.wardle.example.com is forbidden: User "carol" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "${ns}"`,
    });
    // Health is always allowed (kube's alwaysAllowPaths), whoever asks.
    expect(await viaFrontProxyHeaders('/healthz', 'carol')).toEqual({ status: 200, body: 'ok' });

    await admin.ok(['create', 'rolebinding', 'carol-flunders', '--clusterrole=flunder-reader', '--user=carol', '-n', ns]);
    // The denial is cached for up to 10 s (kube's unauthorized TTL); then wardle asks again and is allowed.
    expect(await until(async () => (await viaFrontProxyHeaders(flundersPath, 'carol')).status === 200, 60_000)).toBe(true);
    expect((await viaFrontProxyHeaders(flundersPath, 'carol')).body).toMatchObject({ kind: 'FlunderList' });
    // Only where the binding is.
    expect((await viaFrontProxyHeaders('/apis/wardle.example.com/v1alpha1/namespaces/default/flunders', 'carol')).status).toBe(403);
  });

  it('kubectl 1.33 straight to wardle with a client certificate: forbidden by wardle, then allowed by a RoleBinding; the same user through the front door', async () => {
    const kc = await userKubeconfig(stack, 'dave');
    const direct = kubectlSession('1.33', () => kc);
    const server = `--server=https://127.0.0.1:${wardle.get(ApiServerLifecycle).port}`;
    const refused = await direct.k([server, 'get', '--raw', flundersPath]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Error from server (Forbidden): flunders.wardle.example.com is forbidden: User "dave" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "${ns}"`);

    await admin.ok(['create', 'rolebinding', 'dave-flunders', '--clusterrole=flunder-reader', '--user=dave', '-n', ns]);
    await admin.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'seen-by-dave', namespace: ns }, spec: {} }));
    expect(await until(async () => (await direct.k([server, 'get', '--raw', flundersPath])).stdout.includes('seen-by-dave'), 60_000)).toBe(true);
    // Through the front door: RBAC there, then the proxied request's own review in wardle.
    expect(await direct.ok(['get', 'flunders', '-n', ns, '-o', 'name'])).toBe('flunder.wardle.example.com/seen-by-dave\n');
    const create = await direct.k(['create', '-f', '-'], JSON.stringify({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'not-allowed', namespace: ns }, spec: {} }));
    expect(create.stderr).toContain(`flunders.wardle.example.com is forbidden: User "dave" cannot create resource "flunders" in API group "wardle.example.com" in the namespace "${ns}"`);
  });
});

describe('wardle authenticates bearer tokens by TokenReview', () => {
  it('a ServiceAccount token sent straight to wardle is the ServiceAccount (kubectl auth whoami), authorized by RBAC; a bad token is 401', async () => {
    await admin.ok(['create', 'serviceaccount', 'robot', '-n', ns]);
    const token = (await admin.ok(['create', 'token', 'robot', '-n', ns])).trim();
    const server = `--server=https://127.0.0.1:${wardle.get(ApiServerLifecycle).port}`;
    // A kubeconfig without a client certificate: one would win over the token (kube tries x509 first).
    const tokenOnly = tokenKubeconfig(stack);
    const direct = kubectlSession('1.33', () => tokenOnly);
    const asRobot = (args: string[]): ReturnType<typeof direct.k> => direct.k([server, `--token=${token}`, ...args]);
    const refused = await asRobot(['get', '--raw', flundersPath]);
    expect(refused.stderr).toContain(`flunders.wardle.example.com is forbidden: User "system:serviceaccount:${ns}:robot" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "${ns}"`);
    await admin.ok(['create', 'rolebinding', 'robot-flunders', '--clusterrole=flunder-reader', `--serviceaccount=${ns}:robot`, '-n', ns]);
    expect(await until(async () => (await asRobot(['get', '--raw', flundersPath])).stdout.includes('FlunderList'), 60_000)).toBe(true);

    const bad = await direct.k([server, '--token=not-a-token', 'get', '--raw', flundersPath]);
    expect(bad.stderr).toMatch(/Unauthorized/);
  });
});

describe('kube-system/extension-apiserver-authentication', () => {
  it('is published by core-api with kube\'s keys, readable through the extension-apiserver-authentication-reader Role', async () => {
    const configMap = JSON.parse(await admin.ok(['get', 'configmap', 'extension-apiserver-authentication', '-n', 'kube-system', '-o', 'json'])) as { data: Record<string, string> };
    expect(configMap.data).toEqual({
      'client-ca-file': pem(stack.pki.caCert),
      'requestheader-client-ca-file': pem(stack.pki.frontProxyCaCert),
      'requestheader-allowed-names': '["front-proxy-client"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    });
    const readerKc = await userKubeconfig(stack, 'system:serviceaccount:wardle:apiserver-reader');
    const reader = kubectlSession('1.33', () => readerKc);
    await admin.ok(['create', 'rolebinding', 'wardle-auth-reader', '-n', 'kube-system', '--role=extension-apiserver-authentication-reader', '--user=system:serviceaccount:wardle:apiserver-reader']);
    expect(await until(async () => (await reader.k(['get', 'configmap', 'extension-apiserver-authentication', '-n', 'kube-system', '-o', 'name'])).code === 0, 30_000)).toBe(true);
    expect((await reader.k(['get', 'configmaps', '-n', 'kube-system'])).stderr).toContain('cannot list resource "configmaps"');
  });

  it('gives an SDK server without local trust files the front proxy\'s CA and allowed names (delegating authentication)', async () => {
    const auth = await delegatedAuthentication({}, adminTarget(stack));
    expect(auth).toEqual({ clientCAPem: pem(stack.pki.caCert), requestHeader: { caPem: pem(stack.pki.frontProxyCaCert), allowedNames: ['front-proxy-client'] } });
    // Local configuration wins.
    const local = { clientCAPem: 'LOCAL', requestHeader: { caPem: 'LOCAL PROXY', allowedNames: [] } };
    expect(await delegatedAuthentication(local, adminTarget(stack))).toBe(local);
  });
});

describe('deploy/sample-apiserver/rbac.yaml', () => {
  it('lets the sample server\'s own identity review access and read the authentication ConfigMap, and no more', async () => {
    await admin.ok(['apply', '-f', 'deploy/sample-apiserver/rbac.yaml']);
    const kc = await userKubeconfig(stack, 'system:kube-ts:sample-apiserver');
    const sample = kubectlSession('1.33', () => kc);
    expect(await until(async () => (await sample.k(['auth', 'can-i', 'create', 'subjectaccessreviews.authorization.k8s.io'])).stdout === 'yes\n', 30_000)).toBe(true);
    const configMap = await sample.k(['auth', 'can-i', 'get', 'configmap/extension-apiserver-authentication', '-n', 'kube-system']);
    expect(configMap.stdout, configMap.stderr).toBe('yes\n');
    expect((await sample.k(['auth', 'can-i', 'list', 'secrets', '-A'])).stdout).toBe('no\n');
    // What its admission is configured by, read only.
    expect((await sample.k(['auth', 'can-i', 'watch', 'validatingadmissionpolicies.admissionregistration.k8s.io'])).stdout).toBe('yes\n');
    expect((await sample.k(['auth', 'can-i', 'delete', 'validatingadmissionpolicies.admissionregistration.k8s.io'])).stdout).toBe('no\n');
    // What wardle's DelegatingAuthorizer sends, as that identity.
    const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'carol', groups: ['system:authenticated'], resourceAttributes: { namespace: ns, verb: 'list', group: 'wardle.example.com', version: 'v1alpha1', resource: 'flunders' } } };
    // --validate=false: kubectl's validation lists CRDs, which this identity may not (as on a cluster).
    expect(await sample.ok(['create', '--validate=false', '-f', '-', '-o', 'jsonpath={.status.allowed}'], JSON.stringify(review))).toBe('true');
  });
});
