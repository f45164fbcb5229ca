/**
 * `KUBE_AUTHENTICATION_CONFIG=<file> npm start` (issue 27, item 2): kube's documented AuthenticationConfiguration,
 * pointed at a test OIDC issuer, reaches the front door and core-api of the launched stack (built processes, the
 * variable read as every server reads it), so kubectl with an ID token is the mapped user and RBAC applies to it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKubectl, tempDir } from '@kube/testing';
import { kubectlSession } from '@test/support';
import { childPids, processName } from '../../bench/soak.sampler';
import { launchStack, type LaunchedStack } from '../../bench/soak.stack';
import { documentedConfig, TestOidcIssuer } from '../support/oidc.issuer';

describe('npm start with KUBE_AUTHENTICATION_CONFIG', () => {
  const dir = tempDir('start-authentication');
  const local = join(dir, 'local');
  const configPath = join(dir, 'authentication-config.yaml');
  let stack: LaunchedStack;
  let issuer: TestOidcIssuer;
  const admin = kubectlSession(undefined, () => join(local, 'kubeconfig'));
  const saved = process.env.KUBE_AUTHENTICATION_CONFIG;

  const environOf = (name: string): Record<string, string> => {
    const pid = childPids(stack.launcherPid).find((p) => {
      try {
        return processName(p) === name;
      } catch {
        return false;
      }
    });
    if (!pid) throw new Error(`no ${name} process`);
    return Object.fromEntries(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter((e) => e.startsWith('KUBE_')).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
  };

  /** A kubeconfig with the stack's server and CA and no user: pass --token. */
  const tokenKubeconfig = (): string => {
    const kubeconfig = readFileSync(join(local, 'kubeconfig'), 'utf8');
    const server = /server: (\S+)/.exec(kubeconfig)?.[1] ?? '';
    const ca = /certificate-authority-data: (\S+)/.exec(kubeconfig)?.[1] ?? '';
    const path = join(dir, 'token-kubeconfig');
    writeFileSync(path, JSON.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: { server, 'certificate-authority-data': ca } }], users: [{ name: 'u', user: {} }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }], 'current-context': 'x' }));
    return path;
  };

  beforeAll(async () => {
    issuer = await TestOidcIssuer.start();
    writeFileSync(configPath, documentedConfig(issuer));
    process.env.KUBE_AUTHENTICATION_CONFIG = configPath;
    try {
      stack = await launchStack(local, join(dir, 'stack.log'));
    } finally {
      if (saved === undefined) delete process.env.KUBE_AUTHENTICATION_CONFIG;
      else process.env.KUBE_AUTHENTICATION_CONFIG = saved;
    }
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    await issuer?.stop();
  }, 120_000);

  it('hands the file to the front door and core-api only', () => {
    expect(environOf('aggregator').KUBE_AUTHENTICATION_CONFIG).toBe(configPath);
    expect(environOf('core-api').KUBE_AUTHENTICATION_CONFIG).toBe(configPath);
    for (const server of ['extensions', 'sample-apiserver', 'counts-apiserver']) expect(environOf(server).KUBE_AUTHENTICATION_CONFIG || undefined, server).toBeUndefined();
  });

  it('makes kubectl with an ID token the mapped user, whom RBAC then authorizes', async () => {
    const kubeconfig = tokenKubeconfig();
    const token = issuer.token({ aud: 'my-app', sub: 'uid-sam', username: 'sam', roles: 'auditors', tenant: 'acme', hd: 'example.com' });
    const whoami = await runKubectl([`--token=${token}`, 'auth', 'whoami', '-o', 'json'], { kubeconfig });
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(JSON.parse(whoami.stdout).status.userInfo).toEqual({ username: 'sam:external-user', uid: 'uid-sam', groups: ['auditors', 'system:authenticated'], extra: { 'example.com/tenant': ['acme'] } });
    const denied = await runKubectl([`--token=${token}`, 'get', 'namespaces'], { kubeconfig });
    expect(denied.stderr).toContain('namespaces is forbidden: User "sam:external-user" cannot list resource "namespaces" in API group "" at the cluster scope');
    await admin.ok(['create', 'clusterrole', 'ns-reader', '--verb=list', '--resource=namespaces']);
    await admin.ok(['create', 'clusterrolebinding', 'auditors-ns', '--clusterrole=ns-reader', '--group=auditors']);
    const allowed = await runKubectl([`--token=${token}`, 'get', 'namespaces', '-o', 'name'], { kubeconfig });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain('namespace/default');
  }, 120_000);
});
