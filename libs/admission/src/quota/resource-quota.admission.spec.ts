import { describe, expect, it } from 'vitest';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import type { StorageInterface, UpdateFunc } from '@kube/storage';
import type { AdmissionAttributes } from '../admission.types';
import { ResourceQuotaAdmission } from './resource-quota.admission';
import type { ResourceQuota } from './resource-quota.types';

/** The quota store as the plugin uses it: a list and a compare-and-swap, kept in memory. */
function quotaStore(quotas: ResourceQuota[]): StorageInterface & { writes: number } {
  const store = {
    writes: 0,
    list: async () => ({ items: quotas.map((q) => structuredClone(q)), resourceVersion: '1' }),
    guaranteedUpdate: async (_ns: string | undefined, name: string, tryUpdate: UpdateFunc) => {
      const i = quotas.findIndex((q) => q.metadata.name === name);
      const next = (await tryUpdate(structuredClone(quotas[i]))) as ResourceQuota;
      if (JSON.stringify(next) !== JSON.stringify(quotas[i])) {
        quotas[i] = next;
        store.writes++;
      }
      return { object: next, created: false, changed: true };
    },
  };
  return store as unknown as StorageInterface & { writes: number };
}

const quota = (name: string, hard: Record<string, string>, used?: Record<string, string>, spec: Record<string, unknown> = {}): ResourceQuota => ({
  metadata: { name, namespace: 'ns' },
  spec: { hard, ...spec },
  status: { hard, ...(used ? { used } : {}) },
});

function create(resource: { group: string; plural: string }, object: KubeObject, dryRun = false): AdmissionAttributes {
  return { operation: 'CREATE', resource: { ...resource, version: 'v1', kind: 'X', namespaced: true }, subresource: '', namespace: 'ns', name: object.metadata.name as string, object, ctx: { user: { name: 'u', groups: [] }, dryRun, warnings: [] } };
}

const cm = (name: string): AdmissionAttributes => create({ group: '', plural: 'configmaps' }, { metadata: { name, namespace: 'ns' } });

async function refusal(p: Promise<void>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err)) return `${err.code} ${err.message}`;
    throw err;
  }
  return 'admitted';
}

describe('ResourceQuota admission', () => {
  it('charges the quota and refuses past the limit with kube\'s message', async () => {
    const quotas = [quota('q', { configmaps: '2', pods: '5' }, { configmaps: '1', pods: '0' })];
    const plugin = new ResourceQuotaAdmission(quotaStore(quotas));
    await plugin.validate(cm('a'));
    expect(quotas[0].status?.used).toEqual({ configmaps: '2', pods: '0' });
    expect(await refusal(plugin.validate(cm('b')))).toBe('403 configmaps "b" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=2, limited: configmaps=2');
  });

  it('refuses while the controller has not observed usage yet', async () => {
    const plugin = new ResourceQuotaAdmission(quotaStore([quota('q', { configmaps: '2' })]));
    expect(await refusal(plugin.validate(cm('a')))).toBe('403 configmaps "a" is forbidden: status unknown for quota: q, resources: configmaps');
  });

  it('checks a dry run without charging it; ignores untracked resources and scoped quotas for non-pods', async () => {
    const quotas = [quota('q', { configmaps: '2' }, { configmaps: '0' }), quota('scoped', { pods: '1' }, { pods: '1' }, { scopes: ['BestEffort'] })];
    const store = quotaStore(quotas);
    const plugin = new ResourceQuotaAdmission(store);
    await plugin.validate(create({ group: '', plural: 'configmaps' }, { metadata: { name: 'a' } }, true));
    await plugin.validate(create({ group: '', plural: 'secrets' }, { metadata: { name: 's' } }));
    expect(store.writes).toBe(0);
    const burstable = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', resources: { requests: { cpu: '1' } } }] } };
    await plugin.validate(create({ group: '', plural: 'pods' }, burstable));
    const bestEffort = { metadata: { name: 'p2' }, spec: { containers: [{ name: 'c' }] } };
    expect(await refusal(plugin.validate(create({ group: '', plural: 'pods' }, bestEffort)))).toContain('exceeded quota: scoped, requested: pods=1, used: pods=1, limited: pods=1');
  });

  it('re-checks against the stored quota when charging (a concurrent charge won)', async () => {
    const quotas = [quota('q', { 'count/widgets.example.com': '1' }, { 'count/widgets.example.com': '0' })];
    const store = quotaStore(quotas);
    // Another writer charges between the plugin's cached read and its compare-and-swap.
    const list = store.list.bind(store);
    store.list = async (...args) => {
      const result = await list(...args);
      quotas[0] = quota('q', { 'count/widgets.example.com': '1' }, { 'count/widgets.example.com': '1' });
      return result;
    };
    const plugin = new ResourceQuotaAdmission(store);
    expect(await refusal(plugin.validate(create({ group: 'example.com', plural: 'widgets' }, { metadata: { name: 'w' } })))).toBe(
      '403 widgets.example.com "w" is forbidden: exceeded quota: q, requested: count/widgets.example.com=1, used: count/widgets.example.com=1, limited: count/widgets.example.com=1',
    );
  });

  it('charges only the growth of an update', async () => {
    const quotas = [quota('q', { 'services.loadbalancers': '1' }, { 'services.loadbalancers': '0' })];
    const plugin = new ResourceQuotaAdmission(quotaStore(quotas));
    const attrs = create({ group: '', plural: 'services' }, { metadata: { name: 's' }, spec: { type: 'LoadBalancer', ports: [] } });
    await plugin.validate({ ...attrs, operation: 'UPDATE', oldObject: { metadata: { name: 's' }, spec: { type: 'ClusterIP' } } });
    expect(quotas[0].status?.used).toEqual({ 'services.loadbalancers': '1' });
    await plugin.validate({ ...attrs, operation: 'UPDATE', oldObject: attrs.object });
    expect(quotas[0].status?.used).toEqual({ 'services.loadbalancers': '1' });
  });
});
