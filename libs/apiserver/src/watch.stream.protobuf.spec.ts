import { once } from 'node:events';
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeWatchEventFrames, type JsonObject, type KubeObject } from '@kube/apimachinery';
import { WatchChannel, type StorageEvent } from '@kube/storage';
import { eventFrame, streamWatch } from './watch.stream';

const configMap = (i: number): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'default', resourceVersion: String(i + 1), creationTimestamp: '2026-01-01T00:00:00Z' }, data: { i: String(i) } }) as KubeObject;

describe('streamWatch in protobuf', () => {
  let server: Server | undefined;

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('streams length-delimited WatchEvent frames under kube’s stream media type', async () => {
    const channel = new WatchChannel<StorageEvent>(100);
    server = createServer((_req, res) => {
      void streamWatch(res, channel, {
        encode: (obj) => obj,
        timeoutMs: 60_000,
        allowBookmarks: false,
        initialEventsEndBookmark: false,
        bookmarkObject: (rv) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: rv } }) as KubeObject,
        labels: { group: '', version: 'v1', kind: 'ConfigMap' },
        protobuf: true,
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const res = await new Promise<IncomingMessage>((resolve) => get({ host: '127.0.0.1', port: (server?.address() as AddressInfo).port, path: '/' }, resolve));
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    const objects = [configMap(0), configMap(1)];
    channel.push({ type: 'ADDED', key: 'a', object: objects[0], revision: 1 });
    channel.push({ type: 'MODIFIED', key: 'b', object: objects[1], revision: 2 });
    channel.close();
    await once(res, 'end');
    expect(res.headers['content-type']).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    expect(decodeWatchEventFrames(Buffer.concat(chunks))).toEqual([
      { type: 'ADDED', object: objects[0] },
      { type: 'MODIFIED', object: objects[1] },
    ]);
  });

  it('encodes an event once for every watcher of the same object', () => {
    const obj = configMap(3) as unknown as JsonObject;
    expect(eventFrame('ADDED', obj)).toBe(eventFrame('ADDED', obj));
    expect(eventFrame('DELETED', obj)).not.toBe(eventFrame('ADDED', obj));
  });
});
