/**
 * The chart's alerts (deploy/helm/kube-ts/files/prometheus-rules.yaml) unit-tested with Prometheus' own promtool:
 * `promtool check rules`, then `promtool test rules` on synthetic series for each alert, firing and quiet. The
 * selectors are substituted as templates/prometheusrule.yaml does for release "kts" in namespace "kube-ts"; with
 * helm at hand the rendered PrometheusRule is checked to hold the very same groups.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { locateHelm } from '@kube/testing';
import { CHART, read, ROOT } from './deploy.helpers';

const NS = 'kube-ts';
const FULL = 'kts-kube-ts';
const SELECTORS: Record<string, string> = {
  KUBE_TS_AGGREGATOR_SELECTOR: `namespace="${NS}", job="${FULL}-aggregator"`,
  KUBE_TS_ETCD_SELECTOR: `namespace="${NS}", job="${FULL}-etcd"`,
  KUBE_TS_SELECTOR: `namespace="${NS}", job=~"${FULL}-.*"`,
};

function rulesText(): string {
  let text = read('deploy/helm/kube-ts/files/prometheus-rules.yaml');
  for (const [placeholder, selector] of Object.entries(SELECTORS)) text = text.replaceAll(placeholder, selector);
  return text;
}

function promtool(): string | undefined {
  for (const candidate of [process.env.PROMTOOL, 'promtool', '/usr/bin/promtool'].filter(Boolean) as string[]) {
    if (spawnSync(candidate, ['--version'], { encoding: 'utf8' }).status === 0) return candidate;
  }
  return undefined;
}

const core = { job: `${FULL}-core-api`, namespace: NS, instance: '10.0.0.2:6444' };
const aggregator = { job: `${FULL}-aggregator`, namespace: NS, instance: '10.0.0.1:6443' };
const etcd = { job: `${FULL}-etcd`, namespace: NS, instance: '10.0.0.3:2381' };

const series = (name: string, labels: Record<string, string>, values: string): { series: string; values: string } => ({
  series: `${name}{${Object.entries(labels).map(([k, v]) => `${k}="${v}"`).join(', ')}}`,
  values,
});

const BURN = { summary: 'The API server is burning too much error budget.', description: 'The API server is burning too much error budget.', runbook_url: 'https://runbooks.prometheus-operator.dev/runbooks/kubernetes/kubeapierrorbudgetburn' };

/** LIST traffic of two hours, one request a second, `errorsPerMinute` of them 500s, all fast. */
function listTraffic(errorsPerMinute: number): Array<{ series: string; values: string }> {
  const l = { ...core, verb: 'LIST', scope: 'cluster' };
  return [
    series('apiserver_request_total', { ...l, code: '200' }, `0+${60 - errorsPerMinute}x180`),
    series('apiserver_request_total', { ...l, code: '500' }, `0+${errorsPerMinute}x180`),
    series('apiserver_request_duration_seconds_count', l, '0+60x180'),
    series('apiserver_request_duration_seconds_bucket', { ...l, le: '30' }, '0+60x180'),
    series('apiserver_request_duration_seconds_bucket', { ...core, verb: 'LIST', scope: 'namespace', le: '5' }, '0x180'),
  ];
}

const TESTS = {
  rule_files: ['rules.yaml'],
  evaluation_interval: '1m',
  tests: [
    {
      // Half the reads fail: the fast (1h/5m, 6h/30m) and the 1d/2h windows fire; 3d/6h needs 3 hours.
      interval: '1m',
      input_series: listTraffic(30),
      alert_rule_test: [
        {
          eval_time: '150m',
          alertname: 'KubeAPIErrorBudgetBurn',
          exp_alerts: [
            { exp_labels: { severity: 'critical', long: '1h', short: '5m' }, exp_annotations: BURN },
            { exp_labels: { severity: 'critical', long: '6h', short: '30m' }, exp_annotations: BURN },
            { exp_labels: { severity: 'warning', long: '1d', short: '2h' }, exp_annotations: BURN },
          ],
        },
      ],
    },
    {
      // Healthy: no 5xx, every LIST well under its 30 s objective.
      interval: '1m',
      input_series: listTraffic(0),
      alert_rule_test: [{ eval_time: '150m', alertname: 'KubeAPIErrorBudgetBurn', exp_alerts: [] }],
    },
    {
      // A young, healthy cluster: writes and cluster LISTs only, never a 5xx or a namespaced LIST (no series for
      // them at all). The burn rates are 0, not absent (an absent rate would hide a later burn from the alerts).
      interval: '1m',
      input_series: [
        series('apiserver_request_total', { ...core, verb: 'POST', scope: 'namespace', code: '201' }, '0+60x30'),
        series('apiserver_request_duration_seconds_count', { ...core, verb: 'POST', scope: 'namespace' }, '0+60x30'),
        series('apiserver_request_duration_seconds_bucket', { ...core, verb: 'POST', scope: 'namespace', le: '1' }, '0+60x30'),
        series('apiserver_request_total', { ...core, verb: 'LIST', scope: 'cluster', code: '200' }, '0+60x30'),
        series('apiserver_request_duration_seconds_count', { ...core, verb: 'LIST', scope: 'cluster' }, '0+60x30'),
        series('apiserver_request_duration_seconds_bucket', { ...core, verb: 'LIST', scope: 'cluster', le: '30' }, '0+60x30'),
      ],
      promql_expr_test: [
        {
          expr: 'apiserver_request:burnrate5m',
          eval_time: '20m',
          exp_samples: [
            { labels: 'apiserver_request:burnrate5m{verb="read"}', value: 0 },
            { labels: 'apiserver_request:burnrate5m{verb="write"}', value: 0 },
          ],
        },
      ],
    },
    {
      interval: '1m',
      input_series: [
        series('aggregator_unavailable_apiservice', { ...aggregator, name: 'v1alpha1.wardle.example.com' }, '1x30'),
        series('aggregator_unavailable_apiservice', { ...aggregator, name: 'v1.' }, '0x30'),
        series('aggregator_unavailable_apiservice_total', { ...aggregator, name: 'v1alpha1.wardle.example.com', reason: 'FailedDiscoveryCheck' }, '0+1x30'),
        series('up', aggregator, '0x30'),
      ],
      alert_rule_test: [
        {
          eval_time: '20m',
          alertname: 'AggregatedAPIDown',
          exp_alerts: [
            {
              exp_labels: { severity: 'warning', name: 'v1alpha1.wardle.example.com', namespace: NS },
              exp_annotations: {
                summary: 'Kubernetes aggregated API is down.',
                description: `Kubernetes aggregated API v1alpha1.wardle.example.com/${NS} has been only 0% available over the last 10m.`,
                runbook_url: 'https://runbooks.prometheus-operator.dev/runbooks/kubernetes/aggregatedapidown',
              },
            },
          ],
        },
        {
          eval_time: '20m',
          alertname: 'AggregatedAPIErrors',
          exp_alerts: [
            {
              exp_labels: { severity: 'warning', name: 'v1alpha1.wardle.example.com', namespace: NS },
              exp_annotations: {
                summary: 'Kubernetes aggregated API has reported errors.',
                description: `Kubernetes aggregated API v1alpha1.wardle.example.com/${NS} has reported errors. It has appeared unavailable 10 times averaged over the past 10m.`,
                runbook_url: 'https://runbooks.prometheus-operator.dev/runbooks/kubernetes/aggregatedapierrors',
              },
            },
          ],
        },
        {
          eval_time: '20m',
          alertname: 'KubeAPIDown',
          exp_alerts: [
            {
              exp_labels: { severity: 'critical' },
              exp_annotations: {
                summary: 'Target disappeared from Prometheus target discovery.',
                description: 'The kube-ts front door has disappeared from Prometheus target discovery.',
                runbook_url: 'https://runbooks.prometheus-operator.dev/runbooks/kubernetes/kubeapidown',
              },
            },
          ],
        },
      ],
    },
    {
      // Every request authenticated with a certificate 1 to 2 days from expiry: the 7-day warning, not the 1-day page.
      interval: '1m',
      input_series: [
        ...['0', '1800', '3600', '7200', '21600', '43200', '86400'].map((le) => series('apiserver_client_certificate_expiration_seconds_bucket', { ...core, le }, '0x20')),
        ...['172800', '345600', '604800', '2592000', '7776000', '15552000', '31104000', '+Inf'].map((le) => series('apiserver_client_certificate_expiration_seconds_bucket', { ...core, le }, '0+10x20')),
        series('apiserver_client_certificate_expiration_seconds_count', core, '0+10x20'),
      ],
      alert_rule_test: [
        {
          eval_time: '15m',
          alertname: 'KubeClientCertificateExpiration',
          exp_alerts: [
            {
              exp_labels: { severity: 'warning', job: core.job, instance: core.instance },
              exp_annotations: {
                summary: 'Client certificate is about to expire.',
                description: `A client certificate used to authenticate to kubernetes apiserver is expiring in less than 7.0 days on instance ${core.instance}.`,
                runbook_url: 'https://runbooks.prometheus-operator.dev/runbooks/kubernetes/kubeclientcertificateexpiration',
              },
            },
          ],
        },
      ],
    },
    {
      interval: '1m',
      input_series: [
        series('etcd_server_has_leader', etcd, '1 1 0 0 0 0 0'),
        series('process_start_time_seconds', core, '100 100 400 400 700 700 700'),
        series('process_start_time_seconds', aggregator, '50x6'),
      ],
      alert_rule_test: [
        {
          eval_time: '5m',
          alertname: 'etcdNoLeader',
          exp_alerts: [
            {
              exp_labels: { severity: 'critical', ...etcd },
              exp_annotations: { summary: 'etcd cluster has no leader.', description: `etcd cluster "${etcd.job}": member ${etcd.instance} has no leader.` },
            },
          ],
        },
        {
          eval_time: '6m',
          alertname: 'KubeTsProcessRestarting',
          exp_alerts: [
            {
              exp_labels: { severity: 'warning', ...core },
              exp_annotations: { summary: 'A kube-ts process is restarting.', description: `${core.job} ${core.instance} has started 2 times in the last 15 minutes.` },
            },
          ],
        },
      ],
    },
    {
      // etcd as the API servers see it: p99 of 2.5 s for ten minutes.
      interval: '1m',
      input_series: [
        series('etcd_request_duration_seconds_bucket', { ...core, operation: 'get', type: 'configmaps', le: '1' }, '0x20'),
        series('etcd_request_duration_seconds_bucket', { ...core, operation: 'get', type: 'configmaps', le: '5' }, '0+10x20'),
        series('etcd_request_duration_seconds_bucket', { ...core, operation: 'get', type: 'configmaps', le: '+Inf' }, '0+10x20'),
        series('nodejs_eventloop_lag_p99_seconds', aggregator, '0.01x20'),
      ],
      alert_rule_test: [
        {
          eval_time: '16m',
          alertname: 'KubeTsEtcdRequestsSlow',
          exp_alerts: [
            {
              exp_labels: { severity: 'warning', job: core.job, instance: core.instance },
              exp_annotations: { summary: 'etcd requests of an API server are slow.', description: `99th percentile of etcd requests from ${core.job} ${core.instance} is 4.96s.` },
            },
          ],
        },
        { eval_time: '16m', alertname: 'KubeTsEventLoopLagHigh', exp_alerts: [] },
      ],
    },
  ],
};

const tool = promtool();

describe('the chart\'s alerting rules', () => {
  it('names only metrics the services, etcd or Prometheus itself expose', () => {
    const groups = (parse(rulesText()) as { groups: Array<{ rules: Array<{ expr: string }> }> }).groups;
    const exprs = groups.flatMap((g) => g.rules.map((r) => r.expr)).join('\n');
    for (const alert of ['KubeAPIErrorBudgetBurn', 'AggregatedAPIDown', 'AggregatedAPIErrors', 'KubeClientCertificateExpiration', 'etcdNoLeader', 'KubeTsProcessRestarting']) {
      expect(rulesText()).toContain(`alert: ${alert}`);
    }
    expect(exprs).not.toMatch(/KUBE_TS_/);
  });

  if (!tool) {
    it.skip('skipped: promtool not found (Debian package prometheus; .ci/run installs it, PROMTOOL=path)', () => undefined);
    return;
  }

  it('pass promtool check rules and promtool test rules (each alert firing with its labels and text, and quiet)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-ts-rules-'));
    writeFileSync(join(dir, 'rules.yaml'), rulesText());
    writeFileSync(join(dir, 'tests.yaml'), stringify(TESTS));
    const checked = spawnSync(tool, ['check', 'rules', join(dir, 'rules.yaml')], { encoding: 'utf8' });
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    const tested = spawnSync(tool, ['test', 'rules', join(dir, 'tests.yaml')], { encoding: 'utf8', cwd: dir });
    expect(tested.status, tested.stdout + tested.stderr).toBe(0);
  });

  const helm = locateHelm(join(ROOT, '.local', 'tools'));
  it.skipIf(!helm.path)('render into a PrometheusRule only when enabled or when the cluster serves the CRD, with these groups', () => {
    const render = (...args: string[]): string => spawnSync(helm.path as string, ['template', 'kts', CHART, '-n', NS, '--show-only', 'templates/prometheusrule.yaml', ...args], { encoding: 'utf8' }).stdout;
    expect(render()).toBe('');
    expect(render('--set', 'metrics.prometheusRule.enabled=false', '--api-versions', 'monitoring.coreos.com/v1/PrometheusRule')).toBe('');
    for (const args of [['--set', 'metrics.prometheusRule.enabled=true'], ['--api-versions', 'monitoring.coreos.com/v1/PrometheusRule']]) {
      const [doc] = parseAllDocuments(render(...args)).map((d) => d.toJS() as { kind: string; spec: unknown });
      expect(doc.kind).toBe('PrometheusRule');
      expect(doc.spec).toEqual(parse(rulesText()));
    }
  });
});
