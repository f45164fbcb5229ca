import { describe, expect, it } from 'vitest';
import { namespacesResource, type Namespace } from './namespaces.resource';
import { cells, create, messages, meta, update } from './strategy.testing';

describe('namespaces', () => {
  it('is cluster-scoped with a status subresource, the ns short name and label names', () => {
    expect(namespacesResource).toMatchObject({ kind: 'Namespace', namespaced: false, shortNames: ['ns'], subresources: { status: expect.objectContaining({ discovered: true }), finalize: expect.objectContaining({ discovered: false }) }, nameValidation: 'label' });
  });

  it('starts Active with the kubernetes finalizer and the metadata.name label', () => {
    const ns: Namespace = { metadata: meta('team-a'), status: { phase: 'Terminating' } };
    expect(create(namespacesResource, ns)).toEqual([]);
    expect(ns.spec?.finalizers).toEqual(['kubernetes']);
    expect(ns.status).toEqual({ phase: 'Active' });
    expect(ns.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a' });
  });

  it('keeps client finalizers and adds kubernetes once', () => {
    const ns: Namespace = { metadata: meta('a'), spec: { finalizers: ['example.com/cleanup', 'kubernetes'] } };
    create(namespacesResource, ns);
    expect(ns.spec?.finalizers).toEqual(['example.com/cleanup', 'kubernetes']);
  });

  it('rejects finalizers that are neither standard nor qualified', () => {
    const ns: Namespace = { metadata: meta('a'), spec: { finalizers: ['cleanup'] } };
    expect(messages(create(namespacesResource, ns))).toEqual([
      'spec.finalizers: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it('ignores spec.finalizers and status on a plain update', () => {
    const old: Namespace = { metadata: meta('a'), spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } };
    const next: Namespace = { metadata: { ...meta('a'), labels: { team: 'x' } }, spec: { finalizers: [] }, status: { phase: 'Terminating' } };
    expect(update(namespacesResource, next, old)).toEqual([]);
    expect(next.spec?.finalizers).toEqual(['kubernetes']);
    expect(next.status).toEqual({ phase: 'Active' });
    expect(next.metadata.labels).toEqual({ team: 'x', 'kubernetes.io/metadata.name': 'a' });
  });

  it('prints the phase and selects on status.phase', () => {
    const ns: Namespace = { metadata: meta('a'), status: { phase: 'Terminating' } };
    expect(cells(namespacesResource, ns)).toEqual({ Status: 'Terminating' });
    expect(namespacesResource.strategy?.fields?.(ns)).toMatchObject({ 'status.phase': 'Terminating' });
  });
});
