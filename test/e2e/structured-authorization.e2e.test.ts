/**
 * Structured authorization (issue 27, item 3) through the real kubectl: a stack started with kube's
 * AuthorizationConfiguration (KUBE_AUTHORIZATION_CONFIG) asks webhooks the test runs (HTTPS, their own CA, client
 * certificates required) before RBAC. A webhook allows a user RBAC does not and, ordered first, denies one RBAC
 * would allow; failurePolicy decides when a webhook is down or too slow; matchConditions keep requests away from
 * it; its answers are cached for their TTL; `kubectl auth can-i` and SubjectAccessReview go through the same
 * chain; core-api, asked directly, decides as the front door does.
 */
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, tempDir } from '@kube/testing';
import type { INestApplicationContext } from '@nestjs/common';
import { SampleApiServerModule } from '../../apps/sample-apiserver/src/sample-apiserver.module';
import { bootAggregatedServer } from '../support/aggregated-server.boot';
import { startAuthorizationWebhook, type ReceivedReview, type TestAuthorizationWebhook } from '../support/authorization-webhook';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

// Tests here wait up to a minute for the stack to converge (until(…, 60_000)); on a loaded CI machine such a wait
// and the rest of the test together outgrow the default 60 s.
vi.setConfig({ testTimeout: 180_000 });

const dir = tempDir('structured-authz');
const configPath = join(dir, 'authorization-config.yaml');
let stack: StackHarness;
let policy: TestAuthorizationWebhook;
let slow: TestAuthorizationWebhook;
let downUrl: string;
let wardle: INestApplicationContext | undefined;

const front = kubectlSession(undefined, () => stack.kubeconfig);
const core = kubectlSession(undefined, () => stack.core.kubeconfig);
const kubectl127 = kubectlSession('1.27', () => stack.kubeconfig);
const kubectl133 = kubectlSession('1.33', () => stack.kubeconfig);

const onPods = (users: string[]): string => `request.user in [${users.map((u) => `'${u}'`).join(', ')}] && has(request.resourceAttributes) && request.resourceAttributes.resource == 'pods'`;

function webhook(name: string, kubeconfig: string, failurePolicy: 'Deny' | 'NoOpinion', timeout: string, conditions: string[]): string {
  return [
    '  - type: Webhook',
    `    name: ${name}`,
    '    webhook:',
    `      timeout: ${timeout}`,
    '      authorizedTTL: 5m',
    '      unauthorizedTTL: 30s',
    '      subjectAccessReviewVersion: v1',
    '      matchConditionSubjectAccessReviewVersion: v1',
    `      failurePolicy: ${failurePolicy}`,
    '      connectionInfo:',
    '        type: KubeConfigFile',
    `        kubeConfigFile: ${kubeconfig}`,
    '      matchConditions:',
    ...conditions.map((c) => `      - expression: ${JSON.stringify(c)}`),
    '',
  ].join('\n');
}

function configYaml(withPolicy = true): string {
  const downKubeconfig = join(dir, 'down.kubeconfig');
  return [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AuthorizationConfiguration',
    'authorizers:',
    // Ordered first: its Deny ends the chain before RBAC; system users never reach it (matchConditions).
    ...(withPolicy ? [webhook('policy', policy.kubeconfigPath, 'NoOpinion', '3s', ["!request.user.startsWith('system:')", "!(request.user in ['dora', 'nora', 'nell', 'sloth'])"])] : []),
    webhook('down-deny', downKubeconfig, 'Deny', '3s', [onPods(['dora'])]),
    webhook('down-noopinion', downKubeconfig, 'NoOpinion', '3s', [onPods(['nora', 'nell'])]),
    webhook('slow', slow.kubeconfigPath, 'Deny', '1s', [onPods(['sloth'])]),
    '  - type: RBAC',
    '    name: rbac',
    '',
  ].join('\n');
}

const reviewsOf = (user: string, resource: string, verb: string): ReceivedReview[] =>
  policy.reviews.filter((r) => r.body.spec.user === user && (r.body.spec.resourceAttributes as Record<string, string> | undefined)?.resource === resource && (r.body.spec.resourceAttributes as Record<string, string>).verb === verb);

async function sar(request: StackHarness['request'], user: string, verb = 'list'): Promise<Record<string, unknown>> {
  const r = await request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user, groups: ['system:authenticated'], resourceAttributes: { namespace: 'default', verb, resource: 'pods' } } }),
  });
  expect(r.status, r.body).toBe(201);
  return r.json<{ status: Record<string, unknown> }>().status;
}

beforeAll(async () => {
  policy = await startAuthorizationWebhook(dir, (r) => {
    const ra = r.body.spec.resourceAttributes as Record<string, string> | undefined;
    if (r.body.spec.user === 'alice') return { allowed: true, reason: 'alice is on call' };
    if (r.body.spec.user === 'mallory' && ra?.resource === 'pods') return { denied: true, reason: 'mallory may not touch pods' };
    return {};
  });
  slow = await startAuthorizationWebhook(dir, () => 'hang', 'slow-webhook');
  downUrl = `https://127.0.0.1:${await freePort()}/authorize`;
  writeFileSync(join(dir, 'down.kubeconfig'), readFileSync(policy.kubeconfigPath, 'utf8').replace(policy.url, downUrl));
  writeFileSync(configPath, configYaml());
  // Read by every server of the stack when it is built (core-api, extensions, the front door).
  process.env.KUBE_AUTHORIZATION_CONFIG = configPath;
  try {
    stack = await startStack({ controllerManager: false });
  } finally {
    delete process.env.KUBE_AUTHORIZATION_CONFIG;
  }
  // RBAC alone: mallory, nora, sloth and dora may read pods in default; alice, carol and nell may not.
  await front.ok(['create', 'role', 'reader', '-n', 'default', '--verb=get,list', '--resource=pods,configmaps']);
  for (const user of ['mallory', 'nora', 'sloth', 'dora']) await front.ok(['create', 'rolebinding', `reader-${user}`, '-n', 'default', '--role=reader', `--user=${user}`]);
}, 180_000);

afterAll(async () => {
  await wardle?.close();
  await stack?.stop();
  await policy?.close();
  await slow?.close();
});

describe('structured authorization with webhooks (KUBE_AUTHORIZATION_CONFIG)', () => {
  it('RBAC alone would deny alice; the webhook allows her, at the front door and at core-api', async () => {
    for (const k of [front, core]) {
      const carol = await k.k(['get', 'pods', '-n', 'default', '--as', 'carol']);
      expect(carol.stderr).toContain('Error from server (Forbidden): pods is forbidden: User "carol" cannot list resource "pods" in API group "" in the namespace "default"');
      expect((await k.k(['get', 'pods', '-n', 'default', '--as', 'alice'])).code).toBe(0);
    }
  });

  it('ordered first, the webhook denies mallory whom RBAC allows, with its reason; a Deny ends the chain', async () => {
    for (const k of [front, core]) {
      const r = await k.k(['get', 'pods', '-n', 'default', '--as', 'mallory']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('Error from server (Forbidden): pods is forbidden: User "mallory" cannot list resource "pods" in API group "" in the namespace "default": mallory may not touch pods');
      // What the webhook has no opinion on, RBAC decides: mallory reads configmaps.
      expect((await k.k(['get', 'configmaps', '-n', 'default', '--as', 'mallory'])).code).toBe(0);
    }
  });

  it('the webhook is sent kube\'s SubjectAccessReview over mutual TLS; system users never reach it (matchConditions)', async () => {
    const review = reviewsOf('alice', 'pods', 'list')[0];
    expect(review.clientCN).toBe('kube-apiserver');
    expect(review.url).toBe('/authorize?timeout=3s');
    expect(review.raw).toBe('{"kind":"SubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"resourceAttributes":{"namespace":"default","verb":"list","version":"v1","resource":"pods"},"user":"alice","groups":["system:authenticated"]},"status":{"allowed":false}}');
    const sa = await front.k(['get', 'pods', '-n', 'default', '--as', 'system:serviceaccount:default:robot']);
    expect(sa.stderr).toContain('User "system:serviceaccount:default:robot" cannot list resource "pods"');
    expect(policy.reviews.some((r) => String(r.body.spec.user).startsWith('system:'))).toBe(false);
    expect(policy.reviews.some((r) => ['dora', 'nora', 'nell', 'sloth'].includes(String(r.body.spec.user)))).toBe(false);
  });

  it('answers are cached for their TTL: repeating a request asks the webhook no more (once per server)', async () => {
    expect((await front.k(['get', 'pods', '-n', 'kube-system', '--as', 'alice'])).code).toBe(0);
    const asked = reviewsOf('alice', 'pods', 'list').filter((r) => (r.body.spec.resourceAttributes as Record<string, string>).namespace === 'kube-system').length;
    // The front door and core-api each authorize the request, each with its own cache.
    expect(asked).toBe(2);
    for (let i = 0; i < 3; i++) expect((await front.k(['get', 'pods', '-n', 'kube-system', '--as', 'alice'])).code).toBe(0);
    expect(reviewsOf('alice', 'pods', 'list').filter((r) => (r.body.spec.resourceAttributes as Record<string, string>).namespace === 'kube-system').length).toBe(asked);
  });

  it('failurePolicy Deny: a webhook that is down fails the request (kube answers 500 with the error), even where RBAC would allow', async () => {
    for (const k of [front, core]) {
      const r = await k.k(['get', 'pods', '-n', 'default', '--as', 'dora']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Error from server (InternalError): Internal error occurred: Post "${downUrl}?timeout=3s": dial tcp 127.0.0.1:${new URL(downUrl).port}: connect: connection refused`);
    }
  });

  it('failurePolicy NoOpinion: the chain goes on to RBAC (nora is allowed); with nobody allowing, the error is a 500', async () => {
    for (const k of [front, core]) {
      expect((await k.k(['get', 'pods', '-n', 'default', '--as', 'nora'])).code).toBe(0);
      const nell = await k.k(['get', 'pods', '-n', 'default', '--as', 'nell']);
      expect(nell.stderr).toContain('Error from server (InternalError): Internal error occurred: Post ');
    }
  });

  it('a webhook slower than its timeout is a failure: Deny answers 500 after the timeout, not a hang', async () => {
    const started = Date.now();
    const r = await front.k(['get', 'pods', '-n', 'default', '--as', 'sloth']);
    expect(r.stderr).toContain('Error from server (InternalError): Internal error occurred: Post "');
    expect(r.stderr).toContain('context deadline exceeded');
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(slow.reviews.length).toBeGreaterThan(0);
  });

  it('kubectl auth can-i (1.27 and 1.33) asks the same chain', async () => {
    for (const k of [kubectl127, kubectl133]) {
      const alice = await k.k(['auth', 'can-i', 'list', 'pods', '-n', 'default', '--as', 'alice']);
      expect(alice.stdout.trim()).toBe('yes');
      const mallory = await k.k(['auth', 'can-i', 'list', 'pods', '-n', 'default', '--as', 'mallory']);
      expect(mallory.code).toBe(1);
      expect(mallory.stdout.trim()).toBe('no - mallory may not touch pods');
      const dora = await k.k(['auth', 'can-i', 'list', 'pods', '-n', 'default', '--as', 'dora']);
      expect(dora.stdout.trim()).toMatch(/^no - Post ".*": dial tcp .*: connect: connection refused$/);
      expect((await k.k(['auth', 'can-i', 'list', 'pods', '-n', 'default', '--as', 'carol'])).stdout.trim()).toBe('no');
    }
  });

  it('SubjectAccessReview answers the chain\'s decision, reason and evaluation error, at the front door and at core-api', async () => {
    for (const request of [stack.request, stack.core.request]) {
      expect(await sar(request, 'alice')).toEqual({ allowed: true, reason: 'alice is on call' });
      expect(await sar(request, 'mallory')).toEqual({ allowed: false, denied: true, reason: 'mallory may not touch pods' });
      const dora = await sar(request, 'dora');
      expect(dora).toMatchObject({ allowed: false, denied: true });
      expect(dora.evaluationError).toContain('connect: connection refused');
      expect(await sar(request, 'carol')).toEqual({ allowed: false });
    }
    // kube's webhook cannot list rules: a rules review is incomplete, with its error.
    const rules = await stack.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } }), headers: { 'Impersonate-User': 'alice' } });
    expect(rules.json<{ status: { incomplete: boolean; evaluationError: string } }>().status).toMatchObject({ incomplete: true, evaluationError: expect.stringContaining('webhook authorizer does not support user rule resolution') });
  });

  it('an aggregated server (wardle) delegates to the same chain: alice, whom RBAC gives nothing, lists flunders', async () => {
    wardle = await bootAggregatedServer(stack, { component: 'sample-apiserver', serviceDnsName: 'wardle-server.kube-system.svc', module: (options) => SampleApiServerModule.forRoot(options) });
    expect(await until(async () => (await front.k(['get', 'flunders', '-A'])).code === 0, 60_000)).toBe(true);
    // The front door asks the chain, then wardle asks core-api's SubjectAccessReview, which asks it again.
    const alice = await front.k(['get', 'flunders', '-n', 'default', '--as', 'alice']);
    expect(alice.code, alice.stderr).toBe(0);
    expect(policy.reviews.some((r) => r.body.spec.user === 'alice' && (r.body.spec.resourceAttributes as Record<string, string> | undefined)?.resource === 'flunders')).toBe(true);
    const carol = await front.k(['get', 'flunders', '-n', 'default', '--as', 'carol']);
    expect(carol.stderr).toContain('User "carol" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "default"');
  });

  it("exports kube's metrics", async () => {
    const metrics = (await stack.request('GET', '/metrics')).body;
    for (const line of [
      'apiserver_authorization_decisions_total{type="Webhook",name="policy",decision="allowed"}',
      'apiserver_authorization_decisions_total{type="Webhook",name="policy",decision="denied"}',
      'apiserver_authorization_decisions_total{type="RBAC",name="rbac",decision="allowed"}',
      'apiserver_authorization_webhook_evaluations_total{name="policy",result="success"}',
      'apiserver_authorization_webhook_evaluations_total{name="down-deny",result="error"}',
      'apiserver_authorization_webhook_evaluations_total{name="slow",result="timeout"}',
      'apiserver_authorization_webhook_evaluations_fail_open_total{name="down-noopinion",result="error"}',
      'apiserver_authorization_match_condition_exclusions_total{type="Webhook",name="policy"}',
      'apiserver_authorization_webhook_duration_seconds_bucket{le="0.005",name="policy",result="success"}',
    ]) expect(metrics).toContain(line);
  });

  it('a changed file is taken by every server: without the policy webhook, RBAC lets mallory read pods', async () => {
    writeFileSync(configPath, configYaml(false));
    for (const k of [front, core]) expect(await until(async () => (await k.k(['get', 'pods', '-n', 'default', '--as', 'mallory'])).code === 0, 15_000)).toBe(true);
    expect((await front.k(['get', 'pods', '-n', 'default', '--as', 'alice'])).code).toBe(1);
    expect((await stack.request('GET', '/metrics')).body).toMatch(/apiserver_authorization_config_controller_automatic_reloads_total\{status="success",apiserver_id_hash="sha256:[0-9a-f]{64}"\} [2-9]/);
  });
});
