import { afterEach, describe, expect, it } from 'vitest';
import { alwaysAllowAuthorizer, type AuthorizationAttributes, type AuthorizationResult, type Authorizer } from '../authorization/authorizer';
import type { UserInfo } from '../resource.definition';
import type { Filter } from './api-request';
import { serveFilters, type TestServer } from './filter.testing';
import { withAuthorization } from './with-authorization';

const as =
  (name: string): Filter =>
  (next) =>
  (r) => {
    r.user = { name, groups: ['system:authenticated'] } satisfies UserInfo;
    return next(r);
  };

/** Answers `result` and remembers what it was asked. */
function recording(result: AuthorizationResult): Authorizer & { asked: AuthorizationAttributes[] } {
  const asked: AuthorizationAttributes[] = [];
  return { asked, authorize: (a) => (asked.push(a), result) };
}

describe('withAuthorization', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('asks the authorizer with kube\'s attributes and serves what it allows', async () => {
    const authorizer = recording({ decision: 'Allow', reason: '' });
    server = await serveFilters([as('alice'), withAuthorization(authorizer)]);
    expect((await server.request('GET', '/api/v1/namespaces/dev/pods/p/log')).status).toBe(200);
    expect(authorizer.asked).toEqual([
      { user: { name: 'alice', groups: ['system:authenticated'] }, verb: 'get', resourceRequest: true, path: '/api/v1/namespaces/dev/pods/p/log', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: 'log', namespace: 'dev', name: 'p' },
    ]);
  });

  it('answers anything but Allow with kube\'s 403 messages', async () => {
    server = await serveFilters([as('alice'), withAuthorization(recording({ decision: 'NoOpinion', reason: '' }))]);
    const list = await server.request('GET', '/api/v1/namespaces/dev/configmaps');
    expect(list.status).toBe(403);
    expect(list.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "dev"',
      reason: 'Forbidden',
      details: { kind: 'configmaps' },
      code: 403,
    });
    expect((await server.request('GET', '/api/v1/namespaces/dev/pods/p/log')).json()).toMatchObject({
      message: 'pods "p" is forbidden: User "alice" cannot get resource "pods/log" in API group "" in the namespace "dev"',
      details: { name: 'p', kind: 'pods' },
    });
    expect((await server.request('DELETE', '/apis/rbac.authorization.k8s.io/v1/clusterroles/admin')).json()).toMatchObject({
      message: 'clusterroles.rbac.authorization.k8s.io "admin" is forbidden: User "alice" cannot delete resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope',
      details: { name: 'admin', group: 'rbac.authorization.k8s.io', kind: 'clusterroles' },
    });
    expect((await server.request('GET', '/metrics')).json()).toMatchObject({ message: 'forbidden: User "alice" cannot get path "/metrics"', details: {}, code: 403 });
  });

  it('appends the authorizer\'s reason, as kube does, for Deny', async () => {
    server = await serveFilters([as('alice'), withAuthorization(recording({ decision: 'Deny', reason: 'no RBAC policy matched' }))]);
    const r = await server.request('POST', '/api/v1/namespaces/dev/configmaps');
    expect(r.json()).toMatchObject({ message: 'configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "dev": no RBAC policy matched' });
  });

  it('escapes HTML in the message and answers 500 when the authorizer fails', async () => {
    server = await serveFilters([as('<b>&'), withAuthorization({ authorize: () => ({ decision: 'Deny', reason: '' }) })]);
    expect((await server.request('GET', '/api/v1/pods')).json()).toMatchObject({ message: 'pods is forbidden: User "&lt;b&gt;&amp;" cannot list resource "pods" in API group "" at the cluster scope' });
    await server.close();
    server = await serveFilters([as('alice'), withAuthorization({ authorize: () => Promise.reject(new Error('webhook down')) })]);
    const failed = await server.request('GET', '/api/v1/pods');
    expect(failed.status).toBe(500);
    expect(failed.json()).toMatchObject({ reason: 'InternalError', message: 'Internal error occurred: webhook down' });
  });

  it('costs nothing with the default allow-all authorizer', () => {
    const next = async (): Promise<number> => 200;
    expect(withAuthorization()(next)).toBe(next);
    expect(withAuthorization(alwaysAllowAuthorizer)(next)).toBe(next);
  });
});
