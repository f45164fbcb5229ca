import { describe, expect, it } from 'vitest';
import { DiscoveryDocuments } from './discovery';
import type { ResourceDefinition } from './resource.definition';

const def = (group: string, version: string, kind: string): ResourceDefinition => ({ group, version, kind, plural: `${kind.toLowerCase()}s`, singular: kind.toLowerCase(), namespaced: true });
const json = (docs: DiscoveryDocuments, path: string): Record<string, unknown> | undefined => {
  const doc = docs.get(path);
  return doc && (JSON.parse(doc.body.toString()) as Record<string, unknown>);
};

describe('DiscoveryDocuments', () => {
  it('serves the documents of the latest resource set, including those asked for before it changed', () => {
    const docs = new DiscoveryDocuments('10.0.0.1:6443');
    docs.rebuild([def('', 'v1', 'ConfigMap'), def('a.example.com', 'v1', 'Apple')]);
    const before = docs.get('/apis');
    expect((json(docs, '/apis')?.groups as Array<{ name: string }>).map((g) => g.name)).toEqual(['a.example.com']);
    expect(docs.get('/apis')).toBe(before);

    docs.rebuild([def('', 'v1', 'ConfigMap'), def('a.example.com', 'v1', 'Apple'), def('b.example.com', 'v1beta1', 'Banana')]);
    expect((json(docs, '/apis')?.groups as Array<{ name: string }>).map((g) => g.name)).toEqual(['a.example.com', 'b.example.com']);
    expect(docs.get('/apis')?.etag).not.toBe(before?.etag);
    expect(json(docs, '/apis/b.example.com/v1beta1')).toMatchObject({ kind: 'APIResourceList', groupVersion: 'b.example.com/v1beta1', resources: [{ name: 'bananas', kind: 'Banana' }] });
    expect(json(docs, '/apis/b.example.com')).toMatchObject({ kind: 'APIGroup', preferredVersion: { groupVersion: 'b.example.com/v1beta1' } });
    const aggregated = JSON.parse(docs.aggregated('/apis', 'v2')!.body.toString()) as { items: Array<{ metadata: { name: string } }> };
    expect(aggregated.items.map((i) => i.metadata.name)).toEqual(['a.example.com', 'b.example.com']);
    expect(docs.aggregated('/apis', 'v2')?.contentType).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(json(docs, '/api')).toMatchObject({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ serverAddress: '10.0.0.1:6443' }] });

    docs.rebuild([def('', 'v1', 'ConfigMap')]);
    expect(docs.get('/apis/b.example.com/v1beta1')).toBeUndefined();
    expect(docs.get('/apis/a.example.com')).toBeUndefined();
    expect(json(docs, '/apis')?.groups).toEqual([]);
    expect(docs.groups).toEqual([]);
  });

  it('names the group and version of a subresource kind only when they are not the resource own (kube: pods/exec has none, pods/eviction policy/v1)', () => {
    const docs = new DiscoveryDocuments('10.0.0.1:6443');
    const sub = (group: string, version: string, kind: string) => ({ verbs: ['create'] as const, discovered: true, prepareForUpdate: (o: never) => o, creater: { kind: { group, version, kind }, create: (o: never) => o } });
    docs.rebuild([{ ...def('', 'v1', 'Pod'), subresources: { exec: sub('', 'v1', 'PodExecOptions'), eviction: sub('policy', 'v1', 'Eviction') } }]);
    const resources = json(docs, '/api/v1')?.resources as Array<Record<string, unknown>>;
    expect(resources.find((r) => r.name === 'pods/exec')).toEqual({ name: 'pods/exec', singularName: '', namespaced: true, kind: 'PodExecOptions', verbs: ['create'] });
    expect(resources.find((r) => r.name === 'pods/eviction')).toMatchObject({ group: 'policy', version: 'v1', kind: 'Eviction' });
  });
});
