/**
 * `npm run traces` as an operator runs it: the built CLI (dist/scripts/trace-viewer.js) as a process, with
 * core-api, extensions and the aggregator (compiled mains, run `npm run build` first) exporting to it through a
 * TracingConfiguration. One `kubectl create` prints one tree: the front door's server span, core-api's under it,
 * its REST handler and the etcd Txn under that.
 */
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeKubeconfig, ensurePki, type PkiPaths } from '@kube/pki';
import { freePorts, startEtcd, SupervisedProcess, tempDir, type EtcdProcess } from '@kube/testing';
import { kubectlSession, serverProcessEnv, until } from '@test/support';

// Tests here wait up to a minute for the stack to converge (until(…, 60_000)); on a loaded CI machine such a wait
// and the rest of the test together outgrow the default 60 s.
vi.setConfig({ testTimeout: 180_000 });

const ROOT = join(__dirname, '..', '..');
const SERVICES = ['core-api', 'extensions', 'aggregator'] as const;
type Service = (typeof SERVICES)[number];
const POST = 'POST /api/v1/namespaces/{:namespace}/configmaps';

interface Line {
  depth: number;
  service: string;
  name: string;
  text: string;
  parent?: Line;
}

/** The printed traces: each a header and its span lines, parents found by indentation. */
function printedTraces(output: string): Array<{ header: string; lines: Line[] }> {
  const traces: Array<{ header: string; lines: Line[] }> = [];
  for (const raw of output.split('\n')) {
    if (raw.startsWith('trace ')) traces.push({ header: raw, lines: [] });
    const m = /^((?: {2})+)(\S+) {2}(.+?) {2}[\d.]+ ms {2}\+[\d.]+ ms/.exec(raw);
    const current = traces[traces.length - 1];
    if (!m || !current) continue;
    const depth = m[1].length / 2;
    const parent = [...current.lines].reverse().find((l) => l.depth === depth - 1);
    current.lines.push({ depth, service: m[2], name: m[3], text: raw, parent });
  }
  return traces;
}

describe('npm run traces: a request\'s trace across the front door, core-api and etcd', () => {
  let etcd: EtcdProcess;
  let pki: PkiPaths;
  let viewer: SupervisedProcess;
  let kubeconfig = '';
  const procs = new Map<Service, SupervisedProcess>();
  const dir = tempDir('trace-viewer');

  beforeAll(async () => {
    expect(existsSync(join(ROOT, 'dist/scripts/trace-viewer.js')), 'run `npm run build` first').toBe(true);
    const [core, ext, agg, otlp] = await freePorts(4);
    viewer = new SupervisedProcess({ name: 'trace-viewer', command: process.execPath, args: [join(ROOT, 'dist/scripts/trace-viewer.js'), '--listen', `127.0.0.1:${otlp}`], keepLines: 100_000 });
    [etcd, pki] = await Promise.all([startEtcd(), ensurePki(join(dir, 'pki'))]);
    expect(await until(async () => viewer.output().includes(`receiving OTLP/gRPC spans on 127.0.0.1:${otlp}`), 60_000), viewer.describeExit()).toBe(true);

    const config = join(dir, 'tracing.yaml');
    writeFileSync(config, `apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\nendpoint: 127.0.0.1:${otlp}\nsamplingRatePerMillion: 1000000\n`);
    kubeconfig = join(dir, 'kubeconfig');
    await writeKubeconfig(kubeconfig, { server: `https://127.0.0.1:${agg}`, caPem: readFileSync(pki.caCert, 'utf8'), clientCertPem: readFileSync(pki.adminCert, 'utf8'), clientKeyPem: readFileSync(pki.adminKey, 'utf8') });
    const ports: Record<Service, number> = { 'core-api': core, extensions: ext, aggregator: agg };
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
      const env = { ...serverProcessEnv(pki, etcd.endpoint), KUBE_TRACING_CONFIG_FILE: config, ...extra[service], KUBE_SECURE_PORT: String(ports[service]) };
      procs.set(service, new SupervisedProcess({ name: service, command: process.execPath, args: [join(ROOT, `dist/apps/${service}/src/main.js`)], env }));
    }
    const { k } = kubectlSession(undefined, () => kubeconfig);
    const ready = await until(async () => {
      for (const proc of [...procs.values(), viewer]) if (!proc.running) throw new Error(`${proc.describeExit()}:\n${proc.output()}`);
      return (await k(['get', '--raw', '/api/v1/namespaces/default/configmaps?limit=1'])).code === 0;
    }, 90_000);
    expect(ready, procs.get('aggregator')?.output()).toBe(true);
  }, 180_000);

  afterAll(async () => {
    for (const service of [...SERVICES].reverse()) await procs.get(service)?.stop();
    await viewer?.stop();
    await etcd?.stop();
  });

  it('prints kubectl create\'s trace as one tree: front door server span → core-api server span → Create → etcd Txn', async () => {
    const { ok } = kubectlSession(undefined, () => kubeconfig);
    await ok(['create', 'configmap', 'viewed', '-n', 'default', '--from-literal=a=b']);

    // The trace whose front-door POST reached etcd (the readiness probes only listed).
    const find = (): { header: string; lines: Line[] } | undefined =>
      printedTraces(viewer.output()).find((t) => t.lines.some((l) => l.name === 'etcdserverpb.KV/Txn') && t.lines[0]?.service === 'aggregator' && t.lines[0]?.name === POST);
    expect(await until(async () => find() !== undefined, 60_000), viewer.output().slice(-4_000)).toBe(true);
    const trace = find() as { header: string; lines: Line[] };
    const shown = [trace.header, ...trace.lines.map((l) => l.text)].join('\n');

    const [front] = trace.lines;
    expect(front.depth, shown).toBe(1);
    expect(front.text, shown).toMatch(/http\.status_code=201 audit-id=\S+/);
    const core = trace.lines.find((l) => l.service === 'core-api' && l.name === POST);
    expect(core?.parent, shown).toBe(front);
    const handler = trace.lines.find((l) => l.service === 'core-api' && l.name === 'Create');
    expect(handler?.parent, shown).toBe(core);
    expect(handler?.text, shown).toContain('resource=configmaps verb=POST');
    const txn = trace.lines.find((l) => l.name === 'etcdserverpb.KV/Txn');
    expect(txn?.service, shown).toBe('core-api');
    expect(txn?.parent, shown).toBe(handler);
    expect(txn?.text, shown).toContain('etcd.type=configmaps');
    // Every span's parent arrived, and the trace was printed once.
    expect(shown).not.toContain('orphan');
    expect(printedTraces(viewer.output()).filter((t) => t.header === trace.header)).toHaveLength(1);
  });
});
