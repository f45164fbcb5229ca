/**
 * `npm start` as a supervisor: a service that dies while the stack runs is restarted (with backoff, logged), as
 * the kubelet would; the launcher and the rest of the stack keep running, and the restarted service serves again.
 * Runs the compiled launcher (dist/scripts/start.js; `npm test` builds first) on free ports in a temp directory.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKubeconfig } from '@kube/pki';
import { tempDir } from '@kube/testing';
import { parse as parseYaml } from 'yaml';
import { kubectlSession, until } from '@test/support';
import { childPids, processName } from '../../bench/soak.sampler';
import { launchStack, type LaunchedStack } from '../../bench/soak.stack';

describe('npm start restarts a service that dies, and keeps the rest of the stack up', () => {
  const dir = tempDir('start-supervisor');
  const logFile = join(dir, 'stack.log');
  let stack: LaunchedStack;
  const { k, ok } = kubectlSession(undefined, () => join(dir, 'local', 'kubeconfig'));
  const pidOf = (name: string): number | undefined => childPids(stack.launcherPid).find((pid) => {
    try {
      return processName(pid) === name;
    } catch {
      return false;
    }
  });

  beforeAll(async () => {
    stack = await launchStack(join(dir, 'local'), logFile);
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('runs each aggregated server as its own user, never the admin: registered, serving, refused what its RBAC does not grant', async () => {
    const pkiDir = join(dir, 'local', 'pki');
    for (const name of ['sample-apiserver', 'counts-apiserver']) {
      const pid = pidOf(name);
      expect(pid, `${name} is a child of the launcher`).toBeDefined();
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      expect(environ).toContain(`KUBE_REGISTER_CERT_FILE=${join(pkiDir, `client-${name}.crt`)}`);
      // No admin credentials, no CA key: nothing it is given names them.
      expect(environ.filter((e) => /(admin\.(crt|key)|ca\.key|sa\.key)$/.test(e)), name).toEqual([]);
      expect(new X509Certificate(readFileSync(join(pkiDir, `client-${name}.crt`))).subject).toBe(`CN=system:kube-ts:${name}`);
    }
    // Registered with those identities, and served through the front door.
    expect(await until(async () => (await k(['get', 'flunders.wardle.example.com', '-A', '-o', 'name'])).code === 0, 120_000)).toBe(true);
    expect(await until(async () => (await k(['get', '--raw', '/apis/counts.example.com/v1alpha1'])).code === 0, 120_000)).toBe(true);
    // The identity itself: its own APIService yes, secrets and other APIServices no.
    const wardle = join(dir, 'wardle.kubeconfig');
    const ca = readFileSync(join(pkiDir, 'ca.crt'), 'utf8');
    const server = (parseYaml(readFileSync(join(dir, 'local', 'kubeconfig'), 'utf8')) as { clusters: Array<{ cluster: { server: string } }> }).clusters[0].cluster.server;
    await writeKubeconfig(wardle, { server, caPem: ca, clientCertPem: readFileSync(join(pkiDir, 'client-sample-apiserver.crt'), 'utf8'), clientKeyPem: readFileSync(join(pkiDir, 'client-sample-apiserver.key'), 'utf8') });
    const as = kubectlSession(undefined, () => wardle);
    expect((await as.ok(['get', 'apiservice', 'v1alpha1.wardle.example.com', '-o', 'name'])).trim()).toBe('apiservice.apiregistration.k8s.io/v1alpha1.wardle.example.com');
    for (const args of [['get', 'secrets', '-A'], ['get', 'apiservice', 'v1alpha1.counts.example.com'], ['delete', 'apiservice', 'v1alpha1.wardle.example.com']]) {
      const denied = await as.k(args);
      expect(denied.code, args.join(' ')).not.toBe(0);
      expect(denied.stderr, args.join(' ')).toMatch(/Forbidden|forbidden/);
    }
  }, 300_000);

  for (const name of ['core-api', 'etcd'] as const) {
    it(`restarts ${name} after kill -9; the launcher stays up and the API serves again`, async () => {
      await ok(['create', 'configmap', `before-${name}`, '--from-literal=k=v']);
      const old = pidOf(name);
      expect(old, `${name} is a child of the launcher`).toBeDefined();
      process.kill(old as number, 'SIGKILL');
      expect(await until(async () => { const now = pidOf(name); return now !== undefined && now !== old; }, 60_000), `${name} restarted`).toBe(true);
      expect(stack.running).toBe(true);
      // Served again, and nothing acknowledged before the kill is lost.
      expect(await until(async () => (await k(['get', 'configmap', `before-${name}`, '-o', 'name'])).code === 0, 120_000)).toBe(true);
      await ok(['create', 'configmap', `after-${name}`, '--from-literal=k=v']);
      const log = readFileSync(logFile, 'utf8');
      expect(log).toMatch(new RegExp(`${name} was killed by SIGKILL`));
      expect(log).toMatch(new RegExp(`restarting ${name} in 1 s \\(restart 1 in a row\\)`));
    }, 240_000);
  }
});
