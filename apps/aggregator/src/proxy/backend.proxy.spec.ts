import { once } from 'node:events';
import { createServer as createHttpServer, get as httpGet, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { proxyRequest } from './backend.proxy';
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
});
