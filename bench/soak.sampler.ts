/** What the soak measures of a process, from /proc (Linux): its resident set and its open file descriptors. */
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

export interface ProcessUsage {
  readonly rssMiB: number;
  readonly fds: number;
}

/** The children of `ppid`, by pid; empty where /proc cannot be read. */
export function childPids(ppid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === ppid) pids.push(Number(entry));
    } catch {
      // gone between readdir and read
    }
  }
  return pids;
}

/** A launcher child's name: `dist/apps/<name>/src/main.js` for the API services, the binary's for etcd and nats-server. */
export function processName(pid: number): string {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  for (const arg of argv) {
    const app = /(?:^|\/)dist\/apps\/([^/]+)\/src\/main\.js$/.exec(arg);
    if (app) return app[1];
  }
  const binary = basename(argv[0] ?? `pid-${pid}`);
  return binary === 'nats-server' ? 'nats' : binary;
}

/** RSS (VmRSS) and open descriptors now; undefined once the process is gone. */
export function processUsage(pid: number): ProcessUsage | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? NaN);
    const fds = readdirSync(`/proc/${pid}/fd`).length;
    return Number.isNaN(kib) ? undefined : { rssMiB: kib / 1024, fds };
  } catch {
    return undefined;
  }
}
