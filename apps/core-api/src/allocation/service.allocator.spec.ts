import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { EtcdClient } from '@kube/storage';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { LEAK_PASSES, ServiceAllocator } from './service.allocator';

let etcd: EtcdProcess;
let client: EtcdClient;

beforeAll(async () => {
  etcd = await startEtcd();
  client = new EtcdClient({ endpoints: [etcd.endpoint] });
});

// Every test starts with no allocations (repair looks at all of them).
beforeEach(async () => {
  await client.raw.delete().prefix('/registry/allocations/');
});

afterAll(async () => {
  client?.close();
  await etcd?.stop();
});

function service(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { type: 'ClusterIP', ports: [{ port: 80 }], ...spec } } as KubeObject;
}

async function allocated(allocator: ServiceAllocator, svc: KubeObject): Promise<boolean> {
  const [key] = allocator.keysOf(svc);
  return (await client.getKey(key, 'allocations')) !== undefined;
}

describe('ServiceAllocator.repair', () => {
  it('keeps the address of a Service whose create is still in flight (claimed, not yet stored) across repair passes', async () => {
    const allocator = new ServiceAllocator(client, '10.100.0.0/24', { base: 30000, size: 100 });
    const inFlight = service('in-flight');
    await allocator.allocate(inFlight);
    const stored: KubeObject[] = [];
    for (let pass = 1; pass < LEAK_PASSES; pass++) {
      expect(await allocator.repair(async () => stored)).toEqual({ restored: 0, released: 0 });
      expect(await allocated(allocator, inFlight)).toBe(true);
    }
    // The create completes: the key is owned, and its leak count starts over.
    stored.push(inFlight);
    expect(await allocator.repair(async () => stored)).toEqual({ restored: 0, released: 0 });
    stored.pop();
    for (let pass = 1; pass < LEAK_PASSES; pass++) await allocator.repair(async () => stored);
    expect(await allocated(allocator, inFlight)).toBe(true);
  });

  it('releases a key no Service holds after enough passes, and restores a stored Service\'s missing key', async () => {
    const allocator = new ServiceAllocator(client, '10.101.0.0/24', { base: 31000, size: 100 });
    const leaked = service('leaked', { clusterIP: '10.101.0.7' });
    await allocator.allocate(leaked);
    const kept = service('kept', { clusterIP: '10.101.0.8' });
    const results = [];
    for (let pass = 0; pass < LEAK_PASSES; pass++) results.push(await allocator.repair(async () => [kept]));
    expect(results[0]).toEqual({ restored: 1, released: 0 });
    expect(results.at(-1)).toEqual({ restored: 0, released: 1 });
    expect(await allocated(allocator, leaked)).toBe(false);
    expect(await allocated(allocator, kept)).toBe(true);
  });

  it('reads the allocations before the Services, so a key claimed after that read is not counted', async () => {
    const allocator = new ServiceAllocator(client, '10.102.0.0/24', { base: 32000, size: 100 });
    const late = service('late');
    let listed = 0;
    for (let pass = 0; pass < LEAK_PASSES + 1; pass++) {
      await allocator.repair(async () => {
        // A create claims its key while the Services are being listed, every pass.
        if (listed++ === 0) await allocator.allocate(late);
        return [];
      });
    }
    // Seen unowned only from the second pass on: released at the (LEAK_PASSES + 1)th pass, not earlier.
    expect(listed).toBe(LEAK_PASSES + 1);
    expect(await allocated(allocator, late)).toBe(false);
  });
});
