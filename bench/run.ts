/**
 * `npm run bench`: core-api against baselines measured in the same run on the same machine.
 *  1. GET one configmap (watch cache) vs a raw node:https server answering the same JSON, 32 connections.
 *  2. CREATE configmaps vs direct etcd create-only transactions, 64 in flight; then admission's cost (bench/admission.bench.ts).
 *     Secrets at rest: GET and CREATE with aesgcm and KMS v2 as ratios of identity (bench/encryption.bench.ts).
 *  3. LIST of 1,000 configmaps vs one etcd range of the same keys.
 *  4. 1,000 concurrent watchers (their own process, bench/watch.clients.ts), one write at a time: delivery latency
 *     p50/p99 and the CPU per write of server and watchers; direct and through the aggregator.
 *  Then the aggregator in front (proxy cost against direct and against a minimal Node proxy, bench/minimal.proxy.ts;
 *  availability), custom resources, the SDK (bench/sdk.bench.ts) and API Priority and Fairness (bench/apf.bench.ts:
 *  a quiet user's GETs while another floods LIST) and the garbage collector (bench/gc.bench.ts). By name only:
 *  `--only workloads`, a Deployment on simulated nodes scaled 0 → 1,000 → 0 and rolled out (bench/workloads.bench.ts).
 *  With `--scale` or `--only scale`: 1 vs 2 replicas of core-api and the aggregator, 10,000 watchers, 100,000
 *  ConfigMaps, 50,000 CRs, 1,000 namespaces deleted at once, 1,000 CRDs, 100 APIServices (bench/scale*.ts).
 * The API runs in its own process; the load generator runs here. Timing targets live here, never in tests.
 * `--quick` (under two minutes, for use before every submission) runs 1.5 s per figure with shorter warm-ups, 250
 * RBAC roles instead of 1,000, 250 GC dependents, and 3 watch writes; `--only create,cr` only the named figures (FIGURES).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Etcd3 } from 'etcd3';
import { ensurePki, issueCertificate, loadCertificateAuthority } from '@kube/pki';
import { startStubAggregatedServer } from './aggregated.stub';
import { benchPriorityAndFairness } from './apf.bench';
import { crd, fiftyFields } from './custom-resource.fixtures';
import { benchSdk } from './sdk.bench';
import { benchAdmission } from './admission.bench';
import { benchProtobuf } from './protobuf.bench';
import { benchEncryption } from './encryption.bench';
import { benchGarbageCollector } from './gc.bench';
import { benchWorkloads } from './workloads.bench';
import { benchHttp2 } from './h2.bench';
import { figure, line, writeReport } from './report';
import { benchScaleApiServices, benchScaleConfigmaps, benchScaleCrds, benchScaleWatchers, fanOut, type FanOutResult } from './scale.bench';
import { benchScaleReplicas } from './scale.replicas';
import { benchScaleCrs } from './scale.crs';
import { benchScaleNamespaces } from './scale.namespaces';
import { coreApiEnv, memoryProbe, spawnPinned, startApp, waitReady } from './servers';
import { CustomResourceSchema } from '@kube/apiextensions';
import type { JSONSchemaProps } from '@kube/apimachinery';
import { freePort, startEtcd, tempDir } from '@kube/testing';
import { agentFor, call, callsPerRequest, etcdCalls, type HttpCall, percentile, runLoad, settleSeconds, warmupSeconds, withServerCpu, type LoadResult, type TlsClient } from './load.generator';
type Pki = Awaited<ReturnType<typeof ensurePki>>;

const ROOT = resolve(__dirname, '..', '..');
const DEFAULT_FIGURES = ['get', 'create', 'admission', 'list', 'protobuf', 'encryption', 'watch', 'proxy', 'cr', 'apply', 'sdk', 'apf', 'gc'] as const;
/** Minutes each: only with `--scale`, `--only scale` or by name (bench/scale*.ts); `--quick` runs them with smaller counts. */
const SCALE_FIGURES = ['scale-replicas', 'scale-watchers', 'scale-configmaps', 'scale-crs', 'scale-namespaces', 'scale-crds', 'scale-apiservices'] as const;
/** Only by name: Deployments on simulated nodes (bench/workloads.bench.ts); HTTP/2 against HTTP/1.1 at the front door (bench/h2.bench.ts). */
const OPT_IN_FIGURES = ['workloads', 'h2'] as const;
const FIGURES = [...DEFAULT_FIGURES, ...SCALE_FIGURES, ...OPT_IN_FIGURES] as const;
type Figure = (typeof FIGURES)[number];
/**
 * `--quick`: shorter runs, for use before every submission. `--only create,cr`: only those figures (`scale`: the
 * four scale figures). `--scale`: the scale figures too.
 */
const ARGS = process.argv.slice(2);
const QUICK = ARGS.includes('--quick');
const ONLY = ((): ReadonlySet<Figure> => {
  const i = ARGS.indexOf('--only');
  const list = i >= 0 ? (ARGS[i + 1] ?? '').split(',').filter(Boolean).flatMap((f) => (f === 'scale' ? [...SCALE_FIGURES] : [f])) : [...DEFAULT_FIGURES];
  if (ARGS.includes('--scale')) list.push(...SCALE_FIGURES);
  const unknown = list.filter((f) => !(FIGURES as readonly string[]).includes(f));
  if (unknown.length) throw new Error(`unknown figure(s) ${unknown.join(', ')}; known: ${FIGURES.join(', ')}`);
  return new Set(list as Figure[]);
})();
const wanted = (f: Figure): boolean => ONLY.has(f);
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 1.5 : 5));
const WARMUP = warmupSeconds(SECONDS);
const SETTLE = settleSeconds(SECONDS);
/** ClusterRoles and bindings besides the one that matters in the RBAC figure. */
const RBAC_ROLES = QUICK ? 250 : 1000;
/** BENCH_PROFILE_DIR: CPU profiles of core-api, extensions and the aggregator (`<dir>/<server>`), read with tools/cpuprofile.summary.cjs. */
const profileArgs = (server: string): string[] => (process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(process.env.BENCH_PROFILE_DIR, server)}`] : []);

function startChild(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return child;
}

async function firstLine(child: ChildProcess): Promise<string> {
  const rl = createInterface({ input: child.stdout! });
  for await (const l of rl) return l;
  return '';
}

/** A WATCH figure: delivery p99, with the CPU per write of the server (core-api, or the aggregator) and of the watchers' process. */
function watchFigure(name: string, w: FanOutResult, target: string): string {
  if (w.error) return figure(name, NaN, 'ms', w.error, target);
  return figure(name, w.p99, 'ms', `delivery p50 ${w.p50.toFixed(1)} ms, p99 ${w.p99.toFixed(1)} ms over ${w.delivered} deliveries; CPU per write: server ${w.serverCpuMs.toFixed(0)} ms, watchers ${w.clientCpuMs.toFixed(0)} ms`, target);
}

async function benchAggregator(apiPort: number, aggPort: number, tls: TlsClient, pki: Pki, aggPid: number | undefined): Promise<void> {
  const one = agentFor(tls, 1);
  const many = agentFor(tls, 32);
  const get = (agent: ReturnType<typeof agentFor>, port: number) => async () => (await call(agent, port, { method: 'GET', path: '/api/v1/namespaces/default/configmaps/bench' })).status === 200;
  // The aggregator is new: it settles under 32 connections first.
  await runLoad(32, SETTLE, get(many, aggPort));
  await runLoad(1, WARMUP, get(one, aggPort));
  const direct1 = await runLoad(1, SECONDS, get(one, apiPort));
  const proxied1 = await runLoad(1, SECONDS, get(one, aggPort));
  const added = proxied1.p50ms - direct1.p50ms;
  const detail1 = `p50 ${proxied1.p50ms.toFixed(2)} ms (+${added.toFixed(2)}), p99 ${proxied1.p99ms.toFixed(2)} ms (+${(proxied1.p99ms - direct1.p99ms).toFixed(2)}) vs direct p50 ${direct1.p50ms.toFixed(2)} ms`;
  console.log(figure('GET through aggregator, 1 conn, added p50', added, 'ms', detail1, '≤ +0.3 ms'));
  // The admin certificate stands in for the front-proxy client certificate: core-api accepts both.
  const minimal = spawnPinned('proxy', [join(ROOT, 'dist/bench/minimal.proxy.js'), pki.apiserverCert, pki.apiserverKey, pki.caCert, String(apiPort), pki.adminCert, pki.adminKey], {});
  const minimalPort = Number(await firstLine(minimal));
  // A new process, like the aggregator was: it settles as long.
  await runLoad(32, SETTLE, get(many, minimalPort));
  // The same hop with nothing but a TLS proxy in it: what any Node proxy adds to one request at a time here.
  await runLoad(1, WARMUP, get(one, minimalPort));
  const minimal1 = await runLoad(1, SECONDS, get(one, minimalPort));
  console.log(figure('  minimal Node proxy, 1 conn, added p50', minimal1.p50ms - direct1.p50ms, 'ms', `p50 ${minimal1.p50ms.toFixed(2)} ms (+${(minimal1.p50ms - direct1.p50ms).toFixed(2)}), p99 ${minimal1.p99ms.toFixed(2)} ms vs direct p50 ${direct1.p50ms.toFixed(2)} ms`, 'the floor of any Node proxy here'));
  await runLoad(32, WARMUP, get(many, aggPort));
  const direct32 = await runLoad(32, SECONDS, get(many, apiPort));
  // The proxy's own CPU per request: far steadier than req/s on a machine others share.
  const proxied32 = await withServerCpu(aggPid, () => runLoad(32, SECONDS, get(many, aggPort)));
  const minimal32 = await withServerCpu(minimal.pid, () => runLoad(32, SECONDS, get(many, minimalPort)));
  minimal.kill('SIGTERM');
  console.log(line('GET through aggregator, 32 conns', proxied32, direct32, '≥ 70% of direct'));
  console.log(line('  minimal Node proxy, 32 conns', minimal32, direct32, 'the ceiling of any Node proxy here'));
  console.log(line('  aggregator vs minimal proxy', proxied32, minimal32, 'report'));
  await benchRbac(aggPort, tls, pki);

  const ca = await loadCertificateAuthority(pki.caCert, pki.caKey);
  const serving = await issueCertificate(ca, { commonName: 'bench-server', dnsNames: ['bench-server.default.svc'], usage: 'server' });
  const stub = await startStubAggregatedServer(serving.certPem, serving.keyPem);
  const agent = agentFor(tls, 4);
  await call(agent, aggPort, { method: 'POST', path: '/api/v1/namespaces/default/services', body: JSON.stringify({ metadata: { name: 'bench-server' }, spec: { ports: [{ name: 'https', port: 443 }] } }) });
  await call(agent, aggPort, { method: 'POST', path: '/api/v1/namespaces/default/endpoints', body: JSON.stringify({ metadata: { name: 'bench-server' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: stub.port }] }] }) });
  const available = async (want: string): Promise<number> => {
    const t0 = performance.now();
    for (;;) {
      const r = await call(agent, aggPort, { method: 'GET', path: '/apis/apiregistration.k8s.io/v1/apiservices/v1.bench.example.com' });
      const cond = (JSON.parse(r.body).status?.conditions ?? []).find((c: { type: string }) => c.type === 'Available');
      if (cond?.status === want) return performance.now() - t0;
      if (performance.now() - t0 > 60_000) return NaN;
      await new Promise((res) => setTimeout(res, 25));
    }
  };
  const t0 = performance.now();
  await call(agent, aggPort, {
    method: 'POST',
    path: '/apis/apiregistration.k8s.io/v1/apiservices',
    body: JSON.stringify({ metadata: { name: 'v1.bench.example.com' }, spec: { group: 'bench.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 15, service: { namespace: 'default', name: 'bench-server', port: 443 }, caBundle: Buffer.from(ca.certPem).toString('base64') } }),
  });
  await available('True');
  const up = performance.now() - t0;
  stub.close();
  const down = await available('False');
  console.log(figure('APIService create → Available', up, 'ms', `${up.toFixed(0)} ms`, '≤ 5000 ms'));
  console.log(figure('APIService backend killed → Available=False', down, 'ms', `${down.toFixed(0)} ms`, '≤ 5000 ms'));
  agent.destroy();
  one.destroy();
  many.destroy();
}

/**
 * Authorization's cost: the same cached GET through the front door by a user RBAC allows through a RoleBinding,
 * with 1,000 other ClusterRoles and bindings in the cluster, vs system:masters (which skips RBAC).
 */
async function benchRbac(aggPort: number, tls: TlsClient, pki: Pki): Promise<void> {
  const admin = agentFor(tls, 8);
  const post = async (path: string, obj: object): Promise<void> => {
    const r = await call(admin, aggPort, { method: 'POST', path, body: JSON.stringify(obj) });
    if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.body}`);
  };
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  for (let i = 0; i < RBAC_ROLES; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, async (_, j) => {
        const n = i + j;
        await post(`${rbac}/clusterroles`, { metadata: { name: `bench-role-${n}` }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: [`s${n}`] }] });
        await post(`${rbac}/clusterrolebindings`, { metadata: { name: `bench-binding-${n}` }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `bench-role-${n}` }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: `someone-${n}` }] });
      }),
    );
  }
  // Its own role: `view` gets its rules from the aggregation controller, which runs in the controller-manager (not started here).
  await post(`${rbac}/clusterroles`, { metadata: { name: 'bench-configmap-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }] });
  await post(`${rbac}/namespaces/default/rolebindings`, { metadata: { name: 'bench-viewer' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'bench-configmap-reader' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bench-viewer' }] });
  const ca = await loadCertificateAuthority(pki.caCert, pki.caKey);
  const viewerCert = await issueCertificate(ca, { commonName: 'bench-viewer', usage: 'client' });
  const viewer = agentFor({ ca: tls.ca, cert: Buffer.from(viewerCert.certPem), key: Buffer.from(viewerCert.keyPem) }, 32);
  const mastersAgent = agentFor(tls, 32);
  const getAs = (agent: ReturnType<typeof agentFor>) => async (): Promise<boolean> => (await call(agent, aggPort, { method: 'GET', path: '/api/v1/namespaces/default/configmaps/bench' })).status === 200;
  const get = getAs(viewer);
  const deadline = Date.now() + 10_000;
  while (!(await get())) if (Date.now() > deadline) throw new Error('bench-viewer is not allowed to read the configmap');
  const masters = await runLoad(32, SECONDS, getAs(mastersAgent));
  const viewed = await runLoad(32, SECONDS, get);
  mastersAgent.destroy();
  console.log(line('GET via aggregator, RBAC user', viewed, masters, `≥ 90% of system:masters, ${RBAC_ROLES.toLocaleString('en-US')} roles`));
  viewer.destroy();
  admin.destroy();
}

/** CRD applied → first custom resource accepted (through the aggregator), CR vs configmap creates, validation cost. */
async function benchCustomResources(apiPort: number, extPort: number, aggPort: number, tls: TlsClient, pids: { api?: number; ext?: number }, etcdEndpoint: string): Promise<void> {
  const agent = agentFor(tls, 64);
  const delays: number[] = [];
  // Where the time goes: the CRD's write, extensions serving the resource (Established, storage and watch
  // cache ready: polled on its own port), the aggregator routing it (the NATS announcement), the first CR's write.
  const steps = { created: [] as number[], extensions: [] as number[], aggregator: [] as number[] };
  const pollUntil = async (t0: number, what: string, attempt: () => Promise<boolean>): Promise<number> => {
    for (;;) {
      if (await attempt()) return performance.now() - t0;
      if (performance.now() - t0 > 30_000) throw new Error(`${what}: not within 30 s`);
      await new Promise((res) => setTimeout(res, 2));
    }
  };
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await call(agent, aggPort, { method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: JSON.stringify(crd(i)) });
    const created = performance.now() - t0;
    let lastAnswer = '';
    const [served, accepted] = await Promise.all([
      pollUntil(t0, `CRD ${i} served by extensions`, async () => (await call(agent, extPort, { method: 'GET', path: `/apis/crbench.example.com/v1/namespaces/default/things${i}` })).status === 200),
      pollUntil(t0, `CR of CRD ${i} accepted`, async () => {
        const r = await call(agent, aggPort, { method: 'POST', path: `/apis/crbench.example.com/v1/namespaces/default/things${i}`, body: JSON.stringify({ apiVersion: 'crbench.example.com/v1', kind: `Thing${i}`, metadata: { name: 'first' }, spec: fiftyFields() }) });
        lastAnswer = `${r.status} ${r.body.slice(0, 200)}`;
        return r.status === 201;
      }).catch((err: Error) => Promise.reject(new Error(`${err.message}: ${lastAnswer}`))),
    ]);
    delays.push(accepted);
    steps.created.push(created);
    steps.extensions.push(served - created);
    steps.aggregator.push(Math.max(0, accepted - served));
  }
  delays.sort((a, b) => a - b);
  const crdP99 = percentile(delays, 99);
  console.log(figure('CRD applied → first CR accepted', crdP99, 'ms', `p50 ${percentile(delays, 50).toFixed(1)} ms, p99 ${crdP99.toFixed(1)} ms over 20 CRDs`, 'p99 ≤ 60 ms'));
  const step = (xs: number[]): string => `p50 ${percentile([...xs].sort((a, b) => a - b), 50).toFixed(1)} / max ${Math.max(...xs).toFixed(1)} ms`;
  console.log(`  steps: CRD write ${step(steps.created)}; then extensions serving it ${step(steps.extensions)}; then the aggregator routing it and the first CR's write ${step(steps.aggregator)}`);
  const spec = fiftyFields();
  const createCr = (prefix: string) => async (n: number) => (await call(agent, extPort, { method: 'POST', path: '/apis/crbench.example.com/v1/namespaces/default/things0', body: JSON.stringify({ apiVersion: 'crbench.example.com/v1', kind: 'Thing0', metadata: { name: `${prefix}-${n}` }, spec }) })).status === 201;
  const createCm = (prefix: string) => async (n: number) => (await call(agent, apiPort, { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: JSON.stringify({ metadata: { name: `${prefix}-${n}` }, data: { a: 'b' } }) })).status === 201;
  // Both sides settle first (SETTLE): extensions is new, and its CPU per CR create starts about 4× its steady
  // state. 64 new TLS connections opened at once to a busy Node server also wait behind the requests of those
  // already open (a plain https server does the same): ~1–2 s for the first burst, reported, not in the p99.
  const crCold = await runLoad(64, SETTLE, createCr('crw'));
  const crCallsBefore = await etcdCalls(etcdEndpoint);
  const crCreate = await withServerCpu(pids.ext, () => runLoad(64, SECONDS, createCr('cr')));
  const crCalls = callsPerRequest(crCallsBefore, await etcdCalls(etcdEndpoint), crCreate.requests);
  const cmCold = await runLoad(64, SETTLE, createCm('cmw'));
  const cmCreate = await withServerCpu(pids.api, () => runLoad(64, SECONDS, createCm('cmp')));
  console.log(line('CREATE custom resource (50 fields)', crCreate, cmCreate, '≥ 85% of configmap creates'));
  const p99Ratio = crCreate.p99ms / cmCreate.p99ms;
  console.log(figure('  CR CREATE p99 vs configmap p99', p99Ratio, '×', `CR p99 ${crCreate.p99ms.toFixed(2)} ms vs configmap p99 ${cmCreate.p99ms.toFixed(2)} ms (server CPU ${cmCreate.cpuUsPerRequest.toFixed(0)} µs/req); etcd calls per CR CREATE: ${crCalls}`, '≤ 2×'));
  console.log(figure('  first burst on 64 new connections', crCold.p99ms, 'ms', `CR CREATE p99 ${crCold.p99ms.toFixed(0)} ms (configmap ${cmCold.p99ms.toFixed(0)} ms) in the first ${SETTLE} s of load`));
  const schema = new CustomResourceSchema((crd(0) as { spec: { versions: Array<{ schema: { openAPIV3Schema: JSONSchemaProps } }> } }).spec.versions[0].schema.openAPIV3Schema);
  const obj = { apiVersion: 'crbench.example.com/v1', kind: 'Thing0', metadata: { name: 'x' }, spec };
  const rounds = 20_000;
  for (let i = 0; i < 1000; i++) schema.validate(obj);
  const v0 = performance.now();
  for (let i = 0; i < rounds; i++) schema.validate(obj);
  const perObject = ((performance.now() - v0) * 1000) / rounds;
  console.log(figure('validation of a 50-field object', perObject, 'µs', `${perObject.toFixed(1)} µs per object (schema, ${rounds} rounds)`));
  if (!wanted('apply')) return agent.destroy();
  // Server-side apply of the same 50-field CR (64 objects, one per connection): unchanged (a no-op), and with one
  // field changed each time; both against CREATE of that CR.
  const applied = (name: string, changed?: number): HttpCall => ({
    method: 'PATCH',
    path: `/apis/crbench.example.com/v1/namespaces/default/things0/${name}?fieldManager=bench`,
    headers: { 'Content-Type': 'application/apply-patch+yaml' },
    body: JSON.stringify({ apiVersion: 'crbench.example.com/v1', kind: 'Thing0', metadata: { name }, spec: changed === undefined ? spec : { ...spec, field0: changed } }),
  });
  for (let i = 0; i < 64; i++) await call(agent, extPort, applied(`ap-${i}`));
  const applyNoop = await withServerCpu(pids.ext, () => runLoad(64, SECONDS, async (n) => (await call(agent, extPort, applied(`ap-${n % 64}`))).status === 200));
  const applyChange = await withServerCpu(pids.ext, () => runLoad(64, SECONDS, async (n) => (await call(agent, extPort, applied(`ap-${n % 64}`, n % 1000))).status === 200));
  console.log(line('APPLY CR unchanged (50 fields)', applyNoop, crCreate, 'report, vs CR CREATE'));
  console.log(line('APPLY CR one field changed', applyChange, crCreate, 'report, vs CR CREATE'));
  agent.destroy();
}

async function main(): Promise<void> {
  const etcd = await startEtcd();
  const dir = tempDir('bench');
  const pki = await ensurePki(join(dir, 'pki'));
  const tls: TlsClient = { ca: readFileSync(pki.caCert), cert: readFileSync(pki.adminCert), key: readFileSync(pki.adminKey) };
  const apiPort = await freePort();
  const api = startApp(ROOT, 'core-api', coreApiEnv(etcd.endpoint, apiPort, pki), profileArgs('core-api'));
  const children: ChildProcess[] = [api];
  try {
    await waitReady(apiPort, tls);
    const agent = agentFor(tls, 64);
    const cm = await call(agent, apiPort, { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: JSON.stringify({ metadata: { name: 'bench', labels: { app: 'bench' } }, data: { key: 'value', other: 'x'.repeat(200) } }) });
    const bodyFile = join(dir, 'body.json');
    writeFileSync(bodyFile, (await call(agent, apiPort, { method: 'GET', path: '/api/v1/namespaces/default/configmaps/bench' })).body);
    const baseline = startChild([join(ROOT, 'dist/bench/baseline.server.js'), pki.apiserverCert, pki.apiserverKey, pki.caCert, bodyFile], {});
    children.push(baseline);
    const basePort = Number(await firstLine(baseline));
    void cm;
    console.log(`core-api ${apiPort}, baseline ${basePort}, etcd ${etcd.endpoint}; ${SECONDS}s per run on ${require('node:os').cpus().length} cores\n`);

    // 1. GET (a short warm-up first so neither side pays for JIT compilation)
    if (wanted('get')) {
      // Both are new processes: both settle.
      await runLoad(32, SETTLE, async () => (await call(agent, basePort, { method: 'GET', path: '/' })).status === 200);
      await runLoad(32, SETTLE, async () => (await call(agent, apiPort, { method: 'GET', path: '/api/v1/namespaces/default/configmaps/bench' })).status === 200);
      const getBase = await runLoad(32, SECONDS, async () => (await call(agent, basePort, { method: 'GET', path: '/' })).status === 200);
      const getOurs = await runLoad(32, SECONDS, async () => (await call(agent, apiPort, { method: 'GET', path: '/api/v1/namespaces/default/configmaps/bench' })).status === 200);
      const getRv0 = await runLoad(32, SECONDS, async () => (await call(agent, apiPort, { method: 'GET', path: '/api/v1/namespaces/default/configmaps/bench?resourceVersion=0' })).status === 200);
      console.log(line('GET configmap (consistent read)', getOurs, getBase, '≥ 40%'));
      console.log(line('GET configmap (resourceVersion=0)', getRv0, getBase, '≥ 40%'));
    }

    // 2. CREATE
    const raw = new Etcd3({ hosts: etcd.endpoint.replace('http://', '') });
    const value = Buffer.from(readFileSync(bodyFile));
    if (wanted('create')) {
      const rawCreate = (prefix: string) => async (i: number) => {
        const key = Buffer.from(`/registry/bench-raw/default/${prefix}-${i}`);
        const res = await raw.kv.txn({ compare: [{ key, target: 'Create', result: 'Equal', create_revision: 0 }], success: [{ request_put: { key, value } }], failure: [] });
        return res.succeeded;
      };
      // The baseline settles as long as our side does (its gRPC client and etcd warm up too).
      await runLoad(64, SETTLE, rawCreate('warm'));
      const createBase = await runLoad(64, SECONDS, rawCreate('cm'));
      const createConfigmap = (prefix: string) => async (i: number) => {
        const r = await call(agent, apiPort, { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: JSON.stringify({ metadata: { name: `${prefix}-${i}` }, data: { key: 'value', other: 'x'.repeat(200) } }) });
        return r.status === 201;
      };
      await runLoad(64, SETTLE, createConfigmap('create-warm'));
      const callsBefore = await etcdCalls(etcd.endpoint);
      const createOurs = await withServerCpu(api.pid, () => runLoad(64, SECONDS, createConfigmap('create')));
      console.log(line('CREATE configmap', createOurs, createBase, '≥ 75%'));
      // kube does one transaction per create: anything more is a round trip to remove.
      console.log(`  etcd calls per configmap CREATE: ${callsPerRequest(callsBefore, await etcdCalls(etcd.endpoint), createOurs.requests)}`);
    }

    // 3. LIST of 1,000
    if (wanted('list')) {
      await call(agent, apiPort, { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: 'list' } }) });
      for (let i = 0; i < 1000; i += 50) {
        await Promise.all(Array.from({ length: 50 }, (_, j) => call(agent, apiPort, { method: 'POST', path: '/api/v1/namespaces/list/configmaps', body: JSON.stringify({ metadata: { name: `l-${i + j}` }, data: { key: 'value' } }) })));
      }
      const prefix = Buffer.from('/registry/configmaps/list/');
      const end = Buffer.from('/registry/configmaps/list0');
      const listBase = await runLoad(4, SECONDS, async () => (await raw.kv.range({ key: prefix, range_end: end })).kvs.length === 1000);
      const listOurs = await runLoad(4, SECONDS, async () => JSON.parse((await call(agent, apiPort, { method: 'GET', path: '/api/v1/namespaces/list/configmaps' })).body).items.length === 1000);
      console.log(line('LIST 1,000 configmaps', listOurs, listBase, 'report'));
    }
    // After LIST: its tens of thousands of creates would still be settling in the watch cache during LIST's run.
    if (wanted('admission')) await benchAdmission({ apiPort, pki, tls, seconds: SECONDS, line });
    if (wanted('protobuf')) await benchProtobuf({ apiPort, apiPid: api.pid, agent, seconds: SECONDS, line });
    // Secrets with aesgcm and KMS v2 against identity, each in a core-api of its own (bench/encryption.bench.ts).
    if (wanted('encryption')) await benchEncryption({ root: ROOT, etcdEndpoint: etcd.endpoint, pki, tls, dir, seconds: SECONDS, settle: SETTLE, line });
    raw.close();
    agent.destroy();

    // 4. 1,000 watchers, one write
    if (wanted('watch')) {
      const w = await fanOut(ROOT, apiPort, tls, pki, 'direct-figure', Number(process.env.BENCH_WATCHERS ?? 1000), QUICK ? 3 : 5, api.pid);
      console.log(watchFigure('WATCH fan-out to 1,000 watchers', w, 'p99 ≤ 30 ms'));
    }

    // 5. extensions and the aggregator in front of core-api; then 100,000 configmaps on an etcd of their own.
    const stackFigures: Figure[] = ['watch', 'proxy', 'cr', 'apply', 'sdk', 'apf', 'gc', 'workloads', 'h2', 'scale-watchers', 'scale-crds', 'scale-apiservices'];
    if (stackFigures.some(wanted)) await benchWithExtensionsAndAggregator(children, etcd.endpoint, apiPort, api.pid, tls, pki);
    if (wanted('scale-configmaps')) await benchScaleConfigmaps({ root: ROOT, pki, tls, seconds: SECONDS, quick: QUICK });
    // Each on a stack of its own (bench/scale.stack.ts).
    if (wanted('scale-replicas')) await benchScaleReplicas({ root: ROOT, seconds: SECONDS, settle: SETTLE, quick: QUICK });
    if (wanted('scale-crs')) await benchScaleCrs({ root: ROOT, quick: QUICK });
    if (wanted('scale-namespaces')) await benchScaleNamespaces({ root: ROOT, quick: QUICK });
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    await etcd.stop();
    writeReport(process.env.BENCH_REPORT ?? join(ROOT, '.local/bench/results'), { quick: QUICK, seconds: SECONDS, args: ARGS });
  }
}

/** extensions and the aggregator in front of core-api, and the figures that need them. */
async function benchWithExtensionsAndAggregator(children: ChildProcess[], etcdEndpoint: string, apiPort: number, apiPid: number | undefined, tls: TlsClient, pki: Pki): Promise<void> {
  const extProbe = memoryProbe(ROOT, join(tempDir('bench-heap'), 'extensions.json'));
  const extPort = await freePort();
  // The scale CRD figure reads extensions' live heap: the probe is preloaded only then.
  const probed = wanted('scale-crds');
  const ext = startApp(
    ROOT,
    'extensions',
    {
      ...(probed ? extProbe.env : {}),
      KUBE_ETCD_ENDPOINTS: etcdEndpoint,
      KUBE_SECURE_PORT: String(extPort),
      KUBE_TLS_CERT_FILE: pki.apiserverCert,
      KUBE_TLS_PRIVATE_KEY_FILE: pki.apiserverKey,
      KUBE_CLIENT_CA_FILE: pki.caCert,
      KUBE_REQUESTHEADER_CLIENT_CA_FILE: pki.frontProxyCaCert,
      KUBE_REQUESTHEADER_ALLOWED_NAMES: 'front-proxy-client',
      KUBE_MAX_MUTATING_REQUESTS_INFLIGHT: '1000',
    },
    [...profileArgs('extensions'), ...(probed ? extProbe.nodeArgs : [])],
  );
  children.push(ext);
  await waitReady(extPort, tls);
  const aggPort = await freePort();
  const aggregator = startApp(
    ROOT,
    'aggregator',
    {
    KUBE_ETCD_ENDPOINTS: etcdEndpoint,
    KUBE_SECURE_PORT: String(aggPort),
    KUBE_TLS_CERT_FILE: pki.apiserverCert,
    KUBE_TLS_PRIVATE_KEY_FILE: pki.apiserverKey,
    KUBE_CLIENT_CA_FILE: pki.caCert,
    KUBE_PROXY_CLIENT_CERT_FILE: pki.frontProxyClientCert,
    KUBE_PROXY_CLIENT_KEY_FILE: pki.frontProxyClientKey,
    KUBE_AGGREGATOR_BACKENDS: `core-api=https://127.0.0.1:${apiPort},extensions=https://127.0.0.1:${extPort}`,
    KUBE_MAX_REQUESTS_INFLIGHT: '2000',
    },
    profileArgs('aggregator'),
  );
  children.push(aggregator);
  await waitReady(aggPort, tls);
  if (wanted('watch')) {
    const w = await fanOut(ROOT, aggPort, tls, pki, 'proxied-figure', Number(process.env.BENCH_WATCHERS ?? 1000), QUICK ? 3 : 5, aggregator.pid);
    console.log(watchFigure('WATCH 1,000 watchers via aggregator', w, 'p99 ≤ 45 ms'));
  }
  if (wanted('proxy')) await benchAggregator(apiPort, aggPort, tls, pki, aggregator.pid);
  if (wanted('h2')) await benchHttp2({ root: ROOT, etcdEndpoint, apiPort, extPort, pki, tls, seconds: SECONDS, settle: SETTLE, quick: QUICK });
  if (wanted('cr') || wanted('apply')) await benchCustomResources(apiPort, extPort, aggPort, tls, { api: apiPid, ext: ext.pid }, etcdEndpoint);
  if (wanted('sdk')) await benchSdk({ root: ROOT, etcdEndpoint, aggPort, pki, tls, seconds: SECONDS, line });
  if (wanted('apf')) await benchPriorityAndFairness({ root: ROOT, etcdEndpoint, pki, tls, seconds: SECONDS });
  if (wanted('gc')) await benchGarbageCollector({ root: ROOT, aggPort, pki, tls, quick: QUICK });
  if (wanted('workloads')) await benchWorkloads({ root: ROOT, aggPort, pki, tls, quick: QUICK });
  const scale = { root: ROOT, pki, tls, seconds: SECONDS, quick: QUICK };
  if (wanted('scale-watchers')) await benchScaleWatchers({ ...scale, apiPort, apiPid, aggPort, aggPid: aggregator.pid, quick: QUICK });
  if (wanted('scale-apiservices')) await benchScaleApiServices({ ...scale, aggPort });
  if (wanted('scale-crds')) await benchScaleCrds({ ...scale, aggPort, extPid: ext.pid, readExtensionsMemory: () => extProbe.read(ext.pid) });
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
