/**
 * The audit webhook backend and log rotation (issue 27, item 4) through the real kubectl (1.33 and 1.27): the
 * front door, configured by kube's variables (KUBE_AUDIT_WEBHOOK_*, KUBE_AUDIT_LOG_*), POSTs audit.k8s.io/v1
 * EventLists to an HTTPS webhook this test runs (client certificate, kubeconfig in the form of kube's
 * documentation), truncates events too large for it, writes the same events to its log rotated as lumberjack
 * does, and never makes kubectl wait for a webhook that hangs: the bounded buffer drops what does not fit and
 * counts it in /metrics.
 */
import 'reflect-metadata';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOptionsFromEnv, type AuditEvent, type AuditPolicy } from '@kube/apiserver';
import { createCertificateAuthority, issueCertificate } from '@kube/pki';
import { SupervisedProcess, tempDir } from '@kube/testing';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { metricTotal } from '../support/metrics.exposition';
import { until } from '../support/until';

const NS = 'audited';
const dir = tempDir('audit-webhook-e2e');
const logPath = join(dir, 'log', 'audit.log');

/** The test's audit sink: what it received, and whether it answers or hangs. */
const sink = {
  lists: [] as Array<{ kind: string; apiVersion: string; items: AuditEvent[] }>,
  clientCNs: new Set<string>(),
  hang: false,
  hung: [] as ServerResponse[],
  events(): AuditEvent[] {
    return this.lists.flatMap((l) => l.items);
  },
  release(): void {
    this.hang = false;
    for (const res of this.hung.splice(0)) res.writeHead(200).end();
  },
};
let webhook: Server;
let stack: StackHarness;
const kubectl = kubectlSession(undefined, () => stack.kubeconfig);
const kubectl127 = kubectlSession('1.27', () => stack.kubeconfig);

// Everything in NS at RequestResponse, at every stage (RequestReceived is what a blocking backend would hold a
// request for); nothing else (the stack's own traffic stays out).
const policy: AuditPolicy = { apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'RequestResponse', namespaces: [NS] }, { level: 'None' }] };

beforeAll(async () => {
  const ca = await createCertificateAuthority({ commonName: 'audit-sink-ca' });
  const serving = await issueCertificate(ca, { commonName: 'audit-sink', ipAddresses: ['127.0.0.1'], usage: 'server' });
  const client = await issueCertificate(ca, { commonName: 'kube-apiserver-audit', usage: 'client' });
  for (const [name, pem] of [['ca.pem', ca.certPem], ['client.pem', client.certPem], ['client-key.pem', client.keyPem]]) writeFileSync(join(dir, name), pem, { mode: 0o600 });
  webhook = createServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      sink.clientCNs.add(String((req.socket as TLSSocket).getPeerCertificate().subject?.CN));
      if (sink.hang) {
        sink.hung.push(res);
        return;
      }
      sink.lists.push(JSON.parse(Buffer.concat(chunks).toString()) as (typeof sink.lists)[number]);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  const port = (webhook.address() as AddressInfo).port;
  // The kubeconfig of kube's webhook documentation, unchanged but for the paths and the address.
  const kubeconfig = join(dir, 'audit-webhook.kubeconfig');
  writeFileSync(
    kubeconfig,
    `# clusters refers to the remote service.
clusters:
  - name: name-of-remote-audit-service
    cluster:
      certificate-authority: ${join(dir, 'ca.pem')} # CA for verifying the remote service.
      server: https://127.0.0.1:${port}/audit # URL of remote service to query. Must use 'https'.

# users refers to the API server's webhook configuration.
users:
  - name: name-of-api-server
    user:
      client-certificate: ${join(dir, 'client.pem')} # cert for the webhook plugin to use
      client-key: ${join(dir, 'client-key.pem')} # key matching the cert

# kubeconfig files require a context. Provide one for the API server.
current-context: webhook
contexts:
- context:
    cluster: name-of-remote-audit-service
    user: name-of-api-server
  name: webhook
`,
  );
  const audit = auditOptionsFromEnv({
    KUBE_AUDIT_LOG_PATH: logPath,
    KUBE_AUDIT_LOG_MAXSIZE: '1',
    KUBE_AUDIT_LOG_MAXBACKUP: '2',
    KUBE_AUDIT_WEBHOOK_CONFIG_FILE: kubeconfig,
    KUBE_AUDIT_WEBHOOK_BATCH_MAX_WAIT: '200ms',
    KUBE_AUDIT_WEBHOOK_BATCH_MAX_SIZE: '2',
    KUBE_AUDIT_WEBHOOK_BATCH_BUFFER_SIZE: '6',
    // One batch a second: a burst of requests outruns the webhook and fills the buffer.
    KUBE_AUDIT_WEBHOOK_BATCH_THROTTLE_QPS: '1',
    KUBE_AUDIT_WEBHOOK_BATCH_THROTTLE_BURST: '1',
    KUBE_AUDIT_WEBHOOK_INITIAL_BACKOFF: '100ms',
    KUBE_AUDIT_WEBHOOK_TRUNCATE_ENABLED: 'true',
  });
  stack = await startStack({ audit, auditPolicy: policy, controllerManager: false });
  await kubectl.ok(['create', 'namespace', NS]);
}, 120_000);

afterAll(async () => {
  sink.release();
  await stack?.stop();
  webhook?.close();
});

const linesOf = (path: string): AuditEvent[] => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as AuditEvent);
const logEvents = (): AuditEvent[] => linesOf(logPath);

describe('audit webhook backend with kubectl', () => {
  it.each([
    ['1.33', kubectl, 'from-kubectl'],
    ['1.27', kubectl127, 'from-kubectl-127'],
  ])("kubectl %s create: an EventList reaches the webhook with the create's verb, user, objectRef and stage", async (_v, k, name) => {
    await k.ok(['create', 'configmap', name, '-n', NS, '--from-literal=k=v']);
    // The name is known once the body is: the ResponseComplete event.
    const mine = (): AuditEvent[] => sink.events().filter((e) => e.objectRef?.name === name);
    expect(await until(async () => mine().length > 0, 30_000)).toBe(true);
    expect(sink.lists.every((l) => l.kind === 'EventList' && l.apiVersion === 'audit.k8s.io/v1')).toBe(true);
    expect(sink.clientCNs).toEqual(new Set(['kube-apiserver-audit']));
    expect(mine()).toEqual([
      expect.objectContaining({
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: 'RequestResponse',
        stage: 'ResponseComplete',
        verb: 'create',
        requestURI: expect.stringMatching(new RegExp(`^/api/v1/namespaces/${NS}/configmaps`)),
        user: expect.objectContaining({ username: 'kubernetes-admin', groups: expect.arrayContaining(['system:masters', 'system:authenticated']) }),
        objectRef: { resource: 'configmaps', namespace: NS, name, apiVersion: 'v1' },
        responseStatus: { metadata: {}, code: 201 },
        requestObject: expect.objectContaining({ kind: 'ConfigMap', data: { k: 'v' } }),
        userAgent: expect.stringMatching(/^kubectl/),
      }),
    ]);
    // Its RequestReceived event came first, under the same audit ID, without bodies.
    const auditID = mine()[0].auditID;
    expect(await until(async () => sink.events().some((e) => e.auditID === auditID && e.stage === 'RequestReceived'), 30_000)).toBe(true);
    expect(sink.events().find((e) => e.auditID === auditID && e.stage === 'RequestReceived')).toMatchObject({ verb: 'create', objectRef: { resource: 'configmaps', namespace: NS, apiVersion: 'v1' } });
    // The log backend got the same event (kube's union of both backends).
    expect(await until(async () => logEvents().some((e) => e.auditID === auditID), 10_000)).toBe(true);
  }, 60_000);

  it("truncates an event over the webhook's max event size (100 KiB): no bodies, audit.k8s.io/truncated", async () => {
    const file = join(dir, 'big.txt');
    writeFileSync(file, 'x'.repeat(200 * 1024));
    await kubectl.ok(['create', 'configmap', 'big', '-n', NS, `--from-file=big=${file}`]);
    const big = (): AuditEvent | undefined => sink.events().find((e) => e.objectRef?.name === 'big' && e.stage === 'ResponseComplete');
    expect(await until(async () => big() !== undefined, 30_000)).toBe(true);
    expect(big()).toMatchObject({ verb: 'create', annotations: { 'audit.k8s.io/truncated': 'true' } });
    expect(big()!.requestObject).toBeUndefined();
    expect(big()!.responseObject).toBeUndefined();
    // The log is not truncated (KUBE_AUDIT_LOG_TRUNCATE_ENABLED is off).
    expect(await until(async () => logEvents().some((e) => e.objectRef?.name === 'big' && e.requestObject !== undefined), 10_000)).toBe(true);
  }, 60_000);

  it('a webhook that hangs neither delays nor fails kubectl; the full buffer drops events, counted in /metrics', async () => {
    const metrics = async (): Promise<string> => kubectl.ok(['get', '--raw', '/metrics']);
    const before = metricTotal(await metrics(), 'apiserver_audit_error_total', { plugin: 'buffered' });
    sink.hang = true;
    const manifests = Array.from({ length: 30 }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: burst-${i}\n  namespace: ${NS}\ndata:\n  i: "${i}"\n`).join('---\n');
    await kubectl.ok(['create', '-f', '-'], manifests);
    await kubectl127.ok(['get', 'configmap', 'burst-29', '-n', NS]);
    // Every create was answered (its RequestReceived event included) while the webhook held its calls unanswered.
    expect(sink.hung.length).toBeGreaterThan(0);
    const after = await metrics();
    expect(metricTotal(after, 'apiserver_audit_error_total', { plugin: 'buffered' }) - before).toBeGreaterThan(0);
    expect(metricTotal(after, 'apiserver_audit_event_total')).toBeGreaterThan(30);
    expect(metricTotal(after, 'apiserver_audit_level_total', { level: 'RequestResponse' })).toBeGreaterThan(30);
    sink.release();
  }, 120_000);

  it('rotates the log at KUBE_AUDIT_LOG_MAXSIZE into lumberjack-named backups and keeps KUBE_AUDIT_LOG_MAXBACKUP of them', async () => {
    const file = join(dir, 'quarter.txt');
    writeFileSync(file, 'y'.repeat(300 * 1024));
    // Each create logs its request and response bodies: ~600 KiB a line, so every second one rotates a 1 MiB file.
    for (let i = 0; i < 8; i++) await kubectl.ok(['create', 'configmap', `rotate-${i}`, '-n', NS, `--from-file=data=${file}`]);
    const backups = (): string[] => readdirSync(join(dir, 'log')).filter((f) => f !== 'audit.log');
    expect(await until(async () => backups().length === 2 && logEvents().some((e) => e.objectRef?.name === 'rotate-7'), 30_000)).toBe(true);
    for (const b of backups()) {
      expect(b).toMatch(/^audit-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}\.log$/);
      const st = statSync(join(dir, 'log', b));
      expect(st.size).toBeLessThanOrEqual(1024 * 1024);
      expect(st.mode & 0o777).toBe(0o600);
    }
    // The oldest lines went with the pruned backups; the newest are all there.
    const kept = [...backups().map((b) => join(dir, 'log', b)), logPath].flatMap((p) => linesOf(p).map((e) => e.objectRef?.name));
    expect(readdirSync(join(dir, 'log'))).toHaveLength(3);
    expect(kept).toContain('rotate-7');
    expect(kept).not.toContain('from-kubectl');
  }, 120_000);
});

describe('the built aggregator (as npm start, compose and the chart run it)', () => {
  const main = resolve(__dirname, '../../dist/apps/aggregator/src/main.js');
  const startWith = async (audit: Record<string, string>): Promise<string | undefined> => {
    const { pki } = stack;
    const env = { PATH: process.env.PATH, KUBE_TLS_CERT_FILE: pki.apiserverCert, KUBE_TLS_PRIVATE_KEY_FILE: pki.apiserverKey, KUBE_PROXY_CLIENT_CERT_FILE: pki.frontProxyClientCert, KUBE_PROXY_CLIENT_KEY_FILE: pki.frontProxyClientKey, ...audit };
    const proc = new SupervisedProcess({ name: 'aggregator', command: process.execPath, args: [main], env });
    expect(await proc.exited).toEqual({ code: 1, signal: null });
    const last = proc.output().split('\n').filter(Boolean).at(-1);
    return last ? (JSON.parse(last) as { msg?: string }).msg : undefined;
  };

  it("refuses to start with a bad KUBE_AUDIT_* value or an unreadable webhook kubeconfig, with kube-apiserver's message", async () => {
    expect(await startWith({ KUBE_AUDIT_WEBHOOK_CONFIG_FILE: join(dir, 'audit-webhook.kubeconfig'), KUBE_AUDIT_WEBHOOK_MODE: 'async' })).toContain('invalid audit webhook mode async, allowed modes are "batch,blocking,blocking-strict"');
    expect(await startWith({ KUBE_AUDIT_LOG_PATH: join(dir, 'x.log'), KUBE_AUDIT_LOG_MAXBACKUP: '-1' })).toContain("--audit-log-maxbackup -1 can't be a negative number");
    expect(await startWith({ KUBE_AUDIT_WEBHOOK_CONFIG_FILE: join(dir, 'missing.kubeconfig') })).toContain(`initializing audit webhook: stat ${join(dir, 'missing.kubeconfig')}: no such file or directory`);
  }, 60_000);
});
