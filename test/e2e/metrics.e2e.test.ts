/**
 * After a kubectl session through the aggregator (with NATS registration on), the metrics kube's dashboards
 * and ours (deploy/grafana) read are there with counts: scraped with `kubectl get --raw /metrics`, as
 * Prometheus would, from the front door and from core-api behind it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNats, type NatsProcess } from '@kube/testing';
import { hasMetric, kubectlSession, metricTotal, startStack, type StackHarness } from '@test/support';


describe('metrics after a kubectl session', () => {
  let nats: NatsProcess;
  let stack: StackHarness;
  const { k, ok } = kubectlSession(undefined, () => stack.kubeconfig);

  beforeAll(async () => {
    nats = await startNats();
    stack = await startStack({ natsUrl: nats.url });
    await ok(['create', 'namespace', 'metrics']);
    await ok(['create', 'configmap', 'one', '-n', 'metrics', '--from-literal=a=b']);
    await ok(['get', 'configmaps', '-n', 'metrics']);
    await ok(['label', 'configmap', 'one', '-n', 'metrics', 'seen=yes']);
    // A watch that sees the deletion, then times out.
    const watching = k(['get', 'configmaps', '-n', 'metrics', '-w', '--request-timeout=3s']);
    await new Promise((r) => setTimeout(r, 1000));
    await ok(['delete', 'configmap', 'one', '-n', 'metrics']);
    expect((await watching).stdout).toMatch(/^one\s+/m);
  });

  afterAll(async () => {
    await stack?.stop();
    await nats?.stop();
  });

  it('counts requests by verb, resource and code, with durations, in-flight gauges and etcd latency', async () => {
    const metrics = await ok(['get', '--raw', '/metrics']);
    expect(metricTotal(metrics, 'apiserver_request_total', { verb: 'POST', resource: 'configmaps', code: '201' })).toBeGreaterThan(0);
    expect(metricTotal(metrics, 'apiserver_request_total', { verb: 'DELETE', resource: 'configmaps' })).toBeGreaterThan(0);
    expect(metricTotal(metrics, 'apiserver_request_duration_seconds_count', { resource: 'configmaps' })).toBeGreaterThan(0);
    expect(hasMetric(metrics, 'apiserver_current_inflight_requests')).toBe(true);
    expect(metricTotal(metrics, 'etcd_request_duration_seconds_count')).toBeGreaterThan(0);
    // Labelled by kind, as kube does.
    expect(metricTotal(metrics, 'apiserver_watch_events_total', { kind: 'ConfigMap' })).toBeGreaterThan(0);
  });

  it('reports APIService availability and NATS registration traffic', async () => {
    const metrics = await ok(['get', '--raw', '/metrics']);
    expect(hasMetric(metrics, 'aggregator_unavailable_apiservice')).toBe(true);
    expect(metrics).toMatch(/^aggregator_unavailable_apiservice\{name="v1\."\} 0$/m);
    expect(metricTotal(metrics, 'registration_messages_total', { direction: 'out' })).toBeGreaterThan(0);
    expect(metricTotal(metrics, 'registration_messages_total', { direction: 'in' })).toBeGreaterThan(0);
  });

  it('serves the same series from a backend scraped directly', async () => {
    const core = await stack.core.request('GET', '/metrics');
    expect(core.status).toBe(200);
    expect(metricTotal(core.body, 'apiserver_request_total', { resource: 'configmaps' })).toBeGreaterThan(0);
  });
});
