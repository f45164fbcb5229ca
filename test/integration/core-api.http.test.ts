import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreApi, type CoreApiHarness } from '../support/core-api.harness';

let api: CoreApiHarness;

beforeAll(async () => {
  api = await startCoreApi();
});

afterAll(async () => {
  await api?.stop();
});

const cm = (name: string, extra: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' }, ...extra });

describe('core-api over HTTPS', () => {
  it('answers 401 Unauthorized as a Status to a request without a client certificate', async () => {
    const r = await api.request('GET', '/api/v1/namespaces', { anonymous: true });
    expect(r.status).toBe(401);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.json()).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', code: 401 });
  });

  it('answers health and version to anonymous callers, as the public-info-viewer role of kube allows', async () => {
    expect((await api.request('GET', '/readyz', { anonymous: true })).status).toBe(200);
    expect((await api.request('GET', '/livez?verbose', { anonymous: true })).body).toContain('[+]etcd ok');
    const version = await api.request('GET', '/version', { anonymous: true });
    expect(version.json<{ gitVersion: string }>().gitVersion).toBe('v1.33.0');
    // kube writes /version with responsewriters.WriteRawJSON: indented, whoever asks.
    expect(version.body).toMatch(/^\{\n  "major": "1",\n  "minor": "33",\n/);
    expect((await api.request('GET', '/metrics', { anonymous: true })).status).toBe(401);
    expect((await api.request('GET', '/apis', { anonymous: true })).status).toBe(401);
  });

  it('answers 413 for a body over 3 MiB and stores nothing', async () => {
    const big = cm('too-big', { data: { a: 'x'.repeat(3 * 1024 * 1024) } });
    const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: big });
    expect(r.status).toBe(413);
    expect(r.json()).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
    expect((await api.request('GET', '/api/v1/namespaces/default/configmaps/too-big')).status).toBe(404);
  });

  it('answers 400 for malformed and deeply nested bodies', async () => {
    const malformed = await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: '{"apiVersion":"v1",' });
    expect(malformed.status).toBe(400);
    expect(malformed.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    const nested = await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: '{"a":' + '['.repeat(200_000) + ']'.repeat(200_000) + '}' });
    expect(nested.status).toBe(400);
    const yaml = await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: 'a: [[[[', headers: { 'Content-Type': 'application/yaml' } });
    expect(yaml.status).toBe(400);
  });

  it('creates with generateName, and reports 422 with causes for invalid objects', async () => {
    const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { generateName: 'gen-' }, data: {} }) });
    expect(r.status).toBe(201);
    expect(r.json<{ metadata: { name: string } }>().metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const bad = await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('Not_Valid') });
    expect(bad.status).toBe(422);
    const status = bad.json<{ reason: string; message: string; details: { kind: string; causes: Array<{ field: string; reason: string }> } }>();
    expect(status.reason).toBe('Invalid');
    expect(status.message).toMatch(/^ConfigMap "Not_Valid" is invalid: metadata.name: Invalid value: "Not_Valid": a lowercase RFC 1123 subdomain/);
    expect(status.details.causes[0]).toMatchObject({ field: 'metadata.name', reason: 'FieldValueInvalid' });
  });

  it('honours dryRun=All without storing', async () => {
    const r = await api.request('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { body: cm('dry') });
    expect(r.status).toBe(201);
    expect((await api.request('GET', '/api/v1/namespaces/default/configmaps/dry')).status).toBe(404);
  });

  it('warns on unknown fields by default and refuses them with fieldValidation=Strict', async () => {
    const warn = await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('fv-warn', { bogus: 1 }) });
    expect(warn.status).toBe(201);
    expect(String(warn.headers.warning)).toContain('299 - "unknown field \\"bogus\\""');
    const strict = await api.request('POST', '/api/v1/namespaces/default/configmaps?fieldValidation=Strict', { body: cm('fv-strict', { bogus: 1 }) });
    expect(strict.status).toBe(400);
    expect(strict.json<{ message: string }>().message).toContain('unknown field "bogus"');
    expect((await api.request('GET', '/api/v1/namespaces/default/configmaps/fv-strict')).status).toBe(404);
  });

  it('serves server-side apply: create (201), managedFields, conflicts (409), force, fieldManager required', async () => {
    const apply = (body: object, q = 'fieldManager=tool') =>
      api.request('PATCH', `/api/v1/namespaces/default/configmaps/ssa?${q}`, { body: JSON.stringify(body), headers: { 'Content-Type': 'application/apply-patch+yaml' } });
    const cfg = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' }, data: { key: 'a' } };
    const created = await apply(cfg);
    expect(created.status).toBe(201);
    const obj = created.json<{ metadata: { managedFields: Array<Record<string, unknown>> } }>();
    expect(obj.metadata.managedFields).toEqual([{ manager: 'tool', operation: 'Apply', apiVersion: 'v1', time: expect.any(String), fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:key': {} } } }]);
    const rv = created.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
    const again = await apply(cfg);
    expect(again.status).toBe(200);
    expect(again.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion).toBe(rv);
    const conflict = await apply({ ...cfg, data: { key: 'b' } }, 'fieldManager=other');
    expect(conflict.status).toBe(409);
    expect(conflict.json()).toMatchObject({ reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "tool": .data.key', details: { causes: [{ reason: 'FieldManagerConflict', field: '.data.key' }] } });
    const forced = await apply({ ...cfg, data: { key: 'b' } }, 'fieldManager=other&force=true');
    expect(forced.status).toBe(200);
    expect(forced.json<{ data: Record<string, string> }>().data).toEqual({ key: 'b' });
    const noManager = await apply(cfg, '');
    expect(noManager.status).toBe(422);
    expect(noManager.json<{ message: string }>().message).toBe('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const forceOnMerge = await api.request('PATCH', '/api/v1/namespaces/default/configmaps/ssa?force=true', { body: '{}', headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(forceOnMerge.status).toBe(422);
    expect(forceOnMerge.json<{ message: string }>().message).toContain('force: Forbidden: may not be specified for non-apply patch');
  });

  it('keeps status out of the main endpoint and changes only status through /status', async () => {
    const created = await api.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify({ metadata: { name: 'st' }, spec: { containers: [{ name: 'c', image: 'nginx' }] }, status: { phase: 'Running' } }) });
    expect(created.json<{ status: { phase: string } }>().status.phase).toBe('Pending');
    const patched = await api.request('PATCH', '/api/v1/namespaces/default/pods/st/status', { body: JSON.stringify({ status: { phase: 'Running' }, metadata: { labels: { x: 'y' } } }), headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(patched.status).toBe(200);
    const pod = patched.json<{ status: { phase: string }; metadata: { labels?: Record<string, string>; generation: number } }>();
    expect(pod.status.phase).toBe('Running');
    expect(pod.metadata.labels).toBeUndefined();
  });

  it('keeps objects with finalizers until the last finalizer is removed', async () => {
    await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('fin', { metadata: { name: 'fin', finalizers: ['example.com/hold'] } }) });
    const del = await api.request('DELETE', '/api/v1/namespaces/default/configmaps/fin', { body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' }) });
    expect(del.status).toBe(200);
    const pending = del.json<{ metadata: { deletionTimestamp?: string; generation: number } }>();
    expect(pending.metadata.deletionTimestamp).toBeDefined();
    const still = await api.request('GET', '/api/v1/namespaces/default/configmaps/fin');
    expect(still.status).toBe(200);
    const released = await api.request('PATCH', '/api/v1/namespaces/default/configmaps/fin', { body: JSON.stringify({ metadata: { finalizers: null } }), headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(released.status).toBe(200);
    expect((await api.request('GET', '/api/v1/namespaces/default/configmaps/fin')).status).toBe(404);
  });

  it('creates on PUT only where kube\'s strategy allows it (leases, RBAC, services, RuntimeClasses…), not ConfigMaps, Secrets, Pods, Nodes, PDBs…', async () => {
    const missing = await api.request('PUT', '/api/v1/namespaces/default/configmaps/put-new', { body: cm('put-new') });
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ reason: 'NotFound', message: 'configmaps "put-new" not found', details: { name: 'put-new', kind: 'configmaps' } });
    const node = await api.request('PUT', '/api/v1/nodes/put-new', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'put-new' } }) });
    expect(node.status).toBe(404);
    const pdb = await api.request('PUT', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/put-new', { body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'put-new' }, spec: { minAvailable: 1 } }) });
    expect(pdb.status).toBe(404);
    const lease = await api.request('PUT', '/apis/coordination.k8s.io/v1/namespaces/default/leases/put-new', { body: JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'put-new' } }) });
    expect(lease.status).toBe(201);
    const runtimeClass = await api.request('PUT', '/apis/node.k8s.io/v1/runtimeclasses/put-new', { body: JSON.stringify({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'put-new' }, handler: 'runc' }) });
    expect(runtimeClass.status).toBe(201);
  });

  it('serves discovery, aggregated discovery with ETag/304, version, health and metrics', async () => {
    const apis = await api.request('GET', '/apis');
    expect(apis.json<{ groups: Array<{ name: string }> }>().groups.map((g) => g.name)).toContain('coordination.k8s.io');
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
    const agg = await api.request('GET', '/api', { headers: { Accept: accept } });
    expect(agg.headers['content-type']).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    const etag = String(agg.headers.etag);
    expect((await api.request('GET', '/api', { headers: { Accept: accept, 'If-None-Match': etag } })).status).toBe(304);
    expect((await api.request('GET', '/readyz?verbose')).body).toContain('[+]etcd ok');
    const metrics = await api.request('GET', '/metrics');
    expect(metrics.body).toMatch(/apiserver_request_total\{[^}]*resource="configmaps"[^}]*code="201"[^}]*\} [1-9]/);
    expect(metrics.body).toContain('etcd_request_duration_seconds_bucket');
    const notFound = await api.request('GET', '/apis/nope.example.com/v1/things');
    expect(notFound.status).toBe(404);
    expect(notFound.json()).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  });

  it('streams watch events as newline-delimited JSON and ends at timeoutSeconds', async () => {
    const created = await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: cm('watched') });
    const rv = Number(created.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion);
    await api.request('PATCH', '/api/v1/namespaces/default/configmaps/watched', { body: '{"data":{"a":"2"}}', headers: { 'Content-Type': 'application/merge-patch+json' } });
    const started = Date.now();
    const r = await api.request('GET', `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv - 1}&timeoutSeconds=1&fieldSelector=metadata.name%3Dwatched`);
    expect(Date.now() - started).toBeLessThan(5000);
    const events = r.body.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { data: { a: string } } });
    expect(events.map((e) => `${e.type}:${e.object.data.a}`)).toEqual(['ADDED:1', 'MODIFIED:2']);
  });

  it('answers a watch from a resourceVersion older than the watch cache with an ERROR 410 event', async () => {
    const second = await startCoreApi({ etcd: api.etcd });
    try {
      const tooOld = await second.request('GET', '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2');
      expect(tooOld.status).toBe(200);
      const first = JSON.parse(tooOld.body.trim().split('\n')[0]);
      expect(first).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
      expect(first.object.message).toMatch(/^too old resource version: 2 \(\d+\)$/);
    } finally {
      await second.stop();
    }
  });
});

describe('protection and TTLs', () => {
  it('answers 429 with Retry-After past max-in-flight, and 504 when a read cannot complete in time', async () => {
    const limited = await startCoreApi({ etcd: api.etcd, maxRequestsInFlight: 1 });
    try {
      // A read at a future resourceVersion waits (up to 3 s) for the cache: it holds the only read slot.
      const slow = limited.request('GET', '/api/v1/namespaces/default/configmaps/x?resourceVersion=999999999');
      await new Promise((r) => setTimeout(r, 200));
      const rejected = await limited.request('GET', '/api/v1/namespaces');
      expect(rejected.status).toBe(429);
      expect(rejected.headers['retry-after']).toBe('1');
      expect(rejected.json()).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429 });
      const timedOut = await slow;
      expect(timedOut.status).toBe(504);
      expect(timedOut.json<{ message: string }>().message).toContain('Too large resource version: 999999999');
      const watch = await limited.request('GET', '/api/v1/namespaces?watch=true&timeoutSeconds=1');
      expect(watch.status).toBe(200);
    } finally {
      await limited.stop();
    }
  });

  it('stores events with a one-hour etcd lease', async () => {
    const ev = { metadata: { name: 'ev1' }, involvedObject: { kind: 'ConfigMap', name: 'x', namespace: 'default' }, reason: 'Test', message: 'hello', type: 'Normal' };
    const r = await api.request('POST', '/api/v1/namespaces/default/events', { body: JSON.stringify(ev) });
    expect(r.status).toBe(201);
    const { Etcd3 } = await import('etcd3');
    const client = new Etcd3({ hosts: api.etcd.endpoint.replace('http://', '') });
    try {
      const kv = (await client.get('/registry/events/default/ev1').exec()).kvs[0];
      expect(kv.lease).not.toBe('0');
      const ttl = await client.leaseClient.leaseTimeToLive({ ID: kv.lease, keys: false });
      expect(Number(ttl.TTL)).toBeGreaterThan(3500);
      expect(Number(ttl.TTL)).toBeLessThanOrEqual(3660);
    } finally {
      client.close();
    }
  });
});
