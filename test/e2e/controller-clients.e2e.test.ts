import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { protobufClient, protobufWatch } from '../support/protobuf.client';

// What controller-runtime and client-go send besides kubectl: metadata-only requests (the metadata client's
// Accept headers, verbatim, answered in protobuf as kube does), protobuf-first Accept headers, events.k8s.io/v1 events.

const META = 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const META_LIST = 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const CM = '/api/v1/namespaces/default/configmaps';

type Json = Record<string, any>;

describe.each(['1.27', '1.33'])('controller clients against the stack (kubectl %s)', (version) => {
  let stack: StackHarness;
  const { k, ok } = kubectlSession(version, () => stack.kubeconfig);

  beforeAll(async () => {
    stack = await startStack();
    for (const name of ['m1', 'm2']) {
      const r = await stack.request('POST', CM, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { meta: 'yes' }, annotations: { note: name } }, data: { secret: 'payload' } }) });
      expect(r.status).toBe(201);
    }
  });

  afterAll(async () => {
    await stack?.stop();
  });

  describe('metadata-only requests (PartialObjectMetadata)', () => {
    it('GET answers the object metadata only', async () => {
      const r = await protobufClient(stack.url, stack.pki).request('GET', `${CM}/m1`, { headers: { Accept: META } });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
      const body = r.object() as Json;
      expect(body).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'm1', namespace: 'default', labels: { meta: 'yes' }, annotations: { note: 'm1' } } });
      expect(body.data).toBeUndefined();
    });

    it('LIST answers a PartialObjectMetadataList with the list metadata', async () => {
      const r = await protobufClient(stack.url, stack.pki).request('GET', `${CM}?labelSelector=meta%3Dyes&limit=1`, { headers: { Accept: META_LIST } });
      const body = r.object() as Json;
      expect(body).toMatchObject({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1' });
      expect(body.metadata.resourceVersion).toMatch(/^\d+$/);
      expect(body.metadata.continue).toBeTruthy();
      // A List's items carry no type meta in protobuf (kube's JSON of this List does name them).
      expect(body.items).toEqual([expect.objectContaining({ metadata: expect.objectContaining({ name: 'm1' }) })]);
      expect(body.items[0].data).toBeUndefined();
    });

    it('WATCH events (and bookmarks) carry PartialObjectMetadata', async () => {
      const client = protobufClient(stack.url, stack.pki);
      const watch = (accept: string): ReturnType<typeof protobufWatch> => protobufWatch({ request: (m, p, o) => client.request(m, p, { ...o, headers: { Accept: accept } }) }, `${CM}?labelSelector=meta%3Dyes&watch=true&allowWatchBookmarks=true&timeoutSeconds=1`);
      const { contentType, events } = (await watch(META)) as { contentType: string; events: Json[] };
      expect(contentType).toBe('application/vnd.kubernetes.protobuf;stream=watch');
      const added = events.filter((e) => e.type === 'ADDED');
      expect(added.map((e) => e.object.metadata.name).sort()).toEqual(['m1', 'm2']);
      for (const e of events) expect(e.object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1' });
      expect(added[0].object.data).toBeUndefined();
      expect(events.find((e) => e.type === 'BOOKMARK')?.object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    });

    it('refuses, as kube does, a conversion the answer cannot take and Table options it does not know', async () => {
      const single = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
      const list = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
      const r1 = await stack.request('GET', CM, { headers: { Accept: single } });
      expect([r1.status, r1.json()]).toEqual([406, expect.objectContaining({ reason: 'NotAcceptable', message: 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)' })]);
      const r2 = await stack.request('GET', `${CM}/m1`, { headers: { Accept: list } });
      expect([r2.status, r2.json()]).toEqual([406, expect.objectContaining({ reason: 'NotAcceptable', message: 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)' })]);
      const r3 = await stack.request('GET', `${CM}?includeObject=Everything`, { headers: { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' } });
      expect([r3.status, r3.json()]).toEqual([400, expect.objectContaining({ reason: 'BadRequest', message: 'Unable to convert to Table as requested: includeObject: Invalid value: "Everything": must be \'Metadata\', \'Object\', \'None\', or empty' })]);
      // Table options are not looked at when no Table is asked for.
      expect((await stack.request('GET', `${CM}?includeObject=Everything`)).status).toBe(200);
    });

    it('a protobuf-only or protobuf-first Accept gets the ConfigMap in protobuf', async () => {
      const client = protobufClient(stack.url, stack.pki);
      for (const accept of ['application/vnd.kubernetes.protobuf', 'application/vnd.kubernetes.protobuf, application/json']) {
        const r = await client.request('GET', `${CM}/m1`, { headers: { Accept: accept } });
        expect(r.status).toBe(200);
        expect(r.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
        expect(r.object()).toMatchObject({ kind: 'ConfigMap', data: { secret: 'payload' } });
      }
    });
  });

  describe('events.k8s.io/v1 events share storage with core/v1 events', () => {
    const now = new Date().toISOString().replace(/\.\d+Z$/, '.000000Z');
    const recorded = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'm1.reconciled', namespace: 'default' },
      eventTime: now,
      reportingController: 'example.com/my-operator',
      reportingInstance: 'my-operator-0',
      action: 'Reconcile',
      reason: 'Reconciled',
      type: 'Normal',
      note: 'configmap reconciled',
      regarding: { kind: 'ConfigMap', namespace: 'default', name: 'm1', apiVersion: 'v1' },
    };

    it('creates through events.k8s.io/v1 and reads the same event through core/v1 with kube field names', async () => {
      const created = await stack.request('POST', '/apis/events.k8s.io/v1/namespaces/default/events', { body: JSON.stringify(recorded) });
      expect(created.status, created.body).toBe(201);
      expect(created.json()).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'configmap reconciled', regarding: { name: 'm1' }, reportingController: 'example.com/my-operator' });
      const core = (await stack.request('GET', '/api/v1/namespaces/default/events/m1.reconciled')).json<Json>();
      expect(core).toMatchObject({ apiVersion: 'v1', kind: 'Event', message: 'configmap reconciled', involvedObject: { kind: 'ConfigMap', name: 'm1' }, reportingComponent: 'example.com/my-operator', reason: 'Reconciled' });
      expect(core.note).toBeUndefined();
      const viaNew = (await stack.request('GET', '/apis/events.k8s.io/v1/namespaces/default/events')).json<Json>();
      expect(viaNew.items.map((e: Json) => e.metadata.name)).toContain('m1.reconciled');
    });

    it('refuses what the new API refuses, with kube messages', async () => {
      const bad = { ...recorded, metadata: { name: 'bad', namespace: 'default' }, eventTime: undefined, type: 'Odd', deprecatedCount: 3 };
      const r = await stack.request('POST', '/apis/events.k8s.io/v1/namespaces/default/events', { body: JSON.stringify(bad) });
      expect(r.status).toBe(422);
      expect(r.json<Json>().message).toContain('eventTime: Required value');
      expect(r.json<Json>().message).toContain('type: Invalid value: "": has invalid value: Odd');
      expect(r.json<Json>().message).toContain('deprecatedCount: Invalid value: "": needs to be unset');
      expect((await stack.request('GET', '/api/v1/namespaces/default/events/bad')).status).toBe(404);
    });

    it('takes the strategic merge patch client-go\'s events/v1 recorder sends for a series, and explains the kind', async () => {
      const series = { series: { count: 2, lastObservedTime: now } };
      const r = await stack.request('PATCH', '/apis/events.k8s.io/v1/namespaces/default/events/m1.reconciled', { body: JSON.stringify(series), headers: { 'Content-Type': 'application/strategic-merge-patch+json' } });
      expect(r.status, r.body).toBe(200);
      expect(r.json()).toMatchObject({ series: { count: 2 }, note: 'configmap reconciled' });
      expect(await ok(['explain', 'events.series', '--api-version=events.k8s.io/v1'])).toMatch(/FIELD: *series <EventSeries>/);
    });

    it('kubectl lists them under both names and finds events.k8s.io in discovery', async () => {
      expect(await ok(['api-resources', '--api-group=events.k8s.io'])).toMatch(/^events\s+ev\s+events\.k8s\.io\/v1\s+true\s+Event$/m);
      const out = await ok(['get', 'events.events.k8s.io', '-n', 'default']);
      expect(out).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/m);
      expect(out).toMatch(/Normal\s+Reconciled\s+configmap\/m1\s+configmap reconciled/);
      expect((await k(['get', 'events', '-n', 'default', '-o', 'name'])).stdout).toContain('event/m1.reconciled');
    });
  });
});
