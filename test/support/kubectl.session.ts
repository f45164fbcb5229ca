import { expect } from 'vitest';
import { runKubectl, type KubectlResult } from '@kube/testing';

export interface KubectlSession {
  /** Runs kubectl; never throws on a non-zero exit. */
  k(args: string[], stdin?: string, timeoutMs?: number): Promise<KubectlResult>;
  /** Runs kubectl and expects success with nothing on stderr but warnings; returns stdout. */
  ok(args: string[], stdin?: string): Promise<string>;
  /**
   * Runs a watching kubectl (`get -w`) until its output satisfies `seen`, or `timeoutMs` (then code 124): never
   * cut short by a fixed time a loaded machine may need for kubectl's start and discovery.
   */
  watch(args: string[], seen: (stdout: string) => boolean, timeoutMs?: number): Promise<KubectlResult>;
}

/**
 * kubectl of one version ("1.27"; undefined: the kubectl on PATH) against whatever kubeconfig the test has
 * booted (read lazily, after beforeAll).
 */
export function kubectlSession(version: string | undefined, kubeconfig: () => string): KubectlSession {
  const k: KubectlSession['k'] = (args, stdin, timeoutMs) => runKubectl(args, { kubeconfig: kubeconfig(), version, stdin, timeoutMs });
  return {
    k,
    watch: (args, seen, timeoutMs = 60_000) => runKubectl(args, { kubeconfig: kubeconfig(), version, timeoutMs, stopWhen: seen }),
    ok: async (args, stdin) => {
      const r = await k(args, stdin);
      // Warnings (and 1.27's version-skew notice against our 1.33 server) are not failures.
      expect(r.stderr.replace(/^(Warning|WARNING):.*\n?/gm, ''), `kubectl ${args.join(' ')}`).toBe('');
      expect(r.code, `kubectl ${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout;
    },
  };
}
