/**
 * A write whose reply is lost must not be repeated: etcd3's default policy retried every call on a dropped
 * connection, so a create etcd had committed was sent again, failed its own compare and came back AlreadyExists
 * (a 409 to the client for an object it had just created). Reads keep their retries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors, isStatusError } from '@kube/apimachinery';
import { EtcdClient, Storage } from '@kube/storage';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { startTcpRelay, type TcpRelay } from '../support/tcp.relay';
import { until } from '../support/until';

let etcd: EtcdProcess;
let relay: TcpRelay;
let relayed: EtcdClient;
let direct: EtcdClient;

beforeAll(async () => {
  etcd = await startEtcd();
  relay = await startTcpRelay(etcd.endpoint);
  relayed = new EtcdClient({ endpoints: [relay.endpoint] });
  direct = new EtcdClient({ endpoints: [etcd.endpoint] });
}, 60_000);

afterAll(async () => {
  relayed?.raw.close();
  direct?.raw.close();
  await relay?.close();
  await etcd?.stop();
});

/** Starts `call` with etcd's answers held back, waits until `committed`, then cuts the connection: the reply is lost. */
async function loseTheReply<T>(call: () => Promise<T>, committed: () => Promise<boolean>): Promise<{ value?: T; error?: unknown }> {
  await relayed.getKey('/registry/warm-up', 'test');
  relay.hold();
  const outcome = call().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  try {
    expect(await until(committed, 15_000)).toBe(true);
  } finally {
    relay.reset();
    relay.release();
  }
  return outcome;
}

describe('etcd writes whose reply is lost', () => {
  it('a committed create is not sent again (it used to come back AlreadyExists)', async () => {
    const storage = new Storage({ endpoints: [relay.endpoint] });
    const store = storage.resource({ group: '', resource: 'configmaps' }, 'configmaps');
    await storage.client.getKey('/registry/warm-up', 'test');
    const outcome = await loseTheReply(
      () => store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'lost-reply', namespace: 'default' }, data: { a: '1' } }),
      async () => (await direct.getKey('/registry/configmaps/default/lost-reply', 'test')) !== undefined,
    );
    // The outcome is unknown to the server, so it must say so, not claim the name was taken.
    expect(outcome.value).toBeUndefined();
    expect(isStatusError(outcome.error) && outcome.error.reason === Errors.alreadyExists({ group: '', resource: 'configmaps' }, 'lost-reply').reason).toBe(false);
    expect(outcome.error).toBeInstanceOf(Error);
    // And the object is there, once.
    expect((await direct.getKey('/registry/configmaps/default/lost-reply', 'test'))?.version).toBe('1');
    await storage.close();
  }, 60_000);

  it('a read on a dropped connection is still retried', async () => {
    await direct.txn({ compare: [], success: [{ request_put: { key: Buffer.from('/registry/test/read'), value: Buffer.from('x') } }], failure: [] }, 'test', 'create');
    const outcome = await loseTheReply(
      () => relayed.getKey('/registry/test/read', 'test'),
      async () => {
        await new Promise((r) => setTimeout(r, 300));
        return true;
      },
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.value?.value.toString()).toBe('x');
  }, 60_000);
});
