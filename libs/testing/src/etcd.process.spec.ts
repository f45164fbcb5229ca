import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EtcdProcess, startEtcd } from './etcd.process';

describe('startEtcd', () => {
  let etcd: EtcdProcess;

  beforeAll(async () => {
    etcd = await startEtcd();
  });
  afterAll(() => etcd.stop());

  const withClient = async <T>(fn: (client: Etcd3) => Promise<T>): Promise<T> => {
    const client = new Etcd3({ hosts: etcd.endpoint });
    try {
      return await fn(client);
    } finally {
      client.close();
    }
  };

  it('serves puts and gets on 127.0.0.1', async () => {
    expect(etcd.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const value = await withClient(async (client) => {
      await client.put('/registry/test/a').value('1');
      return client.get('/registry/test/a').string();
    });
    expect(value).toBe('1');
  });

  it('keeps its data and endpoint across restart and after a crash', async () => {
    await withClient(async (client) => {
      await client.put('/registry/test/b').value('2');
    });
    await etcd.restart();
    expect(await withClient((client) => client.get('/registry/test/b').string())).toBe('2');

    await etcd.kill();
    await etcd.restart();
    expect(await withClient((client) => client.get('/registry/test/a').string())).toBe('1');
  });

  it('refuses ports that are already taken', async () => {
    await expect(startEtcd({ clientPort: etcd.clientPort, peerPort: etcd.peerPort })).rejects.toThrow(/address already in use/);
  });

  it('reports the process output when etcd fails to start', async () => {
    await expect(startEtcd({ extraArgs: ['--no-such-flag'] })).rejects.toThrow(/etcd exited with code 2; last output:\n.*no-such-flag/s);
  });
});
