import { Counter, Histogram, register } from 'prom-client';

/** Metrics with kube-apiserver's names, registered once in prom-client's default registry. */
function histogram(name: string, help: string, labelNames: string[], buckets: number[]): Histogram<string> {
  return (register.getSingleMetric(name) as Histogram<string> | undefined) ?? new Histogram({ name, help, labelNames, buckets });
}

function counter(name: string, help: string, labelNames: string[]): Counter<string> {
  return (register.getSingleMetric(name) as Counter<string> | undefined) ?? new Counter({ name, help, labelNames });
}

export const etcdRequestDuration = histogram(
  'etcd_request_duration_seconds',
  'Etcd request latency in seconds for each operation and object type.',
  ['operation', 'type'],
  [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);

export const etcdRequestErrors = counter('etcd_request_errors_total', 'Etcd failed request counts for each operation and object type.', ['operation', 'type']);

export const watchCacheEvents = counter('apiserver_watch_cache_events_received_total', 'Counter of events received in watch cache broken by resource type.', ['resource']);
