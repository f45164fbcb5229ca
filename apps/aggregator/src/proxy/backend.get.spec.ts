import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backendGet } from './backend.get';
import { TestBackends } from './backend.testing';

describe('backendGet', () => {
  let backends: TestBackends;

  beforeEach(async () => {
    backends = await TestBackends.create();
  });

  afterEach(() => backends.close());

  it('reads a document as the aggregator (system:masters identity)', async () => {
    const target = await backends.start((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ user: req.headers['x-remote-user'], accept: req.headers.accept }));
    });
    const got = await backendGet(target, backends.agents, '/apis', 'application/json');
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body.toString())).toEqual({ user: 'system:kube-aggregator', accept: 'application/json' });
  });

  it('gives up on a backend that trickles its answer past the deadline, though it is never idle', async () => {
    const target = await backends.start((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    await expect(backendGet(target, backends.agents, '/apis', 'application/json', { timeoutMs: 500 })).rejects.toThrow('GET /apis: timed out after 500 ms');
  });

  it('refuses a body past the size limit, declared or streamed', async () => {
    const sized = await backends.start((_req, res) => {
      res.writeHead(200, { 'Content-Length': 2048 });
      res.end(Buffer.alloc(2048));
    });
    await expect(backendGet(sized, backends.agents, '/openapi/v2', 'application/json', { maxBytes: 1024 })).rejects.toThrow('GET /openapi/v2: response of 2048 bytes exceeds the limit of 1024');
    const chunked = await backends.start((_req, res) => {
      res.writeHead(200);
      for (let i = 0; i < 4; i++) res.write(Buffer.alloc(512));
      res.end();
    });
    await expect(backendGet(chunked, backends.agents, '/openapi/v2', 'application/json', { maxBytes: 1024 })).rejects.toThrow('GET /openapi/v2: response exceeds the limit of 1024 bytes');
  });
});
