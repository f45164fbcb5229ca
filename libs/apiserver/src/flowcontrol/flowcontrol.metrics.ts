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

const gauge = (name: string, help: string, labelNames: readonly string[]): Gauge =>
  metric(`apiserver_flowcontrol_${name}`, () => new Gauge({ name: `apiserver_flowcontrol_${name}`, help, labelNames: [...labelNames] }));
const LEVEL = ['priority_level'] as const;

export const currentInqueueSeats = gauge('current_inqueue_seats', 'Number of seats currently pending in queues of the API Priority and Fairness subsystem', LEVEL_SCHEMA);
export const currentExecutingSeats = gauge(
  'current_executing_seats',
  'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
  LEVEL_SCHEMA,
);
export const lowerLimitSeats = gauge('lower_limit_seats', 'Configured lower bound on number of execution seats available to each priority level', LEVEL);
export const upperLimitSeats = gauge('upper_limit_seats', 'Configured upper bound on number of execution seats available to each priority level', LEVEL);
export const currentLimitSeats = gauge('current_limit_seats', 'current derived number of execution seats available to each priority level', LEVEL);
export const demandSeatsHighWatermark = gauge('demand_seats_high_watermark', 'High watermark, over last adjustment period, of demand_seats', LEVEL);
export const demandSeatsAverage = gauge('demand_seats_average', 'Time-weighted average, over last adjustment period, of demand_seats', LEVEL);
export const demandSeatsStdev = gauge('demand_seats_stdev', 'Time-weighted standard deviation, over last adjustment period, of demand_seats', LEVEL);
export const demandSeatsSmoothed = gauge('demand_seats_smoothed', 'Smoothed seat demands', LEVEL);
export const targetSeats = gauge('target_seats', 'Seat allocation targets', LEVEL);
export const seatFairFrac = gauge('seat_fair_frac', "Fair fraction of server's concurrency to allocate to each priority level that can use it", []);

export const requestExecutionSeconds = metric(
  'apiserver_flowcontrol_request_execution_seconds',
  () =>
    new Histogram({
      name: 'apiserver_flowcontrol_request_execution_seconds',
      help: 'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem',
      labelNames: [...LEVEL_SCHEMA, 'type'],
      buckets: [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30],
    }),
);

export const workEstimatedSeats = metric(
  'apiserver_flowcontrol_work_estimated_seats',
  () =>
    new Histogram({
      name: 'apiserver_flowcontrol_work_estimated_seats',
      help: 'Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness',
      labelNames: [...LEVEL_SCHEMA],
      buckets: [1, 2, 4, 10],
    }),
);

export const watchCountSamples = metric(
  'apiserver_flowcontrol_watch_count_samples',
  () =>
    new Histogram({
      name: 'apiserver_flowcontrol_watch_count_samples',
      help: 'count of watchers for mutating requests in API Priority and Fairness',
      labelNames: [...LEVEL_SCHEMA],
      buckets: [0, 1, 10, 100, 1000, 10000],
    }),
);
