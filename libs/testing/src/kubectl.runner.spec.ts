import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubectlPath, runKubectl } from './kubectl.runner';
import { tempDir } from './temp-dir';

describe('kubectlPath', () => {
  it('finds the real kubectl and versioned ones beside it', () => {
    expect(existsSync(kubectlPath())).toBe(true);
    expect(kubectlPath('1.27')).toBe(join(kubectlPath(), '..', 'kubectl.1.27'));
    expect(() => kubectlPath('0.1')).toThrow(/available: .*kubectl\.1\.27/);
  });
});

describe('runKubectl', () => {
  const kubeconfig = join(tempDir('kubectl-spec'), 'kubeconfig');

  it('resolves with the output of a successful run', async () => {
    const result = await runKubectl(['version', '--client', '-o', 'json'], { kubeconfig, version: '1.27' });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).clientVersion.minor).toBe('27');
  });

  it('resolves, not rejects, when kubectl fails', async () => {
    const result = await runKubectl(['get', 'pods', '--request-timeout=1s', '--server=https://127.0.0.1:1'], {
      kubeconfig,
      timeoutMs: 20_000,
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).not.toBe('');
  });
});
