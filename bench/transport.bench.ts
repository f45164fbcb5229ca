/**
 * The proxy's transport on its own (issue 18): a minimal reverse proxy in front of a fixed-answer backend, with
 * HTTP/1.1 keep-alive (node:https Agent) or one multiplexed HTTP/2 session (node:http2) on the second hop, and the
 * same backend direct, with the CPU each proxy (or the backend, direct) spent per request (steadier than req/s on a
 * shared machine). No authentication, routing or API machinery: only what the transport costs.
 * `node dist/bench/transport.bench.js` (BENCH_SECONDS, default 5).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ensurePki } from '@kube/pki';
import { tempDir } from '@kube/testing';
import { agentFor, call, runLoad, withServerCpu, type LoadResult, type TlsClient } from './load.generator';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PEER = join(__dirname, 'transport.peer.js');

async function start(children: ChildProcess[], args: string[]): Promise<{ port: number; pid?: number }> {
  const child = spawn(process.execPath, [PEER, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  for await (const l of createInterface({ input: child.stdout! })) return { port: Number(l), pid: child.pid };
  throw new Error(`${args[0]} did not start`);
}

async function main(): Promise<void> {
  const dir = tempDir('transport');
  const pki = await ensurePki(join(dir, 'pki'));
  const tls: TlsClient = { ca: readFileSync(pki.caCert), cert: readFileSync(pki.adminCert), key: readFileSync(pki.adminKey) };
  const bodyFile = join(dir, 'body.json');
  writeFileSync(bodyFile, JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'bench', namespace: 'default', uid: 'x'.repeat(36), resourceVersion: '12345', labels: { app: 'bench' } }, data: { key: 'value', other: 'x'.repeat(200) } }));
  const children: ChildProcess[] = [];
  const serving = [pki.apiserverCert, pki.apiserverKey, pki.caCert];
  const client = [pki.frontProxyClientCert, pki.frontProxyClientKey];
  try {
    const b1 = await start(children, ['backend-h1', ...serving, bodyFile]);
    const b2 = await start(children, ['backend-h2', ...serving, bodyFile]);
    const ports: Record<string, { port: number; pid?: number }> = {
      'direct (https backend)': b1,
      'proxy h1 → https backend': await start(children, ['proxy-h1', ...serving, String(b1.port), ...client]),
      'proxy h1 → http2 backend (h1 by ALPN)': await start(children, ['proxy-h1', ...serving, String(b2.port), ...client]),
      'proxy h2 → http2 backend': await start(children, ['proxy-h2', ...serving, String(b2.port), ...client]),
      'proxy undici (h1) → https backend': await start(children, ['proxy-undici', ...serving, String(b1.port), ...client]),
      'proxy h1, no TLS → unix socket backend': await start(children, ['proxy-uds', ...serving, (await start(children, ['backend-uds', join(dir, 'backend.sock'), bodyFile]), join(dir, 'backend.sock')), ...client]),
      'aggregator proxyRequest → https backend': await start(children, ['proxy-pool', ...serving, String(b1.port), ...client]),
    };
    const one = agentFor(tls, 1);
    const many = agentFor(tls, 32);
    const get = (agent: ReturnType<typeof agentFor>, port: number) => async () => (await call(agent, port, { method: 'GET', path: '/api/v1/namespaces/default/configmaps/bench' })).status === 200;
    const results: Array<[string, LoadResult, LoadResult & { cpuUsPerRequest: number }]> = [];
    for (const { port } of Object.values(ports)) {
      await runLoad(32, 1, get(many, port));
      await runLoad(1, 1, get(one, port));
    }
    // Interleaved rounds, so a noisy neighbour hits every variant alike.
    for (let round = 0; round < 2; round++) {
      for (const [name, { port, pid }] of Object.entries(ports)) results.push([name, await runLoad(1, SECONDS, get(one, port)), await withServerCpu(pid, () => runLoad(32, SECONDS, get(many, port)))]);
    }
    const direct = results.filter(([n]) => n === 'direct (https backend)');
    for (const [i, [name, r1, r32]] of results.entries()) {
      const base = direct[i < results.length / 2 ? 0 : 1];
      console.log(`${name.padEnd(40)} 1 conn p50 ${r1.p50ms.toFixed(3)} ms (+${(r1.p50ms - base[1].p50ms).toFixed(3)})  32 conns ${r32.rps.toFixed(0).padStart(6)} req/s (${((r32.rps / base[2].rps) * 100).toFixed(0)}% of direct; CPU ${r32.cpuUsPerRequest.toFixed(0)} µs/req in that process) errors ${r1.errors + r32.errors}`);
    }
    one.destroy();
    many.destroy();
  } finally {
    for (const c of children) c.kill('SIGTERM');
  }
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
