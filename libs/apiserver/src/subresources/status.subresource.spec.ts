import { describe, expect, it } from 'vitest';
import { FieldError, type KubeObject } from '@kube/apimachinery';
import { namespaceFinalizeSubresource } from './finalize.subresource';
import { statusSubresource } from './status.subresource';

const stored: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: '1' } }, spec: { image: 'old' }, status: { phase: 'Pending' } };
const ctx = { user: { name: 'u', groups: [] }, dryRun: false, warnings: [] };

describe('statusSubresource', () => {
  it('takes only status from a write through /status', () => {
    const incoming: KubeObject = { ...stored, metadata: { name: 'p', labels: { b: '2' } }, spec: { image: 'new' }, status: { phase: 'Running' } };
    expect(statusSubresource().prepareForUpdate(incoming, stored)).toEqual({ ...stored, status: { phase: 'Running' } });
    expect(statusSubresource().prepareForUpdate({ ...incoming, status: undefined }, stored)).not.toHaveProperty('status');
  });

  it('keeps status away from writes of the resource itself', () => {
    const sub = statusSubresource();
    const created: KubeObject = { ...structuredClone(stored) };
    sub.prepareResourceForCreate?.(created);
    expect(created).not.toHaveProperty('status');
    const updated: KubeObject = { ...structuredClone(stored), status: { phase: 'Hacked' } };
    sub.prepareResourceForUpdate?.(updated, stored);
    expect(updated.status).toEqual({ phase: 'Pending' });
    const noStatus: KubeObject = { ...structuredClone(stored), status: { phase: 'Hacked' } };
    sub.prepareResourceForUpdate?.(noStatus, { ...stored, status: undefined });
    expect(noStatus).not.toHaveProperty('status');
  });

  it('validates with the resource\'s status validation, and is listed in discovery', () => {
    const sub = statusSubresource((obj) => ((obj.status as { phase?: string }).phase === 'Bad' ? [FieldError.invalid('status.phase', 'Bad', 'no')] : []));
    expect(sub.validateUpdate?.({ ...stored, status: { phase: 'Bad' } }, stored, ctx, undefined).map(String)).toEqual(['status.phase: Invalid value: "Bad": no']);
    expect(sub.validateUpdate?.(stored, stored, ctx, undefined)).toEqual([]);
    expect(sub).toMatchObject({ discovered: true, verbs: ['get', 'patch', 'update'] });
  });
});

describe('namespaceFinalizeSubresource', () => {
  it('takes only spec.finalizers from a write through /finalize', () => {
    const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' }, spec: { finalizers: ['kubernetes'], other: 1 }, status: { phase: 'Terminating' } };
    const incoming: KubeObject = { ...ns, metadata: { name: 'n', labels: { x: 'y' } }, spec: { finalizers: [] }, status: { phase: 'Active' } };
    expect(namespaceFinalizeSubresource.prepareForUpdate(incoming, ns)).toEqual({ ...ns, spec: { finalizers: [], other: 1 } });
    expect(namespaceFinalizeSubresource.discovered).toBe(false);
  });
});
