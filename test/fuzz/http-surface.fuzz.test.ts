/**
 * Fuzzes every server's HTTP surface (the front door, and core-api, extensions and an SDK server — the wardle
 * sample-apiserver — directly) with generated
 * methods, paths, query strings, content types, headers and bodies, and with writes whose bodies are typed well or ill
 * at every typed path of ObjectMeta, in JSON and YAML, with lone surrogates and control characters in every string.
 * Properties: no process dies, no 5xx except the documented ones (503 Service Unavailable, 504 Timeout, and kube's
 * own 500 for an apply patch its schema cannot type), and every error answer is a metav1.Status.
 * FUZZ_RUNS sets the number of requests per server (default 150 here; `npm run chaos` runs thousands);
 * FUZZ_SEED replays a run.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import type { INestApplicationContext } from '@nestjs/common';
import fc from 'fast-check';
import { stringify as stringifyYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServerLifecycle } from '@kube/apiserver';
import { adminAccess, bootAggregatedServer, startStack, type StackHarness, until } from '@test/support';
import { SampleApiServerModule } from '../../apps/sample-apiserver/src/sample-apiserver.module';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
/** 5xx answers kube gives too, each with a Status body. */
const DOCUMENTED_5XX = new Set([503, 504]);

/**
 * 500s kube answers too, each a plain Go error that kube's ErrorToAPIStatus turns into 500 with reason "":
 *  - server-side apply of a patch its schema cannot type (an undeclared field, a wrong type) fails in
 *    structured-merge-diff's ObjectToTyped (managedfields/internal/structuredmerge.go; kubernetes/kubernetes#122480
 *    and #139253, open);
 *  - a strategic merge patch strategicpatch cannot merge (list elements of different types, a list element without
 *    its merge key, …): the patch handler's interpretStrategicMergePatchError maps only malformed directives (400) and
 *    lists of lists (422), and passes every other strategicpatch error on as it is (endpoints/handlers/patch.go).
 * A client that prefers protobuf gets the Status in protobuf, kube's too: its message is found in the bytes.
 */
const APPLY_500 = ['failed to create typed patch object ('];
const STRATEGIC_MERGE_500 = [
  'list element types are not identical: ',
  ' does not contain declared merge key: ',
  ', but received a ',
  'unknown patch type: ',
  'no elements in any of the given slices',
  ' is not a map',
  'cannot merge lists without merge key for ',
  'merging lists cannot yet be specified in the patch',
  "doesn't match $setElementOrder list",
  'unexpected patch strategy: ',
];

function documented5xx(status: number, body: string, responseType: string, requestType: string): boolean {
  if (DOCUMENTED_5XX.has(status)) return true;
  if (status !== 500) return false;
  const message = responseType.includes('protobuf') ? body : ((JSON.parse(body) as { message?: string }).message ?? '');
  const known = requestType === 'application/strategic-merge-patch+json' ? [...APPLY_500, ...STRATEGIC_MERGE_500] : APPLY_500;
  return known.some((m) => message.includes(m));
}

const WARDLE = '/apis/wardle.example.com/v1alpha1';

let stack: StackHarness;
let wardle: INestApplicationContext;
let wardleAccess: Awaited<ReturnType<typeof adminAccess>>;

beforeAll(async () => {
  stack = await startStack();
  // Something to find: objects of a few kinds in a namespace of their own.
  await stack.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fuzz' } }) });
  await stack.request('POST', '/api/v1/namespaces/fuzz/configmaps', { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } }) });
  wardle = await bootAggregatedServer(stack, { component: 'sample-apiserver', serviceDnsName: 'wardle-server.kube-system.svc', module: (options) => SampleApiServerModule.forRoot(options) });
  wardleAccess = await adminAccess(stack.pki, mkdtempSync(join(tmpdir(), 'fuzz-wardle-')), wardle.get(ApiServerLifecycle).port);
  await until(async () => (await stack.request('GET', `${WARDLE}/namespaces/fuzz/flunders`)).status === 200, 60_000);
  await stack.request('POST', `${WARDLE}/namespaces/fuzz/flunders`, { body: JSON.stringify({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'fl' }, spec: {} }) });
}, 120_000);

afterAll(async () => {
  await wardle?.close();
  await stack?.stop();
});

const segment = fc.oneof(
  fc.constantFrom('api', 'apis', 'v1', 'namespaces', 'fuzz', 'default', 'kube-system', 'configmaps', 'secrets', 'services', 'pods', 'status', 'scale', 'finalize', 'watch', 'proxy', 'log', 'cm', 'apiextensions.k8s.io', 'customresourcedefinitions', 'apiregistration.k8s.io', 'apiservices', 'coordination.k8s.io', 'leases', 'openapi', 'v2', 'v3', 'version', 'healthz', 'readyz', 'livez', 'metrics', 'wardle.example.com', 'v1alpha1', 'flunders', 'fischers', 'fl', '..', '.', ''),
  fc.string({ maxLength: 20 }).map((s) => encodeURIComponent(s)),
  fc.string({ minLength: 200, maxLength: 400 }).map((s) => encodeURIComponent(s)),
);

const knownPrefix = fc.constantFrom('/api/v1', '/api/v1/namespaces/fuzz', '/apis/apiextensions.k8s.io/v1', '/apis/apiregistration.k8s.io/v1', '/apis/coordination.k8s.io/v1/namespaces/fuzz', WARDLE, `${WARDLE}/namespaces/fuzz`, '/apis', '/api', '/openapi', '');

const randomPath = fc.tuple(knownPrefix, fc.array(segment, { maxLength: 6 }), fc.boolean()).map(([prefix, parts, slash]) => `${prefix}/${parts.join('/')}${slash ? '/' : ''}`.replace(/^\/\//, '/'));

/** Paths that reach the resource handlers (a random path is mostly a 404 from the router). */
const collection = fc.constantFrom(
  '/api/v1/namespaces/fuzz/configmaps',
  '/api/v1/namespaces/fuzz/secrets',
  '/api/v1/namespaces/fuzz/services',
  '/api/v1/namespaces/fuzz/pods',
  '/api/v1/namespaces/fuzz/serviceaccounts',
  '/api/v1/configmaps',
  '/api/v1/namespaces',
  '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
  '/apis/apiregistration.k8s.io/v1/apiservices',
  '/apis/coordination.k8s.io/v1/namespaces/fuzz/leases',
  '/apis/rbac.authorization.k8s.io/v1/namespaces/fuzz/roles',
  `${WARDLE}/namespaces/fuzz/flunders`,
  `${WARDLE}/fischers`,
);
const resourcePath = fc
  .tuple(collection, fc.option(fc.oneof(fc.constantFrom('cm', 'fl', 'fuzz', 'x'), fc.string({ maxLength: 40 }).map((n) => encodeURIComponent(n))), { nil: undefined }), fc.constantFrom('', '', '', '/status', '/scale', '/finalize'))
  .map(([base, name, sub]) => (name === undefined ? base : `${base}/${name}${sub}`));

const path = fc.oneof({ arbitrary: resourcePath, weight: 3 }, { arbitrary: randomPath, weight: 1 });

const paramName = fc.oneof(
  fc.constantFrom('watch', 'labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'resourceVersionMatch', 'dryRun', 'fieldManager', 'fieldValidation', 'timeoutSeconds', 'propagationPolicy', 'gracePeriodSeconds', 'pretty', 'allowWatchBookmarks', 'sendInitialEvents', 'force', 'orphanDependents', 'as', 'includeObject'),
  fc.string({ maxLength: 10 }),
);
const paramValue = fc.oneof(fc.constantFrom('true', 'false', '1', '0', 'All', 'Strict', 'Warn', '-1', '999999999999999999999', 'a=b', 'a in (b,c)', 'metadata.name=cm', '', 'NotOlderThan', 'Exact', 'Foreground', 'Orphan'), fc.string({ maxLength: 30 }));
const query = fc.array(fc.tuple(paramName, paramValue), { maxLength: 5 }).map((pairs) => {
  const params = new URLSearchParams();
  for (const [k, v] of pairs) params.append(k, v);
  // Watches (by parameter or by a /watch/ path) end by themselves: the fuzzer must not wait on one.
  params.set('timeoutSeconds', '1');
  const s = params.toString();
  return s ? `?${s}` : '';
});

const contentType = fc.constantFrom(
  'application/json',
  'application/yaml',
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'application/vnd.kubernetes.protobuf',
  'text/plain',
  'application/json; charset=utf-16',
  '*/*',
  '',
);
const accept = fc.constantFrom('application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList', 'text/html', '*/*', 'application/json;as=Bogus');

/**
 * Strings as users can send them: besides ordinary text, lone surrogates (valid in JSON and YAML escapes, not in
 * UTF-8), control characters (C0, DEL, C1), line and paragraph separators, characters beyond Latin-1, quotes and
 * backslashes. They reach every place a string goes: names, keys, values, unknown field names (warnings).
 */
const nastyUnit = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), weight: 6 },
  { arbitrary: fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\u0000', '\u0001', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009f', '\u2028', '\u2029', '\ufeff', '\ufffd', 'é', '名', '😀', '"', '\\', '/'), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 1 },
);
const nasty = (maxLength: number): fc.Arbitrary<string> => fc.string({ unit: nastyUnit, maxLength });

/** A JSON value of any type, mostly not the one a typed field wants. */
const anyJson = fc.jsonValue({ maxDepth: 2 });
/** The valid value for a typed field, or (one time in four) a JSON value of some other type, as a fuzzer Go's decoder would refuse. */
const typed = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<T | unknown> => fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: anyJson, weight: 1 });
const str = (maxLength = 70): fc.Arbitrary<unknown> => typed(nasty(maxLength));
const int64 = typed(fc.oneof(fc.integer(), fc.constantFrom(0, 1, -1, 2 ** 53, 1.5, 1e30)));
const bool = typed(fc.boolean());
const time = typed(fc.constantFrom('2026-01-01T00:00:00Z', 'yesterday', '', '2026-13-45T99:99:99Z'));
const stringMap = typed(fc.dictionary(nasty(70), str(), { maxKeys: 4 }));
const stringList = typed(fc.array(str(), { maxLength: 3 }));

/** metav1.ObjectMeta with every typed path (k8s.io/apimachinery meta/v1 types.go) well or ill typed, plus unknown fields. */
const objectMeta = typed(
  fc
    .tuple(
      fc.record(
        {
          name: typed(fc.oneof(fc.constantFrom('cm', 'fuzz', 'x', ''), nasty(300))),
          generateName: str(),
          namespace: typed(fc.oneof(fc.constantFrom('fuzz', 'default', 'other'), nasty(70))),
          selfLink: str(),
          uid: str(),
          resourceVersion: typed(fc.oneof(fc.constantFrom('1', 'abc', ''), nasty(20))),
          generation: int64,
          creationTimestamp: time,
          deletionTimestamp: time,
          deletionGracePeriodSeconds: int64,
          labels: stringMap,
          annotations: stringMap,
          ownerReferences: typed(fc.array(typed(fc.record({ apiVersion: str(), kind: str(), name: str(), uid: str(), controller: bool, blockOwnerDeletion: bool }, { requiredKeys: [] })), { maxLength: 2 })),
          finalizers: stringList,
          managedFields: typed(fc.array(typed(fc.record({ manager: str(), operation: typed(fc.constantFrom('Apply', 'Update', 'Bogus')), apiVersion: str(), time, fieldsType: typed(fc.constantFrom('FieldsV1', 'x')), fieldsV1: anyJson, subresource: str() }, { requiredKeys: [] })), { maxLength: 2 })),
        },
        { requiredKeys: [] },
      ),
      fc.dictionary(nasty(20), anyJson, { maxKeys: 2 }),
    )
    .map(([known, unknown]) => ({ ...unknown, ...known })),
);

const kubeish = fc
  .tuple(
    fc.record(
      {
        apiVersion: fc.constantFrom('v1', 'apps/v1', 'apiextensions.k8s.io/v1', 'apiregistration.k8s.io/v1', 'wardle.example.com/v1alpha1', 'bogus/v9', ''),
        kind: fc.constantFrom('ConfigMap', 'Secret', 'Namespace', 'Service', 'Pod', 'CustomResourceDefinition', 'APIService', 'Lease', 'Flunder', 'Fischer', 'Status', 'DeleteOptions', 'Nope'),
        metadata: objectMeta,
        data: typed(fc.dictionary(nasty(20), fc.oneof(nasty(100), fc.integer(), fc.constant(null)))),
        spec: fc.jsonValue({ maxDepth: 4 }),
        // DeleteOptions' fields, for DELETE bodies.
        dryRun: typed(fc.array(fc.constantFrom('All', 'None', ''), { maxLength: 2 })),
        propagationPolicy: typed(fc.constantFrom('Foreground', 'Background', 'Orphan', 'Sideways')),
        gracePeriodSeconds: int64,
        preconditions: typed(fc.record({ uid: str(), resourceVersion: str() }, { requiredKeys: [] })),
      },
      { requiredKeys: [] },
    ),
    // Unknown fields: named by user text, they come back in Warning headers.
    fc.dictionary(nasty(30), anyJson, { maxKeys: 2 }),
  )
  .map(([known, unknown]) => ({ ...unknown, ...known }));

/** The same document as YAML (a double-quoted YAML string carries \ud800 escapes as JSON does). */
const asYaml = (v: unknown): string => stringifyYaml(v, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'QUOTE_DOUBLE' });
const body = fc.oneof(
  kubeish.map((o) => JSON.stringify(o)),
  kubeish.map(asYaml),
  fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
  fc.array(fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'), path: fc.constantFrom('/data/a', '/metadata/labels/x', '/', '', '/spec/-', '~1'), value: fc.jsonValue({ maxDepth: 2 }) })).map((ops) => JSON.stringify(ops)),
  fc.string({ maxLength: 300 }),
  fc.constant('{"a":'.repeat(2000)),
  fc.constant(''),
);

const anyRequest = fc.record({
  // CONNECT and methods Node's parser refuses are sent over raw sockets below (Node's client treats them apart).
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND', 'PURGE'),
  path,
  query,
  contentType,
  accept,
  body: fc.option(body, { nil: undefined }),
});

type GeneratedRequest = typeof anyRequest extends fc.Arbitrary<infer T> ? T : never;

/** Resources every kind of server writes (built-in, CRDs, an SDK server's typed kinds), with their type meta. */
const WRITABLE = [
  { path: '/api/v1/namespaces/fuzz/configmaps', apiVersion: 'v1', kind: 'ConfigMap' },
  { path: '/api/v1/namespaces/fuzz/secrets', apiVersion: 'v1', kind: 'Secret' },
  { path: '/api/v1/namespaces/fuzz/serviceaccounts', apiVersion: 'v1', kind: 'ServiceAccount' },
  { path: '/apis/coordination.k8s.io/v1/namespaces/fuzz/leases', apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
  { path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' },
  { path: `${WARDLE}/namespaces/fuzz/flunders`, apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder' },
  { path: `${WARDLE}/fischers`, apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer' },
];

/**
 * Writes that get past routing and type meta to the decoder and the write path (a random request mostly meets a
 * 404): the body's apiVersion and kind are the resource's, its metadata and fields typed well or ill.
 */
const typedWrite = fc
  .record({
    target: fc.constantFrom(...WRITABLE),
    method: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'),
    name: fc.constantFrom('cm', 'fl', 'w1', 'w2'),
    doc: kubeish,
    yaml: fc.boolean(),
    dryRun: fc.boolean(),
    patchType: fc.constantFrom('application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'),
    accept,
  })
  .map(({ target, method, name, doc, yaml, dryRun, patchType, accept }): GeneratedRequest => {
    const meta = doc.metadata;
    const obj = { ...doc, apiVersion: target.apiVersion, kind: target.kind, metadata: method === 'PUT' && meta && typeof meta === 'object' && !Array.isArray(meta) ? { ...meta, name } : meta };
    const params = new URLSearchParams({ timeoutSeconds: '1' });
    if (dryRun) params.set('dryRun', 'All');
    if (patchType === 'application/apply-patch+yaml') params.set('fieldManager', 'fuzz');
    const contentType = method === 'PATCH' ? patchType : yaml ? 'application/yaml' : 'application/json';
    return {
      method,
      path: method === 'POST' ? target.path : `${target.path}/${name}`,
      query: `?${params.toString()}`,
      contentType,
      accept,
      body: yaml || contentType === 'application/apply-patch+yaml' ? asYaml(obj) : JSON.stringify(obj),
    };
  });

const request = fc.oneof({ arbitrary: anyRequest, weight: 2 }, { arbitrary: typedWrite, weight: 1 });

type Target = 'front door' | 'core-api' | 'extensions' | 'wardle';

function serverOf(target: Target): Pick<StackHarness, 'request'> {
  return { 'front door': stack, 'core-api': stack.core, extensions: stack.extensions, wardle: wardleAccess }[target];
}

function send(target: Target, r: GeneratedRequest): ReturnType<StackHarness['request']> {
  const server = serverOf(target);
  const headers: Record<string, string> = { Accept: r.accept };
  if (r.contentType) headers['Content-Type'] = r.contentType;
  return server.request(r.method, `${r.path}${r.query}`, { body: r.method === 'GET' || r.method === 'HEAD' ? undefined : r.body, headers });
}

describe.each<Target>(['front door', 'core-api', 'extensions', 'wardle'])('fuzzing the HTTP surface of the %s', (target) => {
  it(`answers ${RUNS} generated requests without a crash, with no undocumented 5xx and a Status for every error`, async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const res = await Promise.race([send(target, r), new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in 15 s: ${r.method} ${r.path}${r.query}`)), 15_000))]);
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        const where = `→ ${res.status} ${res.body.slice(0, 300)} for ${r.method} ${r.path.slice(0, 200)}${r.query} (${r.contentType || 'no content type'})`;
        if (res.status >= 500) expect(documented5xx(res.status, res.body, String(res.headers['content-type'] ?? ''), r.contentType), where).toBe(true);
        if (res.status >= 400 && r.method !== 'HEAD' && res.body !== '' && String(res.headers['content-type'] ?? '').includes('json')) {
          const status = JSON.parse(res.body) as { kind?: string; code?: number };
          expect(status.kind, where).toBe('Status');
          expect(status.code, where).toBe(res.status);
        }
        if (res.status >= 400 && r.method !== 'HEAD') expect(res.body, where).not.toBe('');
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(`[fuzz] ${target}: ${RUNS} requests, answers by status ${JSON.stringify(Object.fromEntries([...seen].sort(([a], [b]) => a - b)))}`);
    // Still serving: the process survived everything above.
    expect((await serverOf(target).request('GET', '/readyz')).status).toBe(200);
    expect([...seen.keys()].length).toBeGreaterThan(1);
  }, 60_000 + RUNS * 10);
});

/** Warning header values as the client reads them: Node hands header bytes over as latin1; kube sends UTF-8. */
function warningsOf(headers: Record<string, string | string[] | undefined>): string[] {
  const raw = headers.warning;
  // Node joins repeated headers with ", ".
  return (raw === undefined ? [] : Array.isArray(raw) ? raw : raw.split(/, (?=299 - ")/)).map((w) => Buffer.from(w, 'latin1').toString('utf8'));
}

describe('what earlier fuzzing runs found (each answered 500 once)', () => {
  const writes: Array<[Target, string, string, string]> = [
    ['front door', '/api/v1/namespaces/fuzz/configmaps', 'v1', 'ConfigMap'],
    ['core-api', '/api/v1/namespaces/fuzz/configmaps', 'v1', 'ConfigMap'],
    ['extensions', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', 'apiextensions.k8s.io/v1', 'CustomResourceDefinition'],
    ['wardle', `${WARDLE}/namespaces/fuzz/flunders`, 'wardle.example.com/v1alpha1', 'Flunder'],
  ];

  it.each(writes)('%s: metadata of the wrong JSON type is kube\'s 400 decode error naming the field (%s)', async (target, path, apiVersion, kind) => {
    const version = apiVersion.split('/').at(-1);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ labels: { a: { b: 1 } } }, 'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.labels of type string'],
      [{ annotations: ['a'] }, 'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.annotations of type map[string]string'],
      [{ generation: 'one' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64'],
      [{ finalizers: [{}] }, 'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.finalizers of type string'],
      [{ ownerReferences: [{ controller: 'yes' }] }, 'json: cannot unmarshal string into Go struct field OwnerReference.metadata.ownerReferences.controller of type bool'],
      [{ managedFields: [{ time: 5 }] }, 'json: cannot unmarshal number into Go struct field ManagedFieldsEntry.metadata.managedFields.time of type string'],
    ];
    for (const [metadata, message] of cases) {
      const r = await serverOf(target).request('POST', path, { body: JSON.stringify({ apiVersion, kind, metadata: { name: 'typed', ...metadata }, spec: {} }) });
      expect(r.status, r.body).toBe(400);
      expect(r.json()).toMatchObject({ kind: 'Status', code: 400, reason: 'BadRequest', message: `${kind} in version "${version}" cannot be handled as a ${kind}: ${message}` });
    }
    const notAnObject = await serverOf(target).request('POST', path, { body: JSON.stringify({ apiVersion, kind, metadata: 'typed' }) });
    expect(notAnObject.json()).toMatchObject({ code: 400, message: `${kind} in version "${version}" cannot be handled as a ${kind}: json: cannot unmarshal string into Go struct field ${kind}.metadata of type v1.ObjectMeta` });
  });

  it('a null label value, annotation value or data value is what Go decodes it into (""), not a 500', async () => {
    const metadata = { name: 'nulls', labels: { a: null, b: 'x' }, annotations: { n: null }, finalizers: ['example.com/f'] };
    for (const [path, body] of [
      ['/api/v1/namespaces/fuzz/secrets', { apiVersion: 'v1', kind: 'Secret', metadata, stringData: { s: null } }],
      ['/api/v1/namespaces/fuzz/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { d: null } }],
    ] as const) {
      const r = await stack.core.request('POST', `${path}?dryRun=All`, { body: JSON.stringify(body) });
      expect(r.status, r.body).toBe(201);
      expect(r.json<{ metadata: Record<string, unknown> }>().metadata).toMatchObject({ labels: { a: '', b: 'x' }, annotations: { n: '' } });
    }
  });

  it('a typed field of the wrong JSON type beyond metadata is kube\'s 400 too (a typed kind is checked against its schema)', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/apis/coordination.k8s.io/v1/namespaces/fuzz/leases', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: [] }, 'Lease in version "v1" cannot be handled as a Lease: json: cannot unmarshal array into Go struct field Lease.spec of type v1.LeaseSpec'],
      ['/apis/coordination.k8s.io/v1/namespaces/fuzz/leases', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { leaseDurationSeconds: '15' } }, 'Lease in version "v1" cannot be handled as a Lease: json: cannot unmarshal string into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32'],
      ['/api/v1/namespaces/fuzz/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 1 } }, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string'],
    ];
    for (const [path, body, message] of cases) {
      const r = await stack.request('POST', path, { body: JSON.stringify(body) });
      expect(r.status, r.body).toBe(400);
      expect(r.json()).toMatchObject({ code: 400, reason: 'BadRequest', message });
    }
  });

  it('a patch whose result has metadata of the wrong JSON type is kube\'s 422 on the patch (jsonPatcher)', async () => {
    // The random requests above may have deleted it.
    await stack.request('POST', '/api/v1/namespaces/fuzz/configmaps', { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } }) });
    const r = await stack.request('PATCH', '/api/v1/namespaces/fuzz/configmaps/cm', { body: JSON.stringify({ metadata: { labels: { a: { b: 1 } } } }), headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(r.status, r.body).toBe(422);
    const status = r.json<{ message: string; details: { causes: Array<{ field: string; message: string }> } }>();
    expect(status.message).toMatch(/^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal object into Go struct field ObjectMeta\.metadata\.labels of type string$/);
    expect(status.details.causes[0].field).toBe('patch');
  });

  it('a custom resource whose metadata has the wrong JSON type is kube\'s 400 (metadata decoded on its own, as apiextensions does)', async () => {
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'typeds.fuzz.example.com' }, spec: { group: 'fuzz.example.com', scope: 'Namespaced', names: { plural: 'typeds', singular: 'typed', kind: 'Typed' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] } };
    expect((await stack.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: JSON.stringify(crd) })).status).toBe(201);
    const path = '/apis/fuzz.example.com/v1/namespaces/fuzz/typeds';
    expect(await until(async () => (await stack.request('GET', path)).status === 200, 30_000)).toBe(true);
    for (const server of [stack, stack.extensions]) {
      const r = await server.request('POST', path, { body: JSON.stringify({ apiVersion: 'fuzz.example.com/v1', kind: 'Typed', metadata: { name: 't', labels: { a: { b: 1 } } } }) });
      expect(r.status, r.body).toBe(400);
      expect(r.json()).toMatchObject({ code: 400, reason: 'BadRequest', message: 'Typed in version "v1" cannot be handled as a Typed: json: cannot unmarshal object into Go struct field ObjectMeta.labels of type string' });
    }
  });

  it.each(writes)('%s: user text in a Warning header (an unknown field named with a lone surrogate or beyond Latin-1) goes out as UTF-8', async (target, path, apiVersion, kind) => {
    const valid: Record<string, unknown> =
      kind === 'CustomResourceDefinition'
        ? { spec: { group: 'fuzz.example.com', scope: 'Namespaced', names: { plural: 'warneds', singular: 'warned', kind: 'Warned' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] } }
        : {};
    const name = kind === 'CustomResourceDefinition' ? 'warneds.fuzz.example.com' : 'warned';
    // YAML, as the fuzzer found it: double-quoted keys carry the \ud800 escape.
    const body = asYaml({ apiVersion, kind, metadata: { name }, ...valid, 'x\ud800': 1, 名前: 2, 'ctl\u0001': 3 });
    const r = await serverOf(target).request('POST', `${path}?fieldValidation=Warn&dryRun=All`, { body, headers: { 'Content-Type': 'application/yaml' } });
    expect(r.status, r.body).toBe(201);
    // Go decoded the lone surrogate as U+FFFD; kube drops a warning that holds control characters.
    const warnings = warningsOf(r.headers);
    expect(warnings).toContain('299 - "unknown field \\"x\ufffd\\""');
    expect(warnings).toContain('299 - "unknown field \\"名前\\""');
    expect(warnings.some((w) => w.includes('ctl'))).toBe(false);
  });
});

/** One raw HTTP/1.1 exchange over TLS as the admin; resolves with everything the server sent before closing. */
function raw(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca: readFileSync(stack.pki.caCert), cert: readFileSync(stack.pki.adminCert), key: readFileSync(stack.pki.adminKey) }, () => socket.write(head));
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (out += c));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('requests Node\'s HTTP layer handles apart', () => {
  it.each([
    ['CONNECT', 'CONNECT /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n\r\n', 405, 'MethodNotAllowed'],
    ['a method Node does not know', 'LIST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n\r\n', 405, 'MethodNotAllowed'],
    ['a malformed request line', 'GET /api v1\r\n\r\n', 400, 'BadRequest'],
  ])('answers %s with a Status on every server', async (_what, head, code, reason) => {
    for (const url of [stack.url, stack.core.url, stack.extensions.url, wardleAccess.url]) {
      const answer = await raw(Number(new URL(url).port), head);
      expect(answer.split('\r\n')[0]).toBe(`HTTP/1.1 ${code} ${code === 405 ? 'Method Not Allowed' : 'Bad Request'}`);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ kind: 'Status', code, reason });
    }
  });
});
