import { once } from 'node:events';
import { createServer as createHttpServer, get as httpGet, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeGracefully, respondWithError, serveUpgrades, type UpgradeConnection } from '@kube/apiserver';
import { proxyRequest, proxyUpgrade } from './backend.proxy';
import type { BackendTarget } from './backend.target';
import { TestBackends, until } from './backend.testing';

const USER = { name: 'alice', groups: ['devs'] };

describe('proxyRequest', () => {
  let backends: TestBackends;
  let fronts: Server[] = [];

  beforeEach(async () => {
    backends = await TestBackends.create();
  });

  afterEach(async () => {
    for (const s of fronts.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    await backends.close();
  });

  const backend = (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<BackendTarget> => backends.start(handler);

  /** A plain HTTP front whose handler proxies to `target`, with `before` run first (e.g. a timeout). */
  async function front(target: BackendTarget, before?: (res: ServerResponse) => void): Promise<{ port: number; outcomes: Array<number | Error>; responses: ServerResponse[] }> {
    const outcomes: Array<number | Error> = [];
    const responses: ServerResponse[] = [];
    const server = createHttpServer((req, res) => {
      responses.push(res);
      before?.(res);
      proxyRequest(req, res, target, USER, backends.agents).then(
        (code) => outcomes.push(code),
        (err: Error) => outcomes.push(err),
      );
    });
    fronts.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { port: (server.address() as AddressInfo).port, outcomes, responses };
  }

  function fetchText(port: number): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      httpGet({ host: '127.0.0.1', port, path: '/api/v1/namespaces' }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      }).on('error', reject);
    });
  }

  it('relays status, headers and body, with the caller identity in X-Remote-*', async () => {
    let seen: IncomingMessage['headers'] = {};
    const target = await backend((req, res) => {
      seen = req.headers;
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Backend': 'yes' });
      res.end('{"kind":"NamespaceList"}');
    });
    const { port, outcomes } = await front(target);
    const got = await fetchText(port);
    expect(got).toEqual({ status: 200, body: '{"kind":"NamespaceList"}' });
    expect(seen['x-remote-user']).toBe('alice');
    expect(seen['x-remote-group']).toBe('devs');
    await until(() => outcomes.length === 1);
    expect(outcomes).toEqual([200]);
  });

  it('drops a backend answer that arrives after the request timed out, cancels the backend request, and keeps serving', async () => {
    const uncaught: Error[] = [];
    const onUncaught = (err: Error): void => void uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      let backendAborted = false;
      let received = 0;
      const target = await backend((req, res) => {
        received++;
        req.on('close', () => (backendAborted = backendAborted || !res.writableEnded));
        setTimeout(() => {
          if (!res.destroyed) res.end('{"late":true}');
        }, 400);
      });
      // The timeout filter's job, in miniature: answer 504 once the backend has the request and has not answered.
      const { port, outcomes } = await front(target, (res) => {
        const seen = received;
        void until(() => received > seen).then(() => {
          if (res.headersSent) return;
          res.writeHead(504, { 'Content-Type': 'application/json' });
          res.end('{"kind":"Status","code":504}');
        });
      });
      const got = await fetchText(port);
      expect(got.status).toBe(504);
      await until(() => backendAborted);
      await until(() => outcomes.length === 1);
      expect(outcomes[0]).toBe(504);
      // Past the backend's late answer: nothing blew up, and the front still serves.
      await new Promise((r) => setTimeout(r, 600));
      expect(uncaught).toEqual([]);
      expect((await fetchText(port)).status).toBe(504);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('honours backpressure: a client that reads nothing stops the backend read instead of growing memory', async () => {
    const total = 128 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let produced = 0;
    const target = await backend((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      const body = new Readable({
        read() {
          if (produced >= total) return void this.push(null);
          produced += chunk.length;
          this.push(chunk);
        },
      });
      body.pipe(res);
    });
    const { port, responses } = await front(target);
    const stalled = await new Promise<IncomingMessage>((resolve, reject) => {
      httpGet({ host: '127.0.0.1', port, path: '/big' }, (res) => {
        res.pause();
        resolve(res);
      }).on('error', reject);
    });
    // Wait until the backend makes no more progress (socket buffers full end to end), bounded in time.
    let last = -1;
    for (let i = 0; i < 200 && produced !== last; i++) {
      last = produced;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(produced).toBeLessThan(total / 2);
    // What the proxy holds in user space for this response stays small (one high-water mark plus a chunk).
    expect(responses[0].writableLength).toBeLessThan(1024 * 1024);
    stalled.destroy();
  });

  it('a response that filled the client\'s buffer as it ended leaves its pooled connection reading: the next request on it is answered', async () => {
    // One backend write under a TLS record (16 KiB) arrives as one chunk: written to the client with the front door's
    // own headers (Audit-Id, APF's…), it passes the response's high-water mark and the proxy pauses the backend
    // socket, but the response ends in that same chunk. kubectl apply of a Deployment got such an answer.
    const target = await backend((req, res) => {
      const body = req.url === '/big' ? 'x'.repeat(16_000) : 'small';
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
    const { port } = await front(target, (res) => res.setHeader('X-Front-Door', 'h'.repeat(1_000)));
    const get = (path: string): Promise<{ status: number; length: number }> =>
      new Promise((resolve, reject) => {
        const req = httpGet({ host: '127.0.0.1', port, path, timeout: 5_000 }, (res) => {
          let length = 0;
          res.on('data', (c: Buffer) => (length += c.length));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, length }));
        });
        req.on('timeout', () => req.destroy(new Error(`GET ${path}: no answer in 5 s`)));
        req.on('error', reject);
      });
    expect(await get('/big')).toEqual({ status: 200, length: 16_000 });
    // The pool has one idle connection: the one that carried /big.
    expect(await get('/small')).toEqual({ status: 200, length: 5 });
    expect(await get('/big')).toEqual({ status: 200, length: 16_000 });
    expect(await get('/small')).toEqual({ status: 200, length: 5 });
  });
});

describe('proxyUpgrade', () => {
  let backends: TestBackends;
  let fronts: Server[] = [];

  beforeEach(async () => {
    backends = await TestBackends.create();
  });

  afterEach(async () => {
    for (const s of fronts.splice(0)) await closeGracefully(s as unknown as HttpsServer);
    await backends.close();
  });

  /** A plain HTTP front passing upgrade requests to `target` as the front door does (serveUpgrades, then proxyUpgrade). */
  async function front(target: BackendTarget): Promise<{ port: number; outcomes: Array<number | Error> }> {
    const outcomes: Array<number | Error> = [];
    const server = createHttpServer((_req, res) => res.writeHead(500).end());
    serveUpgrades(server, async (r) => {
      try {
        const code = await proxyUpgrade(r.req, r.res, r.upgrade as UpgradeConnection, target, USER, backends.agents);
        outcomes.push(code);
        return code;
      } catch (err) {
        outcomes.push(err as Error);
        return respondWithError(r.res, err);
      }
    });
    fronts.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { port: (server.address() as AddressInfo).port, outcomes };
  }

  /** Writes `parts` (a number is a pause in ms) and reads until the front closes the connection or `waitMs` passed. */
  async function raw(port: number, parts: Array<string | number>, waitMs = 2000): Promise<{ text: string; closed: boolean }> {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let closed = false;
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => undefined);
    const ended = new Promise<void>((resolve) => socket.once('close', () => ((closed = true), resolve())));
    await once(socket, 'connect');
    for (const part of parts) {
      if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
      else socket.write(part);
    }
    await Promise.race([ended, new Promise((r) => setTimeout(r, waitMs))]);
    socket.destroy();
    return { text, closed };
  }

  const UPGRADE = 'GET /api/v1/namespaces/d/pods/p/exec HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n';
  const SMUGGLED = 'POST /api/v1/namespaces/d/configmaps HTTP/1.1\r\nHost: x\r\nX-Remote-User: mallory\r\nContent-Length: 2\r\n\r\n{}';

  it('sends the backend the request head alone; a non-101 answer is relayed whole and both connections close', async () => {
    const seen: string[] = [];
    const target = await backends.start((req, res) => {
      seen.push(`${req.method} ${req.url} ${String(req.headers['x-remote-user'])}`);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"kind":"APIResourceList"}');
    });
    const { port, outcomes } = await front(target);
    const r = await raw(port, [UPGRADE + SMUGGLED, 50, SMUGGLED]);
    expect(r.text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(r.text).toMatch(/\r\nConnection: close\r\n/i);
    expect(r.text).toContain('{"kind":"APIResourceList"}');
    expect(r.closed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual(['GET /api/v1/namespaces/d/pods/p/exec alice']);
    expect(outcomes).toEqual([200]);
  });

  it('passes no client byte before the 101; after it, the early bytes first, then both ways', async () => {
    const beforeSwitch: string[] = [];
    const target = await backends.start(
      (_req, res) => res.writeHead(500).end(),
      (req, socket) => {
        expect(req.headers['x-remote-user']).toBe('alice');
        expect(req.headers.upgrade).toBe('websocket');
        socket.on('data', (d: Buffer) => beforeSwitch.push(d.toString()));
        // Answers late: whatever the client sends meanwhile must wait.
        setTimeout(() => {
          expect(beforeSwitch).toEqual([]);
          socket.removeAllListeners('data');
          socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
          socket.pipe(socket);
        }, 200);
      },
    );
    const { port, outcomes } = await front(target);
    const r = await raw(port, [UPGRADE + 'early;', 50, 'still-early;', 400, 'late'], 300);
    expect(r.text).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
    expect(r.text.slice(r.text.indexOf('\r\n\r\n') + 4)).toBe('early;still-early;late');
    expect(outcomes).toEqual([101]);
  });

  it('relays a 4xx answer and closes, the bytes behind the request dropped', async () => {
    const leaked: string[] = [];
    const target = await backends.start(
      (_req, res) => res.writeHead(500).end(),
      (_req, socket) => {
        socket.on('data', (d: Buffer) => leaked.push(d.toString()));
        socket.end('HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{"code":403000}');
      },
    );
    const { port, outcomes } = await front(target);
    const r = await raw(port, [UPGRADE + SMUGGLED]);
    expect(r.text).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(r.text.endsWith('{"code":403000}')).toBe(true);
    expect(r.closed).toBe(true);
    expect(outcomes).toEqual([403]);
    expect(leaked).toEqual([]);
  });

  it('refuses a redirect with the ordinary path\'s 502 Status (CVE-2022-3172)', async () => {
    const target = await backends.start(
      (_req, res) => res.writeHead(500).end(),
      (_req, socket) => void socket.end('HTTP/1.1 302 Found\r\nLocation: https://example.invalid/\r\nContent-Length: 0\r\n\r\n'),
    );
    const { port } = await front(target);
    const r = await raw(port, [UPGRADE]);
    expect(r.text).toMatch(/^HTTP\/1\.1 502 /);
    expect(r.text).not.toContain('example.invalid');
    expect(JSON.parse(r.text.slice(r.text.indexOf('\r\n\r\n') + 4))).toMatchObject({ kind: 'Status', code: 502, reason: 'InternalError', message: 'the backend attempted to redirect this request, which is not permitted' });
    expect(r.closed).toBe(true);
  });

  it('answers 503 when the backend cannot be reached, and 400 to an upgrade request that declares a body', async () => {
    const target = await backends.start((_req, res) => res.writeHead(500).end());
    const unreachable: BackendTarget = { ...target, url: new URL('https://127.0.0.1:1') };
    const down = await raw((await front(unreachable)).port, [UPGRADE]);
    expect(down.text).toMatch(/^HTTP\/1\.1 503 /);
    expect(JSON.parse(down.text.slice(down.text.indexOf('\r\n\r\n') + 4))).toMatchObject({ kind: 'Status', code: 503, reason: 'ServiceUnavailable' });
    const { port } = await front(target);
    const withBody = await raw(port, [UPGRADE.replace('\r\n\r\n', '\r\nContent-Length: 2\r\n\r\n') + '{}']);
    expect(withBody.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(withBody.closed).toBe(true);
  });
});
