import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { respondWithError } from '../filters/api-request';
import { gunzipSync } from 'node:zlib';
import { pprofProfileType } from './pprof.format';
import { ProfilingHandler, profilingFromEnv } from './profiling.handler';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function serve(handler: ProfilingHandler): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    handler.serve(req, res, url.pathname, url.searchParams).then(
      (code) => {
        if (!code) res.writeHead(404).end('404 page not found\n');
      },
      (err: unknown) => respondWithError(res, err),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function get(server: Server, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('ProfilingHandler (/debug/pprof)', () => {
  let on: Server;
  let off: Server;

  beforeAll(async () => {
    on = await serve(new ProfilingHandler({ enabled: true, requestTimeoutMs: 10_000 }));
    off = await serve(new ProfilingHandler({ enabled: false, requestTimeoutMs: 10_000 }));
  });

  afterAll(() => {
    on.close();
    off.close();
  });

  it('returns a CPU profile Chrome DevTools opens (.cpuprofile: nodes, samples, time deltas)', async () => {
    const answer = await get(on, '/debug/pprof/profile?seconds=1');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="profile-\d+\.cpuprofile"$/);
    const profile = JSON.parse(answer.body.toString()) as { nodes: Array<{ callFrame: { functionName: string } }>; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };
    expect(profile.nodes.length).toBeGreaterThan(1);
    expect(profile.nodes[0].callFrame.functionName).toBe('(root)');
    expect(profile.endTime - profile.startTime).toBeGreaterThanOrEqual(900_000);
    expect(profile.samples.length).toBe(profile.timeDeltas.length);
  });

  it("returns Go's pprof format with ?format=pprof (gzipped profile.proto: cpu nanoseconds per stack)", async () => {
    const answer = await get(on, '/debug/pprof/profile?seconds=1&format=pprof');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-disposition']).toMatch(/\.pb\.gz"$/);
    const profile = pprofProfileType().toObject(pprofProfileType().decode(gunzipSync(answer.body)), { longs: Number }) as {
      stringTable: string[];
      sampleType: Array<{ type: number; unit: number }>;
      sample: Array<{ locationId: number[]; value: number[] }>;
      location: Array<{ id: number; line: Array<{ functionId: number }> }>;
      function: Array<{ id: number; name: number }>;
      period: number;
    };
    const s = (i: number): string => profile.stringTable[i];
    expect(profile.sampleType.map((t) => `${s(t.type)}/${s(t.unit)}`)).toEqual(['samples/count', 'cpu/nanoseconds']);
    expect(profile.period).toBe(100_000);
    expect(profile.sample.length).toBeGreaterThan(0);
    // Every stack ends at V8's root, and every location names a function.
    const locations = new Map(profile.location.map((l) => [l.id, l]));
    const functions = new Map(profile.function.map((f) => [f.id, s(f.name)]));
    for (const sample of profile.sample) {
      const root = locations.get(sample.locationId[sample.locationId.length - 1]);
      expect(functions.get(root?.line[0].functionId ?? 0)).toBe('(root)');
    }
  });

  it('runs one profile at a time: a second one while the first runs gets 429 with Retry-After and a Status', async () => {
    const first = get(on, '/debug/pprof/profile?seconds=2');
    await new Promise((r) => setTimeout(r, 300));
    const second = await get(on, '/debug/pprof/profile?seconds=1');
    expect(second.status).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const status = JSON.parse(second.body.toString()) as { kind: string; reason: string; message: string; code: number };
    expect(status).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429 });
    expect(status.message).toBe('Could not enable CPU profiling: cpu profiling already in use');
    // A heap profile is refused as well while the CPU profile runs.
    expect((await get(on, '/debug/pprof/heap')).status).toBe(429);
    expect((await first).status).toBe(200);
    // Once it ended, the next one runs.
    expect((await get(on, '/debug/pprof/profile?seconds=1')).status).toBe(200);
  });

  it('refuses a duration the request timeout would cut off (400, as Go pprof past the WriteTimeout)', async () => {
    const answer = await get(on, '/debug/pprof/profile?seconds=10');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body.toString())).toMatchObject({ reason: 'BadRequest', message: "profile duration exceeds server's request timeout (10s)" });
    // Go's default of 30 s applies to a missing or unparsable value, and is refused here too.
    expect((await get(on, '/debug/pprof/profile?seconds=abc')).status).toBe(400);
  });

  it('streams a heap snapshot DevTools opens, and a sampling heap profile over ?seconds', async () => {
    const snapshot = await get(on, '/debug/pprof/heap');
    expect(snapshot.status).toBe(200);
    expect(snapshot.headers['content-disposition']).toMatch(/\.heapsnapshot"$/);
    const parsed = JSON.parse(snapshot.body.toString()) as { snapshot: { node_count: number }; nodes: number[]; strings: string[] };
    expect(parsed.snapshot.node_count).toBeGreaterThan(1000);
    expect(parsed.strings.length).toBeGreaterThan(100);

    const sampled = await get(on, '/debug/pprof/heap?seconds=1');
    expect(sampled.status).toBe(200);
    expect(sampled.headers['content-disposition']).toMatch(/\.heapprofile"$/);
    expect(JSON.parse(sampled.body.toString())).toHaveProperty('head.callFrame');
  });

  it('serves the index and cmdline, and 404 for an unknown profile', async () => {
    expect((await get(on, '/debug/pprof/')).body.toString()).toContain("<a href='profile'>profile</a>");
    expect((await get(on, '/debug/pprof/cmdline')).body.toString()).toBe(process.argv.join('\0'));
    const unknown = await get(on, '/debug/pprof/goroutine2');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body.toString())).toMatchObject({ reason: 'NotFound', message: 'Unknown profile' });
  });

  it('serves nothing when profiling is off (KUBE_PROFILING=false)', async () => {
    expect((await get(off, '/debug/pprof/profile?seconds=1')).status).toBe(404);
    expect((await get(off, '/debug/pprof/heap')).status).toBe(404);
  });

  it("reads KUBE_PROFILING as Go's ParseBool, on by default", () => {
    expect(profilingFromEnv({})).toBe(true);
    expect(profilingFromEnv({ KUBE_PROFILING: 'false' })).toBe(false);
    expect(profilingFromEnv({ KUBE_PROFILING: '0' })).toBe(false);
    expect(profilingFromEnv({ KUBE_PROFILING: 'True' })).toBe(true);
    expect(() => profilingFromEnv({ KUBE_PROFILING: 'no' })).toThrow(/KUBE_PROFILING/);
  });
});
