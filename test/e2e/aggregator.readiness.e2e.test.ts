/**
 * The front door is not ready while a configured backend (core-api, extensions) has never answered discovery: its
 * groups would have no route, and a client told "ready" would get 404 for /api/v1 (seen when every process starts
 * at once on a loaded machine: the aggregator first, core-api still starting). kube's autoregister-completion
 * check waits for every built-in group/version the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessStack } from '../chaos/process.stack';
import { until } from '../support/until';

let stack: ProcessStack;

beforeAll(async () => {
  stack = await ProcessStack.start({ without: ['sample-apiserver', 'controller-manager'] });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('front door readiness', () => {
  it('stays unready until core-api has answered discovery, then routes /api/v1 at once', async () => {
    await stack.kill('aggregator');
    await stack.kill('core-api');
    await stack.restart('aggregator');
    // Everything else of the aggregator's readiness passes (etcd, its informers, extensions' discovery): only
    // core-api is missing, and readyz says so.
    const verbose = async (): Promise<string> => (await stack.request('aggregator', 'GET', '/readyz?verbose').catch(() => ({ body: '' }))).body;
    expect(await until(async () => /\[-\]autoregister-completion failed/.test(await verbose()) && (await verbose()).split('\n').filter((l) => l.startsWith('[-]')).length === 1, 120_000)).toBe(true);
    const unready = await stack.request('aggregator', 'GET', '/readyz?verbose');
    expect(unready.status).toBe(500);
    expect(unready.body).toContain('[-]autoregister-completion failed');

    await stack.restart('core-api');
    expect(await until(async () => (await stack.request('aggregator', 'GET', '/readyz').catch(() => ({ status: 0 }))).status === 200, 120_000)).toBe(true);
    const namespaces = await stack.request('aggregator', 'GET', '/api/v1/namespaces');
    expect(namespaces.status, namespaces.body).toBe(200);
  }, 300_000);
});
