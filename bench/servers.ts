/** Starting the servers a benchmark measures, each in its own process, and waiting for them. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PkiPaths } from '@kube/pki';
import { agentFor, call, type TlsClient } from './load.generator';

/**
 * `node [nodeArgs] dist/apps/<app>/src/main.js` with `env` added to ours; stdout is piped (and drained).
 * BENCH_SERVER_CPUS (a taskset CPU list, e.g. `1`): the servers run on those CPUs only; with the bench itself
 * started under `taskset -c 0`, the load generator, the watchers and etcd stay off the servers' cores.
 * BENCH_PROXY_CPUS: the aggregator (and the minimal proxy it is compared with) on CPUs of their own instead, e.g.
 * `taskset -c 1 env BENCH_SERVER_CPUS=1 BENCH_PROXY_CPUS=0 node dist/bench/run.js --only proxy,watch`: the
 * proxy hop gets a core, as its own pod would, while direct and proxied runs share the other one alike.
 */
export function startApp(root: string, app: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): ChildProcess {
  const args = [...nodeArgs, join(root, `dist/apps/${app}/src/main.js`)];
  const child = spawnPinned(app === 'aggregator' ? 'proxy' : 'server', args, env);
  child.stdout?.resume();
  return child;
}

/** `node args` with `env` added to ours, on the CPUs BENCH_PROXY_CPUS or BENCH_SERVER_CPUS name for its role. */
export function spawnPinned(role: 'server' | 'proxy', args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const cpus = (role === 'proxy' ? process.env.BENCH_PROXY_CPUS : undefined) ?? process.env.BENCH_SERVER_CPUS;
  // taskset execs node in place: the child's pid is the server's (its CPU time is what the figures read).
  const [file, argv] = cpus ? ['taskset', ['-c', cpus, process.execPath, ...args]] : [process.execPath, args];
  return spawn(file, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
}

/** core-api's environment for the benchmark: its own certificates, generous in-flight limits. */
export function coreApiEnv(etcdEndpoint: string, port: number, pki: PkiPaths): NodeJS.ProcessEnv {
  return {
    KUBE_ETCD_ENDPOINTS: etcdEndpoint,
    KUBE_SECURE_PORT: String(port),
    KUBE_TLS_CERT_FILE: pki.apiserverCert,
    KUBE_TLS_PRIVATE_KEY_FILE: pki.apiserverKey,
    KUBE_CLIENT_CA_FILE: pki.caCert,
    KUBE_MAX_REQUESTS_INFLIGHT: '2000',
    KUBE_MAX_MUTATING_REQUESTS_INFLIGHT: '1000',
    KUBE_REQUESTHEADER_CLIENT_CA_FILE: pki.frontProxyCaCert,
    KUBE_REQUESTHEADER_ALLOWED_NAMES: 'front-proxy-client',
    KUBE_ALLOW_LOOPBACK_ENDPOINTS: 'true',
  };
}

export async function waitReady(port: number, tls: TlsClient, timeoutMs = 60_000): Promise<void> {
  const agent = agentFor(tls, 1);
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      const ok = await call(agent, port, { method: 'GET', path: '/readyz' }).then((r) => r.status === 200).catch(() => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`port ${port} did not become ready`);
  } finally {
    agent.destroy();
  }
}

export async function stopApp(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** Resident set size of a process in bytes (VmRSS), NaN where /proc is missing. */
export function rssBytes(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
  } catch {
    return NaN;
  }
}

/** A process's open-file limit (soft), from /proc; NaN where /proc is missing. */
export function openFileLimit(pid: number | undefined): number {
  try {
    return Number(/Max open files\s+(\d+)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1]);
  } catch {
    return NaN;
  }
}

/**
 * Live-heap measurements of a server: start it with `nodeArgs` and `env` (bench/heap.probe.ts preloaded,
 * --expose-gc); `read(pid)` makes it collect garbage and report process.memoryUsage().
 */
export function memoryProbe(root: string, file: string): { nodeArgs: string[]; env: NodeJS.ProcessEnv; read(pid: number | undefined): Promise<NodeJS.MemoryUsage> } {
  return {
    nodeArgs: ['--expose-gc', '-r', join(root, 'dist/bench/heap.probe.js')],
    env: { BENCH_HEAP_PROBE_FILE: file },
    async read(pid) {
      const before = Date.now();
      process.kill(pid as number, 'SIGWINCH');
      const deadline = before + 60_000;
      while (Date.now() < deadline) {
        try {
          const m = JSON.parse(readFileSync(file, 'utf8')) as NodeJS.MemoryUsage & { at: number; collected: boolean };
          if (m.at >= before) {
            if (!m.collected) throw new Error('the heap probe could not collect garbage (no --expose-gc)');
            return m;
          }
        } catch (err) {
          if (err instanceof Error && err.message.startsWith('the heap probe')) throw err;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`process ${pid} did not answer the heap probe`);
    },
  };
}
