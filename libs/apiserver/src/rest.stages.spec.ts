import { describe, expect, it } from 'vitest';
import { FieldError, isStatusError, type KubeObject } from '@kube/apimachinery';
import type { AdmissionPlugin, RequestContext, ResourceDefinition } from './resource.definition';
import { ResourceFieldManagers } from './field.managers';
import { runWriteStages, WRITE_STAGES, type Write, type WriteTarget } from './rest.stages';
import { statusSubresource } from './subresources/status.subresource';
import type { SubresourceStrategy } from './subresources/subresource.strategy';

/** A resource whose strategy and admission record the order they were called in. */
function target(log: string[], overrides: Partial<ResourceDefinition> = {}, admission: AdmissionPlugin[] = []): WriteTarget {
  const def: ResourceDefinition = {
    group: 'stages.example.com', version: 'v1', kind: 'Widget', plural: 'widgets', singular: 'widget', namespaced: true, tracksGeneration: true,
    subresources: { status: statusSubresource((obj) => (log.push('validate status'), (obj.status as { ok?: boolean }).ok === false ? [FieldError.invalid('status.ok', false, 'must be true')] : [])) },
    strategy: {
      default: (obj) => (log.push('default'), ((obj.spec as Record<string, unknown>).size ??= 1)),
      prepareForCreate: () => log.push('prepareForCreate'),
      prepareForUpdate: () => log.push('prepareForUpdate'),
      validate: (obj) => (log.push('validate'), (obj.spec as { size: number }).size < 0 ? [FieldError.invalid('spec.size', -1, 'must be positive')] : []),
    },
    hooks: { beforeCreate: async () => (log.push('beforeCreate'), async () => void log.push('undo')) },
    ...overrides,
  };
  return {
    def,
    gk: { group: def.group, kind: def.kind },
    admission,
    subresources: new Map<string, SubresourceStrategy>(Object.entries(def.subresources ?? {})),
    fields: new ResourceFieldManagers(def),
    forStorage: async (obj) => (log.push('forStorage'), { ...obj, apiVersion: 'example.com/v1beta1' }),
  };
}

const ctx = (): RequestContext => ({ user: { name: 'u', groups: [] }, namespace: 'ns', dryRun: false, warnings: [] });

function write(obj: KubeObject, more: Partial<Write> = {}): Write {
  return { operation: 'CREATE', ctx: ctx(), opts: { dryRun: false, fieldValidation: 'Warn' }, namespace: 'ns', subresource: '', sub: undefined, obj, old: undefined, startDeletion: false, applied: false, undo: undefined, ...more };
}

const recorder = (log: string[]): AdmissionPlugin => ({
  name: 'Recorder',
  admit: (a) => void log.push(`admit ${a.operation}${a.subresource ? `/${a.subresource}` : ''} size=${(a.object?.spec as { size?: number }).size}`),
  validate: (a) => void log.push(`validating admission ${a.operation}`),
});

describe('the write stages', () => {
  it('are kube\'s order: default, subresource scope, field manager, mutating admission, prepare, validate, validating admission, storage', () => {
    expect(WRITE_STAGES.map((s) => s.name)).toEqual(['default', 'subresource-scope', 'field-manager', 'mutating-admission', 'prepare', 'validate', 'validating-admission', 'storage']);
  });

  it('run a create in that order and leave the object to store', async () => {
    const log: string[] = [];
    const w = write({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { generateName: 'w-' }, spec: {}, status: { ok: true } });
    await runWriteStages(w, target(log, {}, [recorder(log)]));
    expect(log).toEqual(['default', 'admit CREATE size=1', 'prepareForCreate', 'validate', 'validating admission CREATE', 'beforeCreate', 'forStorage']);
    expect(w.obj).toMatchObject({ apiVersion: 'example.com/v1beta1', metadata: { namespace: 'ns', generation: 1 }, spec: { size: 1 } });
    expect(w.obj.metadata.name).toMatch(/^w-[a-z0-9]{5}$/);
    expect(w.obj.metadata.uid).toBeDefined();
    // The field-manager stage recorded who set which fields.
    expect(w.obj.metadata.managedFields).toEqual([expect.objectContaining({ operation: 'Update', fieldsType: 'FieldsV1' })]);
    // The status subresource owns status: a create never sets it.
    expect(w.obj).not.toHaveProperty('status');
    await w.undo?.();
    expect(log.at(-1)).toBe('undo');
  });

  it('stop at validation with 422 and every cause, before validating admission and side effects', async () => {
    const log: string[] = [];
    const w = write({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'Bad_Name' }, spec: { size: -1 } });
    const err = await runWriteStages(w, target(log, {}, [recorder(log)])).catch((e: unknown) => e);
    expect(isStatusError(err) && err.status).toMatchObject({ code: 422, reason: 'Invalid', details: { name: 'Bad_Name', kind: 'Widget' } });
    expect(isStatusError(err) && err.status.details?.causes?.map((c) => c.field)).toEqual(['metadata.name', 'spec.size']);
    expect(log).not.toContain('validating admission CREATE');
    expect(log).not.toContain('beforeCreate');
  });

  it('run a /status write with the subresource\'s strategy: only status changes, no defaults, no resource validation', async () => {
    const log: string[] = [];
    const old: KubeObject = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns', uid: 'u1', generation: 3, resourceVersion: '9', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { size: 2 }, status: { ok: true } };
    const t = target(log, {}, [recorder(log)]);
    const w = write({ ...structuredClone(old), spec: { size: 5 }, status: { ok: true, seen: 1 } }, { operation: 'UPDATE', old, subresource: 'status', sub: t.subresources.get('status') });
    await runWriteStages(w, t);
    // Admission already sees the write as /status scopes it: the spec the client sent is not part of it.
    expect(log).toEqual(['admit UPDATE/status size=2', 'validate status', 'validating admission UPDATE', 'forStorage']);
    expect(w.obj).toMatchObject({ spec: { size: 2 }, status: { ok: true, seen: 1 }, metadata: { generation: 3 } });
    expect(w.obj.metadata).not.toHaveProperty('resourceVersion');
    const bad = write({ ...structuredClone(old), status: { ok: false } }, { operation: 'UPDATE', old, subresource: 'status', sub: t.subresources.get('status') });
    await expect(runWriteStages(bad, t)).rejects.toMatchObject({ status: { code: 422, message: expect.stringContaining('status.ok: Invalid value: false: must be true') } });
  });

  it('keep status as stored on an update of the resource itself, and start graceful deletion when asked', async () => {
    const log: string[] = [];
    const old: KubeObject = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns', uid: 'u1', generation: 1, finalizers: ['x'] }, spec: { size: 2 }, status: { ok: true } };
    const w = write({ ...structuredClone(old), spec: { size: 2 }, status: { ok: false } }, { operation: 'UPDATE', old, startDeletion: true });
    await runWriteStages(w, target(log));
    expect(w.obj.status).toEqual({ ok: true });
    expect(w.obj.metadata.deletionTimestamp).toBeDefined();
    expect(w.obj.metadata.generation).toBe(2);
    expect(log).toEqual(['default', 'prepareForUpdate', 'validate', 'forStorage']);
  });

  it('leave metadata.generation to the client where the resource does not track it (kube\'s ConfigMaps, Secrets…)', async () => {
    const log: string[] = [];
    const t = target(log, { tracksGeneration: false });
    const created = write({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: {} });
    await runWriteStages(created, t);
    expect(created.obj.metadata).not.toHaveProperty('generation');
    // kube's BeforeCreate keeps what the client sent; BeforeUpdate keeps what is stored, whatever the spec does.
    const sent = write({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', generation: 7 }, spec: {} });
    await runWriteStages(sent, t);
    expect(sent.obj.metadata.generation).toBe(7);
    const old: KubeObject = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns', uid: 'u1' }, spec: { size: 2 } };
    const updated = write({ ...structuredClone(old), metadata: { ...old.metadata, generation: 4 }, spec: { size: 3 } }, { operation: 'UPDATE', old });
    await runWriteStages(updated, t);
    expect(updated.obj.metadata).not.toHaveProperty('generation');
    // Deletion moves only a generation above 0 (kube's markAsDeleting).
    const deleting = write({ ...structuredClone(old), metadata: { ...old.metadata, finalizers: ['x'] } }, { operation: 'UPDATE', old: { ...old, metadata: { ...old.metadata, finalizers: ['x'] } }, startDeletion: true });
    await runWriteStages(deleting, t);
    expect(deleting.obj.metadata.deletionTimestamp).toBeDefined();
    expect(deleting.obj.metadata).not.toHaveProperty('generation');
  });

  it('take a stage list that a later feature extends', async () => {
    const log: string[] = [];
    const at = WRITE_STAGES.findIndex((s) => s.name === 'mutating-admission') + 1;
    const stages = [...WRITE_STAGES.slice(0, at), { name: 'webhook', run: () => void log.push('webhook') }, ...WRITE_STAGES.slice(at)];
    await runWriteStages(write({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: {} }), target(log, {}, [recorder(log)]), stages);
    expect(log.slice(0, 4)).toEqual(['default', 'admit CREATE size=1', 'webhook', 'prepareForCreate']);
  });

  it('skip the resource\'s side effects on a dry run', async () => {
    const log: string[] = [];
    const w = write({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: {} }, { opts: { dryRun: true, fieldValidation: 'Warn' } });
    await runWriteStages(w, target(log));
    expect(log).not.toContain('beforeCreate');
    expect(w.undo).toBeUndefined();
  });
});
