/**
 * `--only h2`: the front door over HTTP/2 against HTTP/1.1, in the same run, on an aggregator of its own (started
 * with KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION=1000 so 1,000 watches fit one connection, and the heap probe).
 *  1. GET one configmap through the aggregator: one h2 connection carrying 32 concurrent streams vs a keep-alive
 *     pool of 32 HTTP/1.1 connections; throughput, latency and the aggregator's CPU per request.
 *  2. 1,000 watches through the aggregator: on one h2 connection vs on 1,000 HTTP/1.1 connections. Delivery
 *     p50/p99 of one write to all of them, and what each watch costs the aggregator: descriptors
 *     (/proc/<pid>/fd), RSS and live heap.
 * Ratios and per-watch costs only: the machine is shared, absolute figures move with it.
 */
import { readdirSync } from 'node:fs';
import { connect as h2connect, type ClientHttp2Session } from 'node:http2';
import { Agent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { PkiPaths } from '@kube/pki';
import { freePort, tempDir } from '@kube/testing';
import { agentFor, call, percentile, runLoad, withServerCpu, type LoadResult, type TlsClient } from './load.generator';
import { figure, line } from './report';
import { memoryProbe, rssBytes, startApp, stopApp, waitReady } from './servers';

export interface Http2BenchOptions {
  root: string;
  etcdEndpoint: string;
  apiPort: number;
  extPort: number;
  pki: PkiPaths;
  tls: TlsClient;
  seconds: number;
  settle: number;
  quick: boolean;
}

const CONCURRENCY = 32;
const WATCHES = 1000;
const NS = 'default';
const WATCHED = 'h2-watch';

/** Open descriptors of a process (sockets, files, epoll…); NaN where /proc is missing. */
function fdCount(pid: number | undefined): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}

function h2Get(session: ClientHttp2Session, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': path, accept: 'application/json' });
    let status = 0;
    stream.on('response', (h) => (status = Number(h[':status'])));
    stream.resume();
    stream.on('end', () => resolve(status));
    stream.on('error', reject);
  });
}

function h2Session(port: number, tls: TlsClient): Promise<ClientHttp2Session> {
  const session = h2connect(`https://127.0.0.1:${port}`, { ca: tls.ca, cert: tls.cert, key: tls.key });
  session.on('error', () => undefined);
  return new Promise((resolve, reject) => session.once('remoteSettings', () => resolve(session)).once('error', reject));
}

/** Seqs seen by one watch, from the `"seq":"<n>"` of each event (lines may arrive split). */
class WatchArrivals {
  private tail = '';
  constructor(private readonly arrived: (seq: number) => void) {}
  push(chunk: Buffer): void {
    const text = this.tail + chunk.toString();
    const end = text.lastIndexOf('\n');
    this.tail = end < 0 ? text : text.slice(end + 1);
    if (end < 0) return;
    for (const m of text.slice(0, end).matchAll(/"seq":"(\d+)"/g)) this.arrived(Number(m[1]));
  }
}

interface WatchCost {
  p50ms: number;
  p99ms: number;
  deliveries: number;
  missing: number;
  fdsPerWatch: number;
  rssKiBPerWatch: number;
  heapKiBPerWatch: number;
  clientConnections: number;
}

export async function benchHttp2(o: Http2BenchOptions): Promise<void> {
  const probe = memoryProbe(o.root, join(tempDir('bench-h2'), 'aggregator.json'));
  const port = await freePort();
  const aggregator = startApp(
    o.root,
    'aggregator',
    {
      ...probe.env,
      KUBE_ETCD_ENDPOINTS: o.etcdEndpoint,
      KUBE_SECURE_PORT: String(port),
      KUBE_TLS_CERT_FILE: o.pki.apiserverCert,
      KUBE_TLS_PRIVATE_KEY_FILE: o.pki.apiserverKey,
      KUBE_CLIENT_CA_FILE: o.pki.caCert,
      KUBE_PROXY_CLIENT_CERT_FILE: o.pki.frontProxyClientCert,
      KUBE_PROXY_CLIENT_KEY_FILE: o.pki.frontProxyClientKey,
      KUBE_AGGREGATOR_BACKENDS: `core-api=https://127.0.0.1:${o.apiPort},extensions=https://127.0.0.1:${o.extPort}`,
      KUBE_MAX_REQUESTS_INFLIGHT: '2000',
      KUBE_HTTP2: 'true',
      KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION: String(WATCHES),
    },
    probe.nodeArgs,
  );
  const agent = agentFor(o.tls, CONCURRENCY);
  try {
    await waitReady(port, o.tls);
    const pid = aggregator.pid;
    await call(agent, port, { method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`, body: JSON.stringify({ metadata: { name: WATCHED }, data: { seq: '0', other: 'x'.repeat(200) } }) });

    // 1. GET: both warmed (the aggregator is new), then measured in turn.
    const path = `/api/v1/namespaces/${NS}/configmaps/${WATCHED}`;
    const session = await h2Session(port, o.tls);
    const h1Get = (): Promise<boolean> => call(agent, port, { method: 'GET', path }).then((r) => r.status === 200);
    const h2GetOk = (): Promise<boolean> => h2Get(session, path).then((s) => s === 200);
    await runLoad(CONCURRENCY, o.settle, h1Get);
    await runLoad(CONCURRENCY, o.settle, h2GetOk);
    // The load generator's own CPU per request too: on a shared machine a costlier client lowers the throughput of its side.
    const clientCpu = async (load: () => Promise<LoadResult & { cpuUsPerRequest: number }>): Promise<LoadResult & { cpuUsPerRequest: number; clientUs: number }> => {
      const before = process.cpuUsage();
      const r = await load();
      const used = process.cpuUsage(before);
      return { ...r, clientUs: (used.user + used.system) / Math.max(1, r.requests) };
    };
    const h1 = await clientCpu(() => withServerCpu(pid, () => runLoad(CONCURRENCY, o.seconds, h1Get)));
    const h2 = await clientCpu(() => withServerCpu(pid, () => runLoad(CONCURRENCY, o.seconds, h2GetOk)));
    session.close();
    console.log(line('GET via aggregator, HTTP/1.1 ×32', h1, h1, 'report, the baseline below'));
    console.log(line('GET via aggregator, h2 1 conn ×32', h2, h1, 'report, vs HTTP/1.1 pool of 32'));
    console.log(figure('GET via aggregator, client CPU h2', (h2.clientUs / h1.clientUs) * 100, '%', `load generator ${h2.clientUs.toFixed(0)} µs/req over h2 vs ${h1.clientUs.toFixed(0)} µs/req over HTTP/1.1 (node:http2 vs node:https clients)`));

    // 2. 1,000 watches, each protocol in turn on the same aggregator.
    const writes = o.quick ? 3 : 10;
    const one = await watchCost(port, pid, o.tls, agent, probe, 'http1', writes);
    const multiplexed = await watchCost(port, pid, o.tls, agent, probe, 'h2', writes);
    for (const [name, c] of [['WATCH 1,000 via aggregator, HTTP/1.1', one], ['WATCH 1,000 via aggregator, h2 1 conn', multiplexed]] as const) {
      const failure = c.missing ? `${c.missing} of ${c.deliveries + c.missing} deliveries missing` : undefined;
      const detail = `p50 ${c.p50ms.toFixed(1)} ms, p99 ${c.p99ms.toFixed(1)} ms over ${c.deliveries} deliveries (${writes} writes); per watch at the aggregator ${c.fdsPerWatch.toFixed(2)} fds, RSS ${c.rssKiBPerWatch.toFixed(1)} KiB, heap ${c.heapKiBPerWatch.toFixed(1)} KiB; ${c.clientConnections} client connection(s)`;
      console.log(figure(name, c.p99ms, 'ms', detail, 'report', failure));
    }
  } finally {
    agent.destroy();
    await stopApp(aggregator);
  }
}

async function watchCost(port: number, pid: number | undefined, tls: TlsClient, writer: Agent, probe: ReturnType<typeof memoryProbe>, protocol: 'http1' | 'h2', writes: number): Promise<WatchCost> {
  const fds0 = fdCount(pid);
  const rss0 = rssBytes(pid);
  const heap0 = (await probe.read(pid)).heapUsed;
  const rv = JSON.parse((await call(writer, port, { method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps/${WATCHED}` })).body).metadata.resourceVersion as string;
  const path = `/api/v1/namespaces/${NS}/configmaps?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%3D${WATCHED}`;
  const arrivals = new Map<number, number[]>();
  const sent = new Map<number, number>();
  const onArrival = (seq: number): void => {
    const t0 = sent.get(seq);
    if (t0 !== undefined) arrivals.get(seq)?.push(performance.now() - t0);
  };
  const closers: Array<() => void> = [];
  if (protocol === 'h2') {
    const s = await h2Session(port, tls);
    await Promise.all(
      Array.from({ length: WATCHES }, () => new Promise<void>((resolve, reject) => {
        const stream = s.request({ ':path': path, accept: 'application/json' });
        const seen = new WatchArrivals(onArrival);
        stream.on('data', (c: Buffer) => seen.push(c));
        stream.on('error', () => undefined);
        stream.once('response', (h) => (Number(h[':status']) === 200 ? resolve() : reject(new Error(`h2 watch answered ${h[':status']}`))));
        closers.push(() => stream.close());
      })),
    );
    closers.push(() => s.destroy());
  } else {
    // One connection per watch, as an HTTP/1.1 client holds them.
    await Promise.all(
      Array.from({ length: WATCHES }, () => new Promise<void>((resolve, reject) => {
        const req = httpsRequest({ host: '127.0.0.1', port, path, agent: false, ca: tls.ca, cert: tls.cert, key: tls.key, headers: { accept: 'application/json' } }, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`watch answered ${res.statusCode}`));
          const seen = new WatchArrivals(onArrival);
          res.on('data', (c: Buffer) => seen.push(c));
          res.on('error', () => undefined);
          resolve();
        });
        req.on('error', () => undefined);
        req.end();
        closers.push(() => req.destroy());
      })),
    );
  }
  // Every watch is registered at the aggregator and proxied to core-api: its cost is in the process now.
  await new Promise((r) => setTimeout(r, 1000));
  const fds1 = fdCount(pid);
  const rss1 = rssBytes(pid);
  const heap1 = (await probe.read(pid)).heapUsed;

  let missing = 0;
  // Each run writes values of its own, so none repeats what the configmap already holds (that would be no event).
  const first = protocol === 'h2' ? 1001 : 1;
  for (let seq = first; seq < first + writes; seq++) {
    arrivals.set(seq, []);
    sent.set(seq, performance.now());
    await call(writer, port, { method: 'PATCH', path: `/api/v1/namespaces/${NS}/configmaps/${WATCHED}`, headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { seq: String(seq) } }) });
    const deadline = Date.now() + 15_000;
    while ((arrivals.get(seq)?.length ?? 0) < WATCHES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    missing += WATCHES - (arrivals.get(seq)?.length ?? 0);
  }
  for (const close of closers) close();
  // The aggregator lets go of each client connection and backend watch: wait for its descriptors to come back.
  const deadline = Date.now() + 20_000;
  while (fdCount(pid) > fds0 + 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const all = [...arrivals.values()].flat().sort((a, b) => a - b);
  return {
    p50ms: percentile(all, 50),
    p99ms: percentile(all, 99),
    deliveries: all.length,
    missing,
    fdsPerWatch: (fds1 - fds0) / WATCHES,
    rssKiBPerWatch: (rss1 - rss0) / 1024 / WATCHES,
    heapKiBPerWatch: (heap1 - heap0) / 1024 / WATCHES,
    clientConnections: protocol === 'h2' ? 1 : WATCHES,
  };
}
