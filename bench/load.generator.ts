import { Agent, request } from 'node:https';
import { readFileSync } from 'node:fs';

export interface TlsClient {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50ms: number;
  p99ms: number;
}

export interface HttpCall {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export function agentFor(tls: TlsClient, maxSockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets, ca: tls.ca, cert: tls.cert, key: tls.key });
}

/** One HTTPS request; resolves with status and body. */
export function call(agent: Agent, port: number, c: HttpCall): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Accept: 'application/json', ...c.headers };
    if (c.body !== undefined) {
      headers['Content-Type'] = c.headers?.['Content-Type'] ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(c.body));
    }
    const req = request({ host: '127.0.0.1', port, method: c.method, path: c.path, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    if (c.body !== undefined) req.write(c.body);
    req.end();
  });
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A warm-up's length (JIT, connections) before a measured run of `seconds`: 1 s, less for `--quick`'s short runs. */
export function warmupSeconds(seconds: number): number {
  return Math.min(1, seconds / 4);
}

/**
 * How long a freshly started server needs under load before its CPU per request settles (V8 compiling the hot
 * paths, on the same two cores): a new extensions' CPU per CR create fell from 2,900 µs in its first second to
 * about 750 µs by the sixth, and core-api's per configmap create from 2,200 to about 700 µs by the fifth.
 * Figures comparing steady states warm each side this long first: 5 s; 1 s for `--quick`, which stays under two
 * minutes and so compares runs with each other more than with these targets.
 */
export function settleSeconds(seconds: number): number {
  return seconds < 5 ? 1 : 5;
}

/** Runs `concurrency` loops of `next()` for `seconds`, measuring throughput and latency. */
export async function runLoad(concurrency: number, seconds: number, next: (i: number) => Promise<boolean>): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) {
        const t0 = process.hrtime.bigint();
        const ok = await next(counter++).catch(() => false);
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, seconds: elapsed, rps: latencies.length / elapsed, p50ms: percentile(latencies, 50), p99ms: percentile(latencies, 99) };
}

/**
 * Open loop: `rate` requests per second for `seconds`, each started on schedule whatever the others are doing (as
 * independent clients would), at most `maxInFlight` at once (a request the schedule could not start then is
 * counted as an error). Below saturation every server sees the same work per second whoever else shares the
 * machine, so CPU per request compares setups without the batching a saturated event loop gets.
 */
export async function runPaced(rate: number, seconds: number, next: (i: number) => Promise<boolean>, maxInFlight = 256): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let started = 0;
  let inFlight = 0;
  const pending = new Set<Promise<void>>();
  const t0 = performance.now();
  const total = Math.round(rate * seconds);
  while (started < total) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate));
    for (; started < due; started++) {
      if (inFlight >= maxInFlight) {
        errors++;
        continue;
      }
      inFlight++;
      const begun = performance.now();
      const p: Promise<void> = next(started)
        .catch(() => false)
        .then((ok) => {
          latencies.push(performance.now() - begun);
          if (!ok) errors++;
          inFlight--;
          pending.delete(p);
        });
      pending.add(p);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, seconds: elapsed, rps: latencies.length / elapsed, p50ms: percentile(latencies, 50), p99ms: percentile(latencies, 99) };
}

/** CPU time (user + system) a process has used so far, in ms; NaN where /proc is missing. Clock ticks are 10 ms. */
export function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * Milliseconds the main thread of `pid` (a Node process's event loop) has spent runnable but waiting for a core
 * (the second field of /proc/<pid>/schedstat, run_delay): what CPU contention between processes costs its
 * latency, apart from the CPU it used. NaN where the kernel does not keep it.
 */
export function runQueueWaitMs(pid: number | undefined): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return NaN;
  }
}

/** `load` measured together with the CPU the server process `pid` spent per request during it. */
export async function withServerCpu(pid: number | undefined, load: () => Promise<LoadResult>): Promise<LoadResult & { cpuUsPerRequest: number }> {
  const before = cpuMs(pid);
  const result = await load();
  return { ...result, cpuUsPerRequest: ((cpuMs(pid) - before) * 1000) / Math.max(1, result.requests) };
}

/** etcd's unary gRPC calls by method (Txn, Range, …) so far, from its /metrics (grpc_server_handled_total). */
export async function etcdCalls(endpoint: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${endpoint}/metrics`)).text();
  const calls = new Map<string, number>();
  for (const m of text.matchAll(/^grpc_server_handled_total\{([^}]*)\} (\S+)$/gm)) {
    const method = /grpc_method="([^"]+)"/.exec(m[1])?.[1];
    if (method && /grpc_type="unary"/.test(m[1])) calls.set(method, (calls.get(method) ?? 0) + Number(m[2]));
  }
  return calls;
}

/** etcd calls per request between two etcdCalls snapshots, e.g. "1.00 Txn, 0.00 Range". */
export function callsPerRequest(before: Map<string, number>, after: Map<string, number>, requests: number): string {
  return ['Txn', 'Range', 'LeaseGrant']
    .map((m) => `${(((after.get(m) ?? 0) - (before.get(m) ?? 0)) / Math.max(1, requests)).toFixed(2)} ${m}`)
    .join(', ');
}
