/**
 * The watch fan-out's transport on its own: one event written to each of 1,000 open streams, round after round,
 * over HTTP/1.1 (1,000 TLS connections, the proxy's backend leg today) or HTTP/2 (1,000 streams on ten sessions of
 * 100, kube's default stream limit, as kube's aggregator talks to its backends), with the CPU per round of the
 * writer (what core-api pays) and of the reader (what the aggregator pays to read them). No API machinery: only what
 * the transport costs per event. `node dist/bench/watch-transport.bench.js` (BENCH_WATCH_ROUNDS, default 40).
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createSecureServer, type ClientHttp2Session } from 'node:http2';
import { Agent, createServer, get } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ensurePki } from '@kube/pki';
import { tempDir } from '@kube/testing';

type Mode = 'h1' | 'h2';
const STREAMS = 1000;
const PER_SESSION = 100;
const ROUNDS = Number(process.env.BENCH_WATCH_ROUNDS ?? 40);
const EVENT = Buffer.from(`{"type":"ADDED","object":${JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'fan-1', namespace: 'ns', resourceVersion: '12345', uid: 'a'.repeat(36), creationTimestamp: '2026-01-01T00:00:00Z' } })}}\n`);

interface Tls {
  key: Buffer;
  cert: Buffer;
  ca: Buffer;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The writer, in a process of its own: answers every request with a stream and writes EVENT to all on 'round'. */
function writer(mode: Mode, tls: Tls): void {
  const sinks: Array<{ write(b: Buffer): unknown }> = [];
  const onRequest = (_req: unknown, res: { writeHead(code: number, headers: Record<string, string>): unknown; flushHeaders?(): void; write(b: Buffer): unknown }): void => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders?.();
    sinks.push(res);
  };
  const server = mode === 'h2' ? createSecureServer({ ...tls, settings: { maxConcurrentStreams: PER_SESSION } }, onRequest) : createServer(tls, onRequest);
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
  process.on('message', (m: string) => {
    if (m === 'round') for (const s of sinks) s.write(EVENT);
    if (m === 'cpu') process.send?.({ cpu: cpuMs() });
  });
}

async function measure(mode: Mode, tls: Tls): Promise<{ writerMs: number; readerMs: number; wallMs: number }> {
  const child = fork(__filename, ['writer', mode, JSON.stringify({ key: tls.key.toString(), cert: tls.cert.toString(), ca: tls.ca.toString() })]);
  try {
    const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
    let lines = 0;
    let roundDone: (() => void) | undefined;
    const onData = (d: Buffer): void => {
      for (let i = d.indexOf(10); i >= 0; i = d.indexOf(10, i + 1)) lines++;
      if (roundDone && lines >= STREAMS) roundDone();
    };
    const sessions: ClientHttp2Session[] = [];
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity, ca: tls.ca, checkServerIdentity: () => undefined });
    if (mode === 'h2') {
      for (let s = 0; s < STREAMS / PER_SESSION; s++) {
        const session = connect(`https://127.0.0.1:${port}`, { ca: tls.ca, checkServerIdentity: () => undefined });
        sessions.push(session);
        await Promise.all(
          Array.from({ length: PER_SESSION }, () => new Promise<void>((resolve) => session.request({ ':path': '/watch' }).on('response', () => resolve()).on('data', onData))),
        );
      }
    } else {
      for (let i = 0; i < STREAMS; i += 100) {
        await Promise.all(Array.from({ length: 100 }, () => new Promise<void>((resolve) => get({ host: '127.0.0.1', port, path: '/watch', agent }, (res) => (resolve(), res.on('data', onData))))));
      }
    }
    const writerCpu = (): Promise<number> =>
      new Promise((resolve) => {
        child.once('message', (m: { cpu: number }) => resolve(m.cpu));
        child.send('cpu');
      });
    const w0 = await writerCpu();
    const r0 = cpuMs();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < ROUNDS; i++) {
      lines = 0;
      await new Promise<void>((resolve) => {
        roundDone = () => ((roundDone = undefined), resolve());
        child.send('round');
      });
    }
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6 / ROUNDS;
    const w1 = await writerCpu();
    const r1 = cpuMs();
    sessions.forEach((s) => s.destroy());
    agent.destroy();
    return { writerMs: (w1 - w0) / ROUNDS, readerMs: (r1 - r0) / ROUNDS, wallMs };
  } finally {
    child.kill();
  }
}

async function main(): Promise<void> {
  const pki = await ensurePki(join(tempDir('watch-transport'), 'pki'));
  const tls: Tls = { key: readFileSync(pki.apiserverKey), cert: readFileSync(pki.apiserverCert), ca: readFileSync(pki.caCert) };
  console.log(`one ${EVENT.length}-byte event to each of ${STREAMS} streams, ${ROUNDS} rounds; CPU per round (all ${STREAMS} events)`);
  for (const mode of ['h1', 'h2', 'h1', 'h2'] as const) {
    const r = await measure(mode, tls);
    const what = mode === 'h1' ? `HTTP/1.1, ${STREAMS} connections` : `HTTP/2, ${STREAMS / PER_SESSION} sessions × ${PER_SESSION} streams`;
    console.log(`${what.padEnd(36)} writer ${r.writerMs.toFixed(1)} ms, reader ${r.readerMs.toFixed(1)} ms, all delivered after ${r.wallMs.toFixed(1)} ms`);
  }
}

if (process.argv[2] === 'writer') {
  const t = JSON.parse(process.argv[4]) as { key: string; cert: string; ca: string };
  writer(process.argv[3] as Mode, { key: Buffer.from(t.key), cert: Buffer.from(t.cert), ca: Buffer.from(t.ca) });
} else {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
