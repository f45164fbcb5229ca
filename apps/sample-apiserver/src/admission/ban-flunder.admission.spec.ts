import type { ListOptions } from '@kube/storage';
import { describe, expect, it } from 'vitest';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import type { AdmissionAttributes, AdmissionOperation, RequestContext, ResourceDefinition } from '@kube/apiserver';
import { fischersResource, flundersResource } from '../resources';
import { BanFlunderAdmission, type FischerSource } from './ban-flunder.admission';

const ctx: RequestContext = { user: { name: 'tester', groups: [] }, dryRun: false, warnings: [] };

function fischers(...lists: string[][]): FischerSource & { calls: number; options: ListOptions[] } {
  const source = {
    calls: 0,
    options: [] as ListOptions[],
    list: async (_namespace: undefined, opts: ListOptions) => {
      source.calls++;
      source.options.push(opts);
      return { items: lists.map((disallowedFlunders, i) => ({ metadata: { name: `fischer-${i}` }, disallowedFlunders })), resourceVersion: '1' };
    },
  };
  return source;
}

function attrs(name: string, operation: AdmissionOperation = 'CREATE', resource: ResourceDefinition = flundersResource, subresource = ''): AdmissionAttributes {
  const object: KubeObject = { metadata: { name, namespace: 'default' } };
  return { operation, resource, subresource, namespace: 'default', name, object, ctx };
}

async function refusal(plugin: BanFlunderAdmission, a: AdmissionAttributes): Promise<unknown> {
  try {
    await plugin.admit(a);
    return undefined;
  } catch (err) {
    return err;
  }
}

describe('BanFlunder admission', () => {
  it('forbids creating a Flunder whose name a Fischer disallows, with kube message', async () => {
    const err = await refusal(new BanFlunderAdmission(fischers(['x'], ['banned', 'y'])), attrs('banned'));
    expect(isStatusError(err)).toBe(true);
    if (!isStatusError(err)) return;
    expect(err.code).toBe(403);
    expect(err.status).toMatchObject({
      reason: 'Forbidden',
      message: 'flunders.wardle.example.com "banned" is forbidden: this name may not be used, please change the resource name',
      details: { name: 'banned', group: 'wardle.example.com', kind: 'flunders' },
    });
  });

  it('admits names no Fischer lists, and any name without Fischers', async () => {
    await expect(new BanFlunderAdmission(fischers(['banned'])).admit(attrs('fine'))).resolves.toBeUndefined();
    await expect(new BanFlunderAdmission(fischers()).admit(attrs('banned'))).resolves.toBeUndefined();
  });

  it('reads the Fischers from the cache, as kube\'s lister (resourceVersion "0"): no create pays an etcd round trip', async () => {
    const source = fischers(['x']);
    await new BanFlunderAdmission(source).admit(attrs('fine'));
    expect(source.options).toEqual([{ resourceVersion: '0' }]);
  });

  it('looks only at Flunder creates, not updates, status writes or other kinds', async () => {
    const source = fischers(['banned']);
    const plugin = new BanFlunderAdmission(source);
    await plugin.admit(attrs('banned', 'UPDATE'));
    await plugin.admit(attrs('banned', 'DELETE'));
    await plugin.admit(attrs('banned', 'CREATE', flundersResource, 'status'));
    await plugin.admit(attrs('banned', 'CREATE', fischersResource));
    expect(source.calls).toBe(0);
  });

  it('is a mutating (admit) plugin named BanFlunder, as kube registers it', () => {
    const plugin = new BanFlunderAdmission(fischers());
    expect(plugin.name).toBe('BanFlunder');
    expect('validate' in plugin).toBe(false);
  });
});
