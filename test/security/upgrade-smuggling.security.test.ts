import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { startTestAggregatedServer, testAggregatedServerManifests, type TestAggregatedServer } from '../support/test-aggregated.server';
import { until } from '../support/until';

/**
 * Issue 26 items 1 and 8 (CVE-2018-1002105 and CVE-2022-3172 classes): a client's bytes reach a backend only
 * inside the request the front door authorized, and after the backend answered 101. A ServiceAccount with no
 * rights tries to smuggle a second request, carrying the front proxy's identity headers, behind an upgrade
 * request (allowed by system:discovery) onto the front door's own connection to core-api.
 */
const NS = 'smuggling';
let stack: StackHarness;
let wardle: TestAggregatedServer;
let ca: Buffer;
let saToken = '';
let smuggled = 0;

interface RawExchange {
  /** Everything the front door sent back. */
  text: string;
  /** The front door closed the connection (else it was still open when the wait ended). */
  closed: boolean;
}

/**
 * Writes `parts` to the front door by hand over one TLS connection (a number is a pause in ms), then reads until
 * the server closes the connection or `waitMs` passed after the last write.
 */
async function raw(parts: Array<string | number>, opts: { admin?: boolean; waitMs?: number } = {}): Promise<RawExchange> {
  const socket = tlsConnect({ host: '127.0.0.1', port: stack.port, ca, ...(opts.admin ? { cert: readFileSync(stack.pki.adminCert), key: readFileSync(stack.pki.adminKey) } : {}) });
  let text = '';
  let closed = false;
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', () => undefined);
  const ended = new Promise<void>((resolve) => socket.once('close', () => ((closed = true), resolve())));
  await new Promise<void>((resolve, reject) => socket.once('secureConnect', () => resolve()).once('error', reject));
  for (const part of parts) {
    if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
    else if (!socket.destroyed) socket.write(part);
  }
  await Promise.race([ended, new Promise((r) => setTimeout(r, opts.waitMs ?? 3000))]);
  socket.destroy();
  return { text, closed };
}

/** The status codes of every response in `text`, in order. */
function statuses(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
}

/** The request an attacker hides behind another: a ConfigMap created as system:masters through the front proxy's trust. */
function smuggledCreate(): { name: string; bytes: string } {
  const name = `smuggled-${++smuggled}`;
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { owned: 'yes' } });
  const bytes = `POST /api/v1/namespaces/${NS}/configmaps HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Remote-User: mallory\r\nX-Remote-Group: system:masters\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  return { name, bytes };
}

function upgradeRequest(path: string, auth = `Authorization: Bearer ${saToken}\r\n`): string {
  return `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n`;
}

/** The smuggled ConfigMap does not exist (given time to be created had the bytes reached core-api). */
async function expectNotCreated(name: string): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
  const r = await stack.request('GET', `/api/v1/namespaces/${NS}/configmaps/${name}`);
  expect(r.status, `the smuggled ConfigMap ${name} was created: ${r.body}`).toBe(404);
}

beforeAll(async () => {
  stack = await startStack({ controllerManager: false });
  ca = readFileSync(stack.pki.caCert);
  const create = async (path: string, body: unknown): Promise<void> => {
    const r = await stack.request('POST', path, { body: JSON.stringify(body) });
    expect(r.status, r.body).toBe(201);
  };
  await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  await create(`/api/v1/namespaces/${NS}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'intruder' } });
  const tr = await stack.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts/intruder/token`, { body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }) });
  expect(tr.status, tr.body).toBe(201);
  saToken = tr.json<{ status: { token: string } }>().status.token;
  // One narrow right, so that an upgrade request reaches core-api and gets its 404: get on a ConfigMap that does not exist.
  await create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'absent-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['absent'], verbs: ['get'] }] });
  await create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'absent-reader' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'absent-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'intruder', namespace: NS }] });
  // An aggregated server that does upgrade (exec-style echo), for the paths that must keep working.
  wardle = await startTestAggregatedServer(stack.pki);
  for (const m of testAggregatedServerManifests(wardle)) {
    const kind = String(m.kind);
    const path = kind === 'APIService' ? '/apis/apiregistration.k8s.io/v1/apiservices' : `/api/v1/namespaces/default/${kind.toLowerCase()}${kind === 'Endpoints' ? '' : 's'}`;
    await create(path, m);
  }
  expect(await until(async () => (await stack.request('GET', '/apis/wardle.test/v1/namespaces/default/flunders')).status === 200, 30_000)).toBe(true);
}, 120_000);

afterAll(async () => {
  await wardle?.stop();
  await stack?.stop();
});

describe('no client byte reaches a backend outside the request the front door authorized', () => {
  it('a request smuggled in the same write as an upgrade request is never parsed by core-api; the upgrade gets the backend\'s real answer', async () => {
    const attack = smuggledCreate();
    const r = await raw([upgradeRequest('/api/v1') + attack.bytes]);
    // core-api does not upgrade: its discovery answer is relayed, and the connection ends there.
    expect(statuses(r.text), r.text).toEqual([200]);
    expect(r.text).toContain('"kind":"APIResourceList"');
    expect(r.closed).toBe(true);
    await expectNotCreated(attack.name);
  });

  it('the same request split across several writes (inside the upgrade request, then after it) is never parsed either', async () => {
    const attack = smuggledCreate();
    const upgrade = upgradeRequest('/api/v1');
    const cut = upgrade.indexOf('Connection:');
    const r = await raw([upgrade.slice(0, cut), 20, upgrade.slice(cut), 1, attack.bytes.slice(0, 40), 20, attack.bytes.slice(40)]);
    expect(statuses(r.text), r.text).toEqual([200]);
    expect(r.closed).toBe(true);
    await expectNotCreated(attack.name);
  });

  it('an upgrade request the backend answers with 404 gets that 404; the bytes behind it go nowhere', async () => {
    const attack = smuggledCreate();
    const r = await raw([upgradeRequest(`/api/v1/namespaces/${NS}/configmaps/absent`) + attack.bytes]);
    expect(statuses(r.text), r.text).toEqual([404]);
    const body = JSON.parse(r.text.slice(r.text.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404, message: 'configmaps "absent" not found' });
    expect(r.closed).toBe(true);
    await expectNotCreated(attack.name);
  });

  it('an upgrade request the front door refuses (403) is answered and its connection closed, before any backend connection', async () => {
    const attack = smuggledCreate();
    const r = await raw([upgradeRequest(`/api/v1/namespaces/${NS}/configmaps`) + attack.bytes]);
    expect(statuses(r.text), r.text).toEqual([403]);
    expect(r.text).toContain(`configmaps is forbidden: User \\"system:serviceaccount:${NS}:intruder\\" cannot list resource \\"configmaps\\"`);
    expect(r.closed).toBe(true);
    // And without any credential: 401, closed.
    const anonymous = await raw([upgradeRequest('/api/v1', '') + attack.bytes]);
    expect(statuses(anonymous.text), anonymous.text).toEqual([401]);
    expect(anonymous.closed).toBe(true);
    await expectNotCreated(attack.name);
  });

  it('a request pipelined after an ordinary one is a request of its own: authenticated, authorized and stripped of X-Remote-*', async () => {
    const attack = smuggledCreate();
    const first = `GET /api/v1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${saToken}\r\n\r\n`;
    const withToken = attack.bytes.replace('Host: 127.0.0.1\r\n', `Host: 127.0.0.1\r\nAuthorization: Bearer ${saToken}\r\nConnection: close\r\n`);
    const r = await raw([first + withToken]);
    expect(statuses(r.text), r.text).toEqual([200, 403]);
    const anonymous = await raw([first + attack.bytes.replace('Host: 127.0.0.1\r\n', 'Host: 127.0.0.1\r\nConnection: close\r\n')]);
    expect(statuses(anonymous.text), anonymous.text).toEqual([200, 401]);
    await expectNotCreated(attack.name);
  });
});

describe('upgrades that the backend accepts', () => {
  const EXEC = '/apis/wardle.test/v1/namespaces/default/flunders/echo/exec';

  it('pass bytes both ways after the 101, bytes the client sent before it included', async () => {
    const r = await raw([upgradeRequest(EXEC, '') + 'early;', 200, 'late'], { admin: true, waitMs: 500 });
    expect(statuses(r.text), r.text).toEqual([101]);
    expect(r.text.slice(r.text.indexOf('\r\n\r\n') + 4)).toBe('early;late');
    const seen = wardle.seen.filter((s) => s.path === EXEC).at(-1);
    expect(seen?.headers['x-remote-user']).toBe('kubernetes-admin');
  });

  it('a redirect answering an upgrade is refused with 502, as on the ordinary path', async () => {
    wardle.redirect = true;
    try {
      const r = await raw([upgradeRequest(EXEC, '') + 'early'], { admin: true });
      expect(statuses(r.text), r.text).toEqual([502]);
      expect(r.text).not.toContain('example.invalid');
      const body = JSON.parse(r.text.slice(r.text.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
      expect(body).toMatchObject({ kind: 'Status', reason: 'InternalError', code: 502, message: 'the backend attempted to redirect this request, which is not permitted' });
      expect(r.closed).toBe(true);
    } finally {
      wardle.redirect = false;
    }
  });
});
