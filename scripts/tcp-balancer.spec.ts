import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHostPort, TcpBalancer } from './tcp-balancer';

/** A TCP server answering every line with "<name>:<line>". */
async function echo(name: string): Promise<{ server: Server; port: number }> {
  const server = createServer((s) => s.on('data', (d) => s.write(`${name}:${d.toString()}`)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const { server, port } = await echo('gone');
  await new Promise((r) => server.close(r));
  return port;
}

function ask(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s: Socket = connect({ host: '127.0.0.1', port }, () => s.write(line));
    s.once('data', (d) => {
      s.destroy();
      resolve(d.toString());
    });
    s.once('error', reject);
    s.once('close', () => reject(new Error('closed without an answer')));
  });
}

describe('TcpBalancer', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function balancer(ports: number[], probeIntervalMs = 50): Promise<{ b: TcpBalancer; port: number; lines: string[] }> {
    const lines: string[] = [];
    const b = new TcpBalancer({ listen: { host: '127.0.0.1', port: 0 }, backends: ports.map((port) => ({ host: '127.0.0.1', port })), probeIntervalMs, log: (l) => lines.push(l) });
    const port = await b.start();
    cleanup.push(() => b.close());
    return { b, port, lines };
  }

  it('spreads connections round robin over the backends and passes bytes both ways untouched', async () => {
    const a = await echo('a');
    const c = await echo('c');
    cleanup.push(async () => (a.server.close(), c.server.close()));
    const { b, port } = await balancer([a.port, c.port]);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await ask(port, `hello ${i}`));
    expect(answers).toEqual(['a:hello 0', 'c:hello 1', 'a:hello 2', 'c:hello 3']);
    expect(b.counts).toEqual({ [`127.0.0.1:${a.port}`]: 2, [`127.0.0.1:${c.port}`]: 2 });
  });

  it('sends a connection a refusing backend would have had to the next one, marks it down, and back up once it listens again', async () => {
    const a = await echo('a');
    cleanup.push(async () => a.server.close());
    const deadPort = await closedPort();
    const { b, port, lines } = await balancer([deadPort, a.port]);
    // Every connection is answered, none lost to the dead backend.
    for (let i = 0; i < 4; i++) expect(await ask(port, `x${i}`)).toBe(`a:x${i}`);
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^backend 127\\.0\\.0\\.1:${deadPort} down \\(.*ECONNREFUSED.*\\)`))]);
    expect(b.counts[`127.0.0.1:${deadPort}`]).toBe(0);
    // It comes back on the same port: the probe finds it and it gets its share again.
    const back = createServer((s) => s.on('data', (d) => s.write(`back:${d.toString()}`)));
    await new Promise<void>((r) => back.listen(deadPort, '127.0.0.1', r));
    cleanup.push(async () => back.close());
    for (let i = 0; i < 100 && !lines.some((l) => l.endsWith('up')); i++) await new Promise((r) => setTimeout(r, 20));
    expect(lines[1]).toBe(`backend 127.0.0.1:${deadPort} up`);
    const answers = [await ask(port, 'y'), await ask(port, 'z')];
    expect(answers.map((a) => a.split(':')[0]).sort()).toEqual(['a', 'back']);
  });

  it('closes the client when every backend refuses', async () => {
    const { port } = await balancer([await closedPort()]);
    await expect(ask(port, 'anyone?')).rejects.toThrow(/closed without an answer|ECONNRESET/);
  });

  it('parses HOST:PORT, IPv6 in brackets included', () => {
    expect(parseHostPort('127.0.0.1:6443')).toEqual({ host: '127.0.0.1', port: 6443 });
    expect(parseHostPort('[::1]:6443')).toEqual({ host: '::1', port: 6443 });
    expect(() => parseHostPort('6443')).toThrow(/HOST:PORT/);
  });
});
