/**
 * Fuzzes every server's HTTP surface (the front door, and core-api, extensions and an SDK server — the wardle
 * sample-apiserver — directly) with generated
 * methods, paths, query strings, content types, headers and bodies. Properties: no process dies, no 5xx except the
 * documented ones (503 Service Unavailable, 504 Timeout), and every error answer is a metav1.Status.
 * FUZZ_RUNS sets the number of requests per server (default 150 here; `npm run chaos` runs thousands);
 * FUZZ_SEED replays a run.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import type { INestApplicationContext } from '@nestjs/common';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServerLifecycle } from '@kube/apiserver';
import { adminAccess, bootAggregatedServer, startStack, type StackHarness, until } from '@test/support';
import { SampleApiServerModule } from '../../apps/sample-apiserver/src/sample-apiserver.module';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
/** 5xx answers kube gives too, each with a Status body. */
const DOCUMENTED_5XX = new Set([503, 504]);

const WARDLE = '/apis/wardle.example.com/v1alpha1';

let stack: StackHarness;
let wardle: INestApplicationContext;
let wardleAccess: Awaited<ReturnType<typeof adminAccess>>;

beforeAll(async () => {
  stack = await startStack();
  // Something to find: objects of a few kinds in a namespace of their own.
  await stack.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fuzz' } }) });
  await stack.request('POST', '/api/v1/namespaces/fuzz/configmaps', { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } }) });
  wardle = await bootAggregatedServer(stack, { component: 'sample-apiserver', serviceDnsName: 'wardle-server.default.svc', module: (options) => SampleApiServerModule.forRoot(options) });
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

const kubeish = fc.record(
  {
    apiVersion: fc.constantFrom('v1', 'apps/v1', 'apiextensions.k8s.io/v1', 'apiregistration.k8s.io/v1', 'wardle.example.com/v1alpha1', 'bogus/v9', ''),
    kind: fc.constantFrom('ConfigMap', 'Secret', 'Namespace', 'Service', 'Pod', 'CustomResourceDefinition', 'APIService', 'Lease', 'Flunder', 'Fischer', 'Status', 'DeleteOptions', 'Nope'),
    metadata: fc.record({ name: fc.oneof(fc.constantFrom('cm', 'fuzz', 'x', ''), fc.string({ maxLength: 300 })), namespace: fc.constantFrom('fuzz', 'default', 'other'), labels: fc.dictionary(fc.string({ maxLength: 70 }), fc.string({ maxLength: 70 })), resourceVersion: fc.constantFrom('1', 'abc', '') }, { requiredKeys: [] }),
    data: fc.dictionary(fc.string({ maxLength: 20 }), fc.oneof(fc.string(), fc.integer(), fc.constant(null))),
    spec: fc.jsonValue({ maxDepth: 4 }),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  kubeish.map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
  fc.array(fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'), path: fc.constantFrom('/data/a', '/metadata/labels/x', '/', '', '/spec/-', '~1'), value: fc.jsonValue({ maxDepth: 2 }) })).map((ops) => JSON.stringify(ops)),
  fc.string({ maxLength: 300 }),
  fc.constant('{"a":'.repeat(2000)),
  fc.constant(''),
);

const request = fc.record({
  // CONNECT and methods Node's parser refuses are sent over raw sockets below (Node's client treats them apart).
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND', 'PURGE'),
  path,
  query,
  contentType,
  accept,
  body: fc.option(body, { nil: undefined }),
});

type Target = 'front door' | 'core-api' | 'extensions' | 'wardle';
type GeneratedRequest = typeof request extends fc.Arbitrary<infer T> ? T : never;

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
        if (res.status >= 500) expect(DOCUMENTED_5XX.has(res.status), where).toBe(true);
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
