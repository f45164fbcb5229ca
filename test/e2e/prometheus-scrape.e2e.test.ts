/**
 * A real Prometheus (Debian's prometheus) scrapes a running stack as the chart's ServiceMonitors have it scrape
 * (HTTPS, /metrics, one job per Service named <release>-kube-ts-<component>, the namespace label), evaluates the
 * chart's rules file, and the Grafana dashboard's queries return data: the request, latency, in-flight, etcd and
 * runtime panels have series, and the error-budget recording rules produce values. Skipped without prometheus.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, SupervisedProcess, tempDir } from '@kube/testing';
import { kubectlSession, startStack, until, type StackHarness } from '@test/support';
import { read } from '../deploy/deploy.helpers';

const PROMETHEUS = ['/usr/bin/prometheus', 'prometheus'].find((p) => spawnSync(p, ['--version']).status === 0);
const NS = 'kube-ts';
const FULL = 'kts-kube-ts';

interface Panel {
  title: string;
  targets?: Array<{ expr: string }>;
}

/** The dashboard's variables as Grafana fills them with "All" and a short range. */
const substitute = (expr: string): string => expr.replaceAll('$__rate_interval', '30s').replaceAll('$__interval', '5s').replaceAll('$job', '.*').replaceAll('$instance', '.*');

describe.skipIf(!PROMETHEUS)('Prometheus scraping the stack (the chart\'s scrape settings, rules and dashboard)', () => {
  let stack: StackHarness;
  let prometheus: SupervisedProcess;
  let url = '';
  const dir = tempDir('prometheus');
  const { ok, k } = kubectlSession('1.33', () => stack.kubeconfig);

  const query = async (expr: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> => {
    const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await res.json()) as { status: string; error?: string; data?: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
    if (body.status !== 'success') throw new Error(`${expr}: ${body.error}`);
    return body.data?.result ?? [];
  };

  beforeAll(async () => {
    stack = await startStack({ controllerManager: false });
    const rules = join(dir, 'rules.yaml');
    let text = read('deploy/helm/kube-ts/files/prometheus-rules.yaml');
    text = text.replaceAll('KUBE_TS_AGGREGATOR_SELECTOR', `namespace="${NS}", job="${FULL}-aggregator"`).replaceAll('KUBE_TS_ETCD_SELECTOR', `namespace="${NS}", job="${FULL}-etcd"`).replaceAll('KUBE_TS_SELECTOR', `namespace="${NS}", job=~"${FULL}-.*"`);
    writeFileSync(rules, text);
    const job = (component: string, port: number): string => `
  - job_name: ${FULL}-${component}
    scheme: https
    metrics_path: /metrics
    scrape_interval: 1s
    scrape_timeout: 1s
    tls_config: { ca_file: ${stack.pki.caCert}, cert_file: ${stack.pki.adminCert}, key_file: ${stack.pki.adminKey}, server_name: localhost }
    static_configs: [{ targets: ['127.0.0.1:${port}'], labels: { namespace: ${NS} } }]`;
    const corePort = new URL(stack.core.url).port;
    const extPort = new URL(stack.extensions.url).port;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      `global: { evaluation_interval: 1s }\nrule_files: [${rules}]\nscrape_configs:${job('aggregator', stack.port)}${job('core-api', Number(corePort))}${job('extensions', Number(extPort))}\n`,
    );
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    prometheus = new SupervisedProcess({
      name: 'prometheus',
      command: PROMETHEUS as string,
      args: [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    });
    // Traffic for the panels: writes, reads, a LIST of a cluster-scoped resource, a watch.
    await ok(['create', 'namespace', 'scraped']);
    const watching = k(['get', 'configmaps', '-n', 'scraped', '-w', '--request-timeout=20s']);
    for (let i = 0; i < 10; i++) {
      await ok(['create', 'configmap', `c${i}`, '-n', 'scraped', '--from-literal=a=b']);
      await ok(['get', 'configmaps', '-n', 'scraped']);
      await ok(['get', 'namespaces']);
      await new Promise((r) => setTimeout(r, 500));
    }
    void watching;
  }, 180_000);

  afterAll(async () => {
    await prometheus?.stop();
    await stack?.stop();
  });

  it('scrapes every API server (up == 1) with the jobs the rules select', async () => {
    expect(await until(async () => (await query('up == 1').catch(() => [])).length === 3, 30_000)).toBe(true);
    expect((await query('up')).map((s) => s.metric.job).sort()).toEqual([`${FULL}-aggregator`, `${FULL}-core-api`, `${FULL}-extensions`]);
  });

  it("returns data for the dashboard's request, latency, in-flight, etcd and runtime panels", async () => {
    const dashboard = JSON.parse(read('deploy/grafana/kube-ts-dashboard.json')) as { panels: Panel[] };
    const mustHaveData = [
      'Request rate',
      'Request rate by verb',
      'Request rate by code',
      'Latency by verb (p50 / p99)',
      'Requests in flight',
      'etcd request latency p99 by operation',
      'Resident memory',
      'CPU',
      'Event-loop lag p99',
      'Open file descriptors',
      'Active handles (go_goroutines)',
    ];
    const empty: string[] = [];
    await until(async () => {
      empty.length = 0;
      for (const panel of dashboard.panels) for (const t of panel.targets ?? []) if ((await query(substitute(t.expr))).length === 0) empty.push(`${panel.title}: ${t.expr}`);
      return mustHaveData.every((title) => !empty.some((e) => e.startsWith(`${title}: `)));
    }, 30_000);
    // Every query is accepted by Prometheus itself (a syntax error would have thrown above).
    for (const title of mustHaveData) expect(empty.filter((e) => e.startsWith(`${title}: `)), title).toEqual([]);
  });

  it("evaluates the chart's recording rules on the scraped series (error budget burn rates, read and write)", async () => {
    expect(await until(async () => (await query('apiserver_request:burnrate5m')).length === 2, 30_000)).toBe(true);
    const rates = await query('apiserver_request:burnrate5m');
    expect(rates.map((r) => r.metric.verb).sort()).toEqual(['read', 'write']);
    // Ratios of the requests that failed or were too slow. How many were slower than the SLO's 1 s depends on how
    // loaded the machine is (a CI runner may be), so no threshold on that part; the errors part must be nothing.
    // The rules subtract rates, so a ratio of nothing comes out as float rounding around 0 (-2.3e-16 seen).
    const EPSILON = 1e-9;
    for (const r of rates) expect(Number(r.value[1]), `${r.metric.verb} burn rate`).toBeGreaterThanOrEqual(-EPSILON);
    for (const r of rates) expect(Number(r.value[1]), `${r.metric.verb} burn rate`).toBeLessThanOrEqual(1 + EPSILON);
    expect((await query('sum(rate(apiserver_request_total{verb=~"LIST|GET|POST|PUT|PATCH|DELETE", code=~"5.."}[5m])) > 0')).map((r) => r.value[1])).toEqual([]);
    // (Whether the alert fires on these rates is promtool's test in test/deploy/prometheus-rules.test.ts: here a
    // pending alert would only say the machine was slow.)
  });
});
