import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueCertificate, type CertificateAuthority } from '@kube/pki';
import { tempDir } from '@kube/testing';
import { backoffDelays, defaultWebhookBackoff, WebhookBackend } from './audit-webhook.backend';
import { auditErrors, testEvent } from './audit.testing';
import { loadWebhookKubeconfig } from './webhook.kubeconfig';

interface Call {
  body: { kind: string; apiVersion: string; items: Array<{ auditID: string }> };
  headers: Record<string, string | string[] | undefined>;
  peerCN?: string;
}

let ca: CertificateAuthority;
let server: Server;
let port: number;
const calls: Call[] = [];
/** How many of the next calls fail with a 500. */
let failNext = 0;
const dir = tempDir('audit-webhook');

beforeAll(async () => {
  ca = await createCertificateAuthority({ commonName: 'audit-webhook-ca' });
  const serving = await issueCertificate(ca, { commonName: 'audit-sink', ipAddresses: ['127.0.0.1'], dnsNames: ['audit.example.com'], usage: 'server' });
  const client = await issueCertificate(ca, { commonName: 'kube-apiserver', usage: 'client' });
  writeFileSync(join(dir, 'ca.pem'), ca.certPem);
  writeFileSync(join(dir, 'client.pem'), client.certPem);
  writeFileSync(join(dir, 'client-key.pem'), client.keyPem);
  server = createServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      calls.push({ body: JSON.parse(Buffer.concat(chunks).toString()) as Call['body'], headers: req.headers, peerCN: peer?.subject?.CN === undefined ? undefined : String(peer.subject.CN) });
      if (failNext > 0) {
        failNext--;
        res.writeHead(500).end('sink is down');
      } else res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => server?.close());

/** The kubeconfig of kube's webhook documentation, paths relative to the file. */
function kubeconfig(user: string): string {
  const path = join(dir, `kubeconfig-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    path,
    `# clusters refers to the remote service.
clusters:
  - name: name-of-remote-audit-service
    cluster:
      certificate-authority: ca.pem
      server: https://127.0.0.1:${port}/audit?tenant=a
users:
  - name: name-of-api-server
    user:
${user}
current-context: webhook
contexts:
- context:
    cluster: name-of-remote-audit-service
    user: name-of-api-server
  name: webhook
`,
  );
  return path;
}

describe('WebhookBackend (kube plugin/pkg/audit/webhook)', () => {
  it('POSTs an audit.k8s.io/v1 EventList to the kubeconfig server with its client certificate', async () => {
    calls.length = 0;
    const conn = loadWebhookKubeconfig(kubeconfig('      client-certificate: client.pem\n      client-key: client-key.pem'));
    const w = new WebhookBackend(conn, defaultWebhookBackoff(10));
    expect(await w.processEvents([testEvent('a'), testEvent('b')])).toBe(true);
    await w.shutdown();
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toMatchObject({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', items: [{ auditID: 'a' }, { auditID: 'b' }] });
    expect(calls[0].headers['content-type']).toBe('application/json');
    expect(calls[0].peerCN).toBe('kube-apiserver');
  });

  it('sends a bearer token from token or tokenFile', async () => {
    calls.length = 0;
    writeFileSync(join(dir, 'token'), 's3cr3t\n');
    for (const user of ['      token: s3cr3t', '      tokenFile: token']) {
      const w = new WebhookBackend(loadWebhookKubeconfig(kubeconfig(user)), defaultWebhookBackoff(10));
      expect(await w.processEvents([testEvent('t')])).toBe(true);
      await w.shutdown();
    }
    expect(calls.map((c) => c.headers.authorization)).toEqual(['Bearer s3cr3t', 'Bearer s3cr3t']);
  });

  it('retries a failing webhook with backoff and succeeds when it comes back', async () => {
    calls.length = 0;
    failNext = 2;
    const w = new WebhookBackend(loadWebhookKubeconfig(kubeconfig('      token: x')), defaultWebhookBackoff(10));
    expect(await w.processEvents([testEvent('r')])).toBe(true);
    await w.shutdown();
    expect(calls.map((c) => c.body.items[0].auditID)).toEqual(['r', 'r', 'r']);
  });

  it('gives up after 5 tries: the batch is counted under plugin="webhook" and the answer is false', async () => {
    calls.length = 0;
    failNext = 100;
    const before = await auditErrors('webhook');
    const w = new WebhookBackend(loadWebhookKubeconfig(kubeconfig('      token: x')), defaultWebhookBackoff(5));
    expect(await w.processEvents([testEvent('x'), testEvent('y')])).toBe(false);
    await w.shutdown();
    failNext = 0;
    expect(calls).toHaveLength(5);
    expect((await auditErrors('webhook')) - before).toBe(2);
  });

  it('a webhook that refuses connections fails the batch without throwing', async () => {
    const path = join(dir, 'down.yaml');
    writeFileSync(path, `clusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1/\n    insecure-skip-tls-verify: true\ncurrent-context: w\ncontexts:\n- name: w\n  context:\n    cluster: c\n`);
    const w = new WebhookBackend(loadWebhookKubeconfig(path), { ...defaultWebhookBackoff(1), steps: 2 });
    expect(await w.processEvents([testEvent('d')])).toBe(false);
    await w.shutdown();
  });

  it("kube's backoff: 5 tries, waits ×1.5 from the initial one, each with up to 20 % jitter", () => {
    expect(backoffDelays(defaultWebhookBackoff(10_000), () => 0)).toEqual([10_000, 15_000, 22_500, 33_750]);
    expect(backoffDelays(defaultWebhookBackoff(10_000), () => 1)).toEqual([12_000, 18_000, 27_000, 40_500]);
  });
});

describe('loadWebhookKubeconfig', () => {
  it("refuses what clientcmd refuses, with its words", () => {
    const write = (text: string): string => {
      const p = join(dir, `bad-${Math.random().toString(36).slice(2)}.yaml`);
      writeFileSync(p, text);
      return p;
    };
    expect(() => loadWebhookKubeconfig(join(dir, 'missing.yaml'))).toThrow(`stat ${join(dir, 'missing.yaml')}: no such file or directory`);
    expect(() => loadWebhookKubeconfig(write('clusters: []\n'))).toThrow('invalid configuration: no configuration has been provided');
    expect(() => loadWebhookKubeconfig(write('current-context: w\ncontexts: []\n'))).toThrow('invalid configuration: context was not found for specified context: w');
    expect(() => loadWebhookKubeconfig(write('current-context: w\ncontexts:\n- name: w\n  context: {cluster: c}\nclusters:\n- name: c\n  cluster: {}\n'))).toThrow('invalid configuration: no server found for cluster "c"');
    expect(() => loadWebhookKubeconfig(write('current-context: w\ncontexts:\n- name: w\n  context: {cluster: c}\nclusters:\n- name: c\n  cluster: {server: "https://x", certificate-authority: nope.pem}\n'))).toThrow(/unable to read certificate-authority nope.pem for c due to open .*nope.pem: no such file or directory/);
  });
});
