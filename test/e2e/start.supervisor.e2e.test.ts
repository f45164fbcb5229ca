/**
 * `npm start` as a supervisor: a service that dies while the stack runs is restarted (with backoff, logged), as
 * the kubelet would; the launcher and the rest of the stack keep running, and the restarted service serves again.
 * Runs the compiled launcher (dist/scripts/start.js; `npm test` builds first) on free ports in a temp directory.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@kube/testing';
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
