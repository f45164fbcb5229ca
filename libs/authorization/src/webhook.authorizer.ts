/**
 * kube's Webhook authorizer (k8s.io/apiserver/plugin/pkg/authorizer/webhook) as the structured configuration
 * builds it: matchConditions first, then a cached SubjectAccessReview POSTed to the webhook, retried with kube's
 * backoff on transient failures, the failure policy deciding when no answer comes.
 */
import type { AuthorizationAttributes, AuthorizationResult, UserInfo } from '@kube/apiserver';
import { goDurationString, type WebhookConfiguration } from './authorization.config';
import type { AuthorizationMetrics, MatchConditionRecorder, WebhookResult } from './authorization.metrics';
import type { RuleResolvingAuthorizer, RulesResult } from './rbac.authorizer';
import { webhookClient, type WebhookClient, type WebhookResponse } from './webhook.connection';
import { evaluateMatchConditions } from './webhook.match';

/** authorization.k8s.io/v1 SubjectAccessReviewSpec in Go's field order, empty fields left out (omitempty). */
export interface WebhookReviewSpec {
  resourceAttributes?: Record<string, string>;
  nonResourceAttributes?: Record<string, string>;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

interface ReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

/** The requester-controlled attributes past which an answer is not cached (maxControlledAttrCacheSize). */
const MAX_CONTROLLED_ATTR_CACHE_SIZE = 10_000;
/** cache.NewLRUExpireCache(8192). */
const CACHE_SIZE = 8192;
/** DefaultAuthWebhookRetryBackoff: 500 ms, factor 1.5, jitter 0.2, 5 steps. */
const BACKOFF = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };

function omitEmpty(fields: Array<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of fields) if (v) out[k] = v;
  return out;
}

/** The spec kube's webhook authorizer builds from the request's attributes. */
export function webhookReviewSpec(a: AuthorizationAttributes): WebhookReviewSpec {
  const spec: WebhookReviewSpec = {};
  if (a.resourceRequest) {
    spec.resourceAttributes = omitEmpty([['namespace', a.namespace], ['verb', a.verb], ['group', a.apiGroup], ['version', a.apiVersion], ['resource', a.resource], ['subresource', a.subresource], ['name', a.name]]);
  } else {
    spec.nonResourceAttributes = omitEmpty([['path', a.path], ['verb', a.verb]]);
  }
  const u: UserInfo = a.user;
  if (u.name) spec.user = u.name;
  if (u.groups?.length) spec.groups = u.groups;
  if (u.extra && Object.keys(u.extra).length) spec.extra = u.extra;
  if (u.uid) spec.uid = u.uid;
  return spec;
}

/** v1beta1 names the groups `group`. */
function requestBody(spec: WebhookReviewSpec, version: 'v1' | 'v1beta1'): string {
  const wire = version === 'v1' ? spec : { resourceAttributes: spec.resourceAttributes, nonResourceAttributes: spec.nonResourceAttributes, user: spec.user, group: spec.groups, extra: spec.extra, uid: spec.uid };
  return JSON.stringify({ kind: 'SubjectAccessReview', apiVersion: `authorization.k8s.io/${version}`, metadata: { creationTimestamp: null }, spec: wire, status: { allowed: false } });
}

/** What the review spec holds, as one string: a cache hit builds no spec and serializes no object. */
function cacheKey(a: AuthorizationAttributes): string {
  const u = a.user;
  return JSON.stringify([u.name, u.uid ?? '', u.groups, u.extra ?? null, a.resourceRequest, a.namespace, a.verb, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.name, a.resourceRequest ? '' : a.path]);
}

function shouldCache(a: AuthorizationAttributes): boolean {
  const size = a.namespace.length + a.verb.length + a.apiGroup.length + a.apiVersion.length + a.resource.length + a.subresource.length + a.name.length + a.path.length;
  return size < MAX_CONTROLLED_ATTR_CACHE_SIZE;
}

/** rest client's reading of an answer: a 2xx body decoded, anything else an error in its words. */
function statusOf(response: { statusCode: number; body: string }): { status?: ReviewStatus; error?: string; retry: boolean } {
  const { statusCode, body } = response;
  if (statusCode >= 200 && statusCode < 300) {
    try {
      const parsed = JSON.parse(body) as { status?: ReviewStatus };
      return { status: { allowed: parsed.status?.allowed === true, denied: parsed.status?.denied === true, reason: parsed.status?.reason ?? '', evaluationError: parsed.status?.evaluationError }, retry: false };
    } catch (err) {
      return { error: `couldn't get version/kind; json parse error: ${(err as Error).message}`, retry: false };
    }
  }
  let message = '';
  try {
    const s = JSON.parse(body) as { kind?: string; message?: string };
    if (s.kind === 'Status' && s.message) message = s.message;
  } catch {
    // not a Status: the body itself, as the rest client quotes it
  }
  const text = message || `an error on the server (${JSON.stringify(body.trim() || 'unknown')}) has prevented the request from succeeding`;
  // DefaultShouldRetry: internal errors, timeouts and throttling are transient.
  return { error: text, retry: statusCode === 500 || statusCode === 504 || statusCode === 429 };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class WebhookAuthorizer implements RuleResolvingAuthorizer {
  /** Decisions by the request's attributes, as kube keys its cache by the review spec. */
  private readonly cache = new Map<string, { result: AuthorizationResult; expires: number }>();
  private readonly client: WebhookClient;
  private readonly authorizedTTL: number;
  private readonly unauthorizedTTL: number;
  private readonly decisionOnError: AuthorizationResult['decision'];
  private readonly now: () => number;
  private readonly log: (message: string) => void;
  private readonly matchMetrics: MatchConditionRecorder;
  private readonly retryInitialMs: number;

  constructor(
    readonly name: string,
    private readonly config: WebhookConfiguration,
    private readonly metrics: AuthorizationMetrics,
    options: { env?: NodeJS.ProcessEnv; now?: () => number; retryInitialMs?: number; log?: (message: string) => void } = {},
  ) {
    const connect = (): WebhookClient => webhookClient(config.connectionInfo, config.subjectAccessReviewVersion, config.timeoutMs, goDurationString(config.timeoutMs), options.env);
    this.client = config.connectionInfo.type === 'InClusterConfig' ? lazyClient(connect) : connect();
    // cacheAuthorizedRequests/cacheUnauthorizedRequests false: a zero TTL, nothing kept.
    this.authorizedTTL = config.cacheAuthorizedRequests ? config.authorizedTTLMs : 0;
    this.unauthorizedTTL = config.cacheUnauthorizedRequests ? config.unauthorizedTTLMs : 0;
    this.decisionOnError = config.failurePolicy === 'Deny' ? 'Deny' : 'NoOpinion';
    this.now = options.now ?? Date.now;
    this.log = options.log ?? ((m) => console.error(m));
    this.matchMetrics = metrics.matchConditions('Webhook', name);
    this.retryInitialMs = options.retryInitialMs ?? BACKOFF.initialMs;
  }

  /** The URL reviews are posted to. */
  get url(): string {
    return this.client.url;
  }

  authorize(attrs: AuthorizationAttributes): AuthorizationResult | Promise<AuthorizationResult> {
    let spec: WebhookReviewSpec | undefined;
    if (this.config.matchConditions.length) {
      spec = webhookReviewSpec(attrs);
      const started = process.hrtime.bigint();
      const match = evaluateMatchConditions(this.config.matchConditions, spec);
      const failed = !match.matches && match.error !== undefined;
      this.matchMetrics.evaluation(Number(process.hrtime.bigint() - started) / 1e9, failed);
      if (!match.matches) {
        // An error (and no false condition): the failure policy decides, the webhook is not called.
        if (match.error !== undefined) return { decision: this.decisionOnError, reason: '', error: match.error };
        this.matchMetrics.exclusion();
        return { decision: 'NoOpinion', reason: '' };
      }
    }
    const key = cacheKey(attrs);
    const hit = this.cache.get(key);
    if (hit) {
      if (hit.expires > this.now()) return hit.result;
      this.cache.delete(key);
    }
    return this.review(attrs, key, spec ?? webhookReviewSpec(attrs));
  }

  private async review(attrs: AuthorizationAttributes, key: string, spec: WebhookReviewSpec): Promise<AuthorizationResult> {
    const body = requestBody(spec, this.config.subjectAccessReviewVersion);
    let delay = this.retryInitialMs;
    let lastError = '';
    let lastResult: WebhookResult = 'error';
    for (let step = 0; step < BACKOFF.steps; step++) {
      if (step > 0) {
        await sleep(delay * (1 + Math.random() * BACKOFF.jitter));
        delay *= BACKOFF.factor;
      }
      const started = process.hrtime.bigint();
      const response: WebhookResponse = await this.client.post(body);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if ('failure' in response) {
        lastResult = response.failure;
        lastError = response.message;
        this.metrics.webhookEvaluation(this.name, lastResult, seconds);
        if (response.code === 'ECONNRESET') continue;
        break;
      }
      const read = statusOf(response);
      lastResult = read.status ? 'success' : response.statusCode === 504 ? 'timeout' : 'error';
      this.metrics.webhookEvaluation(this.name, lastResult, seconds);
      if (read.status) {
        if (shouldCache(attrs)) {
          const ttl = read.status.allowed ? this.authorizedTTL : this.unauthorizedTTL;
          if (ttl > 0) this.remember(key, read.status, ttl);
        }
        return decide(read.status);
      }
      lastError = read.error ?? '';
      if (!read.retry) break;
    }
    // An outage or a bad configuration: kube logs every failed call.
    this.log(`Failed to make webhook authorizer request (${this.name}): ${lastError}`);
    if (this.decisionOnError === 'NoOpinion') this.metrics.webhookFailOpen(this.name, lastResult);
    return { decision: this.decisionOnError, reason: '', error: lastError };
  }

  private remember(key: string, status: ReviewStatus, ttl: number): void {
    if (!this.cache.delete(key) && this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, { result: decide(status), expires: this.now() + ttl });
  }

  /** kube's webhook cannot list what a user may do: incomplete, with its error. */
  rulesFor(): RulesResult {
    return { resourceRules: [], nonResourceRules: [], incomplete: true, errors: ['webhook authorizer does not support user rule resolution'] };
  }

  close(): void {
    this.client.close();
  }
}

/**
 * The in-cluster client is made at the first review: outside a cluster (no KUBERNETES_SERVICE_HOST, no service
 * account) the configuration still loads and each review fails with rest.InClusterConfig's error, the failure
 * policy deciding, so a file written for a cluster can be tried anywhere.
 */
function lazyClient(make: () => WebhookClient): WebhookClient {
  let client: WebhookClient | undefined;
  const get = (): WebhookClient | { error: string } => {
    try {
      return (client ??= make());
    } catch (err) {
      return { error: (err as Error).message };
    }
  };
  return {
    get url() {
      const c = get();
      return 'error' in c ? '' : c.url;
    },
    post: (body) => {
      const c = get();
      return 'error' in c ? Promise.resolve({ failure: 'error' as const, message: c.error }) : c.post(body);
    },
    close: () => client?.close(),
  };
}

function decide(s: ReviewStatus): AuthorizationResult {
  const reason = s.reason ?? '';
  if (s.denied && s.allowed) return { decision: 'Deny', reason, error: 'webhook subject access review returned both allow and deny response' };
  if (s.denied) return { decision: 'Deny', reason };
  if (s.allowed) return { decision: 'Allow', reason };
  return { decision: 'NoOpinion', reason };
}
