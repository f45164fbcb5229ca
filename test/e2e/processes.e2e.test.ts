/**
 * The stack as `npm start` and the images run it: core-api, extensions and the aggregator as separate Node
 * processes (their compiled mains, dist/apps/<name>/src/main.js, so run `npm run build` first, as `npm test`
 * does) on a real etcd and NATS. In-process tests share one prom-client registry and one Nest logger, so only
 * here can we see what each process itself writes and serves:
 *
 * - every line a service prints is one JSON object (time, level, component, context, msg), the default format,
 *   a start-up failure included;
 * - one request id crosses the proxy: the Audit-Id the client gets, the aggregator's audit line and request
 *   line, and core-api's request line are the same;
 * - after a kubectl session, each process's own /metrics has kube's request, in-flight, etcd and watch series,
 *   the aggregator's APIService availability, and NATS registration traffic, with counts;
 * - registration runs on nats-server as deployments run it: TLS, one client certificate per service, and the
 *   registration permissions (the aggregator hears core-api and extensions announce).
 */
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKubeconfig, type PkiPaths } from '@kube/pki';
import { freePorts, startEtcd, SupervisedProcess, tempDir, type EtcdProcess } from '@kube/testing';
import { hasMetric, kubectlSession, metricTotal, type SecuredNats, serverProcessEnv, startSecuredNats, until } from '@test/support';

const ROOT = join(__dirname, '..', '..');
const SERVICES = ['core-api', 'extensions', 'aggregator'] as const;
type Service = (typeof SERVICES)[number];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}


describe('the services as processes: JSON logs, one request id, metrics per process', () => {
  let etcd: EtcdProcess;
  let nats: SecuredNats;
  let pki: PkiPaths;
  let kubeconfig: string;
  const ports = new Map<Service, number>();
  const procs = new Map<Service, SupervisedProcess>();
  const dir = tempDir('processes');
  const auditLogPath = join(dir, 'audit.log');
  const { k, ok } = kubectlSession(undefined, () => kubeconfig);

  /** A GET as the admin (client certificate) to one service. */
  const get = (service: Service, path: string, headers: Record<string, string> = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port: ports.get(service), path, ca: readFileSync(pki.caCert), cert: readFileSync(pki.adminCert), key: readFileSync(pki.adminKey), headers, agent: false },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });

  /** Everything a service printed (stdout and stderr), line by line. */
  const output = (service: Service): string[] => (procs.get(service)?.output() ?? '').split('\n').filter(Boolean);
  const jsonLines = (service: Service): Array<Record<string, unknown>> => output(service).map((l) => JSON.parse(l) as Record<string, unknown>);

  beforeAll(async () => {
    expect(existsSync(join(ROOT, 'dist/apps/aggregator/src/main.js')), 'run `npm run build` first').toBe(true);
    [etcd, nats] = await Promise.all([startEtcd(), startSecuredNats(dir)]);
    pki = nats.pki;
    const [core, ext, agg] = await freePorts(3);
    ports.set('core-api', core).set('extensions', ext).set('aggregator', agg);
    kubeconfig = join(dir, 'kubeconfig');
    await writeKubeconfig(kubeconfig, { server: `https://127.0.0.1:${agg}`, caPem: readFileSync(pki.caCert, 'utf8'), clientCertPem: readFileSync(pki.adminCert, 'utf8'), clientKeyPem: readFileSync(pki.adminKey, 'utf8') });
    const common = serverProcessEnv(pki, etcd.endpoint);
    const extra: Record<Service, NodeJS.ProcessEnv> = {
      // A line for every request on the two ends of the proxied request below; extensions keeps the default.
      'core-api': { KUBE_LOG_REQUESTS: 'true' },
      extensions: {},
      aggregator: {
        KUBE_LOG_REQUESTS: 'true',
        KUBE_PROXY_CLIENT_CERT_FILE: pki.frontProxyClientCert,
        KUBE_PROXY_CLIENT_KEY_FILE: pki.frontProxyClientKey,
        KUBE_BACKEND_CA_FILE: pki.caCert,
        KUBE_AGGREGATOR_BACKENDS: `core-api=https://127.0.0.1:${core},extensions=https://127.0.0.1:${ext}`,
        KUBE_AUDIT_LOG_PATH: auditLogPath,
      },
    };
    for (const service of SERVICES) {
      const env = { ...common, ...nats.env(service), ...extra[service], KUBE_SECURE_PORT: String(ports.get(service)) };
      procs.set(service, new SupervisedProcess({ name: service, command: process.execPath, args: [join(ROOT, `dist/apps/${service}/src/main.js`)], env, keepLines: 100_000 }));
    }
    const ready = await until(async () => {
      for (const [name, proc] of procs) if (!proc.running) throw new Error(`${proc.describeExit()}:\n${output(name).slice(-20).join('\n')}`);
      return (await get('aggregator', '/readyz').catch(() => ({ status: 0 }))).status === 200;
    }, 60_000);
    expect(ready, `not ready:\n${output('aggregator').slice(-20).join('\n')}`).toBe(true);

    await ok(['create', 'namespace', 'procs']);
    await ok(['create', 'configmap', 'one', '-n', 'procs', '--from-literal=a=b']);
    await ok(['get', 'configmaps', '-n', 'procs']);
    await ok(['label', 'configmap', 'one', '-n', 'procs', 'seen=yes']);
    await ok(['get', 'apiservices']);
    // A watch through the proxy that sees the deletion, then times out.
    const watching = k(['get', 'configmaps', '-n', 'procs', '-w', '--request-timeout=3s']);
    await new Promise((r) => setTimeout(r, 1000));
    await ok(['delete', 'configmap', 'one', '-n', 'procs']);
    expect((await watching).stdout).toMatch(/^one\s+/m);
  }, 120_000);

  afterAll(async () => {
    for (const service of [...SERVICES].reverse()) await procs.get(service)?.stop();
    await nats?.nats.stop();
    await etcd?.stop();
  });

  it('writes every log line as one JSON object with time, level, component and message', () => {
    for (const service of SERVICES) {
      const lines = output(service);
      expect(lines.length, service).toBeGreaterThan(0);
      for (const line of lines) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        expect(entry, `${service}: ${line}`).toMatchObject({ component: service, level: expect.stringMatching(/^(info|warn|error|fatal)$/), msg: expect.any(String) });
        expect(Date.parse(entry.time as string), line).not.toBeNaN();
      }
    }
    // Nest's own start-up lines come through the same logger.
    expect(jsonLines('core-api').some((l) => l.context === 'InstanceLoader')).toBe(true);
    // By default (extensions) a successful request writes no line.
    expect(jsonLines('extensions').filter((l) => l.context === 'Request' && l.code === 200)).toEqual([]);
  });

  it('reports a start-up failure as a fatal JSON line, and exits 1', async () => {
    const broken = new SupervisedProcess({ name: 'aggregator', command: process.execPath, args: [join(ROOT, 'dist/apps/aggregator/src/main.js')], env: { PATH: process.env.PATH, KUBE_TLS_CERT_FILE: pki.apiserverCert, KUBE_TLS_PRIVATE_KEY_FILE: pki.apiserverKey } });
    expect(await broken.exited).toEqual({ code: 1, signal: null });
    const lines = broken.output().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ level: 'fatal', component: 'aggregator', context: 'Bootstrap', msg: expect.stringContaining('KUBE_PROXY_CLIENT_CERT_FILE') });
  });

  it("refuses to start with a bad audit policy, with kube-apiserver's message", async () => {
    const policyFile = join(dir, 'bad-policy.yaml');
    writeFileSync(policyFile, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n');
    const env = { PATH: process.env.PATH, KUBE_TLS_CERT_FILE: pki.apiserverCert, KUBE_TLS_PRIVATE_KEY_FILE: pki.apiserverKey, KUBE_PROXY_CLIENT_CERT_FILE: pki.frontProxyClientCert, KUBE_PROXY_CLIENT_KEY_FILE: pki.frontProxyClientKey, KUBE_AUDIT_POLICY_FILE: policyFile };
    const broken = new SupervisedProcess({ name: 'aggregator', command: process.execPath, args: [join(ROOT, 'dist/apps/aggregator/src/main.js')], env });
    expect(await broken.exited).toEqual({ code: 1, signal: null });
    const lines = broken.output().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ level: 'fatal', msg: expect.stringContaining(`loading audit policy file: rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${policyFile}`) });
  });

  it('names a proxied request by one id in the response, the audit line and both services\' request lines', async () => {
    const r = await get('aggregator', '/api/v1/namespaces/procs');
    expect(r.status).toBe(200);
    const id = r.headers['audit-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const lines = (service: Service): Array<Record<string, unknown>> => jsonLines(service).filter((l) => l.context === 'Request' && l.requestId === id);
    const audit = (): Array<Record<string, unknown>> => (existsSync(auditLogPath) ? readFileSync(auditLogPath, 'utf8') : '').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.auditID === id);
    expect(await until(async () => lines('aggregator').length > 0 && lines('core-api').length > 0 && audit().length > 0, 5_000)).toBe(true);
    expect(lines('aggregator')).toEqual([expect.objectContaining({ component: 'aggregator', server: 'aggregator', msg: 'request', uri: '/api/v1/namespaces/procs', code: 200, user: 'kubernetes-admin' })]);
    expect(lines('core-api')).toEqual([expect.objectContaining({ component: 'core-api', server: 'core-api', msg: 'request', uri: '/api/v1/namespaces/procs', code: 200, user: 'kubernetes-admin' })]);
    expect(audit()).toEqual([expect.objectContaining({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', stage: 'ResponseComplete', verb: 'get', requestURI: '/api/v1/namespaces/procs', responseStatus: { metadata: {}, code: 200 }, user: expect.objectContaining({ username: 'kubernetes-admin' }) })]);
    // A client's own well-formed id is kept all the way through.
    const kept = await get('aggregator', '/api/v1/namespaces/procs', { 'Audit-ID': 'kubectl-session-42' });
    expect(kept.headers['audit-id']).toBe('kubectl-session-42');
    expect(await until(async () => jsonLines('core-api').some((l) => l.requestId === 'kubectl-session-42'), 5_000)).toBe(true);
  });

  it('serves kube\'s request, in-flight, etcd and watch metrics from core-api, with counts from the session', async () => {
    const metrics = (await get('core-api', '/metrics')).body;
    expect(metricTotal(metrics, 'apiserver_request_total', { verb: 'POST', resource: 'configmaps', code: '201' })).toBeGreaterThan(0);
    expect(metricTotal(metrics, 'apiserver_request_total', { verb: 'PATCH', resource: 'configmaps' })).toBeGreaterThan(0);
    expect(metricTotal(metrics, 'apiserver_request_total', { verb: 'DELETE', resource: 'configmaps' })).toBeGreaterThan(0);
    expect(metricTotal(metrics, 'apiserver_request_duration_seconds_count', { resource: 'configmaps' })).toBeGreaterThan(0);
    expect(hasMetric(metrics, 'apiserver_current_inflight_requests')).toBe(true);
    expect(metricTotal(metrics, 'etcd_request_duration_seconds_count')).toBeGreaterThan(0);
    expect(metricTotal(metrics, 'apiserver_watch_events_total', { kind: 'ConfigMap' })).toBeGreaterThan(0);
    // core-api announces its group/versions over NATS.
    expect(metricTotal(metrics, 'registration_messages_total', { direction: 'out' })).toBeGreaterThan(0);
  });

  it('serves the front door\'s own series from the aggregator: its requests, APIService availability, NATS traffic', async () => {
    const metrics = (await get('aggregator', '/metrics')).body;
    // The aggregator counts the requests it serves itself (apiregistration.k8s.io), as kube-aggregator does;
    // proxied requests are counted by the backend that serves them.
    expect(metricTotal(metrics, 'apiserver_request_total', { verb: 'LIST', group: 'apiregistration.k8s.io', resource: 'apiservices', code: '200' })).toBeGreaterThan(0);
    expect(metricTotal(metrics, 'apiserver_request_duration_seconds_count', { resource: 'apiservices' })).toBeGreaterThan(0);
    expect(hasMetric(metrics, 'apiserver_current_inflight_requests')).toBe(true);
    expect(metricTotal(metrics, 'etcd_request_duration_seconds_count')).toBeGreaterThan(0);
    expect(metrics).toMatch(/^aggregator_unavailable_apiservice\{name="v1\."\} 0$/m);
    expect(metricTotal(metrics, 'aggregator_unavailable_apiservice')).toBe(0);
    // It hears the backends' announcements.
    expect(metricTotal(metrics, 'registration_messages_total', { direction: 'in' })).toBeGreaterThan(0);
    // Every one of them came from the service it names, on its own subject.
    expect(metricTotal(metrics, 'registration_messages_dropped_total')).toBe(0);
    // And it counted none of the proxied configmap requests: those are core-api's.
    expect(metricTotal(metrics, 'apiserver_request_total', { resource: 'configmaps' })).toBe(0);
  });
  it('exposes each process\'s own runtime series (process_*, nodejs_*, go_* equivalents) and profiles it', async () => {
    const pids = new Set<number>();
    for (const service of SERVICES) {
      const metrics = (await get(service, '/metrics')).body;
      for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_open_fds', 'nodejs_eventloop_lag_seconds', 'go_goroutines', 'go_memstats_heap_alloc_bytes']) {
        expect(hasMetric(metrics, name), `${service}: ${name}`).toBe(true);
      }
      expect(metrics.match(/^# TYPE process_resident_memory_bytes /gm), service).toHaveLength(1);
      // Each answers with a profile of its own process.
      const profile = await get(service, '/debug/pprof/profile?seconds=1');
      expect(profile.status, service).toBe(200);
      pids.add(Number(/profile-(\d+)\.cpuprofile/.exec(String(profile.headers['content-disposition']))?.[1]));
    }
    expect(pids.size).toBe(SERVICES.length);
  });

  it("hands out the front door's heap snapshot to kubectl get --raw /debug/pprof/heap (a file DevTools' Memory panel opens)", async () => {
    const snapshot = JSON.parse(await ok(['get', '--raw', '/debug/pprof/heap'])) as { snapshot: { meta: { node_fields: string[] }; node_count: number }; strings: string[] };
    expect(snapshot.snapshot.meta.node_fields).toContain('name');
    expect(snapshot.snapshot.node_count).toBeGreaterThan(10_000);
    // The aggregator's own heap: its classes are in it.
    expect(snapshot.strings).toContain('FrontDoor');
  }, 120_000);
});
