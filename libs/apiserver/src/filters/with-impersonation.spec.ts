import { afterEach, describe, expect, it } from 'vitest';
import type { UserInfo } from '../resource.definition';
import type { Filter } from './api-request';
import { serveFilters, type TestServer } from './filter.testing';
import { withImpersonation } from './with-impersonation';

/** Stands in for authentication: the caller is `user`. */
const as =
  (user: UserInfo): Filter =>
  (next) =>
  (r) => {
    r.user = user;
    return next(r);
  };

const admin: UserInfo = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };
const alice: UserInfo = { name: 'alice', groups: ['dev', 'system:authenticated'] };

describe('withImpersonation', () => {
  let server: TestServer;
  afterEach(() => server.close());

  it('lets system:masters act as another user, and removes the Impersonate-* headers', async () => {
    server = await serveFilters([as(admin), withImpersonation()]);
    const r = await server.request('GET', '/api/v1/pods', { 'Impersonate-User': 'bob', 'Impersonate-Group': ['qa', 'ops'], 'Impersonate-Uid': 'u-1', 'Impersonate-Extra-Scopes%2Fread': ['a', 'b'] });
    const body = r.json<{ user: UserInfo; headers: Record<string, string> }>();
    expect(body.user).toEqual({ name: 'bob', uid: 'u-1', groups: ['qa', 'ops', 'system:authenticated'], extra: { 'scopes/read': ['a', 'b'] } });
    expect(Object.keys(body.headers).filter((h) => h.startsWith('impersonate-'))).toEqual([]);
  });

  it('takes each header line as one value, commas and all, as kube does (test-cmd: --as-group=,,,chameleon)', async () => {
    server = await serveFilters([as(admin), withImpersonation()]);
    const r = await server.request('GET', '/api/v1/pods', { 'Impersonate-User': 'user1', 'Impersonate-Group': ['group2', 'group1', ',,,chameleon', 'a, b'], 'Impersonate-Extra-Scopes': ['x,y', 'z'] });
    expect(r.json<{ user: UserInfo }>().user).toEqual({ name: 'user1', groups: ['group2', 'group1', ',,,chameleon', 'a, b', 'system:authenticated'], extra: { scopes: ['x,y', 'z'] } });
  });

  it('gives an impersonated service account its service account groups', async () => {
    server = await serveFilters([as(admin), withImpersonation()]);
    const r = await server.request('GET', '/api/v1/pods', { 'Impersonate-User': 'system:serviceaccount:kube-system:builder' });
    expect(r.json<{ user: UserInfo }>().user.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated']);
  });

  it('answers 403 as kube words it to anyone else', async () => {
    server = await serveFilters([as(alice), withImpersonation()]);
    const r = await server.request('GET', '/api/v1/pods', { 'Impersonate-User': 'bob' });
    expect(r.status).toBe(403);
    expect(r.json()).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      message: 'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
      details: { name: 'bob', kind: 'users' },
    });
  });

  it('leaves requests without impersonation untouched', async () => {
    server = await serveFilters([as(alice), withImpersonation()]);
    expect((await server.request('GET', '/api/v1/pods')).json()).toMatchObject({ user: alice });
  });
});
