/**
 * One process of watchers for the scale benchmark (forked by bench/scale.bench.ts with an IPC channel): opens
 * `count` watches of `path` on `port` over TLS, reports `{ ready }` once every watch has its response headers,
 * `{ complete: name }` once each of its watchers has the event of the object `name`, and on 'report' sends the
 * arrival times (process.hrtime in ms: CLOCK_MONOTONIC, the same clock in every process on the machine); on 'cpu'
 * the CPU this process has used so far (`{ cpuMs }`), so a figure can say what the watchers themselves cost.
 */
import { readFileSync } from 'node:fs';
import type { ClientRequest } from 'node:http';
import { Agent, request } from 'node:https';

export interface WatchClientsOptions {
  port: number;
  path: string;
  count: number;
  ca: string;
  cert: string;
  key: string;
}

export type WatchClientsMessage = { ready: number } | { failed: string } | { complete: string } | { arrivals: Array<[string, number[]]> } | { cpuMs: number };

const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

function run(o: WatchClientsOptions): void {
  const send = (m: WatchClientsMessage): void => void process.send?.(m);
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity, ca: readFileSync(o.ca), cert: readFileSync(o.cert), key: readFileSync(o.key) });
  const arrivals = new Map<string, number[]>();
  const requests: ClientRequest[] = [];
  let ready = 0;
  const open = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: o.port, path: o.path, agent, headers: { Accept: 'application/json' } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`watch: HTTP ${res.statusCode}`));
        resolve();
        let buf = '';
        res.on('data', (d: Buffer) => {
          const at = nowMs();
          buf += d.toString();
          let nl;
          while ((nl = buf.indexOf('\n')) >= 0) {
            // The first "name" of a ConfigMap event is metadata.name; a regex keeps the client cheap.
            const name = /"name":"([^"]+)"/.exec(buf.slice(0, nl))?.[1] ?? '';
            buf = buf.slice(nl + 1);
            let list = arrivals.get(name);
            if (!list) arrivals.set(name, (list = []));
            list.push(at);
            if (list.length === o.count) send({ complete: name });
          }
        });
      });
      req.on('error', reject);
      req.end();
      requests.push(req);
    });
  void (async () => {
    // Batches: 10,000 TLS handshakes at once would time out on 2 shared cores.
    for (let i = 0; i < o.count; i += 100) {
      await Promise.all(Array.from({ length: Math.min(100, o.count - i) }, open));
      ready += Math.min(100, o.count - i);
    }
    send({ ready });
  })().catch((err: unknown) => send({ failed: err instanceof Error ? err.message : String(err) }));
  process.on('message', (m: string) => {
    if (m === 'report') send({ arrivals: [...arrivals] });
    if (m === 'cpu') {
      const used = process.cpuUsage();
      send({ cpuMs: (used.user + used.system) / 1000 });
    }
    if (m === 'stop') {
      requests.forEach((r) => r.destroy());
      process.exit(0);
    }
  });
}

if (require.main === module) run(JSON.parse(process.argv[2]) as WatchClientsOptions);
