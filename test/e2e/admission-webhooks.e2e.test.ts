import 'reflect-metadata';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { issueCertificate, loadCertificateAuthority } from '@kube/pki';
import { freePort } from '@kube/testing';
import { SampleApiServerModule } from '../../apps/sample-apiserver/src/sample-apiserver.module';
import { bootAggregatedServer } from '../support/aggregated-server.boot';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { kubectlSession } from '../support/kubectl.session';
import { until } from '../support/until';

interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  requestKind: { group: string; version: string; kind: string };
  name?: string;
  namespace?: string;
  operation: string;
  userInfo: { username: string; groups?: string[] };
  object: KubeObject | null;
  oldObject: KubeObject | null;
  dryRun: boolean;
  options: Record<string, unknown> | null;
}

interface Seen {
  path: string;
  request: AdmissionRequest;
}

type Answer = (request: AdmissionRequest) => Record<string, unknown>;

const patch = (ops: unknown[]): Record<string, unknown> => ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });

/** What the test webhook answers, by path: AdmissionResponse's result is the JSON field `status` (k8s.io/api admission/v1). */
const ANSWERS: Record<string, Answer> = {
  '/deny-bad': (r) => (r.object?.metadata.name?.startsWith('bad') ? { allowed: false, status: { message: `name ${r.object.metadata.name} is not allowed` } } : { allowed: true }),
  '/deny-all': () => ({ allowed: false, status: { code: 403, reason: 'Forbidden', message: 'labelled objects are refused' } }),
  // As Gatekeeper, Kyverno and cert-manager's webhook answer: a code and a message, no reason.
  '/deny-policy': () => ({ allowed: false, status: { code: 403, message: 'denied by policy' } }),
  '/deny-conflict': () => ({ allowed: false, status: { status: 'Failure', code: 409, reason: 'AlreadyExists', message: 'a twin exists', details: { name: 'twin', kind: 'configmaps' } } }),
  // Not kube's field: kube reads `status` only, so this refusal has no explanation.
  '/deny-result-field': () => ({ allowed: false, result: { code: 403, message: 'never read' } }),
  '/allow': () => ({ allowed: true, warnings: ['the webhook saw this request'] }),
  // Adds label a (once), and reports whether it saw label b (set by the later webhook).
  '/mutate-a': (r) => (r.object?.metadata.labels?.a ? { allowed: true } : patch([{ op: 'add', path: '/metadata/labels/a', value: 'set' }])),
  '/mutate-b': () => patch([{ op: 'add', path: '/metadata/labels/b', value: 'set' }]),
};

/** An HTTPS admission webhook serving ANSWERS with a certificate for 127.0.0.1 and `hooks.webhooks.svc` from the stack's CA. */
interface TestWebhook {
  port: number;
  caBundle: string;
  seen: Seen[];
  stop(): Promise<void>;
}

async function startWebhook(stack: StackHarness): Promise<TestWebhook> {
  const ca = await loadCertificateAuthority(stack.pki.caCert, stack.pki.caKey);
  const cert = await issueCertificate(ca, { commonName: 'admission-webhook', ipAddresses: ['127.0.0.1'], dnsNames: ['hooks.webhooks.svc'], usage: 'server' });
  const seen: Seen[] = [];
  const server: Server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString()) as { request: AdmissionRequest };
      const path = (req.url ?? '').split('?')[0];
      seen.push({ path, request: review.request });
      const answer = ANSWERS[path]?.(review.request) ?? { allowed: true };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...answer } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    caBundle: Buffer.from(ca.certPem).toString('base64'),
    seen,
    stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const json = (obj: unknown): string => JSON.stringify(obj);

describe('admission webhooks and ValidatingAdmissionPolicy', () => {
  let stack: StackHarness;
  let webhook: TestWebhook;
  let wardle: INestApplicationContext;
  let closedPort: number;
  const v133 = kubectlSession('1.33', () => stack.kubeconfig);
  const v127 = kubectlSession('1.27', () => stack.kubeconfig);
  const { k, ok } = v133;
  const url = (path: string): Record<string, string> => ({ url: `https://127.0.0.1:${webhook.port}${path}`, caBundle: webhook.caBundle });
  const calls = (path: string, name?: string): Seen[] => webhook.seen.filter((s) => s.path === path && (!name || s.request.name === name || s.request.object?.metadata.name === name));
  const configMap = (name: string, namespace: string, labels: Record<string, string> = {}, data: Record<string, string> = {}): string =>
    json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data });

  /** Retries a create until the configuration took effect (informers follow etcd's watch, not instantly). */
  const untilRefused = async (stdin: string, pattern: RegExp): Promise<void> => {
    let last = '';
    const refused = await until(async () => {
      const r = await k(['create', '-f', '-'], stdin);
      last = r.stderr;
      if (r.code === 0) await k(['delete', '-f', '-', '--wait=false'], stdin);
      return pattern.test(r.stderr);
    }, 30_000);
    expect(last, `never refused with ${pattern}`).toMatch(pattern);
  };

  beforeAll(async () => {
    stack = await startStack();
    webhook = await startWebhook(stack);
    closedPort = await freePort();
    wardle = await bootAggregatedServer(stack, { component: 'sample-apiserver', serviceDnsName: 'wardle-server.kube-system.svc', module: (options) => SampleApiServerModule.forRoot(options) });
    await ok(['create', 'namespace', 'checked']);
    await ok(['label', 'namespace', 'checked', 'webhooks=on']);
    await ok(['create', 'namespace', 'unchecked']);
    // The webhook as a Service of the cluster: Service + Endpoints leading to the test server.
    await ok(['create', 'namespace', 'webhooks']);
    await ok(['apply', '-f', '-'], json({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'hooks', namespace: 'webhooks' }, spec: { ports: [{ name: 'https', port: 443, targetPort: webhook.port }] } }));
    await ok(['apply', '-f', '-'], json({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'hooks', namespace: 'webhooks' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: webhook.port }] }] }));
  });

  afterAll(async () => {
    await wardle?.close();
    await webhook?.stop();
    await stack?.stop();
  });

  it('serves admissionregistration.k8s.io/v1 with kube defaults and validation', async () => {
    const created = JSON.parse(
      await ok(['create', '-o', 'json', '-f', '-'], json({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'defaults' },
        webhooks: [{ name: 'defaults.example.com', clientConfig: { service: { namespace: 'webhooks', name: 'hooks' } }, rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['nothing'] }], sideEffects: 'None', admissionReviewVersions: ['v1'] }],
      })),
    );
    expect(created.webhooks[0]).toEqual({
      name: 'defaults.example.com',
      clientConfig: { service: { namespace: 'webhooks', name: 'hooks', port: 443 } },
      rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['nothing'], scope: '*' }],
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      sideEffects: 'None',
      timeoutSeconds: 10,
      admissionReviewVersions: ['v1'],
    });
    expect(await ok(['get', 'validatingwebhookconfigurations'])).toMatch(/^defaults\s+1\s+\S+$/m);
    await ok(['delete', 'validatingwebhookconfiguration', 'defaults']);

    const invalid = await k(['create', '-f', '-'], json({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'invalid' },
      webhooks: [{ name: 'short', clientConfig: { url: 'http://127.0.0.1/x' }, sideEffects: 'Unknown', timeoutSeconds: 31 }],
    }));
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('The MutatingWebhookConfiguration "invalid" is invalid:');
    expect(invalid.stderr).toContain('webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots');
    expect(invalid.stderr).toContain('webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"');
    expect(invalid.stderr).toContain('webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds');
    expect(invalid.stderr).toContain('webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1');
    expect(invalid.stderr).toContain(`webhooks[0].clientConfig.url: Invalid value: "http://127.0.0.1/x": 'https' is the only allowed URL scheme`);
  });

  it('denies with the validating webhook message, within its namespaceSelector and matchConditions (kubectl 1.27 and 1.33)', async () => {
    await ok(['apply', '-f', '-'], json({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'deny-bad' },
      webhooks: [{
        name: 'deny-bad.example.com',
        clientConfig: { service: { namespace: 'webhooks', name: 'hooks', path: '/deny-bad' }, caBundle: webhook.caBundle },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        namespaceSelector: { matchLabels: { webhooks: 'on' } },
        matchConditions: [{ name: 'not-skipped', expression: "!object.metadata.name.startsWith('bad-skip')" }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      }],
    }));
    await untilRefused(configMap('bad-probe', 'checked'), /denied the request/);
    for (const [session, version] of [[v127, '127'], [v133, '133']] as const) {
      const denied = await session.k(['create', '-f', '-'], configMap(`bad-${version}`, 'checked'));
      expect(denied.code).toBe(1);
      expect(denied.stderr).toContain(`Error from server: error when creating "STDIN": admission webhook "deny-bad.example.com" denied the request: name bad-${version} is not allowed`);
    }
    const raw = await stack.request('POST', '/api/v1/namespaces/checked/configmaps', { body: configMap('bad-raw', 'checked') });
    expect(raw.status).toBe(400);
    expect(raw.json()).toMatchObject({ kind: 'Status', status: 'Failure', code: 400, message: 'admission webhook "deny-bad.example.com" denied the request: name bad-raw is not allowed' });
    expect(raw.json()).not.toHaveProperty('reason');
    // Allowed by the webhook, outside its namespaceSelector, and excluded by its matchCondition.
    expect(await ok(['create', '-f', '-'], configMap('good', 'checked'))).toContain('configmap/good created');
    expect(await ok(['create', '-f', '-'], configMap('bad-elsewhere', 'unchecked'))).toContain('configmap/bad-elsewhere created');
    expect(await ok(['create', '-f', '-'], configMap('bad-skip', 'checked'))).toContain('configmap/bad-skip created');
    expect(calls('/deny-bad', 'bad-elsewhere')).toEqual([]);
    expect(calls('/deny-bad', 'bad-skip')).toEqual([]);
    const [seen] = calls('/deny-bad', 'good');
    expect(seen.request).toMatchObject({
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      name: 'good',
      namespace: 'checked',
      operation: 'CREATE',
      userInfo: { username: 'kubernetes-admin', groups: expect.arrayContaining(['system:masters']) },
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
      oldObject: null,
    });
    expect(seen.request.object?.metadata.name).toBe('good');
  });

  it('respects objectSelector and passes webhook warnings to kubectl', async () => {
    await ok(['apply', '-f', '-'], json({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'labelled' },
      webhooks: [
        { name: 'labelled.example.com', clientConfig: url('/deny-all'), rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], objectSelector: { matchLabels: { refuse: 'yes' } }, sideEffects: 'None', admissionReviewVersions: ['v1'] },
        { name: 'warn.example.com', clientConfig: url('/allow'), rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], objectSelector: { matchLabels: { warn: 'yes' } }, sideEffects: 'None', admissionReviewVersions: ['v1'] },
      ],
    }));
    await untilRefused(configMap('labelled-probe', 'unchecked', { refuse: 'yes' }), /labelled objects are refused/);
    const refused = await k(['create', '-f', '-'], configMap('labelled', 'unchecked', { refuse: 'yes' }));
    expect(refused.stderr).toContain('Error from server (Forbidden): error when creating "STDIN": admission webhook "labelled.example.com" denied the request: labelled objects are refused');
    expect(await ok(['create', '-f', '-'], configMap('unlabelled', 'unchecked'))).toContain('configmap/unlabelled created');
    expect(calls('/deny-all', 'unlabelled')).toEqual([]);
    for (const session of [v127, v133]) {
      const warned = await session.k(['create', '-f', '-'], configMap(`warned-${webhook.seen.length}`, 'unchecked', { warn: 'yes' }));
      expect(warned.code, warned.stderr).toBe(0);
      expect(warned.stderr).toContain('Warning: the webhook saw this request');
    }
    await ok(['delete', 'validatingwebhookconfiguration', 'labelled']);
  });

  it('applies mutating JSONPatches in order and reinvokes IfNeeded webhooks', async () => {
    const hook = (name: string, path: string, reinvocationPolicy: string): Record<string, unknown> => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name },
      webhooks: [{ name: `${name}.example.com`, clientConfig: url(path), rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], objectSelector: { matchLabels: { mutate: 'yes' } }, sideEffects: 'None', admissionReviewVersions: ['v1'], reinvocationPolicy }],
    });
    await ok(['apply', '-f', '-'], json(hook('a-mutator', '/mutate-a', 'IfNeeded')));
    await ok(['apply', '-f', '-'], json(hook('b-mutator', '/mutate-b', 'Never')));
    const mutated = await until(async () => {
      const name = `mutated-${webhook.seen.length}`;
      const r = await k(['create', '-o', 'json', '-f', '-'], configMap(name, 'unchecked', { mutate: 'yes' }));
      return r.code === 0 && JSON.parse(r.stdout).metadata.labels.b === 'set';
    }, 30_000);
    expect(mutated).toBe(true);
    const created = JSON.parse(await ok(['create', '-o', 'json', '-f', '-'], configMap('mutated', 'unchecked', { mutate: 'yes' })));
    expect(created.metadata.labels).toEqual({ mutate: 'yes', a: 'set', b: 'set' });
    // a ran, then b changed the object, so a (IfNeeded) ran once more and saw b's label; b (Never) ran once.
    const a = calls('/mutate-a', 'mutated');
    expect(a.map((s) => s.request.object?.metadata.labels)).toEqual([{ mutate: 'yes' }, { mutate: 'yes', a: 'set', b: 'set' }]);
    expect(calls('/mutate-b', 'mutated')).toHaveLength(1);
    expect(new Set([...a, ...calls('/mutate-b', 'mutated')].map((s) => s.request.uid)).size).toBe(1);
    await ok(['delete', 'mutatingwebhookconfiguration', 'a-mutator', 'b-mutator']);
  });

  it('passes a real webhook\'s denial message and code to kubectl verbatim (kubectl 1.27 and 1.33)', async () => {
    const rule = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
    const hook = (name: string, path: string): Record<string, unknown> => ({ name: `${name}.example.com`, clientConfig: url(path), rules: rule, objectSelector: { matchLabels: { deny: name } }, sideEffects: 'None', admissionReviewVersions: ['v1'] });
    await ok(['apply', '-f', '-'], json({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'policies' }, webhooks: [hook('policy', '/deny-policy'), hook('conflict', '/deny-conflict'), hook('legacy', '/deny-result-field')] }));
    await untilRefused(configMap('policy-probe', 'unchecked', { deny: 'policy' }), /denied by policy/);
    for (const session of [v127, v133]) {
      const denied = await session.k(['create', '-f', '-'], configMap('policy-denied', 'unchecked', { deny: 'policy' }));
      expect(denied.code).toBe(1);
      expect(denied.stderr).toContain('error when creating "STDIN": admission webhook "policy.example.com" denied the request: denied by policy');
    }
    const policy = await stack.request('POST', '/api/v1/namespaces/unchecked/configmaps', { body: configMap('policy-raw', 'unchecked', { deny: 'policy' }) });
    expect(policy.status).toBe(403);
    expect(policy.json()).toMatchObject({ kind: 'Status', status: 'Failure', code: 403, message: 'admission webhook "policy.example.com" denied the request: denied by policy' });
    expect(policy.json()).not.toHaveProperty('reason');
    // Every part of the webhook's Status reaches the client: code, reason and details.
    const conflict = await stack.request('POST', '/api/v1/namespaces/unchecked/configmaps', { body: configMap('conflict-raw', 'unchecked', { deny: 'conflict' }) });
    expect(conflict.status).toBe(409);
    expect(conflict.json()).toMatchObject({ status: 'Failure', code: 409, reason: 'AlreadyExists', message: 'admission webhook "conflict.example.com" denied the request: a twin exists', details: { name: 'twin', kind: 'configmaps' } });
    const conflicted = await k(['create', '-f', '-'], configMap('conflict-kubectl', 'unchecked', { deny: 'conflict' }));
    expect(conflicted.stderr).toContain('Error from server (AlreadyExists): error when creating "STDIN": admission webhook "conflict.example.com" denied the request: a twin exists');
    const legacy = await stack.request('POST', '/api/v1/namespaces/unchecked/configmaps', { body: configMap('legacy-raw', 'unchecked', { deny: 'legacy' }) });
    expect(legacy.status).toBe(400);
    expect(legacy.json()).toMatchObject({ code: 400, message: 'admission webhook "legacy.example.com" denied the request without explanation' });
    await ok(['delete', 'validatingwebhookconfiguration', 'policies']);
  });

  it('calls DELETE webhooks of a dry-run delete with dryRun and its DeleteOptions, and deletes nothing', async () => {
    await ok(['apply', '-f', '-'], json({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'deletes' },
      webhooks: [{ name: 'deletes.example.com', clientConfig: url('/record-delete'), rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], objectSelector: { matchLabels: { 'delete-hook': 'yes' } }, sideEffects: 'NoneOnDryRun', admissionReviewVersions: ['v1'] }],
    }));
    await ok(['create', '-f', '-'], configMap('doomed', 'unchecked', { 'delete-hook': 'yes' }));
    const before = JSON.parse(await ok(['get', 'configmap', 'doomed', '-n', 'unchecked', '-o', 'json'])) as KubeObject;
    expect(await until(async () => {
      await ok(['delete', 'configmap', 'doomed', '-n', 'unchecked', '--dry-run=server']);
      return calls('/record-delete', 'doomed').length > 0;
    }, 30_000)).toBe(true);
    for (const session of [v127, v133]) expect(await session.ok(['delete', 'configmap', 'doomed', '-n', 'unchecked', '--dry-run=server', '--cascade=foreground'])).toBe('configmap "doomed" deleted (server dry run)\n');
    const seen = calls('/record-delete', 'doomed');
    for (const s of seen) {
      expect(s.request).toMatchObject({ operation: 'DELETE', name: 'doomed', namespace: 'unchecked', dryRun: true, object: null, options: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] } });
      expect(s.request.oldObject?.metadata.name).toBe('doomed');
    }
    expect(seen.at(-1)?.request.options).toMatchObject({ propagationPolicy: 'Foreground' });
    expect(JSON.parse(await ok(['get', 'configmap', 'doomed', '-n', 'unchecked', '-o', 'json']))).toEqual(before);
    await ok(['delete', 'configmap', 'doomed', '-n', 'unchecked']);
    expect(calls('/record-delete', 'doomed').at(-1)?.request).toMatchObject({ dryRun: false, options: { kind: 'DeleteOptions', propagationPolicy: 'Background' } });
    expect((await k(['get', 'configmap', 'doomed', '-n', 'unchecked'])).code).toBe(1);
    await ok(['delete', 'validatingwebhookconfiguration', 'deletes']);
  });

  it('fails with failurePolicy Fail and admits with Ignore while the webhook is down', async () => {
    const down = (name: string, failurePolicy: string): Record<string, unknown> => ({
      name: `${name}.example.com`,
      clientConfig: { url: `https://127.0.0.1:${closedPort}/down`, caBundle: webhook.caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }],
      objectSelector: { matchLabels: { down: name } },
      failurePolicy,
      timeoutSeconds: 5,
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    });
    await ok(['apply', '-f', '-'], json({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'down' }, webhooks: [down('fail', 'Fail'), down('ignore', 'Ignore')] }));
    const secret = (name: string, label: string): string => json({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'unchecked', labels: { down: label } } });
    await untilRefused(secret('fail-probe', 'fail'), /failed calling webhook/);
    const failed = await k(['create', '-f', '-'], secret('fails', 'fail'));
    expect(failed.stderr).toContain(
      `Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "fail.example.com": failed to call webhook: Post "https://127.0.0.1:${closedPort}/down?timeout=5s": dial tcp 127.0.0.1:${closedPort}: connect: connection refused`,
    );
    expect((await k(['get', 'secret', 'fails', '-n', 'unchecked'])).code).toBe(1);
    expect(await ok(['create', '-f', '-'], secret('ignored', 'ignore'))).toContain('secret/ignored created');
    await ok(['delete', 'validatingwebhookconfiguration', 'down']);
  });

  it('calls webhooks with dryRun for sideEffects None and stores nothing', async () => {
    const before = calls('/deny-bad').length;
    expect(await ok(['create', '--dry-run=server', '-f', '-'], configMap('dry', 'checked'))).toContain('configmap/dry created (server dry run)');
    const dry = calls('/deny-bad', 'dry');
    expect(calls('/deny-bad').length).toBeGreaterThan(before);
    expect(dry[0].request).toMatchObject({ dryRun: true, options: { kind: 'CreateOptions', dryRun: ['All'] } });
    expect((await k(['get', 'configmap', 'dry', '-n', 'checked'])).code).toBe(1);
    const refused = await k(['create', '--dry-run=server', '-f', '-'], configMap('bad-dry', 'checked'));
    expect(refused.stderr).toContain('admission webhook "deny-bad.example.com" denied the request: name bad-dry is not allowed');
  });

  it('never calls webhooks for webhook configurations or policies', async () => {
    await ok(['apply', '-f', '-'], json({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'lockout' },
      webhooks: [{ name: 'lockout.example.com', clientConfig: url('/deny-all'), rules: [{ operations: ['*'], apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['*'], resources: ['*'] }], sideEffects: 'None', admissionReviewVersions: ['v1'] }],
    }));
    await new Promise((r) => setTimeout(r, 1000));
    await ok(['label', 'validatingwebhookconfiguration', 'lockout', 'still=editable']);
    expect(calls('/deny-all').filter((s) => s.request.resource.group === 'admissionregistration.k8s.io')).toEqual([]);
    await ok(['delete', 'validatingwebhookconfiguration', 'lockout']);
  });

  it('calls webhooks for custom resources (extensions) and Flunders (an SDK server)', async () => {
    await ok(['apply', '-f', '-'], json({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
    }));
    await ok(['wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=30s']);
    expect(await until(async () => /^v1alpha1\.wardle\.example\.com\s+\S+\s+True/m.test((await k(['get', 'apiservice', 'v1alpha1.wardle.example.com'])).stdout), 30_000)).toBe(true);
    await ok(['apply', '-f', '-'], json({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'extended' },
      webhooks: [{ name: 'extended.example.com', clientConfig: url('/deny-bad'), rules: [{ operations: ['CREATE'], apiGroups: ['example.com', 'wardle.example.com'], apiVersions: ['*'], resources: ['widgets', 'flunders'] }], namespaceSelector: { matchLabels: { webhooks: 'on' } }, sideEffects: 'None', admissionReviewVersions: ['v1'] }],
    }));
    const widget = (name: string, namespace = 'checked'): string => json({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace } });
    const flunder = (name: string, namespace = 'checked'): string => json({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name, namespace }, spec: {} });
    await untilRefused(widget('bad-widget-probe'), /admission webhook "extended.example.com" denied the request: name bad-widget-probe is not allowed/);
    await untilRefused(flunder('bad-flunder-probe'), /admission webhook "extended.example.com" denied the request: name bad-flunder-probe is not allowed/);
    expect(await ok(['create', '-f', '-'], widget('good-widget'))).toContain('widget.example.com/good-widget created');
    expect(await ok(['create', '-f', '-'], flunder('good-flunder'))).toContain('flunder.wardle.example.com/good-flunder created');
    expect(calls('/deny-bad', 'good-widget')[0].request).toMatchObject({ kind: { group: 'example.com', version: 'v1', kind: 'Widget' }, resource: { resource: 'widgets' } });
    expect(calls('/deny-bad', 'good-flunder')[0].request).toMatchObject({ kind: { group: 'wardle.example.com', version: 'v1alpha1', kind: 'Flunder' }, namespace: 'checked' });
    // The namespaceSelector holds in both servers (the sample-apiserver reads namespaces through the front door).
    expect(await ok(['create', '-f', '-'], widget('bad-widget-elsewhere', 'unchecked'))).toContain('widget.example.com/bad-widget-elsewhere created');
    expect(await ok(['create', '-f', '-'], flunder('bad-flunder-elsewhere', 'unchecked'))).toContain('flunder.wardle.example.com/bad-flunder-elsewhere created');
    await ok(['delete', 'validatingwebhookconfiguration', 'extended']);
  });

  it('denies and warns with a ValidatingAdmissionPolicy parameterized by a ConfigMap', async () => {
    await ok(['create', 'namespace', 'vap']);
    await ok(['label', 'namespace', 'vap', 'policy=deny']);
    await ok(['create', 'namespace', 'vap-warn']);
    await ok(['label', 'namespace', 'vap-warn', 'policy=warn']);
    await ok(['create', 'configmap', 'limits', '-n', 'vap', '--from-literal=maxKeys=2']);
    await ok(['create', 'configmap', 'limits', '-n', 'vap-warn', '--from-literal=maxKeys=1']);
    await ok(['apply', '-f', '-'], json({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'max-keys.example.com' },
      spec: {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: { resourceRules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
        matchConditions: [{ name: 'not-the-params', expression: "object.metadata.name != 'limits'" }],
        variables: [{ name: 'keys', expression: "has(object.data) ? object.data.size() : 0" }],
        validations: [{ expression: 'variables.keys <= int(params.data.maxKeys)', messageExpression: "'too many keys: ' + string(variables.keys) + ' > ' + params.data.maxKeys" }],
      },
    }));
    // core-api's status controller reports the generation it checked, as kube's does.
    await ok(['wait', '--for=jsonpath={.status.observedGeneration}=1', 'validatingadmissionpolicy/max-keys.example.com', '--timeout=30s']);
    expect(JSON.parse(await ok(['get', 'validatingadmissionpolicy', 'max-keys.example.com', '-o', 'json'])).status).toEqual({ observedGeneration: 1, typeChecking: {} });
    const binding = (name: string, label: string, actions: string[]): string =>
      json({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name },
        spec: { policyName: 'max-keys.example.com', paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' }, validationActions: actions, matchResources: { namespaceSelector: { matchLabels: { policy: label } } } },
      });
    const bindingCreated = JSON.parse(await ok(['create', '-o', 'json', '-f', '-'], binding('max-keys-deny', 'deny', ['Deny'])));
    expect(bindingCreated.spec.matchResources).toMatchObject({ matchPolicy: 'Equivalent', objectSelector: {} });
    await ok(['apply', '-f', '-'], binding('max-keys-warn', 'warn', ['Warn']));
    const big = (name: string, namespace: string): string => configMap(name, namespace, {}, { a: '1', b: '2', c: '3' });
    await untilRefused(big('probe', 'vap'), /ValidatingAdmissionPolicy/);
    for (const session of [v127, v133]) {
      const denied = await session.k(['create', '-f', '-'], big('big', 'vap'));
      expect(denied.code).toBe(1);
      expect(denied.stderr).toContain(`The configmaps "big" is invalid: : ValidatingAdmissionPolicy 'max-keys.example.com' with binding 'max-keys-deny' denied request: too many keys: 3 > 2`);
    }
    const raw = await stack.request('POST', '/api/v1/namespaces/vap/configmaps', { body: big('big', 'vap') });
    expect(raw.json()).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: `configmaps "big" is forbidden: ValidatingAdmissionPolicy 'max-keys.example.com' with binding 'max-keys-deny' denied request: too many keys: 3 > 2`,
    });
    expect(await ok(['create', '-f', '-'], configMap('small', 'vap', {}, { a: '1' }))).toContain('configmap/small created');
    for (const session of [v127, v133]) {
      const warned = await session.k(['create', '-f', '-'], big(`big-${webhook.seen.length}-${Math.random().toString(36).slice(2, 7)}`, 'vap-warn'));
      expect(warned.code, warned.stderr).toBe(0);
      expect(warned.stderr).toContain(`Warning: Validation failed for ValidatingAdmissionPolicy 'max-keys.example.com' with binding 'max-keys-warn': too many keys: 3 > 1`);
    }
    // A missing parameter object with parameterNotFoundAction Deny refuses the request.
    await ok(['delete', 'configmap', 'limits', '-n', 'vap']);
    await untilRefused(configMap('no-params', 'vap', {}, { a: '1' }), /no params found for policy binding with `Deny` parameterNotFoundAction/);
  });
});
