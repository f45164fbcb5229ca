/**
 * deploy/grafana/kube-ts-dashboard.json: every query is valid PromQL (the Prometheus project's own lezer
 * grammar) and names only metrics the services register, and the key series are all on it.
 */
import { parser } from '@prometheus-io/lezer-promql';
import { describe, expect, it } from 'vitest';
import { read, registeredMetricNames } from './deploy.helpers';

interface Panel {
  id: number;
  type: string;
  title: string;
  targets?: Array<{ expr: string }>;
}

const dashboard = JSON.parse(read('deploy/grafana/kube-ts-dashboard.json')) as { uid: string; title: string; panels: Panel[]; templating: { list: Array<{ name: string }> } };
const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

/** Grafana's variables, replaced by values that keep the query valid PromQL. */
function substitute(expr: string): string {
  return expr.replaceAll('$__rate_interval', '5m').replaceAll('$__interval', '1m');
}

/** Positions of syntax errors the PromQL grammar reports. */
function syntaxErrors(expr: string): number[] {
  const errors: number[] = [];
  parser.parse(expr).iterate({
    enter: (node) => {
      if (node.type.isError) errors.push(node.from);
    },
  });
  return errors;
}

/** Metric names a query selects: identifiers followed by `{` or `[`, or standing alone in a function call. */
function metricNames(expr: string): string[] {
  const names = new Set<string>();
  for (const m of expr.matchAll(/\b([a-z_:][a-z0-9_:]*)\s*(?=\{|\[)/g)) names.add(m[1]);
  return [...names];
}

describe('Grafana dashboard', () => {
  it('has an identity, unique panel ids and its data source and job variables', () => {
    expect(dashboard.uid).toBeTruthy();
    expect(dashboard.title).toBeTruthy();
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(expect.arrayContaining(['datasource', 'job']));
    expect(queries.length).toBeGreaterThan(10);
  });

  it('has only valid PromQL', () => {
    for (const q of queries) expect(syntaxErrors(substitute(q.expr)), `${q.panel}: ${q.expr}`).toEqual([]);
    // The check itself catches a broken query.
    expect(syntaxErrors('sum by (verb (rate(apiserver_request_total[5m]))')).not.toEqual([]);
  });

  it('queries only metrics the services register', () => {
    const registered = registeredMetricNames();
    const known = (name: string): boolean => registered.has(name) || registered.has(name.replace(/_(bucket|count|sum)$/, ''));
    for (const q of queries) for (const name of metricNames(substitute(q.expr))) expect(known(name), `${q.panel}: ${name} is registered nowhere`).toBe(true);
  });

  it('shows the key series', () => {
    const all = queries.map((q) => q.expr).join('\n');
    for (const metric of [
      'apiserver_request_total',
      'apiserver_request_duration_seconds_bucket',
      'apiserver_current_inflight_requests',
      'etcd_request_duration_seconds_bucket',
      'apiserver_watch_events_total',
      'aggregator_unavailable_apiservice',
      // Runtime: memory, CPU, event loop, GC, descriptors, and the go_* name kube's dashboards plot.
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_gc_duration_seconds_sum',
      'process_open_fds',
      'go_goroutines',
    ]) {
      expect(all, metric).toContain(metric);
    }
    // Broken down by verb, resource and code.
    expect(all).toMatch(/by \(verb\)/);
    expect(all).toMatch(/by \(group, resource/);
    expect(all).toMatch(/by \(code\)/);
  });
});
