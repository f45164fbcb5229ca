import { describe, expect, it } from 'vitest';
import { parseRequestInfo } from './request-info';

describe('parseRequestInfo', () => {
  it('parses a namespaced object with subresource in a named group', () => {
    const i = parseRequestInfo('PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l1/status', false);
    expect(i).toMatchObject({ isResourceRequest: true, verb: 'update', group: 'coordination.k8s.io', version: 'v1', namespace: 'kube-system', resource: 'leases', name: 'l1', subresource: 'status' });
  });

  it('treats GET on a collection as list, and ?watch or /watch/ as watch', () => {
    expect(parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps', false).verb).toBe('list');
    expect(parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps', true).verb).toBe('watch');
    const legacy = parseRequestInfo('GET', '/api/v1/watch/namespaces/default/configmaps/x', false);
    expect(legacy).toMatchObject({ verb: 'watch', namespace: 'default', resource: 'configmaps', name: 'x' });
  });

  it('treats /namespaces/<name> as the namespace object', () => {
    expect(parseRequestInfo('GET', '/api/v1/namespaces/foo', false)).toMatchObject({ resource: 'namespaces', name: 'foo', namespace: 'foo', verb: 'get' });
    expect(parseRequestInfo('PUT', '/api/v1/namespaces/foo/finalize', false)).toMatchObject({ resource: 'namespaces', name: 'foo', subresource: 'finalize' });
    expect(parseRequestInfo('DELETE', '/api/v1/namespaces', false).verb).toBe('deletecollection');
  });

  it('marks discovery paths as non-resource requests', () => {
    expect(parseRequestInfo('GET', '/api/v1', false).isResourceRequest).toBe(false);
    expect(parseRequestInfo('GET', '/apis/apps', false).isResourceRequest).toBe(false);
    expect(parseRequestInfo('GET', '/healthz', false).isResourceRequest).toBe(false);
  });

  it('ignores empty segments and percent-decodes the others (a malformed escape stays as sent)', () => {
    expect(parseRequestInfo('GET', '//api//v1/namespaces/a%20b/configmaps/c%2Fd/', false)).toMatchObject({ isResourceRequest: true, namespace: 'a b', resource: 'configmaps', name: 'c/d', verb: 'get' });
    expect(parseRequestInfo('GET', '/apis/g/v1/namespaces/ns/things/x%zz/status', false)).toMatchObject({ group: 'g', version: 'v1', namespace: 'ns', resource: 'things', name: 'x%zz', subresource: 'status' });
    expect(parseRequestInfo('GET', '/api/v1/watch/namespaces/ns', false)).toMatchObject({ namespace: 'ns', resource: 'namespaces', name: 'ns', verb: 'watch' });
    expect(parseRequestInfo('GET', '/apis/g', false)).toMatchObject({ isResourceRequest: false, group: '', apiPrefix: 'apis' });
  });
});
