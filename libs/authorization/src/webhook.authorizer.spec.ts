import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { register } from 'prom-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthorizationAttributes } from '@kube/apiserver';
import { freePort, tempDir } from '@kube/testing';
import { startAuthorizationWebhook, type TestAuthorizationWebhook } from '../../../test/support/authorization-webhook';
import { loadAuthorizationConfiguration, type WebhookConfiguration } from './authorization.config';
import { authorizationMetrics } from './authorization.metrics';
import { WebhookAuthorizer } from './webhook.authorizer';

const dir = tempDir('authz-webhook');
let hook: TestAuthorizationWebhook;

function config(kubeconfig: string, extra = '', version = 'v1'): WebhookConfiguration {
  return loadAuthorizationConfiguration(`apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
- type: Webhook
  name: policy
  webhook:
    timeout: 1s
    subjectAccessReviewVersion: ${version}
    failurePolicy: NoOpinion
    connectionInfo:
      type: KubeConfigFile
      kubeConfigFile: ${kubeconfig}
${extra}`).authorizers[0].webhook!;
}

const attrs = (over: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: { name: 'jane', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { 'example.com/team': ['a'] } },
  verb: 'get',
  resourceRequest: true,
  path: '/api/v1/namespaces/ns1/pods/p1',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  namespace: 'ns1',
  name: 'p1',
  ...over,
});

async function counter(name: string, labels: Record<string, string>): Promise<number> {
  const m = register.getSingleMetric(name);
  if (!m) return 0;
  const values = (await m.get()).values as Array<{ labels: Record<string, string>; value: number }>;
  return values.filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x)).reduce((a, v) => a + v.value, 0);
}

beforeAll(async () => {
  hook = await startAuthorizationWebhook(dir, (r) => ({ allowed: r.body.spec.user === 'jane', reason: 'policy says so' }));
});

afterAll(() => hook?.close());

beforeEach(() => {
  hook.reviews.length = 0;
  hook.decide = (r) => ({ allowed: r.body.spec.user === 'jane', reason: 'policy says so' });
});

describe('WebhookAuthorizer', () => {
  it("posts kube's SubjectAccessReview v1 byte for byte, with its client certificate, to the kubeconfig's server", async () => {
    const w = new WebhookAuthorizer('policy', config(hook.kubeconfigPath), authorizationMetrics());
    expect(await w.authorize(attrs())).toEqual({ decision: 'Allow', reason: 'policy says so' });
    await w.authorize(attrs({ resourceRequest: false, path: '/healthz', verb: 'get', user: { name: 'bob', groups: [] } }));
    expect(hook.reviews).toHaveLength(2);
    const [first, second] = hook.reviews;
    expect(first.url).toBe('/authorize?timeout=1s');
    expect(first.clientCN).toBe('kube-apiserver');
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.raw).toBe(
      '{"kind":"SubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"resourceAttributes":{"namespace":"ns1","verb":"get","version":"v1","resource":"pods","name":"p1"},"user":"jane","groups":["devs","system:authenticated"],"extra":{"example.com/team":["a"]},"uid":"u-1"},"status":{"allowed":false}}',
    );
    expect(second.raw).toBe('{"kind":"SubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"nonResourceAttributes":{"path":"/healthz","verb":"get"},"user":"bob"},"status":{"allowed":false}}');
    w.close();
  });

  it('speaks v1beta1 (groups as `group`) when subjectAccessReviewVersion says so', async () => {
    const w = new WebhookAuthorizer('policy', config(hook.kubeconfigPath, '', 'v1beta1'), authorizationMetrics());
    await w.authorize(attrs());
    expect(hook.reviews[0].body.apiVersion).toBe('authorization.k8s.io/v1beta1');
    expect(hook.reviews[0].body.spec.group).toEqual(['devs', 'system:authenticated']);
    w.close();
  });

  it('keeps answers for authorizedTTL and unauthorizedTTL, and none when caching is off', async () => {
    let now = 1_000_000;
    const w = new WebhookAuthorizer('policy', config(hook.kubeconfigPath, '    authorizedTTL: 10s\n    unauthorizedTTL: 2s\n'), authorizationMetrics(), { now: () => now });
    for (let i = 0; i < 3; i++) expect((await w.authorize(attrs())).decision).toBe('Allow');
    expect(hook.reviews).toHaveLength(1);
    const bob = attrs({ user: { name: 'bob', groups: [] } });
    for (let i = 0; i < 3; i++) expect((await w.authorize(bob)).decision).toBe('NoOpinion');
    expect(hook.reviews).toHaveLength(2);
    now += 3000;
    await w.authorize(bob);
    await w.authorize(attrs());
    expect(hook.reviews).toHaveLength(3);
    now += 8000;
    await w.authorize(attrs());
    expect(hook.reviews).toHaveLength(4);
    const off = new WebhookAuthorizer('policy', config(hook.kubeconfigPath, '    cacheAuthorizedRequests: false\n    cacheUnauthorizedRequests: false\n'), authorizationMetrics());
    await off.authorize(attrs());
    await off.authorize(attrs());
    expect(hook.reviews).toHaveLength(6);
    w.close();
    off.close();
  });

  it('denied answers Deny; allowed and denied together is Deny with an error', async () => {
    const w = new WebhookAuthorizer('policy', config(hook.kubeconfigPath), authorizationMetrics());
    hook.decide = () => ({ denied: true, reason: 'not on my watch' });
    expect(await w.authorize(attrs({ name: 'd1' }))).toEqual({ decision: 'Deny', reason: 'not on my watch' });
    hook.decide = () => ({ allowed: true, denied: true });
    expect(await w.authorize(attrs({ name: 'd2' }))).toEqual({ decision: 'Deny', reason: '', error: 'webhook subject access review returned both allow and deny response' });
    w.close();
  });

  it('failurePolicy decides when the webhook is down or too slow, counted as kube counts it', async () => {
    const port = await freePort();
    const down = join(dir, 'down.kubeconfig');
    writeFileSync(down, readFileSync(hook.kubeconfigPath, 'utf8').replace(hook.url, `https://127.0.0.1:${port}/authorize`));
    const failOpen = await counter('apiserver_authorization_webhook_evaluations_fail_open_total', { name: 'policy', result: 'error' });
    const lenient = new WebhookAuthorizer('policy', config(down), authorizationMetrics());
    expect(await lenient.authorize(attrs())).toEqual({ decision: 'NoOpinion', reason: '', error: `Post "https://127.0.0.1:${port}/authorize?timeout=1s": dial tcp 127.0.0.1:${port}: connect: connection refused` });
    expect(await counter('apiserver_authorization_webhook_evaluations_fail_open_total', { name: 'policy', result: 'error' })).toBe(failOpen + 1);
    const strict = new WebhookAuthorizer('policy', { ...config(down), failurePolicy: 'Deny' }, authorizationMetrics());
    expect((await strict.authorize(attrs())).decision).toBe('Deny');
    hook.decide = () => 'hang';
    const timeouts = await counter('apiserver_authorization_webhook_evaluations_total', { name: 'policy', result: 'timeout' });
    const slow = new WebhookAuthorizer('policy', { ...config(hook.kubeconfigPath), failurePolicy: 'Deny' }, authorizationMetrics());
    const r = await slow.authorize(attrs({ name: 'slow' }));
    expect(r.decision).toBe('Deny');
    expect(r.error).toContain('context deadline exceeded');
    expect(await counter('apiserver_authorization_webhook_evaluations_total', { name: 'policy', result: 'timeout' })).toBe(timeouts + 1);
    // A 500 is transient for kube: retried with backoff, then the policy decides.
    hook.decide = () => 'error500';
    hook.reviews.length = 0;
    const retried = new WebhookAuthorizer('policy', config(hook.kubeconfigPath), authorizationMetrics(), { retryInitialMs: 1 });
    expect((await retried.authorize(attrs({ name: 'five-hundred' }))).error).toBe('an error on the server ("policy engine exploded") has prevented the request from succeeding');
    expect(hook.reviews).toHaveLength(5);
    for (const w of [lenient, strict, slow, retried]) w.close();
  });

  it('matchConditions skip the webhook (no call) or, when they fail to evaluate, let the failure policy decide', async () => {
    const conditions = '    matchConditionSubjectAccessReviewVersion: v1\n    matchConditions:\n    - expression: has(request.resourceAttributes)\n    - expression: request.resourceAttributes.namespace == \'ns1\'\n';
    const w = new WebhookAuthorizer('policy', config(hook.kubeconfigPath, conditions), authorizationMetrics());
    const excluded = await counter('apiserver_authorization_match_condition_exclusions_total', { type: 'Webhook', name: 'policy' });
    expect(await w.authorize(attrs({ namespace: 'other' }))).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(await w.authorize(attrs({ resourceRequest: false, path: '/metrics' }))).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(hook.reviews).toHaveLength(0);
    expect(await counter('apiserver_authorization_match_condition_exclusions_total', { type: 'Webhook', name: 'policy' })).toBe(excluded + 2);
    expect((await w.authorize(attrs())).decision).toBe('Allow');
    expect(hook.reviews).toHaveLength(1);
    const broken = new WebhookAuthorizer('policy', { ...config(hook.kubeconfigPath, "    matchConditionSubjectAccessReviewVersion: v1\n    matchConditions:\n    - expression: request.resourceAttributes.namespace == 'ns1'\n"), failurePolicy: 'Deny' }, authorizationMetrics());
    const r = await broken.authorize(attrs({ resourceRequest: false, path: '/metrics' }));
    expect(r.decision).toBe('Deny');
    expect(r.error).toMatch(/^cel evaluation error: expression 'request.resourceAttributes.namespace == 'ns1'' resulted in error: /);
    expect(hook.reviews).toHaveLength(1);
    w.close();
    broken.close();
  });

  it('a client without the certificate the webhook requires gets no answer (TLS refuses it)', async () => {
    const anonymous = join(dir, 'no-cert.kubeconfig');
    writeFileSync(anonymous, readFileSync(hook.kubeconfigPath, 'utf8').replace(/ {4}client-(certificate|key): .*\n/g, ''));
    const w = new WebhookAuthorizer('policy', config(anonymous), authorizationMetrics());
    const r = await w.authorize(attrs());
    expect(r.decision).toBe('NoOpinion');
    expect(r.error).toBeDefined();
    expect(hook.reviews).toHaveLength(0);
    w.close();
  });

  it('an answer larger than 3 MiB is a failure, not buffered and believed', async () => {
    hook.decide = () => 'huge';
    const w = new WebhookAuthorizer('policy', config(hook.kubeconfigPath), authorizationMetrics());
    const r = await w.authorize(attrs({ name: 'huge' }));
    expect(r).toMatchObject({ decision: 'NoOpinion', error: expect.stringContaining('response body larger than 3145728 bytes') });
    w.close();
  });

  it('answers an incomplete rules review, as kube', () => {
    const w = new WebhookAuthorizer('policy', config(hook.kubeconfigPath), authorizationMetrics());
    expect(w.rulesFor()).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: true, errors: ['webhook authorizer does not support user rule resolution'] });
    w.close();
  });
});
