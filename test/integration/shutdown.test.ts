import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { startStack } from '@test/support';

const LEADER_KEY = '/registry/leader-election/kube-aggregator';

let etcd: EtcdProcess;
let raw: Etcd3;

beforeAll(async () => {
  etcd = await startEtcd();
  raw = new Etcd3({ hosts: etcd.endpoint });
});

afterAll(async () => {
  raw?.close();
  await etcd?.stop();
});

describe('a clean shutdown', () => {
  it('releases the aggregator leadership before closing etcd, so a restarted aggregator leads at once', async () => {
    const stack = await startStack({ etcd });
    const deadline = Date.now() + 20_000;
    while ((await raw.get(LEADER_KEY).string()) === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await raw.get(LEADER_KEY).string()).not.toBeNull();
    await stack.stop();
    // The lease was revoked while etcd was still reachable: no key waits for its TTL to run out.
    expect(await raw.get(LEADER_KEY).string()).toBeNull();
    const restarted = await startStack({ etcd });
    try {
      const holder = await raw.get(LEADER_KEY).string();
      expect(holder).not.toBeNull();
    } finally {
      await restarted.stop();
    }
  });
});
