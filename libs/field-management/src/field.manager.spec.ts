import type { KubeObject, SchemaComponents } from '@kube/apimachinery';
import { isStatusError } from '@kube/apimachinery';
import { describe, expect, it } from 'vitest';
import { FieldManager, keepManagedFieldsTimestamps, LAST_APPLIED_ANNOTATION } from './field.manager';
import { makePath } from './fieldpath.path';
import { FieldSet } from './fieldpath.set';
import { typeFromOpenAPI } from './schema.openapi';

/** A ConfigMap-like kind with kube's ObjectMeta markers and a Service-like port list, in OpenAPI form. */
const components: SchemaComponents = {
  'meta.ObjectMeta': {
    type: 'object',
    properties: {
      name: { type: 'string' },
      namespace: { type: 'string' },
      uid: { type: 'string' },
      resourceVersion: { type: 'string' },
      creationTimestamp: { type: 'string', format: 'date-time' },
      generation: { type: 'integer' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      annotations: { type: 'object', additionalProperties: { type: 'string' } },
      finalizers: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' },
      managedFields: { type: 'array', items: { $ref: '#/components/schemas/meta.ManagedFieldsEntry' }, 'x-kubernetes-list-type': 'atomic' },
    },
  },
  'meta.ManagedFieldsEntry': {
    type: 'object',
    properties: { manager: { type: 'string' }, operation: { type: 'string' }, apiVersion: { type: 'string' }, time: { type: 'string', format: 'date-time' }, fieldsType: { type: 'string' }, fieldsV1: { type: 'object' }, subresource: { type: 'string' } },
  },
  Thing: {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: '#/components/schemas/meta.ObjectMeta' },
      data: { type: 'object', additionalProperties: { type: 'string' } },
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer' },
          ports: {
            type: 'array',
            items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' }, name: { type: 'string' } } },
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['port', 'protocol'],
            'x-kubernetes-patch-merge-key': 'port',
            'x-kubernetes-patch-strategy': 'merge',
          },
        },
      },
      status: { type: 'object', properties: { phase: { type: 'string' } } },
    },
  },
};

let clock = 0;
const now = (): string => new Date(Date.UTC(2024, 0, 1, 0, 0, clock++)).toISOString().replace('.000Z', 'Z');

function manager(subresource = '', resetFields?: FieldSet): FieldManager {
  return new FieldManager({ type: typeFromOpenAPI(components, 'Thing'), apiVersion: 'v1', kind: 'Thing', subresource, resetFields, now });
}

function thing(extra: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x', namespace: 'default', ...meta }, ...extra } as KubeObject;
}

function created(fm: FieldManager, obj: KubeObject, who = 'kubectl-create'): KubeObject {
  const out = fm.update(undefined, obj, who);
  out.metadata.uid = 'u1';
  return out;
}

function errorOf(fn: () => unknown): { code: number; reason?: string; message?: string; details?: unknown } {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return err.status as never;
    throw err;
  }
  throw new Error('expected an error');
}

describe('FieldManager: updates', () => {
  it('records an Update entry on create with fieldsV1 as kube writes it', () => {
    const obj = created(manager(), thing({ data: { key: 'v' } }, { labels: { app: 'a' } }));
    expect(obj.metadata.managedFields).toEqual([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: expect.any(String),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:key': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
      },
    ]);
    expect(JSON.stringify(obj.metadata.managedFields?.[0].fieldsV1)).toBe('{"f:data":{".":{},"f:key":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}}');
  });

  it('keeps the entry (and its time) when the manager changes nothing', () => {
    const fm = manager();
    const live = created(fm, thing({ data: { key: 'v' } }));
    const next = fm.update(live, thing({ data: { key: 'v' } }), 'other');
    expect(next.metadata.managedFields).toEqual(live.metadata.managedFields);
  });

  it('moves changed fields to the writer and keeps entries per manager and apiVersion', () => {
    const fm = manager();
    const live = created(fm, thing({ data: { a: '1', b: '2' } }));
    const next = fm.update(live, thing({ data: { a: '1', b: '3' } }), 'editor');
    const byManager = Object.fromEntries((next.metadata.managedFields ?? []).map((e) => [e.manager, e.fieldsV1]));
    expect(byManager).toEqual({ 'kubectl-create': { 'f:data': { '.': {}, 'f:a': {} } }, editor: { 'f:data': { 'f:b': {} } } });
  });

  it('takes ownership from the request managedFields, resets on [{}], ignores them on subresources', () => {
    const fm = manager();
    const live = created(fm, thing({ data: { a: '1' } }));
    const reset = fm.update(live, thing({ data: { a: '1' } }, { managedFields: [{}] }), 'x');
    expect(reset.metadata.managedFields).toBeUndefined();
    const status = manager('status');
    const sent = status.update(live, thing({ data: { a: '1' } }, { managedFields: [{}] }), 'x');
    expect(sent.metadata.managedFields).toEqual(live.metadata.managedFields);
  });

  it('leaves an existing untracked object untracked', () => {
    const live = thing({ data: { a: '1' } }, { uid: 'u1' });
    const next = manager().update(live, thing({ data: { a: '2' } }), 'x');
    expect(next.metadata.managedFields).toBeUndefined();
  });

  it('never owns identity metadata (name, uid, generation, …)', () => {
    const obj = created(manager(), thing({}, { labels: { a: 'b' }, generation: 3, creationTimestamp: '2024-01-01T00:00:00Z' }));
    expect(obj.metadata.managedFields?.[0].fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } });
  });

  it('caps Update entries at 10, merging the oldest into ancient-changes', () => {
    const fm = manager();
    let live = created(fm, thing({ data: { k0: '0' } }), 'm0');
    for (let i = 1; i <= 11; i++) {
      live = fm.update(live, thing({ data: { ...(live.data as object), [`k${i}`]: String(i) } }), `m${i}`);
      live.metadata.uid = 'u1';
    }
    const managers = (live.metadata.managedFields ?? []).map((e) => e.manager);
    expect(managers).toHaveLength(10);
    expect(managers[0]).toBe('ancient-changes');
    expect((live.metadata.managedFields ?? [])[0].fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:k0': {}, 'f:k1': {}, 'f:k2': {} } });
  });

  it('does not let the main resource own reset fields (status)', () => {
    const fm = manager('', FieldSet.of(makePath('status')));
    const obj = created(fm, thing({ status: { phase: 'x' }, data: { a: '1' } }));
    expect(obj.metadata.managedFields?.[0].fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:a': {} } });
  });
});

describe('FieldManager: apply', () => {
  it('creates with an Apply entry holding exactly the applied fields', () => {
    const obj = manager().apply(undefined, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, data: { key: 'v' } }, 'kubectl', false);
    expect(obj.data).toEqual({ key: 'v' });
    expect(obj.metadata.managedFields).toEqual([{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: expect.any(String), fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:key': {} } } }]);
  });

  it('assigns an untracked live object to before-first-apply first', () => {
    const live = thing({ data: { a: '1' } }, { uid: 'u1' });
    const obj = manager().apply(live, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, data: { b: '2' } }, 'mine', false);
    expect((obj.metadata.managedFields ?? []).map((e) => [e.manager, e.operation])).toEqual([
      ['mine', 'Apply'],
      ['before-first-apply', 'Update'],
    ]);
    expect(obj.data).toEqual({ a: '1', b: '2' });
  });

  it('reports a conflict as kube does: 409, FieldManagerConflict causes, the exact message', () => {
    const fm = manager();
    const live = created(fm, thing({ data: { key: 'v' } }), 'kubectl-client-side-apply');
    const status = errorOf(() => fm.apply(live, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, data: { key: 'w' } }, 'mine', false));
    expect(status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.key',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using v1', field: '.data.key' }] },
    });
  });

  it('lists several conflicts grouped by manager', () => {
    const fm = manager();
    let live = created(fm, thing({ data: { a: '1', b: '2' }, spec: { replicas: 1 } }), 'one');
    live = fm.apply(live, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, spec: { replicas: 1 } }, 'two', false);
    const status = errorOf(() => fm.apply(live, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, data: { a: 'x', b: 'y' }, spec: { replicas: 3 } }, 'three', false));
    expect(status.message).toBe('Apply failed with 4 conflicts: conflicts with "one" using v1:\n- .data.a\n- .data.b\n- .spec.replicas\nconflicts with "two":\n- .spec.replicas');
  });

  it('force takes the fields over', () => {
    const fm = manager();
    const live = created(fm, thing({ data: { key: 'v', other: 'o' } }), 'old');
    const obj = fm.apply(live, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, data: { key: 'w' } }, 'mine', true);
    const byManager = Object.fromEntries((obj.metadata.managedFields ?? []).map((e) => [e.manager, e.fieldsV1]));
    expect(byManager).toEqual({ mine: { 'f:data': { 'f:key': {} } }, old: { 'f:data': { '.': {}, 'f:other': {} } } });
    expect(obj.data).toEqual({ key: 'w', other: 'o' });
  });

  it('removes fields the applier stops applying, keeps those others own', () => {
    const fm = manager();
    let live = fm.apply(undefined, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x', labels: { a: '1', b: '2' } }, data: { k: 'v' } }, 'mine', false);
    live.metadata.uid = 'u1';
    live = fm.apply(live, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x', labels: { b: '2' } } }, 'other', false);
    live = fm.apply(live, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' } }, 'mine', false);
    expect(live.metadata.labels).toEqual({ b: '2' });
    expect(live.data).toBeUndefined();
  });

  it('a no-op apply returns the live object unchanged (times included)', () => {
    const fm = manager();
    const cfg = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, data: { k: 'v' } };
    const live = fm.apply(undefined, structuredClone(cfg), 'mine', false);
    live.metadata.uid = 'u1';
    const again = fm.apply(live, structuredClone(cfg), 'mine', false);
    expect(again).toEqual(live);
    expect(again).not.toBe(live);
  });

  it('keys list-map items by all their keys, with defaults (port + protocol)', () => {
    const obj = manager().apply(undefined, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, spec: { ports: [{ port: 80, name: 'http' }] } }, 'mine', false);
    expect(obj.metadata.managedFields?.[0].fieldsV1).toEqual({ 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {} } } } });
  });

  it('refuses duplicate keys, a wrong kind or version, and managedFields in the body', () => {
    const fm = manager();
    const dup = errorOf(() => fm.apply(undefined, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, spec: { ports: [{ port: 80 }, { port: 80 }] } }, 'm', false));
    expect(dup.code).toBe(500);
    expect(dup.message).toBe('failed to create typed patch object (/x; /v1, Kind=Thing): .spec.ports: duplicate entries for key [port=80,protocol="TCP"]');
    expect(errorOf(() => fm.apply(undefined, { apiVersion: 'v2', kind: 'Thing', metadata: { name: 'x' } }, 'm', false))).toMatchObject({ code: 400, message: 'invalid object type: /v2, Kind=Thing' });
    expect(errorOf(() => fm.apply(undefined, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x', managedFields: [] } }, 'm', false))).toMatchObject({ code: 400, message: 'metadata.managedFields must be nil' });
    const unknown = errorOf(() => fm.apply(undefined, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, spec: { nope: 1 } }, 'm', false));
    expect(unknown.message).toBe('failed to create typed patch object (/x; /v1, Kind=Thing): .spec.nope: field not declared in schema');
  });

  it('kubectl takes over what its last-applied-configuration says it applied (client-side → server-side)', () => {
    const fm = manager();
    const lastApplied = JSON.stringify({ apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, data: { key: 'v' } });
    const live = created(fm, thing({ data: { key: 'v' } }, { annotations: { [LAST_APPLIED_ANNOTATION]: lastApplied } }), 'kubectl-client-side-apply');
    const cfg = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, data: { key: 'w' } };
    // Anyone else conflicts; kubectl does not, and keeps the annotation in sync.
    expect(errorOf(() => fm.apply(live, structuredClone(cfg), 'someone', false)).code).toBe(409);
    const obj = fm.apply(live, structuredClone(cfg), 'kubectl', false);
    expect(obj.data).toEqual({ key: 'w' });
    expect(obj.metadata.annotations?.[LAST_APPLIED_ANNOTATION]).toBe('{"apiVersion":"v1","data":{"key":"w"},"kind":"Thing","metadata":{"name":"x"}}\n');
  });

  it('status applies own status only, with their own entry', () => {
    const fm = manager('status', FieldSet.of(makePath('spec')));
    const live = created(manager('', FieldSet.of(makePath('status'))), thing({ spec: { replicas: 1 } }));
    const obj = fm.apply(live, { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, status: { phase: 'Running' }, spec: { replicas: 5 } }, 'ctl', false);
    const entry = (obj.metadata.managedFields ?? []).find((e) => e.manager === 'ctl');
    expect(entry).toMatchObject({ operation: 'Apply', subresource: 'status', fieldsV1: { 'f:status': { 'f:phase': {} } } });
  });
});

describe('keepManagedFieldsTimestamps', () => {
  it('restores old times when only times differ', () => {
    const old = thing({ data: { a: '1' } }, { managedFields: [{ manager: 'm', operation: 'Update', apiVersion: 'v1', time: '2024-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: {} }] });
    const next = structuredClone(old);
    next.metadata.managedFields![0].time = '2025-01-01T00:00:00Z';
    keepManagedFieldsTimestamps(next, old);
    expect(next.metadata.managedFields![0].time).toBe('2024-01-01T00:00:00Z');
    const changed = structuredClone(next);
    changed.metadata.managedFields![0].time = '2025-01-01T00:00:00Z';
    changed.data = { a: '2' };
    keepManagedFieldsTimestamps(changed, old);
    expect(changed.metadata.managedFields![0].time).toBe('2025-01-01T00:00:00Z');
  });
});
