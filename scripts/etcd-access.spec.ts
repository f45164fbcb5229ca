import { describe, expect, it } from 'vitest';
import { storagePrefixOf } from '../libs/apiserver/src/source.storage';
import { describeRange, type EtcdGrant, REGISTRY_ROOT, resourcePrefix } from '@kube/storage';
import { apiServicesResource } from '../apps/aggregator/src/apiservice/apiservices.resource';
import { buildCoreResources } from '../apps/core-api/src/core.resources';
import { customResourceDefinitionsResource } from '../apps/extensions/src/crd/customresourcedefinitions.resource';
import { aggregatedEtcdPrefix as sdkEtcdPrefix } from '../libs/apiserver/src/aggregated/aggregated-api-server.module';
import { WARDLE_API_SERVICE } from '../apps/sample-apiserver/src/sample-apiserver.module';
import { wardleResources } from '../apps/sample-apiserver/src/resources';
import { aggregatedEtcdClients, aggregatedEtcdPrefix, etcdAccess, etcdUser } from './etcd-access';
import { LOCAL_AGGREGATED_SERVERS } from './local-aggregated-servers';

type Access = ReturnType<typeof etcdAccess>;

const grantsOf = (access: Access, component: string): readonly EtcdGrant[] => access.find((a) => a.user === etcdUser(component))?.grants ?? [];

/** Whether `user` may write `key` (some readwrite grant covers it). */
function writes(access: Access, component: string, key: string): boolean {
  return grantsOf(access, component).some((g) => g.permission === 'readwrite' && (g.rangeEnd === '' ? key === g.key : key >= g.key && key < g.rangeEnd));
}

const access = etcdAccess(aggregatedEtcdClients(LOCAL_AGGREGATED_SERVERS));
const WRITERS = ['core-api', 'extensions', 'aggregator', ...LOCAL_AGGREGATED_SERVERS.map((s) => s.component)];
const writersOf = (key: string): string[] => WRITERS.filter((w) => writes(access, w, key));

describe('the etcd access table (scripts/etcd-access.ts) against the servers it is for', () => {
  it("lets core-api, and only core-api, write every resource it stores (a new one fails here until the table has it)", () => {
    const stored = buildCoreResources({} as never, {} as never).filter((d) => !d.source && !d.createOnly);
    expect(stored.length).toBeGreaterThan(40);
    for (const def of stored) {
      const key = `${resourcePrefix(storagePrefixOf(def))}ns/name`;
      // ResourceQuota status is charged by extensions too (quota admission on custom resources).
      expect(writersOf(key), key).toEqual(def.plural === 'resourcequotas' ? ['core-api', 'extensions'] : ['core-api']);
    }
    expect(writersOf('/registry/allocations/serviceips/10.96.0.1')).toEqual(['core-api']);
  });

  it('lets the aggregator alone write APIServices and its leader-election key', () => {
    expect(writersOf(`${resourcePrefix(storagePrefixOf(apiServicesResource))}v1.`)).toEqual(['aggregator']);
    expect(writersOf('/registry/leader-election/kube-aggregator')).toEqual(['aggregator']);
  });

  it('lets extensions alone write CRDs and the custom resources of any group nobody else keeps', () => {
    expect(writersOf(`${resourcePrefix(storagePrefixOf(customResourceDefinitionsResource))}crontabs.stable.example.com`)).toEqual(['extensions']);
    for (const group of ['stable.example.com', 'a.b', 'zzz.example.org', 'apps.example.com']) expect(writersOf(`/registry/${group}/things/ns/t`), group).toEqual(['extensions']);
  });

  it('confines each aggregated server to the prefix the SDK confines its storage to, where its resources are', () => {
    for (const server of aggregatedEtcdClients(LOCAL_AGGREGATED_SERVERS)) {
      const grants = grantsOf(access, server.component);
      expect(grants.map((g) => `${g.permission} ${describeRange(g.key, g.rangeEnd)}`), server.component).toEqual([`readwrite ${aggregatedEtcdPrefix(server.group)}*`]);
      expect(aggregatedEtcdPrefix(server.group)).toBe(sdkEtcdPrefix({ group: server.group }));
      expect(writersOf(`${aggregatedEtcdPrefix(server.group)}x/ns/name`)).toEqual([server.component]);
    }
    for (const def of wardleResources()) expect(resourcePrefix(storagePrefixOf(def)).startsWith(sdkEtcdPrefix(WARDLE_API_SERVICE))).toBe(true);
  });

  it('gives the control plane read on all of /registry/ (their watch caches) and aggregated servers nothing of it', () => {
    for (const component of ['core-api', 'extensions', 'aggregator']) {
      expect(grantsOf(access, component)).toContainEqual({ permission: 'read', key: REGISTRY_ROOT, rangeEnd: '/registry0' });
      expect(grantsOf(access, component)).toContainEqual({ permission: 'readwrite', key: 'compact_rev_key', rangeEnd: '' });
    }
    for (const server of LOCAL_AGGREGATED_SERVERS) expect(grantsOf(access, server.component).some((g) => g.key === REGISTRY_ROOT || g.key === 'compact_rev_key')).toBe(false);
  });

  it('refuses two aggregated servers keeping the same group', () => {
    expect(() => etcdAccess([{ component: 'a', group: 'x.io' }, { component: 'b', group: 'x.io' }])).toThrow('two aggregated servers keep /registry/x.io/');
  });
});
