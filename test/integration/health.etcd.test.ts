/**
 * /readyz follows etcd: unready within 5 s of etcd stopping (the etcd check pings with a 2 s timeout) and ready
 * again once it is back, with the verbose lists naming each check; no acknowledged write is lost meanwhile. The
 * front door follows too, and lists its own checks (autoregistration, informer and discovery sync). /livez fails
 * on etcd as well, as kube-apiserver's does (its livez has the etcd check).
 * Timings are printed for the issue notes, not asserted tighter than the operational promise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { startCoreApi, startStack, type CoreApiHarness, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

/** Milliseconds until `cond` holds, polling every 100 ms; NaN after `timeoutMs`. */
async function timeUntil(cond: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    if (await cond()) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 100));
  }
  return NaN;
}

describe('readiness follows etcd', () => {
  let etcd: EtcdProcess;
  let api: CoreApiHarness;
  const readyz = async (): Promise<number> => (await api.request('GET', '/readyz', { anonymous: true })).status;

  beforeAll(async () => {
    etcd = await startEtcd();
    api = await startCoreApi({ etcd });
  });

  afterAll(async () => {
    await api?.stop();
    await etcd?.stop();
  });

  it('lists every named check on /readyz?verbose and /livez?verbose', async () => {
    const ready = await api.request('GET', '/readyz?verbose', { anonymous: true });
    expect(ready.status).toBe(200);
    expect(ready.body).toMatch(/^\[\+\]ping ok$/m);
    expect(ready.body).toMatch(/^\[\+\]etcd ok$/m);
    expect(ready.body).toMatch(/^\[\+\]shutdown ok$/m);
    expect(ready.body).toMatch(/^readyz check passed$/m);
    const live = await api.request('GET', '/livez?verbose', { anonymous: true });
    expect(live.body).toMatch(/^\[\+\]etcd ok$/m);
    expect(live.body).toMatch(/^livez check passed$/m);
    // One check by name is not public (kube's system:public-info-viewer opens /readyz, not /readyz/*): system:monitoring, the admin.
    expect((await api.request('GET', '/readyz/etcd')).body).toBe('ok');
    expect((await api.request('GET', '/readyz/etcd', { anonymous: true })).status).toBe(403);
  });

  it('turns unready within 5 s of etcd stopping, and ready again once it is back, losing no write', async () => {
    const written = await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name: 'before-outage' }, data: { a: '1' } }) });
    expect(written.status).toBe(201);

    await etcd.stop();
    const toUnready = await timeUntil(async () => (await readyz()) !== 200, 10_000);
    console.log(`readyz unready ${toUnready.toFixed(0)} ms after etcd stopped`);
    expect(toUnready).toBeLessThan(5_000);
    const verbose = await api.request('GET', '/readyz?verbose', { anonymous: true });
    expect(verbose.status).toBe(500);
    expect(verbose.body).toMatch(/^\[-\]etcd failed: /m);
    expect(verbose.body).toMatch(/^readyz check failed$/m);

    await etcd.restart();
    const toReady = await timeUntil(async () => (await readyz()) === 200, 20_000);
    console.log(`readyz ready ${toReady.toFixed(0)} ms after etcd restarted`);
    expect(toReady).toBeLessThan(10_000);
    const read = await api.request('GET', '/api/v1/namespaces/default/configmaps/before-outage');
    expect(read.status).toBe(200);
    expect((await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name: 'after-outage' } }) })).status).toBe(201);
  }, 60_000);
});

describe('the front door\'s readiness follows etcd', () => {
  let etcd: EtcdProcess;
  let stack: StackHarness;
  const readyz = async (): Promise<number> => (await stack.request('GET', '/readyz', { anonymous: true })).status;

  beforeAll(async () => {
    etcd = await startEtcd();
    stack = await startStack({ etcd });
  });

  afterAll(async () => {
    await stack?.stop();
    await etcd?.stop();
  });

  it('names its own checks on /readyz?verbose and /livez?verbose', async () => {
    const ready = await stack.request('GET', '/readyz?verbose', { anonymous: true });
    expect(ready.status).toBe(200);
    for (const check of ['ping', 'etcd', 'discovery-synced', 'autoregister-completion', 'informer-sync']) expect(ready.body).toMatch(new RegExp(`^\\[\\+\\]${check} ok$`, 'm'));
    const live = await stack.request('GET', '/livez?verbose', { anonymous: true });
    expect(live.status).toBe(200);
    expect(live.body).toMatch(/^\[\+\]etcd ok$/m);
    // Readiness-only checks stay off /livez: a missing backend must not restart the front door.
    expect(live.body).not.toMatch(/autoregister-completion|discovery-synced|informer-sync/);
  });

  it('turns unready within 5 s of etcd stopping, and ready again once it is back', async () => {
    await etcd.stop();
    const toUnready = await timeUntil(async () => (await readyz()) !== 200, 10_000);
    console.log(`aggregator readyz unready ${toUnready.toFixed(0)} ms after etcd stopped`);
    expect(toUnready).toBeLessThan(5_000);
    expect((await stack.request('GET', '/readyz?verbose', { anonymous: true })).body).toMatch(/^\[-\]etcd failed: /m);

    await etcd.restart();
    const toReady = await timeUntil(async () => (await readyz()) === 200, 20_000);
    console.log(`aggregator readyz ready ${toReady.toFixed(0)} ms after etcd restarted`);
    expect(toReady).toBeLessThan(10_000);
    // core-api's own etcd client reconnects on its own schedule: requests succeed again shortly after.
    expect(await until(async () => (await stack.request('GET', '/api/v1/namespaces/default')).status === 200, 10_000)).toBe(true);
  }, 60_000);
});
