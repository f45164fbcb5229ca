import type { IncomingMessage, ServerResponse } from 'node:http';
import { Session } from 'node:inspector/promises';
import { Errors, StatusError } from '@kube/apimachinery';
import { pprofFromCpuProfile } from './pprof.format';

/** 100 µs: a tenth of V8's default 1 ms, as fine as Go's 100 Hz is coarse; enough for a request's stages. */
const SAMPLING_INTERVAL_MICROS = 100;

/** Go's net/http/pprof default for /debug/pprof/profile without `seconds`. */
const DEFAULT_SECONDS = 30;

export interface ProfilingOptions {
  /** kube's --profiling (KUBE_PROFILING, default true): off, /debug/pprof is not served (404). */
  enabled: boolean;
  /**
   * A profile must end before the request would time out (kube's pprof refuses a duration past the server's
   * WriteTimeout the same way): `seconds` ≥ this answers 400.
   */
  requestTimeoutMs: number;
}

const INDEX = `<html>
<head><title>/debug/pprof/</title></head>
<body>
/debug/pprof/<br>
<br>
Types of profiles available:
<table>
<thead><td>Count</td><td>Profile</td></thead>
<tr><td>1</td><td><a href='heap?debug=1'>heap</a></td></tr>
<tr><td>1</td><td><a href='profile'>profile</a></td></tr>
<tr><td>1</td><td><a href='cmdline'>cmdline</a></td></tr>
</table>
<br>
<p>
profile: CPU profile (a .cpuprofile, Chrome DevTools' Performance panel or speedscope open it). ?seconds=N, default 30; ?format=pprof: Go's pprof format (go tool pprof).<br>
heap: V8 heap snapshot (a .heapsnapshot, Chrome DevTools' Memory panel opens it); ?seconds=N: a sampling heap profile over N seconds (a .heapprofile) instead.<br>
cmdline: the command line of the process, NUL-separated.
</p>
</body>
</html>
`;

/**
 * kube's --profiling: /debug/pprof (net/http/pprof) on every server, as a Node process can profile itself through
 * the inspector protocol, in the formats Chrome DevTools opens. Authorization is the handler chain's (non-resource
 * URLs, e.g. `get` on `/debug/pprof/*`). One profile at a time per process: a second one while another runs
 * answers 429 with Retry-After (a profile of a profile would measure the profiler). Nothing runs until asked:
 * costs nothing while nobody profiles.
 */
export class ProfilingHandler {
  private running?: { kind: string; until: number };

  constructor(private readonly options: ProfilingOptions) {}

  /** The status code when `path` is under /debug/pprof and profiling is on, else 0 (not ours). */
  async serve(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<number> {
    if (!this.options.enabled || (path !== '/debug/pprof' && !path.startsWith('/debug/pprof/'))) return 0;
    const name = path.slice('/debug/pprof/'.length);
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') throw Errors.methodNotSupported({ group: '', resource: '' }, req.method ?? '');
    switch (name) {
      case '':
        return text(res, 200, INDEX, 'text/html; charset=utf-8');
      case 'cmdline':
        return text(res, 200, process.argv.join('\x00'), 'text/plain; charset=utf-8');
      case 'profile':
        return this.cpuProfile(res, this.seconds(query, DEFAULT_SECONDS), query.get('format') === 'pprof');
      case 'heap': {
        const seconds = this.seconds(query, 0);
        return seconds > 0 ? this.samplingHeapProfile(res, seconds) : this.heapSnapshot(res, query.get('gc') === '1');
      }
      default:
        // Go's pprof answers an unknown profile name this way.
        throw new StatusError(404, 'NotFound', 'Unknown profile');
    }
  }

  /** Go's parsing: an unparsable or non-positive value is the default; a duration past the timeout is refused. */
  private seconds(query: URLSearchParams, fallback: number): number {
    const raw = query.get('seconds');
    const parsed = raw !== null && /^[+-]?\d+$/.test(raw) ? Number(raw) : NaN;
    const seconds = Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
    if (seconds * 1000 >= this.options.requestTimeoutMs) throw Errors.badRequest(`profile duration exceeds server's request timeout (${this.options.requestTimeoutMs / 1000}s)`);
    return seconds;
  }

  private acquire(kind: string, seconds: number): () => void {
    const running = this.running;
    if (running) {
      const left = Math.max(1, Math.ceil((running.until - Date.now()) / 1000));
      // Go's text for a second CPU profile (pprof.StartCPUProfile's error), as a 429 a client can retry.
      throw Errors.tooManyRequests(`Could not enable ${kind}: ${running.kind.toLowerCase()} already in use`, left);
    }
    this.running = { kind, until: Date.now() + seconds * 1000 };
    return () => {
      this.running = undefined;
    };
  }

  private async cpuProfile(res: ServerResponse, seconds: number, pprof: boolean): Promise<number> {
    const release = this.acquire('CPU profiling', seconds);
    const session = new Session();
    try {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_MICROS });
      await session.post('Profiler.start');
      await sleep(seconds, res);
      const { profile } = await session.post('Profiler.stop');
      // Go's pprof format for `go tool pprof` on request; else the .cpuprofile DevTools opens.
      if (pprof) return attachment(res, pprofFromCpuProfile(profile, SAMPLING_INTERVAL_MICROS), `profile-${process.pid}.pb.gz`);
      return attachment(res, Buffer.from(JSON.stringify(profile)), `profile-${process.pid}.cpuprofile`);
    } finally {
      session.disconnect();
      release();
    }
  }

  private async samplingHeapProfile(res: ServerResponse, seconds: number): Promise<number> {
    const release = this.acquire('heap profiling', seconds);
    const session = new Session();
    try {
      session.connect();
      // Go's heap profile samples every 512 KiB allocated; V8's default is 32 KiB, finer and still cheap.
      await session.post('HeapProfiler.startSampling', { samplingInterval: 32 * 1024 });
      await sleep(seconds, res);
      const { profile } = await session.post('HeapProfiler.getSamplingProfile');
      await session.post('HeapProfiler.stopSampling');
      return attachment(res, Buffer.from(JSON.stringify(profile)), `heap-${process.pid}.heapprofile`);
    } finally {
      session.disconnect();
      release();
    }
  }

  /**
   * A heap snapshot, streamed as V8 writes it (it is as large as the heap's object graph, so never buffered
   * whole). V8 stops the process while it walks the heap: every request waits that long.
   */
  private async heapSnapshot(res: ServerResponse, gc: boolean): Promise<number> {
    const release = this.acquire('heap profiling', 0);
    const session = new Session();
    try {
      session.connect();
      if (gc) await session.post('HeapProfiler.collectGarbage');
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Disposition': `attachment; filename="heap-${process.pid}.heapsnapshot"`, 'X-Content-Type-Options': 'nosniff' });
      session.on('HeapProfiler.addHeapSnapshotChunk', (m) => res.write(m.params.chunk));
      await session.post('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      res.end();
      return 200;
    } finally {
      session.disconnect();
      release();
    }
  }
}

/** Waits `seconds`, or less when the client goes away (Go's pprof returns on the request's context). */
function sleep(seconds: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, seconds * 1000);
    res.once('close', done);
  });
}

function attachment(res: ServerResponse, body: Buffer, filename: string): number {
  if (res.headersSent || res.destroyed) return 0;
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Disposition': `attachment; filename="${filename}"`, 'Content-Length': body.length, 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
  return 200;
}

function text(res: ServerResponse, code: number, body: string, contentType: string): number {
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
  return code;
}

/** KUBE_PROFILING as kube's --profiling: Go's boolean spellings, default true; anything else stops the start. */
export function profilingFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const raw = env.KUBE_PROFILING;
  if (raw === undefined || raw === '') return true;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(raw)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(raw)) return false;
  throw new Error(`invalid value "${raw}" for KUBE_PROFILING: parse error (want true or false)`);
}
