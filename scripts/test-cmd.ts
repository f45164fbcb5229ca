/**
 * `npm run test:cmd [-- run_function ...]`: kubectl's own command tests (Kubernetes' test/cmd/*.sh) against a
 * throw-away `npm start` stack.
 *
 * Starts the real launcher (dist/scripts/start.js) in a temporary KUBE_LOCAL_DIR on free ports, with the suite's
 * static token file (test-cmd's `admin-token` user), runs the suite's driver `run.sh` against its kubeconfig, prints
 * its PASS/FAIL lines and a summary, and stops the stack. Exits 1 when a function fails that docs/differences.md
 * does not list as a known difference (the section "kubectl's command tests").
 *
 * The suite is upstream's files, kept outside this repository and never fetched here:
 *   KUBE_TEST_CMD_DIR  the suite (default ../shared/conformance/test-cmd beside the repository)
 *   KUBECTL            the kubectl to run (default `kubectl`, i.e. 1.33; e.g. KUBECTL=kubectl.1.27)
 *   TEST_CMD_LOGS      where each function's full log goes (default: the run's temporary directory)
 *   TEST_CMD_TIMEOUT   seconds per function (run.sh's default 120)
 *   KUBE_TEST_CMD_KEEP=1  keep the temporary directory (stack log, logs) after the run
 *
 * The stack is set up as hack/make-rules/test-cmd.sh sets up kube-apiserver for the suite: its static token file,
 * `--authorization-mode=RBAC,AlwaysAllow` (an AuthorizationConfiguration with those two authorizers, unless the caller
 * set KUBE_AUTHORIZATION_MODE or KUBE_AUTHORIZATION_CONFIG) and the Node `127.0.0.1` its create_node makes, as no
 * kubelet runs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { kubectlPath } from '@kube/testing';
import { launchStack, type LaunchedStack } from '../bench/soak.stack';
import { knownTestCmdDifferences } from './test-cmd.known';

/** The repository root, whether this runs from dist/scripts or from its source. */
const ROOT = ((): string => {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();

export interface TestCmdResult {
  readonly name: string;
  readonly passed: boolean;
  /** run.sh's reason for a failure. */
  readonly why?: string;
}

/** Parses one line of run.sh's output (`PASS name` / `FAIL name: why`); other lines are not results. */
export function parseResultLine(line: string): TestCmdResult | undefined {
  const pass = /^PASS (run_\w+)$/.exec(line);
  if (pass) return { name: pass[1], passed: true };
  const fail = /^FAIL (run_\w+): ?(.*)$/.exec(line);
  return fail ? { name: fail[1], passed: false, why: fail[2] } : undefined;
}

/**
 * A directory holding `kubectl` -> the binary KUBECTL names, for run.sh, which runs whatever `kubectl` is on PATH:
 * `kubectl.1.27` or `1.27` (beside the real kubectl, as the Cloud SDK ships them), a path, or a command on PATH.
 */
function kubectlBin(dir: string, kubectl: string): string {
  const version = /^(?:kubectl\.)?(\d+\.\d+)$/.exec(kubectl)?.[1];
  const found = version
    ? kubectlPath(version)
    : isAbsolute(kubectl)
      ? kubectl
      : spawnSync('bash', ['-c', 'command -v "$1"', '_', kubectl], { encoding: 'utf8' }).stdout.trim();
  if (!found || !existsSync(found)) throw new Error(`KUBECTL=${kubectl}: not found`);
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(found, join(bin, 'kubectl'));
  return bin;
}

/** test-cmd.sh's AUTHORIZATION_MODE="RBAC,AlwaysAllow" ("Include RBAC (to exercise bootstrapping), and AlwaysAllow to allow all actions"). */
const TEST_CMD_AUTHORIZATION = `apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
- type: RBAC
  name: rbac
- type: AlwaysAllow
  name: alwaysallow
`;

/** test-cmd.sh's create_node: the Node its tests name, which no kubelet registers here. */
const TEST_CMD_NODE = JSON.stringify({ kind: 'Node', apiVersion: 'v1', metadata: { name: '127.0.0.1' }, status: { capacity: { memory: '1Gi' } } });

/**
 * The minor version (`1.27`) of the kubectl run.sh runs, for the differences that only it has: the one on `env`'s
 * PATH, or the `.1.33` binary beside it where the machine's kubectl is a version dispatcher (run.sh's prepare_run).
 */
function kubectlMinor(env: NodeJS.ProcessEnv): string | undefined {
  const found = spawnSync('bash', ['-c', 'kc=$(readlink -f "$(command -v kubectl)"); [[ -x ${kc}.1.33 ]] && kc=${kc}.1.33; echo "$kc"'], { env, encoding: 'utf8' }).stdout.trim();
  if (!found) return undefined;
  const out = spawnSync(found, ['version', '--client', '-o', 'json'], { env, encoding: 'utf8' }).stdout;
  try {
    const v = (JSON.parse(out) as { clientVersion?: { major?: string; minor?: string } }).clientVersion;
    return v?.major && v.minor ? `${v.major}.${v.minor.replace(/\D+$/, '')}` : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const suite = resolve(process.env.KUBE_TEST_CMD_DIR ?? join(ROOT, '..', 'shared', 'conformance', 'test-cmd'));
  const driver = join(suite, 'run.sh');
  if (!existsSync(driver)) {
    console.error(`test-cmd: ${driver} is missing; set KUBE_TEST_CMD_DIR to the directory holding kubectl's command tests (run.sh)`);
    return 2;
  }
  const work = mkdtempSync(join(tmpdir(), 'kube-ts-test-cmd-'));
  const logs = process.env.TEST_CMD_LOGS ?? join(work, 'logs');
  const env: NodeJS.ProcessEnv = { ...process.env, TEST_CMD_LOGS: logs };
  const kubectl = process.env.KUBECTL;
  if (kubectl && kubectl !== 'kubectl') env.PATH = `${kubectlBin(work, kubectl)}${delimiter}${process.env.PATH ?? ''}`;
  const minor = kubectlMinor(env);
  const known = knownTestCmdDifferences(readFileSync(join(ROOT, 'docs', 'differences.md'), 'utf8'), minor);
  if (!process.env.KUBE_AUTHORIZATION_MODE && !process.env.KUBE_AUTHORIZATION_CONFIG) {
    const authz = join(work, 'authorization-config.yaml');
    writeFileSync(authz, TEST_CMD_AUTHORIZATION);
    process.env.KUBE_AUTHORIZATION_CONFIG = authz;
  }

  // The launcher passes its environment to the API servers: the front door reads test-cmd's token file.
  process.env.KUBE_TOKEN_AUTH_FILE = join(suite, 'hack', 'testdata', 'auth-tokens.csv');
  const stackLog = join(work, 'stack.log');
  console.log(`test-cmd: starting a stack in ${work} (log: ${stackLog})`);
  let stack: LaunchedStack | undefined;
  const stopping = (): void => void stack?.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopping);
  process.once('SIGTERM', stopping);
  const results: TestCmdResult[] = [];
  let summary = '';
  try {
    stack = await launchStack(join(work, 'local'), stackLog);
    env.KUBECONFIG = join(stack.dir, 'kubeconfig');
    const node = spawnSync('kubectl', ['create', '-f', '-'], { env, input: TEST_CMD_NODE, encoding: 'utf8' });
    if (node.status !== 0) throw new Error(`creating test-cmd's Node 127.0.0.1: ${node.stderr.trim()}`);
    console.log(`test-cmd: stack ready at ${stack.url}; running ${driver} with ${kubectl ?? 'kubectl'} (${minor ?? 'version unknown'})`);
    const child = spawn('bash', [driver, ...process.argv.slice(2)], { cwd: suite, env, stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const result = parseResultLine(line);
      if (result) results.push(result);
      if (line.startsWith('test-cmd:')) summary = line;
      const mark = result && !result.passed && known.has(result.name) ? ' (known difference)' : '';
      console.log(`${line}${mark}`);
    });
    await new Promise<void>((done) => child.once('close', () => done()));
  } finally {
    await stack?.stop();
    process.off('SIGINT', stopping);
    process.off('SIGTERM', stopping);
  }
  const unexpected = results.filter((r) => !r.passed && !known.has(r.name));
  const stale = results.filter((r) => r.passed && known.has(r.name));
  const passed = results.filter((r) => r.passed).length;
  if (!summary) console.log(`test-cmd: ${passed}/${results.length} functions pass`);
  console.log(`test-cmd: ${results.length - passed - unexpected.length} known differences (docs/differences.md), ${unexpected.length} unexpected failures`);
  for (const r of unexpected) console.log(`  unexpected: ${r.name}`);
  for (const r of stale) console.log(`  passes now, remove it from docs/differences.md: ${r.name}`);
  // Kept on request, or when unexpected failures' logs are inside it; the stack's data and keys are of no use after.
  const keep = process.env.KUBE_TEST_CMD_KEEP === '1' || (unexpected.length > 0 && !process.env.TEST_CMD_LOGS);
  if (!keep) rmSync(work, { recursive: true, force: true });
  if (keep || process.env.TEST_CMD_LOGS) console.log(`test-cmd: logs in ${logs}`);
  return unexpected.length === 0 && results.length > 0 ? 0 : 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`test-cmd: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
