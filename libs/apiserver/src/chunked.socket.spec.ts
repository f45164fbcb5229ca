import { once } from 'node:events';
import { Agent, createServer, get, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { chunkData, chunkedSocket, frameChunk } from './chunked.socket';

describe('chunkedSocket', () => {
  let server: Server | undefined;

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  async function respond(handler: (res: ServerResponse) => void, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
    server = createServer((_req, res) => handler(res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const res = await new Promise<IncomingMessage>((resolve) => get({ host: '127.0.0.1', port: (server?.address() as AddressInfo).port, path: '/', headers }, resolve));
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (body += c));
    await once(res, 'end');
    return { status: res.statusCode ?? 0, body };
  }

  it('gives a chunked HTTP/1.1 response’s socket, which takes pre-framed chunks that res.end() then ends', async () => {
    const seen: unknown[] = [];
    const { body } = await respond((res) => {
      seen.push(chunkedSocket(res));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      const socket = chunkedSocket(res);
      seen.push(socket);
      socket?.write(frameChunk('{"a":1}\n'));
      socket?.write(frameChunk(Buffer.from('{"b":"ü"}\n')));
      res.end();
    });
    expect(seen[0]).toBeUndefined(); // headers not out yet
    expect(seen[1]).toBeDefined();
    expect(body).toBe('{"a":1}\n{"b":"ü"}\n');
  });

  it('is undefined for a sized body, or when someone wraps res.write (audit copying bodies)', async () => {
    let sized: unknown = null;
    await respond((res) => {
      res.writeHead(200, { 'content-length': '2' });
      res.flushHeaders();
      sized = chunkedSocket(res);
      res.end('ok');
    });
    expect(sized).toBeUndefined();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    let wrapped: unknown = null;
    await respond((res) => {
      const write = res.write;
      res.write = ((...args: Parameters<typeof write>) => write.apply(res, args)) as typeof res.write;
      res.writeHead(200);
      res.flushHeaders();
      wrapped = chunkedSocket(res);
      res.end();
    });
    expect(wrapped).toBeUndefined();
  });

  it('is undefined for a HEAD response: chunks written to its socket would be read as the next response (a HEAD watch desynced the connection)', async () => {
    let head: unknown = null;
    server = createServer((req, res) => {
      if (req.method !== 'HEAD') return void res.end('ok');
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.flushHeaders();
      const socket = chunkedSocket(res);
      head = socket;
      // What the watch stream does with the socket it is given.
      socket?.write(frameChunk('{"type":"ADDED"}\n'));
      res.end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ask = (method: string): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/', method, agent }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      expect((await ask('HEAD')).status).toBe(200);
      expect(head).toBeUndefined();
      // The same connection's next answer is whole.
      expect(await ask('GET')).toEqual({ status: 200, body: 'ok' });
    } finally {
      agent.destroy();
    }
  });
});

describe('frameChunk / chunkData', () => {
  it('frames data as one chunk and gives the data back as a view', () => {
    const framed = frameChunk('x'.repeat(300));
    expect(framed.subarray(0, 5).toString('latin1')).toBe('12c\r\n');
    expect(framed.subarray(framed.length - 2).toString('latin1')).toBe('\r\n');
    expect(chunkData(framed).toString()).toBe('x'.repeat(300));
    expect(chunkData(framed).buffer).toBe(framed.buffer);
  });
});
