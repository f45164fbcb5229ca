/**
 * The stack the soak measures: `npm start` itself (dist/scripts/start.js), on free ports and a directory of its
 * own (KUBE_LOCAL_DIR), so every service is the separate process a user runs. Its output goes to a log file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePorts, onProcessExit } from '@kube/testing';
import { childPids, processName } from './soak.sampler';

/** The repository root, whether this runs from dist/bench or from its source (the short soak test). */
const ROOT = ((): string => {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();
/** Every port variable of the launcher (docs/configuration.md); a service added without one here would fail on its default port. */
const PORT_VARIABLES = [
  'KUBE_ETCD_PORT',
  'KUBE_ETCD_PEER_PORT',
  'KUBE_NATS_PORT',
  'KUBE_NATS_MONITOR_PORT',
  'KUBE_CORE_API_PORT',
  'KUBE_EXTENSIONS_PORT',
  'KUBE_SECURE_PORT',
  'KUBE_SAMPLE_APISERVER_PORT',
  'KUBE_COUNTS_APISERVER_PORT',
  'KUBE_CONTROLLER_MANAGER_PORT',
] as const;
const READY_TIMEOUT_MS = 240_000;
const STOP_TIMEOUT_MS = 90_000;

export interface SoakProcess {
  readonly name: string;
  readonly pid: number;
}

export interface LaunchedStack {
  /** Where its data, certificates and kubeconfig live. */
  readonly dir: string;
  /** The front door. */
  readonly url: string;
  /** The port each of the launcher's port variables was given. */
  readonly ports: Readonly<Record<string, number>>;
  /** The launcher's children: etcd, nats, every API service, the controller-manager. */
  readonly processes: readonly SoakProcess[];
  /** The launcher's own pid (its children now: `childPids`; it restarts a child that dies). */
  readonly launcherPid: number;
  /** Whether the launcher still runs. */
  readonly running: boolean;
  /** Ctrl-C: the launcher stops its children in reverse order. */
  stop(): Promise<void>;
}

export interface LaunchOptions {
  /** Added to the launcher's environment (e.g. KUBE_REPLICAS). */
  readonly env?: NodeJS.ProcessEnv;
  /** Starts the launcher with this open-file soft limit (what a login shell often gives), to see it raised for its children. */
  readonly softNofile?: number;
  /** How long to wait for "Ready." (default 240 s). */
  readonly readyTimeoutMs?: number;
}

/** Starts `npm start`'s launcher in `dir` and waits for its "Ready." line. */
export async function launchStack(dir: string, logFile: string, options: LaunchOptions = {}): Promise<LaunchedStack> {
  const script = join(ROOT, 'dist/scripts/start.js');
  if (!existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` first`);
  const ports = await freePorts(PORT_VARIABLES.length);
  const env: NodeJS.ProcessEnv = { ...process.env, KUBE_LOCAL_DIR: dir, ...options.env };
  PORT_VARIABLES.forEach((name, i) => (env[name] = String(ports[i])));
  const launcher: ChildProcess = options.softNofile
    ? spawn('/bin/sh', ['-c', `ulimit -S -n ${options.softNofile}; exec "$0" "$@"`, process.execPath, script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, [script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(logFile);
  // Should the soak die first, the launcher still stops the stack it started.
  const unregister = onProcessExit(() => launcher.kill('SIGTERM'));
  let exited = false;
  const exit = new Promise<void>((resolveExit) =>
    launcher.once('close', () => {
      exited = true;
      unregister();
      log.end();
      resolveExit();
    }),
  );
  launcher.stderr?.pipe(log, { end: false });
  const ready = new Promise<boolean>((resolveReady) => {
    const lines = createInterface({ input: launcher.stdout! });
    lines.on('line', (line) => {
      log.write(`${line}\n`);
      if (line.startsWith('Ready.')) resolveReady(true);
    });
    void exit.then(() => resolveReady(false));
  });
  const timeout = new Promise<boolean>((r) => setTimeout(() => r(false), options.readyTimeoutMs ?? READY_TIMEOUT_MS).unref());
  const stop = async (): Promise<void> => {
    if (exited) return;
    launcher.kill('SIGTERM');
    const timer = setTimeout(() => launcher.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exit;
    clearTimeout(timer);
  };
  if (!(await Promise.race([ready, timeout]))) {
    const launcherExited = exited;
    await stop();
    // The log's directory is often a test's temporary one, gone by the time anyone reads the report: its tail goes
    // into the error.
    const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n') : '';
    throw new Error(`the stack did not ${launcherExited ? 'start: the launcher exited' : 'start in time'}; see ${logFile}; its last lines:\n${tail}`);
  }
  const processes = childPids(launcher.pid as number).map((pid) => ({ pid, name: processName(pid) }));
  return {
    dir,
    url: `https://127.0.0.1:${env.KUBE_SECURE_PORT}`,
    ports: Object.fromEntries(PORT_VARIABLES.map((name) => [name, Number(env[name])])),
    processes,
    launcherPid: launcher.pid as number,
    get running() {
      return !exited;
    },
    stop,
  };
}
