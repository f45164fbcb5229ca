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

export interface AuthorizationMetrics {
  decision(type: string, name: string, decision: 'allowed' | 'denied'): void;
  webhookEvaluation(name: string, result: WebhookResult, seconds: number): void;
  webhookFailOpen(name: string, result: WebhookResult): void;
  matchConditionEvaluation(type: string, name: string, seconds: number, failed: boolean): void;
  matchConditionExclusion(type: string, name: string): void;
  configReload(apiServerId: string, status: 'success' | 'failure'): void;
}

/** canceled | timeout | error | success, as kube labels a webhook round trip. */
export type WebhookResult = 'canceled' | 'timeout' | 'error' | 'success';

let instance: AuthorizationMetrics | undefined;

export function authorizationMetrics(): AuthorizationMetrics {
  if (instance) return instance;
  const decisions = metric('apiserver_authorization_decisions_total', () => new Counter({ name: 'apiserver_authorization_decisions_total', help: 'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.', labelNames: ['type', 'name', 'decision'] }));
  const evaluations = metric('apiserver_authorization_webhook_evaluations_total', () => new Counter({ name: 'apiserver_authorization_webhook_evaluations_total', help: 'Round-trips to authorization webhooks.', labelNames: ['name', 'result'] }));
  const duration = metric('apiserver_authorization_webhook_duration_seconds', () => new Histogram({ name: 'apiserver_authorization_webhook_duration_seconds', help: 'Request latency in seconds.', labelNames: ['name', 'result'], buckets: DEF_BUCKETS }));
  const failOpen = metric('apiserver_authorization_webhook_evaluations_fail_open_total', () => new Counter({ name: 'apiserver_authorization_webhook_evaluations_fail_open_total', help: 'NoOpinion results due to webhook timeout or error.', labelNames: ['name', 'result'] }));
  const mcErrors = metric('apiserver_authorization_match_condition_evaluation_errors_total', () => new Counter({ name: 'apiserver_authorization_match_condition_evaluation_errors_total', help: 'Total number of errors when an authorization webhook encounters a match condition error split by authorizer type and name.', labelNames: ['type', 'name'] }));
  const mcExclusions = metric('apiserver_authorization_match_condition_exclusions_total', () => new Counter({ name: 'apiserver_authorization_match_condition_exclusions_total', help: 'Total number of exclusions when an authorization webhook is skipped because match conditions exclude it.', labelNames: ['type', 'name'] }));
  const mcSeconds = metric('apiserver_authorization_match_condition_evaluation_seconds', () => new Histogram({ name: 'apiserver_authorization_match_condition_evaluation_seconds', help: 'Authorization match condition evaluation time in seconds, split by authorizer type and name.', labelNames: ['type', 'name'], buckets: [0.001, 0.005, 0.01, 0.025, 0.1, 0.2, 0.25] }));
  const reloads = metric('apiserver_authorization_config_controller_automatic_reloads_total', () => new Counter({ name: 'apiserver_authorization_config_controller_automatic_reloads_total', help: 'Total number of automatic reloads of authorization configuration split by status and apiserver identity.', labelNames: ['status', 'apiserver_id_hash'] }));
  const lastReload = metric('apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds', () => new Gauge({ name: 'apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds', help: 'Timestamp of the last automatic reload of authorization configuration split by status and apiserver identity.', labelNames: ['status', 'apiserver_id_hash'] }));
  instance = {
    decision: (type, name, decision) => decisions.inc({ type, name, decision }),
    webhookEvaluation: (name, result, seconds) => {
      evaluations.inc({ name, result });
      duration.observe({ name, result }, seconds);
    },
    webhookFailOpen: (name, result) => failOpen.inc({ name, result }),
    matchConditionEvaluation: (type, name, seconds, failed) => {
      mcSeconds.observe({ type, name }, seconds);
      if (failed) mcErrors.inc({ type, name });
    },
    matchConditionExclusion: (type, name) => mcExclusions.inc({ type, name }),
    configReload: (apiServerId, status) => {
      // kube's apiserver_id_hash: sha256 of the server's identity, so the label names no host.
      const apiserver_id_hash = `sha256:${createHash('sha256').update(apiServerId).digest('hex')}`;
      reloads.inc({ status, apiserver_id_hash });
      lastReload.set({ status, apiserver_id_hash }, Date.now() / 1000);
    },
  };
  return instance;
}
