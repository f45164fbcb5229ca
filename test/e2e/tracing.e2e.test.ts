/**
 * OpenTelemetry tracing across processes: core-api, extensions and the aggregator as their compiled mains (run
 * `npm run build` first) with KUBE_TRACING_CONFIG_FILE (kube's TracingConfiguration, every request sampled),
 * exporting OTLP/gRPC to a receiver this test runs. One write crosses front door → core-api → etcd: three services'
 * spans in one trace with parent/child links (server span → REST handler span → etcd client span); the client's traceparent becomes a link (kube's public endpoint);
 * kubectl 1.27 and 1.33's requests are traced; request log lines carry the trace id.
 */
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKubeconfig, ensurePki, type PkiPaths } from '@kube/pki';
import { freePorts, startEtcd, SupervisedProcess, tempDir, type EtcdProcess } from '@kube/testing';
import { kubectlSession, serverProcessEnv, startOtlpReceiver, until, type OtlpReceiver, type ReceivedSpan } from '@test/support';

const ROOT = join(__dirname, '..', '..');
const SERVICES = ['core-api', 'extensions', 'aggregator'] as const;
type Service = (typeof SERVICES)[number];

describe('tracing across the front door, core-api and etcd (OTLP/gRPC)', () => {
  let etcd: EtcdProcess;
  let pki: PkiPaths;
  let receiver: OtlpReceiver;
  let kubeconfig = '';
  const ports = new Map<Service, number>();
  const procs = new Map<Service, SupervisedProcess>();
  const dir = tempDir('tracing');

  const post = (path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown> }> =>
    new Promise((resolve, reject) => {
      const payload = JSON.stringify(body);
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: ports.get('aggregator'),
          method: 'POST',
          path,
          ca: readFileSync(pki.caCert),
          cert: readFileSync(pki.adminCert),
          key: readFileSync(pki.adminKey),
          headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)), ...headers },
          agent: false,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  const output = (service: Service): string[] => (procs.get(service)?.output() ?? '').split('\n').filter(Boolean);
  const trace = (traceId: string): ReceivedSpan[] => receiver.spans.filter((s) => s.traceId === traceId);

  beforeAll(async () => {
    expect(existsSync(join(ROOT, 'dist/apps/aggregator/src/main.js')), 'run `npm run build` first').toBe(true);
    [etcd, pki, receiver] = await Promise.all([startEtcd(), ensurePki(join(dir, 'pki')), startOtlpReceiver()]);
    const config = join(dir, 'tracing.yaml');
    writeFileSync(config, `apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nendpoint: ${receiver.endpoint}\nsamplingRatePerMillion: 1000000\n`);
    const [core, ext, agg] = await freePorts(3);
    ports.set('core-api', core).set('extensions', ext).set('aggregator', agg);
    kubeconfig = join(dir, 'kubeconfig');
    await writeKubeconfig(kubeconfig, { server: `https://127.0.0.1:${agg}`, caPem: readFileSync(pki.caCert, 'utf8'), clientCertPem: readFileSync(pki.adminCert, 'utf8'), clientKeyPem: readFileSync(pki.adminKey, 'utf8') });
    const common = { ...serverProcessEnv(pki, etcd.endpoint), KUBE_TRACING_CONFIG_FILE: config, KUBE_LOG_REQUESTS: 'true' };
    const extra: Record<Service, NodeJS.ProcessEnv> = {
      'core-api': {},
      extensions: {},
      aggregator: {
        KUBE_PROXY_CLIENT_CERT_FILE: pki.frontProxyClientCert,
        KUBE_PROXY_CLIENT_KEY_FILE: pki.frontProxyClientKey,
        KUBE_BACKEND_CA_FILE: pki.caCert,
        KUBE_AGGREGATOR_BACKENDS: `core-api=https://127.0.0.1:${core},extensions=https://127.0.0.1:${ext}`,
      },
    };
    for (const service of SERVICES) {
      const env = { ...common, ...extra[service], KUBE_SECURE_PORT: String(ports.get(service)) };
      procs.set(service, new SupervisedProcess({ name: service, command: process.execPath, args: [join(ROOT, `dist/apps/${service}/src/main.js`)], env, keepLines: 100_000 }));
    }
    const ready = await until(async () => {
      for (const [name, proc] of procs) if (!proc.running) throw new Error(`${proc.describeExit()}:\n${output(name).slice(-20).join('\n')}`);
      return (await post('/api/v1/namespaces/default/configmaps?dryRun=All', { metadata: { name: 'probe' } }, {}).catch(() => ({ status: 0 }))).status === 201;
    }, 60_000);
    expect(ready, `not ready:\n${output('aggregator').slice(-20).join('\n')}`).toBe(true);
  }, 120_000);

  afterAll(async () => {
    for (const service of [...SERVICES].reverse()) await procs.get(service)?.stop();
    await receiver?.stop();
    await etcd?.stop();
  });

  it('exports one trace of a create: the front door span, core-api\'s as its child, the etcd call as core-api\'s child', async () => {
    const clientTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const clientSpan = '00f067aa0ba902b7';
    const created = await post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'traced' }, data: { a: 'b' } }, { traceparent: `00-${clientTrace}-${clientSpan}-01` });
    expect(created.status).toBe(201);
    const auditId = String(created.headers['audit-id']);
    const name = 'POST /api/v1/namespaces/{:namespace}/configmaps';

    // The front door's server span: a new trace linked to the client's span (kube's public endpoint).
    let front: ReceivedSpan | undefined;
    expect(await until(async () => (front = receiver.spans.find((s) => s.service === 'aggregator' && s.name === name && s.attributes['audit-id'] === auditId)) !== undefined, 20_000)).toBe(true);
    const f = front as ReceivedSpan;
    expect(f.kind).toBe(2);
    expect(f.parentSpanId).toBe('');
    expect(f.traceId).not.toBe(clientTrace);
    expect(f.links).toEqual([{ traceId: clientTrace, spanId: clientSpan }]);
    expect(f.attributes).toMatchObject({ 'http.method': 'POST', 'http.target': '/api/v1/namespaces/default/configmaps', 'http.status_code': 201 });

    // core-api's server span of the same request: the front door's span is its parent.
    let core: ReceivedSpan | undefined;
    expect(await until(async () => (core = trace(f.traceId).find((s) => s.service === 'core-api' && s.name === name)) !== undefined, 20_000)).toBe(true);
    const c = core as ReceivedSpan;
    expect(c.parentSpanId).toBe(f.spanId);
    expect(c.kind).toBe(2);
    expect(c.attributes['audit-id']).toBe(auditId);

    // kube's REST handler span under it, and the etcd write as a client span of that.
    let handler: ReceivedSpan | undefined;
    expect(await until(async () => (handler = trace(f.traceId).find((s) => s.service === 'core-api' && s.name === 'Create' && s.parentSpanId === c.spanId)) !== undefined, 20_000)).toBe(true);
    expect(handler?.attributes).toMatchObject({ 'audit-id': auditId, resource: 'configmaps', scope: 'namespace', verb: 'POST', url: '/api/v1/namespaces/default/configmaps' });
    let txn: ReceivedSpan | undefined;
    expect(await until(async () => (txn = trace(f.traceId).find((s) => s.service === 'core-api' && s.name === 'etcdserverpb.KV/Txn' && s.parentSpanId === handler?.spanId)) !== undefined, 20_000)).toBe(true);
    expect(txn?.kind).toBe(3);
    expect(txn?.attributes).toMatchObject({ 'rpc.system': 'grpc', 'rpc.service': 'etcdserverpb.KV', 'rpc.method': 'Txn', 'etcd.type': 'configmaps' });

    // The stages as kube's filterlatency spans, on both sides.
    const stages = (parent: ReceivedSpan): string[] => trace(f.traceId).filter((s) => s.parentSpanId === parent.spanId && s.kind === 1 && s.name !== 'Create').map((s) => s.name);
    expect(await until(async () => ['authentication', 'audit', 'impersonation', 'priorityandfairness', 'authorization'].every((n) => stages(f).includes(n)), 20_000), stages(f).join()).toBe(true);
    expect(await until(async () => ['authentication', 'authorization'].every((n) => stages(c).includes(n)), 20_000), stages(c).join()).toBe(true);

    // Request lines carry the trace id on both sides.
    for (const service of ['aggregator', 'core-api'] as const) {
      const lines = output(service).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.requestId === auditId);
      expect(lines.some((l) => l.traceID === f.traceId), `${service}: ${JSON.stringify(lines)}`).toBe(true);
    }
  });

  it.each(['1.27', '1.33'])('traces kubectl %s\'s requests', async (version) => {
    const { ok } = kubectlSession(version, () => kubeconfig);
    const cm = `kubectl-${version.replace('.', '')}`;
    await ok(['create', 'configmap', cm, '-n', 'default', '--from-literal=a=b']);
    await ok(['get', 'configmap', cm, '-n', 'default']);
    expect(
      await until(async () => {
        const fronts = receiver.spans.filter((s) => s.service === 'aggregator' && s.name === 'GET /api/v1/namespaces/{:namespace}/configmaps/{:name}');
        return fronts.some((f) => receiver.spans.some((s) => s.service === 'core-api' && s.parentSpanId === f.spanId && s.traceId === f.traceId && String(s.attributes['user_agent.original']).startsWith('kubectl')));
      }, 20_000),
    ).toBe(true);
  });
});
