import { describe, expect, it } from 'vitest';
import { Errors, type KubeList, type KubeObject } from '@kube/apimachinery';
import { ObjectCounter, type CoreApiReader } from './object-counter';
import { objectCountOf, objectCountsResource } from './resources/objectcounts.resource';

const meta = (name: string, namespace?: string): KubeObject => ({ metadata: { name, namespace } });
const list = (...items: KubeObject[]): KubeList => ({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '1' }, items });

const PLURALS: Record<string, string> = { Namespace: 'namespaces', ConfigMap: 'configmaps', Secret: 'secrets', ServiceAccount: 'serviceaccounts', Service: 'services', Pod: 'pods' };

/** The core API as a table of paths; unknown paths are a 404 like the real one. */
function fakeCoreApi(paths: Record<string, KubeList | KubeObject>): CoreApiReader & { asked: string[] } {
  const asked: string[] = [];
  const get = async <T>(path: string, how: string): Promise<T> => {
    asked.push(`${path} ${how}`);
    const found = paths[path];
    if (!found) throw Errors.notFound({ group: '', resource: 'namespaces' }, path.split('/')[4] ?? '');
    return found as T;
  };
  return {
    asked,
    list: async <T>(apiVersion: string, kind: string, namespace?: string, opts: { metadataOnly?: boolean } = {}): Promise<T> =>
      get(`/api/${apiVersion}${namespace ? `/namespaces/${namespace}` : ''}/${PLURALS[kind]}`, opts.metadataOnly ? 'metadata' : 'full'),
    read: async <T>(apiVersion: string, kind: string, name: string): Promise<T> => get(`/api/${apiVersion}/${PLURALS[kind]}/${name}`, 'full'),
  } as CoreApiReader & { asked: string[] };
}

const cluster = fakeCoreApi({
  '/api/v1/namespaces': list({ metadata: { name: 'default', labels: { team: 'core' }, creationTimestamp: '2026-01-01T00:00:00Z' } }, meta('empty')),
  '/api/v1/configmaps': list(meta('a', 'default'), meta('b', 'default'), meta('gone', 'deleted-meanwhile')),
  '/api/v1/secrets': list(meta('s', 'default')),
  '/api/v1/serviceaccounts': list(meta('default', 'default'), meta('default', 'empty')),
  '/api/v1/services': list(meta('kubernetes', 'default')),
  '/api/v1/pods': list(),
  '/api/v1/namespaces/default': { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
  '/api/v1/namespaces/default/configmaps': list(meta('a', 'default'), meta('b', 'default')),
  '/api/v1/namespaces/default/secrets': list(),
  '/api/v1/namespaces/default/serviceaccounts': list(meta('default', 'default')),
  '/api/v1/namespaces/default/services': list(),
  '/api/v1/namespaces/default/pods': list(),
});

describe('ObjectCounter', () => {
  it('counts every namespace from one metadata-only list per resource', async () => {
    const all = await new ObjectCounter(cluster).all();
    expect(all.map((n) => [n.namespace.name, n.counts])).toEqual([
      ['default', { configmaps: 2, secrets: 1, serviceaccounts: 1, services: 1, pods: 0 }],
      ['empty', { configmaps: 0, secrets: 0, serviceaccounts: 1, services: 0, pods: 0 }],
    ]);
    expect(cluster.asked.filter((a) => a.startsWith('/api/v1/configmaps'))).toEqual(['/api/v1/configmaps metadata']);
  });

  it('serves ObjectCounts: GET from the namespace, 404 for a missing one, columns and total', async () => {
    const resource = objectCountsResource(new ObjectCounter(cluster));
    const user = { name: 'alice', groups: [] };
    const one = await resource.source?.get({ name: 'default', user });
    expect(one).toMatchObject({ kind: 'ObjectCount', metadata: { name: 'default' }, counts: { configmaps: 2, serviceaccounts: 1 }, total: 3 });
    expect(await resource.source?.get({ name: 'missing', user })).toBeUndefined();
    const listed = objectCountOf((await new ObjectCounter(cluster).all())[0]);
    expect(listed.metadata).toEqual({ name: 'default', labels: { team: 'core' }, creationTimestamp: '2026-01-01T00:00:00Z' });
    expect((resource.tableColumns ?? []).map((c) => [c.name, c.cell(listed)])).toEqual([
      ['Configmaps', 2],
      ['Secrets', 1],
      ['Serviceaccounts', 1],
      ['Services', 1],
      ['Pods', 0],
      ['Total', 5],
    ]);
  });

  it('passes on other failures of the core API', async () => {
    const down = async (): Promise<never> => {
      throw Errors.serviceUnavailable('etcd is down');
    };
    const failing: CoreApiReader = { list: down, read: down };
    const resource = objectCountsResource(new ObjectCounter(failing));
    await expect(resource.source?.get({ name: 'default', user: { name: 'alice', groups: [] } })).rejects.toMatchObject({ status: { code: 503 } });
  });
});
