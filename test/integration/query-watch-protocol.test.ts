import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreApi, type CoreApiHarness } from '../support/core-api.harness';

// Query parameters and the watch protocol as kube-apiserver answers them (decoding by the parameter codec,
// SetListOptionsDefaults, ValidateListOptions with WatchList on, the watch cache's initial events).

let api: CoreApiHarness;
const NS = '/api/v1/namespaces/default/configmaps';
const cm = (name: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { proto: 'yes' } }, data: { a: '1' } });

interface WatchEvent {
  type: string;
  object: { kind?: string; metadata: { name?: string; resourceVersion?: string; annotations?: Record<string, string> }; code?: number; reason?: string; message?: string };
}
const events = (body: string): WatchEvent[] =>
  body
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as WatchEvent);
const sel = 'labelSelector=proto%3Dyes';

let createdRV = 0;

beforeAll(async () => {
  api = await startCoreApi();
  for (const name of ['p1', 'p2', 'p3']) {
    const r = await api.request('POST', NS, { body: cm(name) });
    expect(r.status).toBe(201);
    createdRV = Number(r.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion);
  }
});

afterAll(async () => {
  await api?.stop();
});

describe('boolean parameters (Convert_Slice_string_To_bool)', () => {
  it.each(['true', 'TRUE', 'True', '1', 't', 'yes', ''])('watch=%j is a watch', async (v) => {
    const r = await api.request('GET', `${NS}?${sel}&watch=${v}&timeoutSeconds=1`);
    expect(r.status).toBe(200);
    expect(events(r.body).filter((e) => e.type === 'ADDED')).toHaveLength(3);
  });

  it.each(['false', 'FALSE', 'False', '0'])('watch=%j is a list', async (v) => {
    const r = await api.request('GET', `${NS}?${sel}&watch=${v}`);
    expect(r.json()).toMatchObject({ kind: 'ConfigMapList' });
  });

  it('a repeated parameter takes its first value (url.Values.Get)', async () => {
    await expect(api.request('GET', `${NS}?${sel}&watch=false&watch=true`).then((r) => r.json().kind)).resolves.toBe('ConfigMapList');
    const r = await api.request('GET', `${NS}?${sel}&limit=1&limit=5`);
    expect(r.json<{ items: unknown[] }>().items).toHaveLength(1);
  });

  it('unknown parameters are ignored', async () => {
    const r = await api.request('GET', `${NS}?${sel}&frobnicate=please&pretty=maybe`);
    expect(r.status).toBe(200);
    expect(r.json<{ items: unknown[] }>().items).toHaveLength(3);
  });
});

describe('integer parameters (strconv.ParseInt)', () => {
  it.each([
    ['limit=abc', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['limit=1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ['limit=', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['limit=99999999999999999999', 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
    ['watch=1&timeoutSeconds=soon', 'strconv.ParseInt: parsing "soon": invalid syntax'],
  ])('%s is a 400 with Go\'s message', async (q, message) => {
    const r = await api.request('GET', `${NS}?${q}`);
    expect(r.status).toBe(400);
    expect(r.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, message });
  });

  it('accepts a signed limit as kube does (+2 pages by two, a negative limit is no limit)', async () => {
    expect((await api.request('GET', `${NS}?${sel}&limit=%2B2`)).json<{ items: unknown[] }>().items).toHaveLength(2);
    expect((await api.request('GET', `${NS}?${sel}&limit=-1`)).json<{ items: unknown[] }>().items).toHaveLength(3);
  });

  it('refuses a gracePeriodSeconds that is not an integer', async () => {
    const r = await api.request('DELETE', `${NS}/p1?gracePeriodSeconds=now`);
    expect(r.status).toBe(400);
    expect(r.json()).toMatchObject({ message: 'strconv.ParseInt: parsing "now": invalid syntax' });
    expect((await api.request('GET', `${NS}/p1`)).status).toBe(200);
  });
});

describe('resourceVersionMatch and sendInitialEvents (ValidateListOptions)', () => {
  const invalid = (message: string): Record<string, unknown> => ({ kind: 'Status', code: 422, reason: 'Invalid', message: `ListOptions.meta.k8s.io "" is invalid: ${message}`, details: expect.objectContaining({ group: 'meta.k8s.io', kind: 'ListOptions' }) });

  it.each([
    ['resourceVersionMatch=NotOlderThan', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
    ['resourceVersionMatch=Exact&resourceVersion=0', 'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
    ['resourceVersionMatch=Newest&resourceVersion=1', 'resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""'],
    ['sendInitialEvents=true', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
    ['watch=1&sendInitialEvents=true', 'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
    ['watch=1&resourceVersion=5&resourceVersionMatch=NotOlderThan', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
    [
      'watch=1&sendInitialEvents=true&resourceVersionMatch=Exact',
      '[resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
    ],
  ])('%s is refused with 422', async (q, message) => {
    const r = await api.request('GET', `${NS}?${q}`);
    expect(r.status).toBe(422);
    expect(r.json()).toMatchObject(invalid(message));
  });

  it('an Exact list at a past revision shows that revision', async () => {
    const r = await api.request('GET', `${NS}?${sel}&resourceVersion=${createdRV - 1}&resourceVersionMatch=Exact`);
    expect(r.status).toBe(200);
    expect(r.json<{ items: unknown[]; metadata: { resourceVersion: string } }>()).toMatchObject({ metadata: { resourceVersion: String(createdRV - 1) } });
    expect(r.json<{ items: unknown[] }>().items).toHaveLength(2);
  });
});

describe('the watch protocol', () => {
  it('a watch without resourceVersion starts with the current objects as ADDED, then the initial-events-end BOOKMARK when bookmarks are allowed', async () => {
    const r = await api.request('GET', `${NS}?${sel}&watch=1&allowWatchBookmarks=true&timeoutSeconds=1`);
    const evs = events(r.body);
    expect(evs.slice(0, 3).map((e) => `${e.type} ${e.object.metadata.name}`).sort()).toEqual(['ADDED p1', 'ADDED p2', 'ADDED p3']);
    expect(evs[3]).toMatchObject({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } } });
    expect(Number(evs[3].object.metadata.resourceVersion)).toBeGreaterThanOrEqual(createdRV);
  });

  it('without allowWatchBookmarks there is no bookmark', async () => {
    const evs = events((await api.request('GET', `${NS}?${sel}&watch=1&timeoutSeconds=1`)).body);
    expect(evs.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'ADDED']);
  });

  it('WatchList: sendInitialEvents=true, NotOlderThan a resourceVersion, bookmarks on', async () => {
    const r = await api.request('GET', `${NS}?${sel}&watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=${createdRV}&allowWatchBookmarks=true&timeoutSeconds=1`);
    expect(r.status).toBe(200);
    const evs = events(r.body);
    expect(evs.filter((e) => e.type === 'ADDED')).toHaveLength(3);
    expect(evs.find((e) => e.type === 'BOOKMARK')?.object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
  });

  it('sendInitialEvents=false without a resourceVersion watches from now: no past objects', async () => {
    const r = await api.request('GET', `${NS}?${sel}&watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&timeoutSeconds=1`);
    expect(r.status).toBe(200);
    expect(events(r.body).filter((e) => e.type !== 'BOOKMARK')).toEqual([]);
  });

  it('a watch from a resourceVersion sends only what changed after it', async () => {
    const evs = events((await api.request('GET', `${NS}?${sel}&watch=1&resourceVersion=${createdRV - 1}&timeoutSeconds=1`)).body);
    expect(evs.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED p3']);
  });
});
