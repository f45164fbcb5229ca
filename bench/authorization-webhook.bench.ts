/**
 * Structured authorization (KUBE_AUTHORIZATION_CONFIG) on its own: what a server pays per request to decide, for
 * RBAC as before (no configuration), RBAC from a configuration (instrumented), a webhook first answered from its
 * cache, a webhook its matchConditions skip, and a webhook call not cached (HTTPS with client certificates on
 * loopback, connections kept).
 * Run alone: `npm run build && node dist/bench/authorization-webhook.bench.js` (AUTHZ_BENCH_ROUNDS, default 200000).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuthorizationAttributes, Authorizer } from '@kube/apiserver';
import { ConfiguredAuthorizer, privilegedGroupAuthorizer, RbacAuthorizer, RbacIndex, unionAuthorizer } from '@kube/authorization';
import { createCertificateAuthority, issueCertificate } from '@kube/pki';

export interface AuthorizationBenchResult {
  /** ns per decision. */
  rbac: number;
  configuredRbac: number;
  webhookCached: number;
  webhookSkipped: number;
  /** µs per webhook call (a distinct request each, nothing cached). */
  webhookCallMicros: number;
}

const attrs = (name = 'p'): AuthorizationAttributes => ({ user: { name: 'alice', groups: ['system:authenticated'] }, verb: 'get', resourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', namespace: 'default', name });

async function nsPerDecision(authorizer: Authorizer, rounds: number): Promise<number> {
  const a = attrs();
  for (let i = 0; i < rounds / 10; i++) await authorizer.authorize(a);
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) {
    const r = authorizer.authorize(a);
    if (r instanceof Promise) await r;
  }
  return Number(process.hrtime.bigint() - started) / rounds;
}

export async function benchAuthorization(rounds = 200_000, calls = 500): Promise<AuthorizationBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'authz-bench-'));
  const serverCa = await createCertificateAuthority({ commonName: 'bench-webhook-ca' });
  const clientCa = await createCertificateAuthority({ commonName: 'bench-webhook-client-ca' });
  const serving = await issueCertificate(serverCa, { commonName: 'webhook', ipAddresses: ['127.0.0.1'], usage: 'server' });
  const client = await issueCertificate(clientCa, { commonName: 'kube-apiserver', usage: 'client' });
  const webhook = createServer({ cert: serving.certPem, key: serving.keyPem, ca: clientCa.certPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","status":{"allowed":true}}'));
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(webhook.address() as AddressInfo).port}/authorize`;
  for (const [name, pem] of [['ca.crt', serverCa.certPem], ['client.crt', client.certPem], ['client.key', client.keyPem]]) writeFileSync(join(dir, name), pem);
  const kubeconfig = join(dir, 'webhook.kubeconfig');
  writeFileSync(kubeconfig, `apiVersion: v1\nkind: Config\nclusters:\n- name: w\n  cluster:\n    server: ${url}\n    certificate-authority: ${dir}/ca.crt\nusers:\n- name: u\n  user:\n    client-certificate: ${dir}/client.crt\n    client-key: ${dir}/client.key\ncontexts:\n- name: c\n  context: {cluster: w, user: u}\ncurrent-context: c\n`);
  const index = new RbacIndex();
  index.apply('ClusterRole', 'ADDED', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] } as never);
  index.apply('ClusterRoleBinding', 'ADDED', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'alice' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reader' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }] } as never);
  const rbac = new RbacAuthorizer(index);
  const webhookEntry = (conditions = ''): string =>
    `- type: Webhook\n  name: bench\n  webhook:\n    timeout: 3s\n    subjectAccessReviewVersion: v1\n    matchConditionSubjectAccessReviewVersion: v1\n    failurePolicy: NoOpinion\n    connectionInfo:\n      type: KubeConfigFile\n      kubeConfigFile: ${kubeconfig}\n${conditions}`;
  let n = 0;
  const configured = (authorizers: string): ConfiguredAuthorizer => {
    const path = join(dir, `config-${n++}.yaml`);
    writeFileSync(path, `apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n${authorizers}`);
    return ConfiguredAuthorizer.fromFile(path, rbac);
  };
  const RBAC = '- type: RBAC\n  name: rbac\n';
  const chains = {
    configuredRbac: configured(RBAC),
    webhookCached: configured(webhookEntry() + RBAC),
    webhookSkipped: configured(webhookEntry("    matchConditions:\n    - expression: \"!request.user.startsWith('al')\"\n") + RBAC),
    uncached: configured(webhookEntry().replace('    timeout: 3s\n', '    timeout: 3s\n    cacheAuthorizedRequests: false\n') + RBAC),
  };
  try {
    const rbacNs = await nsPerDecision(unionAuthorizer([privilegedGroupAuthorizer(), rbac]), rounds);
    const configuredRbac = await nsPerDecision(chains.configuredRbac, rounds);
    const webhookCached = await nsPerDecision(chains.webhookCached, rounds);
    const webhookSkipped = await nsPerDecision(chains.webhookSkipped, rounds);
    await chains.uncached.authorize(attrs('warm'));
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) if ((await chains.uncached.authorize(attrs(`p${i}`))).decision !== 'Allow') throw new Error('the bench webhook did not allow');
    const webhookCallMicros = Number(process.hrtime.bigint() - started) / calls / 1000;
    return { rbac: rbacNs, configuredRbac, webhookCached, webhookSkipped, webhookCallMicros };
  } finally {
    for (const c of Object.values(chains)) c.stop();
    webhook.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void benchAuthorization(Number(process.env.AUTHZ_BENCH_ROUNDS ?? 200_000)).then((r) => {
    console.log(
      `authorization per request: RBAC ${r.rbac.toFixed(0)} ns (no configuration), RBAC from a configuration ${r.configuredRbac.toFixed(0)} ns, ` +
        `webhook first from its cache ${r.webhookCached.toFixed(0)} ns, webhook skipped by matchConditions ${r.webhookSkipped.toFixed(0)} ns, ` +
        `webhook call (HTTPS, client certificate, keep-alive) ${r.webhookCallMicros.toFixed(0)} µs`,
    );
    process.exit(0);
  });
}
