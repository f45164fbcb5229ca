import { once } from 'node:events';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { respondWithError, serveUpgrades, type UpgradeConnection } from '@kube/apiserver';
import { RoutingTable } from '../routing/routing.table';
import { proxyRequest, proxyUpgrade } from './backend.proxy';
import type { BackendTarget } from './backend.target';
import { TestBackends } from './backend.testing';

const USER = { name: 'alice', groups: ['devs'] };

/** A loopback port nothing listens on (a replica killed with -9). */
async function deadPort(): Promise<number> {
  const s = createNetServer();
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('a service with several instances (replicas) behind the front door', () => {
  let backends: TestBackends;
  let front: Server | undefined;

  beforeEach(async () => {
    backends = await TestBackends.create();
  });

  afterEach(async () => {
    front?.closeAllConnections();
    if (front) await new Promise((r) => front?.close(r));
    front = undefined;
    await backends.close();
  });

  /** A front routing core/v1 as the front door does (lookup, then proxy), to a service with `instances`. */
  async function frontFor(instances: BackendTarget[]): Promise<{ port: number; routes: RoutingTable }> {
    const routes = new RoutingTable();
    routes.setBackends(new Map([['/v1', 'core-api']]), new Map([['core-api', { ...instances[0], name: 'core-api', instances }]]));
    front = createHttpServer((req, res) => {
      const route = routes.lookup('', 'v1');
      if (route?.kind !== 'proxy') throw new Error('not routed');
      proxyRequest(req, res, route.target, USER, backends.agents, route.service).catch((err: { code?: number; message: string }) => {
        res.writeHead(err.code ?? 500);
        res.end(err.message);
      });
    });
    front.listen(0, '127.0.0.1');
    await once(front, 'listening');
    return { port: (front.address() as AddressInfo).port, routes };
  }

  function call(port: number, method: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path: '/api/v1/namespaces/default/configmaps', agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end(method === 'POST' ? '{"metadata":{"name":"x"}}' : undefined);
    });
  }

  it('sends a request whose instance refuses the connection to another one, whatever its verb (nothing was sent), and skips the dead instance afterwards', async () => {
    const seen: string[] = [];
    const live = await backends.start((req, res) => {
      seen.push(req.method ?? '');
      req.resume();
      req.on('end', () => res.end('live'));
    });
    const dead: BackendTarget = { ...live, name: 'core-api', url: new URL(`https://127.0.0.1:${await deadPort()}`) };
    const { port, routes } = await frontFor([dead, { ...live, name: 'core-api' }]);
    const answers = [];
    for (const method of ['GET', 'POST', 'GET', 'POST', 'DELETE', 'GET']) answers.push(await call(port, method));
    expect(answers).toEqual(Array.from({ length: 6 }, () => ({ status: 200, body: 'live' })));
    expect(seen).toEqual(['GET', 'POST', 'GET', 'POST', 'DELETE', 'GET']);
    // Marked down: the round robin hands out only the live instance for a while.
    const picked = Array.from({ length: 4 }, () => {
      const r = routes.lookup('', 'v1');
      return r?.kind === 'proxy' ? r.target.url.port : undefined;
    });
    expect(new Set(picked)).toEqual(new Set([live.url.port]));
  });

  it('answers 503 when every instance refuses', async () => {
    const live = await backends.start((_, res) => res.end('never'));
    const a: BackendTarget = { ...live, url: new URL(`https://127.0.0.1:${await deadPort()}`) };
    const b: BackendTarget = { ...live, url: new URL(`https://127.0.0.1:${await deadPort()}`) };
    const { port } = await frontFor([a, b]);
    const answer = await call(port, 'GET');
    expect(answer.status).toBe(503);
    expect(answer.body).toMatch(/^error trying to reach service: .*ECONNREFUSED/);
  });

  /** A front passing upgrade requests to the picked instance as the front door does (serveUpgrades, then proxyUpgrade). */
  async function upgradeFrontFor(instances: BackendTarget[]): Promise<number> {
    const routes = new RoutingTable();
    routes.setBackends(new Map([['/v1', 'core-api']]), new Map([['core-api', { ...instances[0], name: 'core-api', instances }]]));
    front = createHttpServer((_req, res) => res.writeHead(500).end());
    serveUpgrades(front, async (r) => {
      const route = routes.lookup('', 'v1');
      if (route?.kind !== 'proxy') throw new Error('not routed');
      return proxyUpgrade(r.req, r.res, r.upgrade as UpgradeConnection, route.target, USER, backends.agents, route.service).catch((err: unknown) => respondWithError(r.res, err));
    });
    front.listen(0, '127.0.0.1');
    await once(front, 'listening');
    return (front.address() as AddressInfo).port;
  }

  /** An exec-style upgrade, then `data` once switched; answers what came back before the connection closed or 2 s. */
  async function upgradeCall(port: number, data: string): Promise<string> {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (text.includes('\r\n\r\n') && !text.includes(data)) socket.write(data);
    });
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    socket.write('GET /api/v1/namespaces/d/pods/p/exec HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
    const deadline = Date.now() + 2000;
    while (!text.endsWith(data) && !socket.destroyed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    socket.destroy();
    return text;
  }

  it('sends an upgrade (exec, port-forward) whose instance refuses the connection to another one: nothing was sent', async () => {
    const upgraded: string[] = [];
    const live = await backends.start(
      (_req, res) => res.writeHead(500).end(),
      (req, socket) => {
        upgraded.push(String(req.headers['x-remote-user']));
        socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
        socket.pipe(socket);
      },
    );
    const dead: BackendTarget = { ...live, name: 'core-api', url: new URL(`https://127.0.0.1:${await deadPort()}`) };
    const port = await upgradeFrontFor([dead, { ...live, name: 'core-api' }]);
    for (let i = 0; i < 3; i++) {
      const text = await upgradeCall(port, `echo-${i}`);
      expect(text).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
      expect(text.endsWith(`echo-${i}`)).toBe(true);
    }
    expect(upgraded).toEqual(['alice', 'alice', 'alice']);
  });

  it('answers an upgrade 503 when every instance refuses', async () => {
    const live = await backends.start((_req, res) => res.end('never'));
    const a: BackendTarget = { ...live, url: new URL(`https://127.0.0.1:${await deadPort()}`) };
    const b: BackendTarget = { ...live, url: new URL(`https://127.0.0.1:${await deadPort()}`) };
    const text = await upgradeCall(await upgradeFrontFor([a, b]), 'x');
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ kind: 'Status', code: 503, reason: 'ServiceUnavailable' });
  });
});
