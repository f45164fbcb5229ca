import { once } from 'node:events';
import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { WatchChannel, type StorageEvent } from '@kube/storage';
import { frameChunk } from './chunked.socket';
import { streamWatch } from './watch.stream';

const PAYLOAD = 'x'.repeat(4096);

function event(i: number): StorageEvent {
  const object: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'default', resourceVersion: String(i + 1) }, data: { payload: PAYLOAD } } as KubeObject;
  return { type: 'ADDED', key: `/registry/configmaps/default/cm-${i}`, object, revision: i + 1 };
}

async function until(check: () => boolean, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('streamWatch', () => {
  let server: Server | undefined;

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  async function serve(channel: WatchChannel<StorageEvent>, over: { timeoutMs?: number; allowBookmarks?: boolean } = {}): Promise<{ port: number; response: () => ServerResponse | undefined; finished: () => boolean }> {
    let response: ServerResponse | undefined;
    let finished = false;
    server = createServer((_req, res) => {
      response = res;
      void streamWatch(res, channel, {
        encode: (obj) => obj,
        timeoutMs: over.timeoutMs ?? 60_000,
        allowBookmarks: over.allowBookmarks ?? false,
        initialEventsEndBookmark: false,
        bookmarkObject: (rv) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: rv } }) as KubeObject,
        labels: { group: '', version: 'v1', kind: 'ConfigMap' },
      }).finally(() => (finished = true));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { port: (server.address() as AddressInfo).port, response: () => response, finished: () => finished };
  }

  it('streams every event to a client that reads', async () => {
    const channel = new WatchChannel<StorageEvent>(100);
    const { port } = await serve(channel);
    const lines: string[] = [];
    const res = await new Promise<IncomingMessage>((resolve) => get({ host: '127.0.0.1', port, path: '/' }, resolve));
    let buf = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => {
      buf += c;
      const parts = buf.split('\n');
      buf = parts.pop() ?? '';
      lines.push(...parts);
    });
    // Far more events than the channel holds, pushed as the consumer keeps up.
    for (let i = 0; i < 2000; i++) {
      await until(() => channel.pending < 50);
      channel.push(event(i));
    }
    await until(() => lines.length === 2000);
    expect(JSON.parse(lines[1999]).object.metadata.name).toBe('cm-1999');
    channel.close();
  });

  it('bookmarks 2 s before the timeout where bookmarks are allowed (kube\'s cacheWatcher), so the client resumes from now', async () => {
    const channel = new WatchChannel<StorageEvent>(100);
    channel.push(event(0));
    const { port } = await serve(channel, { timeoutMs: 2_500, allowBookmarks: true });
    const res = await new Promise<IncomingMessage>((resolve) => get({ host: '127.0.0.1', port, path: '/' }, resolve));
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (body += c));
    await once(res, 'end');
    const events = body.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: KubeObject });
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(events[1].object.metadata.resourceVersion).toBe('1');
  });

  it('closes a watcher that stops reading instead of buffering its events in memory', async () => {
    const channel = new WatchChannel<StorageEvent>(100);
    const { port, response, finished } = await serve(channel);
    const client = await new Promise<IncomingMessage>((resolve) =>
      get({ host: '127.0.0.1', port, path: '/' }, (res) => {
        res.pause();
        resolve(res);
      }),
    );
    client.on('error', () => undefined);
    // 20,000 events of 4 KiB (80 MiB) into a stalled watcher: the channel must overflow and end it.
    for (let i = 0; i < 20_000 && !channel.closed; i++) {
      channel.push(event(i));
      if (i % 50 === 0) await new Promise((r) => setImmediate(r));
      // What waits in memory: the response's buffer and its socket's (events may go to the socket directly).
      expect((response()?.writableLength ?? 0) + (response()?.socket?.writableLength ?? 0)).toBeLessThan(1024 * 1024);
    }
    expect(channel.error?.message).toMatch(/too slow/);
    await until(() => finished());
    // The connection is dropped (the client re-watches), not left open behind a full buffer.
    expect(response()?.destroyed).toBe(true);
    expect(response()?.socket?.destroyed ?? true).toBe(true);
    client.destroy();
  });
});

describe('frameChunk (encoded watch events kept with the watch cache window)', () => {
  it('holds exactly its bytes, not a slice of a shared 8 KiB slab', () => {
    const line = frameChunk('{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"ü"}}}\n');
    expect(line.toString()).toBe('48\r\n{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"ü"}}}\n\r\n');
    expect(line.buffer.byteLength).toBe(line.length);
    expect(Buffer.from('x').buffer.byteLength).toBeGreaterThan(1); // what it avoids
  });
});
