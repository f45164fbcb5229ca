import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { COMPACT_REV_KEY, Compactor, parseGoDuration } from './compactor';
import { CompactedError, EtcdClient } from './etcd.client';

let etcd: EtcdProcess;
let client: EtcdClient;

beforeAll(async () => {
  etcd = await startEtcd();
  client = new EtcdClient({ endpoints: [etcd.endpoint] });
});

afterAll(async () => {
  client?.close();
  await etcd?.stop();
});

const put = async (key: string): Promise<number> => Number((await client.raw.kv.put({ key: Buffer.from(key), value: Buffer.from('v') })).header.revision);

describe('Compactor (kube storage/etcd3/compact.go)', () => {
  it('compacts once per round among several servers, to the revision recorded one round earlier', async () => {
    const a = new Compactor(client, 0);
    const b = new Compactor(client, 0);
    // Round 1: the first to come records the revision, nobody compacts; the other learns the compact time.
    const first = await a.step();
    expect(first.compacted).toBeUndefined();
    expect(await b.step()).toMatchObject({ compactTime: 1 });
    const old = await put('/registry/x/old');
    await put('/registry/x/newer');
    // Round 2: b holds the current compact time and wins; it compacts to what it recorded in round 1.
    const won = await b.step();
    expect(won.compacted).toBeGreaterThanOrEqual(first.revision);
    expect(won.compacted).toBeLessThan(old + 2);
    const lost = await a.step();
    expect(lost.compacted).toBeUndefined();
    expect(lost.compactTime).toBe(won.compactTime);
    // The compact time is the version of the key every server shares.
    const kv = await client.getKey(COMPACT_REV_KEY, 'test');
    expect(Number(kv?.version)).toBe(won.compactTime);
    // History before the compacted revision is gone: reads at it answer "compacted".
    await expect(client.range({ key: Buffer.from('/registry/x/old'), revision: (won.compacted as number) - 1 }, 'test')).rejects.toBeInstanceOf(CompactedError);
  });

  it('runs every interval once started, and never with an interval of 0', async () => {
    const compactions: string[] = [];
    const idle = new Compactor(client, 0, (m) => compactions.push(m));
    idle.start();
    const busy = new Compactor(client, 50, (m) => compactions.push(m));
    busy.start();
    const deadline = Date.now() + 20_000;
    while (!compactions.some((m) => /compacted to revision/.test(m)) && Date.now() < deadline) {
      await put('/registry/x/tick');
      await new Promise((r) => setTimeout(r, 20));
    }
    await busy.stop();
    await idle.stop();
    expect(compactions.find((m) => /compacted to revision \d+/.test(m))).toBeDefined();
  });
});

describe('parseGoDuration (kube flag durations)', () => {
  it.each([
    ['5m', 300_000],
    ['1m30s', 90_000],
    ['300ms', 300],
    ['1h', 3_600_000],
    ['0', 0],
    ['0s', 0],
  ])('%s is %d ms', (text, ms) => expect(parseGoDuration(text)).toBe(ms));

  it.each(['', '5', 'five minutes', '5m junk', '-5m'])('refuses %j', (text) => expect(() => parseGoDuration(text)).toThrow(/invalid duration/));
});
