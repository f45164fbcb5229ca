import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Authenticator } from '../authentication';
import { serveUpgrades } from '../https.listener';
import { RequestLog } from '../logging/request.log';
import { ApiRequest, type RequestHandler } from './api-request';
import { echo, MemoryAudit } from './filter.testing';
import { buildHandlerChain } from './handler-chain';

const TOKENS = new Map([
  ['admin-token', { name: 'admin', groups: ['system:masters', 'system:authenticated'] }],
  ['bob-token', { name: 'bob', groups: ['system:authenticated'] }],
]);

/** Sends raw HTTP/1.1 and resolves with everything the server wrote until it closed the connection. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let got = '';
    socket.on('data', (d: Buffer) => (got += d.toString()));
    socket.on('end', () => resolve(got));
    socket.on('error', reject);
  });
}

describe('buildHandlerChain', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? (server.closeAllConnections(), server.close(() => resolve())) : resolve())));

  async function start(handler: RequestHandler, audit = new MemoryAudit()): Promise<{ port: number; audit: MemoryAudit }> {
    const chain = buildHandlerChain(handler, {
      authenticator: new Authenticator({ tokens: TOKENS }),
      authorizer: { authorize: (a) => ({ decision: a.user.name === 'bob' ? 'Deny' : 'Allow', reason: '' }) },
      requestLog: new RequestLog({}, { log: () => undefined, warn: () => undefined, error: () => undefined }),
      audit,
      trustRequestId: () => true,
      shuttingDown: () => false,
    });
    server = createServer((req, res) => void chain(new ApiRequest(req, res)));
    serveUpgrades(server, chain);
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as AddressInfo).port, audit };
  }

  it('authorizes the impersonated user, and audits every answer including refused authentication', async () => {
    const { port, audit } = await start(echo);
    const url = `http://127.0.0.1:${port}`;
    expect((await fetch(`${url}/api/v1/pods`, { headers: { Authorization: 'Bearer admin-token' } })).status).toBe(200);
    const impersonating = await fetch(`${url}/api/v1/namespaces/dev/pods`, { headers: { Authorization: 'Bearer admin-token', 'Impersonate-User': 'bob' } });
    expect(impersonating.status).toBe(403);
    expect(((await impersonating.json()) as { message: string }).message).toBe('pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "dev"');
    expect((await fetch(`${url}/api/v1/pods`, { headers: { 'Audit-ID': 'nobody-1' } })).status).toBe(401);
    // kube's events: the authenticated user, whom it impersonated, and a refusal's Status.
    expect(audit.events.map((e) => [e.stage, e.user.username, e.impersonatedUser?.username, e.responseStatus?.code])).toEqual([
      ['ResponseComplete', 'admin', undefined, 200],
      ['ResponseComplete', 'admin', 'bob', 403],
      ['ResponseStarted', undefined, undefined, 401],
    ]);
    expect(audit.events[1].responseStatus).toMatchObject({ status: 'Failure', reason: 'Forbidden', message: 'pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "dev"' });
    expect(audit.events[2].auditID).toBe('nobody-1');
  });

  it('passes upgrade requests through the same chain: refused ones get a Status and a closed connection', async () => {
    const { port } = await start(async (r) => {
      if (!r.upgrade) return echo(r);
      // Accepting the upgrade: the handler owns the socket.
      r.upgrade.socket.end(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\nX-User: ${r.user?.name}\r\n\r\n`);
      return 101;
    });
    const upgrade = (token: string): string => `GET /api/v1/namespaces/dev/pods/p/exec HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: test\r\nAuthorization: Bearer ${token}\r\n\r\n`;
    const accepted = await raw(port, upgrade('admin-token'));
    expect(accepted).toMatch(/^HTTP\/1\.1 101 /);
    expect(accepted).toContain('X-User: admin');
    const unauthenticated = await raw(port, upgrade('wrong'));
    expect(unauthenticated).toMatch(/^HTTP\/1\.1 401 /);
    expect(unauthenticated).toMatch(/connection: close/i);
    expect(JSON.parse(unauthenticated.slice(unauthenticated.indexOf('\r\n\r\n') + 4))).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    const forbidden = await raw(port, upgrade('bob-token'));
    expect(forbidden).toMatch(/^HTTP\/1\.1 403 /);
    expect(forbidden).toContain('User \\"bob\\" cannot get resource \\"pods/exec\\" in API group \\"\\" in the namespace \\"dev\\"');
  });
});
