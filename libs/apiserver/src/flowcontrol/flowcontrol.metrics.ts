/** kube's apiserver_flowcontrol_* metrics (k8s.io/apiserver pkg/util/flowcontrol/metrics), same names and labels. */
import { Counter, Gauge, Histogram, register } from 'prom-client';

function metric<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

const LEVEL_SCHEMA = ['priority_level', 'flow_schema'] as const;

export const rejectedRequestsTotal = metric(
  'apiserver_flowcontrol_rejected_requests_total',
  () => new Counter({ name: 'apiserver_flowcontrol_rejected_requests_total', help: 'Number of requests rejected by API Priority and Fairness subsystem', labelNames: [...LEVEL_SCHEMA, 'reason'] }),
);

export const dispatchedRequestsTotal = metric(
  'apiserver_flowcontrol_dispatched_requests_total',
  () => new Counter({ name: 'apiserver_flowcontrol_dispatched_requests_total', help: 'Number of requests executed by API Priority and Fairness subsystem', labelNames: [...LEVEL_SCHEMA] }),
);

export const currentInqueueRequests = metric(
  'apiserver_flowcontrol_current_inqueue_requests',
  () => new Gauge({ name: 'apiserver_flowcontrol_current_inqueue_requests', help: 'Number of requests currently pending in queues of the API Priority and Fairness subsystem', labelNames: [...LEVEL_SCHEMA] }),
);

export const currentExecutingRequests = metric(
  'apiserver_flowcontrol_current_executing_requests',
  () =>
    new Gauge({
      name: 'apiserver_flowcontrol_current_executing_requests',
      help: 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
      labelNames: [...LEVEL_SCHEMA],
    }),
);

export const requestWaitDurationSeconds = metric(
  'apiserver_flowcontrol_request_wait_duration_seconds',
  () =>
    new Histogram({
      name: 'apiserver_flowcontrol_request_wait_duration_seconds',
      help: 'Length of time a request spent waiting in its queue',
      labelNames: [...LEVEL_SCHEMA, 'execute'],
      buckets: [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30],
    }),
);

export const nominalLimitSeats = metric(
  'apiserver_flowcontrol_nominal_limit_seats',
  () => new Gauge({ name: 'apiserver_flowcontrol_nominal_limit_seats', help: 'Nominal number of execution seats configured for each priority level', labelNames: ['priority_level'] }),
);
