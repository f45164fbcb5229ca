/**
 * kube's structured-authorization metrics (k8s.io/apiserver/pkg/authorization/metrics, …/authorizer/webhook/metrics,
 * …/authorization/cel, …/options/authorizationconfig/metrics), registered on first use: a server without
 * KUBE_AUTHORIZATION_CONFIG exports none of them.
 */
import { createHash } from 'node:crypto';
import { Counter, Gauge, Histogram, register } from 'prom-client';

function metric<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

/** compbasemetrics.DefBuckets. */
const DEF_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One authorizer's decision counters, their label sets resolved once (a decision is counted per request). */
export interface DecisionRecorder {
  allowed(): void;
  denied(): void;
}

/** One webhook's match-condition metrics, resolved once (evaluated per request that reaches it). */
export interface MatchConditionRecorder {
  evaluation(seconds: number, failed: boolean): void;
  exclusion(): void;
}

export interface AuthorizationMetrics {
  decisions(type: string, name: string): DecisionRecorder;
  matchConditions(type: string, name: string): MatchConditionRecorder;
  webhookEvaluation(name: string, result: WebhookResult, seconds: number): void;
  webhookFailOpen(name: string, result: WebhookResult): void;
  configReload(apiServerId: string, status: 'success' | 'failure'): void;
}

/** canceled | timeout | error | success, as kube labels a webhook round trip. */
export type WebhookResult = 'canceled' | 'timeout' | 'error' | 'success';

let instance: AuthorizationMetrics | undefined;

/** Counts kept as plain numbers on the request path and added to their counter when /metrics is collected. */
interface PendingCount {
  metric: string;
  labels: Record<string, string>;
  n: number;
}
/** One per metric and label set: a reloaded chain counts on where the previous one left off. */
const pending = new Map<string, PendingCount>();

function pendingCount(metric: string, labels: Record<string, string>): PendingCount {
  const key = `${metric}\0${JSON.stringify(labels)}`;
  let c = pending.get(key);
  if (!c) pending.set(key, (c = { metric, labels, n: 0 }));
  return c;
}

function flush(metric: string, counter: Counter<string>): void {
  for (const c of pending.values()) {
    if (c.n === 0 || c.metric !== metric) continue;
    counter.inc(c.labels, c.n);
    c.n = 0;
  }
}

export function authorizationMetrics(): AuthorizationMetrics {
  if (instance) return instance;
  // A decision is counted per request: a plain increment there, the counter brought up to date when collected.
  const decisions = metric('apiserver_authorization_decisions_total', () => new Counter({ name: 'apiserver_authorization_decisions_total', help: 'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.', labelNames: ['type', 'name', 'decision'], collect() { flush('apiserver_authorization_decisions_total', this); } }));
  const evaluations = metric('apiserver_authorization_webhook_evaluations_total', () => new Counter({ name: 'apiserver_authorization_webhook_evaluations_total', help: 'Round-trips to authorization webhooks.', labelNames: ['name', 'result'] }));
  const duration = metric('apiserver_authorization_webhook_duration_seconds', () => new Histogram({ name: 'apiserver_authorization_webhook_duration_seconds', help: 'Request latency in seconds.', labelNames: ['name', 'result'], buckets: DEF_BUCKETS }));
  const failOpen = metric('apiserver_authorization_webhook_evaluations_fail_open_total', () => new Counter({ name: 'apiserver_authorization_webhook_evaluations_fail_open_total', help: 'NoOpinion results due to webhook timeout or error.', labelNames: ['name', 'result'] }));
  const mcErrors = metric('apiserver_authorization_match_condition_evaluation_errors_total', () => new Counter({ name: 'apiserver_authorization_match_condition_evaluation_errors_total', help: 'Total number of errors when an authorization webhook encounters a match condition error split by authorizer type and name.', labelNames: ['type', 'name'] }));
  const mcExclusions = metric('apiserver_authorization_match_condition_exclusions_total', () => new Counter({ name: 'apiserver_authorization_match_condition_exclusions_total', help: 'Total number of exclusions when an authorization webhook is skipped because match conditions exclude it.', labelNames: ['type', 'name'], collect() { flush('apiserver_authorization_match_condition_exclusions_total', this); } }));
  const mcSeconds = metric('apiserver_authorization_match_condition_evaluation_seconds', () => new Histogram({ name: 'apiserver_authorization_match_condition_evaluation_seconds', help: 'Authorization match condition evaluation time in seconds, split by authorizer type and name.', labelNames: ['type', 'name'], buckets: [0.001, 0.005, 0.01, 0.025, 0.1, 0.2, 0.25] }));
  const reloads = metric('apiserver_authorization_config_controller_automatic_reloads_total', () => new Counter({ name: 'apiserver_authorization_config_controller_automatic_reloads_total', help: 'Total number of automatic reloads of authorization configuration split by status and apiserver identity.', labelNames: ['status', 'apiserver_id_hash'] }));
  const lastReload = metric('apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds', () => new Gauge({ name: 'apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds', help: 'Timestamp of the last automatic reload of authorization configuration split by status and apiserver identity.', labelNames: ['status', 'apiserver_id_hash'] }));
  instance = {
    decisions: (type, name) => {
      const allowed = pendingCount('apiserver_authorization_decisions_total', { type, name, decision: 'allowed' });
      const denied = pendingCount('apiserver_authorization_decisions_total', { type, name, decision: 'denied' });
      return { allowed: () => void allowed.n++, denied: () => void denied.n++ };
    },
    matchConditions: (type, name) => {
      const seconds = mcSeconds.labels({ type, name });
      const errors = mcErrors.labels({ type, name });
      const exclusions = pendingCount('apiserver_authorization_match_condition_exclusions_total', { type, name });
      return {
        evaluation: (s, failed) => {
          seconds.observe(s);
          if (failed) errors.inc();
        },
        exclusion: () => void exclusions.n++,
      };
    },
    webhookEvaluation: (name, result, seconds) => {
      evaluations.inc({ name, result });
      duration.observe({ name, result }, seconds);
    },
    webhookFailOpen: (name, result) => failOpen.inc({ name, result }),
    configReload: (apiServerId, status) => {
      // kube's apiserver_id_hash: sha256 of the server's identity, so the label names no host.
      const apiserver_id_hash = `sha256:${createHash('sha256').update(apiServerId).digest('hex')}`;
      reloads.inc({ status, apiserver_id_hash });
      lastReload.set({ status, apiserver_id_hash }, Date.now() / 1000);
    },
  };
  return instance;
}
