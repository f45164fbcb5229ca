import { spawn } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { requireExecutable } from './executable.locator';
import { tempDir } from './temp-dir';

export interface KubectlRunOptions {
  readonly kubeconfig: string;
  /** e.g. '1.27' runs kubectl.1.27 from the folder of the real kubectl binary; default: plain kubectl. */
  readonly version?: string;
  readonly stdin?: string;
  /** Default 60 s; on timeout kubectl is killed and the result has code 124 (like timeout(1)). */
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Ends kubectl (a `get -w`) once its output so far satisfies this; the result then has code 0. A watch is thus
   * read until it has shown what a test waits for, however slow the machine, not for a fixed time.
   */
  readonly stopWhen?: (stdout: string) => boolean;
}

export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const TIMEOUT_EXIT_CODE = 124;

/** One HOME (and so one discovery cache) per kubeconfig: caches never leak between tests' clusters. */
const homes = new Map<string, string>();

/** Absolute path of kubectl, or of kubectl.<version> next to it (the Cloud SDK ships several side by side). */
export function kubectlPath(version?: string): string {
  const real = realpathSync(requireExecutable('kubectl', 'install kubectl'));
  if (version === undefined) return real;
  const versioned = join(dirname(real), `kubectl.${version}`);
  if (existsSync(versioned)) return versioned;
  const available = readdirSync(dirname(real)).filter((f) => /^kubectl\.\d+\.\d+$/.test(f));
  throw new Error(`${versioned} not found; available: ${available.join(', ') || 'none'}`);
}

/**
 * Runs kubectl against `opts.kubeconfig`. Resolves with the exit code and output whatever the exit code is;
 * rejects only when kubectl cannot be started at all.
 */
export function runKubectl(args: readonly string[], opts: KubectlRunOptions): Promise<KubectlResult> {
  const kubeconfig = resolve(opts.kubeconfig);
  const child = spawn(kubectlPath(opts.version), [`--kubeconfig=${kubeconfig}`, ...args], {
    env: kubectlEnv(kubeconfig, opts.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  child.stdin.end(opts.stdin ?? '');
  child.stdin.on('error', () => undefined); // kubectl may exit without reading stdin

  let stopped = false;
  if (opts.stopWhen) {
    const stopWhen = opts.stopWhen;
    child.stdout.on('data', () => {
      if (stopped || !stopWhen(stdout())) return;
      stopped = true;
      child.kill('SIGTERM');
    });
  }

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);

  return new Promise((resolvePromise, reject) => {
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      const note = timedOut ? `\nkubectl timed out after ${opts.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms` : '';
      resolvePromise({
        code: timedOut ? TIMEOUT_EXIT_CODE : stopped ? 0 : (code ?? 1),
        stdout: stdout(),
        stderr: stderr() + note,
      });
    });
  });
}

function kubectlEnv(kubeconfig: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = homeFor(kubeconfig);
  // KUBECONFIG would be ignored because of --kubeconfig, but drop it so nothing from the caller's shell leaks in.
  const { KUBECONFIG: _ignored, ...inherited } = process.env;
  return { ...inherited, HOME: home, KUBECACHEDIR: join(home, '.kube', 'cache'), ...extra };
}

function homeFor(kubeconfig: string): string {
  let home = homes.get(kubeconfig);
  if (!home) {
    home = tempDir('kubectl-home');
    homes.set(kubeconfig, home);
  }
  return home;
}

function collect(stream: NodeJS.ReadableStream): () => string {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return () => Buffer.concat(chunks).toString('utf8');
}
