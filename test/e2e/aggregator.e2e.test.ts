import { readFileSync } from 'node:fs';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { startTestAggregatedServer, testAggregatedServerManifests, type TestAggregatedServer } from '../support/test-aggregated.server';
import { until } from '../support/until';

/** Sends an upgrade request through the front door, then `payload`; resolves with what came back after the 101. */
async function upgradeEcho(stack: StackHarness, path: string, payload: string): Promise<string> {
  const socket = tlsConnect({ host: '127.0.0.1', port: stack.port, ca: readFileSync(stack.pki.caCert), cert: readFileSync(stack.pki.adminCert), key: readFileSync(stack.pki.adminKey) });
  await new Promise<void>((resolve, reject) => socket.once('secureConnect', () => resolve()).once('error', reject));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`);
  let received = '';
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no echo: ${received}`))), 5000);
    socket.on('data', (d: Buffer) => {
      received += d.toString();
      const head = received.indexOf('\r\n\r\n');
      if (head >= 0 && !received.startsWith('HTTP/1.1 101')) return (clearTimeout(timer), socket.destroy(), reject(new Error(received)));
      if (head >= 0 && received.length === head + 4) socket.write(payload);
      if (head >= 0 && received.length >= head + 4 + payload.length) {
        clearTimeout(timer);
        socket.destroy();
        resolve(received.slice(head + 4));
      }
    });
  });
}

describe.each(['1.27', '1.33'])('the aggregator with kubectl %s', (version) => {
  let stack: StackHarness;
  let wardle: TestAggregatedServer;
  const { k } = kubectlSession(version, () => stack.kubeconfig);

  beforeAll(async () => {
    stack = await startStack();
    wardle = await startTestAggregatedServer(stack.pki);
  });

  afterAll(async () => {
    await wardle?.stop();
    await stack?.stop();
  });

  it('lists the built-in APIServices as Local and Available', async () => {
    const out = (await k(['get', 'apiservices'])).stdout;
    expect(out).toMatch(/^NAME\s+SERVICE\s+AVAILABLE\s+AGE$/m);
    for (const name of ['v1.', 'v1.coordination.k8s.io', 'v1.apiextensions.k8s.io', 'v1.apiregistration.k8s.io']) {
      expect(out).toMatch(new RegExp(`^${name.replace(/\./g, '\\.')}\\s+Local\\s+True\\s+`, 'm'));
    }
  });

  it('reports autoregistration completion on /readyz', async () => {
    const r = await stack.request('GET', '/readyz?verbose');
    expect(r.status).toBe(200);
    expect(r.body).toContain('[+]autoregister-completion ok');
    for (const check of ['etcd', 'discovery-synced', 'informer-sync']) expect(r.body).toContain(`[+]${check} ok`);
    expect((await stack.request('GET', '/livez?verbose')).body).toContain('[+]etcd ok');
  });

  it('answers 401 without credentials', async () => {
    const r = await stack.request('GET', '/api/v1/namespaces', { anonymous: true });
    expect(r.status).toBe(401);
    expect(r.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized' });
  });

  it('impersonates for system:masters, and authorizes the impersonated identity', async () => {
    const jane = await stack.request('GET', '/api/v1/namespaces/default/configmaps', { headers: { 'Impersonate-User': 'jane', 'Impersonate-Group': 'devs' } });
    expect(jane.status).toBe(403);
    expect(jane.json()).toMatchObject({ reason: 'Forbidden', message: 'configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "default"' });
    const r = await stack.request('GET', '/api/v1/namespaces/default/configmaps', { headers: { 'Impersonate-User': 'jane', 'Impersonate-Group': 'system:masters' } });
    expect(r.status).toBe(200);
  });

  it('refuses an invalid APIService with 422', async () => {
    const bad = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1.wrong.test' }, spec: { group: 'other.test', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 } };
    const r = await k(['create', '-f', '-'], JSON.stringify(bad));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('is invalid');
  });

  it('routes a registered aggregated server with the caller identity, marks it unavailable when it dies and recovers', async () => {
    const manifests = testAggregatedServerManifests(wardle);
    for (const m of manifests) {
      const r = await k(['apply', '-f', '-'], JSON.stringify(m));
      expect(r.code, r.stderr).toBe(0);
    }
    expect(await until(async () => /v1\.wardle\.test\s+default\/wardle-server\s+True/.test((await k(['get', 'apiservices', 'v1.wardle.test'])).stdout), 10_000)).toBe(true);
    const raw = await k(['get', '--raw', '/apis/wardle.test/v1/namespaces/default/flunders']);
    expect(raw.code, raw.stderr).toBe(0);
    const item = JSON.parse(raw.stdout).items[0];
    expect(item.user).toBe('kubernetes-admin');
    expect(item.groups).toContain('system:masters');
    expect(item.authorization).toBeNull();

    expect(await upgradeEcho(stack, '/apis/wardle.test/v1/namespaces/default/flunders/echo/exec', 'ping')).toBe('ping');
    // The availability controller's discovery checks reach the server too: look at the upgrade request itself.
    const upgrade = wardle.seen.filter((r) => r.path.endsWith('/echo/exec')).at(-1);
    expect(upgrade?.headers['x-remote-user']).toBe('kubernetes-admin');
    expect(upgrade?.headers.authorization).toBeUndefined();

    await wardle.stop();
    expect(await until(async () => /v1\.wardle\.test\s+default\/wardle-server\s+False/.test((await k(['get', 'apiservices', 'v1.wardle.test'])).stdout), 40_000)).toBe(true);
    const down = await stack.request('GET', '/apis/wardle.test/v1/namespaces/default/flunders');
    expect(down.status).toBe(503);
    expect((await k(['get', 'namespaces'])).code).toBe(0);

    await wardle.start();
    expect(await until(async () => /v1\.wardle\.test\s+default\/wardle-server\s+True/.test((await k(['get', 'apiservices', 'v1.wardle.test'])).stdout), 40_000)).toBe(true);

    wardle.redirect = true;
    const redirected = await stack.request('GET', '/apis/wardle.test/v1/namespaces/default/flunders');
    expect(redirected.status).toBe(502);
    wardle.redirect = false;
  }, 120_000);

  it('re-reads only the backend serving CRDs when CRDs change, and lists each new CRD group in /apis', async () => {
    // The aggregated server registered above keeps serving: a refresh of every backend would read its /apis.
    const discoveryReads = (): number => wardle.seen.filter((r) => r.path.split('?')[0] === '/apis').length;
    const before = discoveryReads();
    for (let i = 0; i < 3; i++) {
      const group = `refresh${i}.example.com`;
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `things.${group}` },
        spec: { group, scope: 'Namespaced', names: { plural: 'things', kind: 'Thing' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] },
      };
      const r = await k(['apply', '-f', '-'], JSON.stringify(crd));
      expect(r.code, r.stderr).toBe(0);
      expect(await until(async () => (await stack.request('GET', '/apis')).json<{ groups: Array<{ name: string }> }>().groups.some((g) => g.name === group), 30_000), group).toBe(true);
    }
    // Three CRDs, each waited for in discovery: a full refresh per CRD would read it at least three times (the
    // minute's periodic refresh may read it once).
    expect(discoveryReads() - before).toBeLessThan(2);
  }, 120_000);
});
