/**
 * The watchers of the WATCH figures, in their own process so that their TLS decryption and parsing (about as much CPU
 * as the server's fan-out) runs beside the server instead of in the writer's event loop, where it would be measured
 * as delivery latency. argv: port, count, path, ca, cert, key files. Parent messages: 'stop'. Messages to the parent:
 * 'ready', then { name, at } per event (at: wall-clock ms, performance.timeOrigin + performance.now()), then
 * { cpuMs } (this process's CPU) on 'cpu'.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { agentFor } from './load.generator';

const [port, count, path, ca, cert, key] = process.argv.slice(2);
const agent = agentFor({ ca: readFileSync(ca), cert: readFileSync(cert), key: readFileSync(key) }, Number(count) + 8);
const send = (m: unknown): void => void process.send?.(m);
// Arrivals per event name, reported in one message per event once every watcher has it (or on 'flush').
const arrivals = new Map<string, number[]>();
let ready = 0;
for (let i = 0; i < Number(count); i++) {
  const req = request({ host: '127.0.0.1', port: Number(port), path, agent, headers: { Accept: 'application/json' } }, (res) => {
    if (++ready === Number(count)) send('ready');
    let buf = '';
    res.on('data', (d: Buffer) => {
      const at = performance.timeOrigin + performance.now();
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        // The first "name" of a ConfigMap event is metadata.name; a regex keeps the client cheap.
        const name = /"name":"([^"]+)"/.exec(buf.slice(0, nl))?.[1] ?? '';
        buf = buf.slice(nl + 1);
        const list = arrivals.get(name) ?? [];
        list.push(at);
        arrivals.set(name, list);
        if (list.length === Number(count)) {
          send({ name, at: list });
          arrivals.delete(name);
        }
      }
    });
  });
  req.on('error', (err) => send({ error: String(err) }));
  req.end();
}
process.on('message', (m) => {
  if (m === 'cpu') {
    const u = process.cpuUsage();
    send({ cpuMs: (u.user + u.system) / 1000 });
  } else if (m === 'flush') {
    for (const [name, at] of arrivals) send({ name, at });
    arrivals.clear();
  } else if (m === 'stop') process.exit(0);
});
