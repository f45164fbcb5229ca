import { Counter, Gauge, Histogram, register } from 'prom-client';

function metric<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

/** kube-apiserver's request metrics, same names and labels. */
export const requestTotal = metric(
  'apiserver_request_total',
  () =>
    new Counter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
    }),
);

export const requestDuration = metric(
  'apiserver_request_duration_seconds',
  () =>
    new Histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
      buckets: [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60],
    }),
);

export const inflightRequests = metric(
  'apiserver_current_inflight_requests',
  () => new Gauge({ name: 'apiserver_current_inflight_requests', help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.', labelNames: ['request_kind'] }),
);

export const watchersGauge = metric(
  'apiserver_registered_watchers',
  () => new Gauge({ name: 'apiserver_registered_watchers', help: 'Number of currently registered watchers for a given resources', labelNames: ['group', 'version', 'kind'] }),
);

export const watchEventsTotal = metric(
  'apiserver_watch_events_total',
  () => new Counter({ name: 'apiserver_watch_events_total', help: 'Number of events sent in watch clients', labelNames: ['group', 'version', 'kind'] }),
);

export const rejectedRequests = metric(
  'apiserver_dropped_requests_total',
  () => new Counter({ name: 'apiserver_dropped_requests_total', help: 'Number of requests dropped with a TooManyRequests response.', labelNames: ['request_kind'] }),
);

/**
 * kube's x509 authenticator metric: the remaining lifetime of the client certificate a request authenticated
 * with (kube-prometheus' KubeClientCertificateExpiration alerts on its 1st percentile).
 */
export const clientCertificateExpiration = metric(
  'apiserver_client_certificate_expiration_seconds',
  () =>
    new Histogram({
      name: 'apiserver_client_certificate_expiration_seconds',
      help: 'Distribution of the remaining lifetime on the certificate used to authenticate a request.',
      buckets: [0, 1800, 3600, 7200, 21600, 43200, 86400, 172800, 345600, 604800, 2592000, 7776000, 15552000, 31104000],
    }),
);
