/**
 * An authorization webhook a test runs, as an operator's policy engine would be: HTTPS with its own CA, only
 * clients with a certificate from its client CA accepted, every SubjectAccessReview it receives recorded, its
 * answer decided by the test. Writes the kubeconfig kube's connectionInfo.kubeConfigFile points at.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { createCertificateAuthority, issueCertificate } from '@kube/pki';

export interface ReceivedReview {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body, byte for byte. */
  raw: string;
  body: { apiVersion: string; kind: string; spec: Record<string, unknown> };
  /** CN of the client certificate the caller presented. */
  clientCN: string;
}

/** What the webhook does with a review: a status to answer, or misbehave. */
export type WebhookAnswer = { allowed?: boolean; denied?: boolean; reason?: string } | 'hang' | 'error500' | 'huge';

export interface TestAuthorizationWebhook {
  url: string;
  kubeconfigPath: string;
  reviews: ReceivedReview[];
  decide: (review: ReceivedReview) => WebhookAnswer;
  close(): Promise<void>;
}

export async function startAuthorizationWebhook(dir: string, decide: (review: ReceivedReview) => WebhookAnswer, name = 'authz-webhook'): Promise<TestAuthorizationWebhook> {
  const serverCa = await createCertificateAuthority({ commonName: `${name}-ca` });
  const clientCa = await createCertificateAuthority({ commonName: `${name}-client-ca` });
  const serving = await issueCertificate(serverCa, { commonName: name, ipAddresses: ['127.0.0.1'], dnsNames: ['localhost'], usage: 'server' });
  const client = await issueCertificate(clientCa, { commonName: 'kube-apiserver', usage: 'client' });
  const hanging = new Set<import('node:http').ServerResponse>();
  const hook: TestAuthorizationWebhook = {
    url: '',
    kubeconfigPath: join(dir, `${name}.kubeconfig`),
    reviews: [],
    decide,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer({ key: serving.keyPem, cert: serving.certPem, ca: clientCa.certPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      const review: ReceivedReview = { url: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) as ReceivedReview['body'], clientCN: String(peer?.subject?.CN ?? '') };
      hook.reviews.push(review);
      const answer = hook.decide(review);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      if (answer === 'huge') {
        // An allowing answer padded past any sane size.
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ apiVersion: review.body.apiVersion, kind: 'SubjectAccessReview', status: { allowed: true }, padding: 'x'.repeat(4 * 1024 * 1024) }));
        return;
      }
      if (answer === 'error500') {
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('policy engine exploded');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ apiVersion: review.body.apiVersion, kind: 'SubjectAccessReview', status: { allowed: answer.allowed ?? false, ...(answer.denied ? { denied: true } : {}), ...(answer.reason ? { reason: answer.reason } : {}) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  hook.url = `https://127.0.0.1:${port}/authorize`;
  const ca = join(dir, `${name}-ca.crt`);
  const cert = join(dir, `${name}-client.crt`);
  const key = join(dir, `${name}-client.key`);
  writeFileSync(ca, serverCa.certPem);
  writeFileSync(cert, client.certPem);
  writeFileSync(key, client.keyPem, { mode: 0o600 });
  // kube's documented webhook kubeconfig: clusters = the remote service, users = the API server's credentials.
  writeFileSync(
    hook.kubeconfigPath,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: ${name}`,
      '  cluster:',
      `    certificate-authority: ${ca}`,
      `    server: ${hook.url}`,
      'users:',
      '- name: kube-apiserver',
      '  user:',
      `    client-certificate: ${cert}`,
      `    client-key: ${key}`,
      'current-context: webhook',
      'contexts:',
      '- context:',
      `    cluster: ${name}`,
      '    user: kube-apiserver',
      '  name: webhook',
      '',
    ].join('\n'),
  );
  return hook;
}
