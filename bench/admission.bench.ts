/**
 * Admission's cost on core-api: CREATE configmap with 20 webhook configurations that do not match against none
 * (target ≥ 95%: nothing matching must cost nothing), and what a matching validating webhook adds to a CREATE's
 * p50 beyond the webhook's own p50 (target ≤ 2 ms), one request at a time. `npm run bench -- --only admission`
 * runs this part alone.
 */
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { issueCertificate, loadCertificateAuthority, type PkiPaths } from '@kube/pki';
import { agentFor, call, runLoad, settleSeconds, warmupSeconds, type LoadResult, type TlsClient } from './load.generator';
import { figure } from './report';

export interface AdmissionBenchTarget {
  apiPort: number;
  pki: PkiPaths;
  tls: TlsClient;
  seconds: number;
  line(name: string, ours: LoadResult, base: LoadResult, target: string): string;
}

/** An HTTPS webhook that allows everything, as cheaply as Node can answer. */
async function startAllowingWebhook(pki: PkiPaths): Promise<{ server: Server; port: number; caBundle: string; calls: () => number }> {
  let calls = 0;
  const ca = await loadCertificateAuthority(pki.caCert, pki.caKey);
  const cert = await issueCertificate(ca, { commonName: 'bench-webhook', ipAddresses: ['127.0.0.1'], usage: 'server' });
  const server = createServer({ cert: cert.certPem, key: cert.keyPem, keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls++;
      const uid = (JSON.parse(Buffer.concat(chunks).toString()) as { request: { uid: string } }).request.uid;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: true } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, caBundle: Buffer.from(readFileSync(pki.caCert)).toString('base64'), calls: () => calls };
}

const configuration = (name: string, url: string, caBundle: string, rule: Record<string, unknown>, namespaceSelector: Record<string, unknown> = {}): string =>
  JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name },
    webhooks: [{ name: `${name}.bench.example.com`, clientConfig: { url, caBundle }, rules: [rule], namespaceSelector, sideEffects: 'None', admissionReviewVersions: ['v1'] }],
  });

export async function benchAdmission(t: AdmissionBenchTarget): Promise<void> {
  const agent = agentFor(t.tls, 64);
  const webhook = await startAllowingWebhook(t.pki);
  const url = `https://127.0.0.1:${webhook.port}/validate`;
  const post = (path: string, body: unknown): Promise<{ status: number; body: string }> => call(agent, t.apiPort, { method: 'POST', path, body: JSON.stringify(body) });
  const create = (ns: string, prefix: string) => async (i: number) => (await post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `${prefix}-${i}` }, data: { key: 'value' } })).status === 201;
  try {
    for (const name of ['admission-plain', 'admission-hooked']) await post('/api/v1/namespaces', { metadata: { name, labels: { bench: name } } });
    // The informers start with the first admitted write: warm them first, and let core-api's CPU per create
    // settle (settleSeconds), or a cold baseline flatters the figure with webhooks measured after it.
    await runLoad(64, settleSeconds(t.seconds), create('admission-plain', 'warm'));
    const none = await runLoad(64, t.seconds, create('admission-plain', 'none'));
    for (let i = 0; i < 20; i++) {
      const r = await call(agent, t.apiPort, {
        method: 'POST',
        path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
        body: configuration(`miss-${i}`, url, webhook.caBundle, { operations: ['CREATE'], apiGroups: ['bench.example.com'], apiVersions: ['v1'], resources: [`widgets${i}`] }),
      });
      if (r.status !== 201) throw new Error(`webhook configuration: ${r.status} ${r.body}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
    const twenty = await runLoad(64, t.seconds, create('admission-plain', 'twenty'));
    console.log(t.line('CREATE, 20 non-matching webhooks', twenty, none, '≥ 95%'));

    // A matching webhook: CREATE p50 in its namespace minus CREATE p50 elsewhere minus the webhook's own p50.
    const hooked = configuration('hit', url, webhook.caBundle, { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }, { matchLabels: { bench: 'admission-hooked' } });
    await call(agent, t.apiPort, { method: 'POST', path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', body: hooked });
    await new Promise((r) => setTimeout(r, 1000));
    const review = JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'bench', object: { metadata: { name: 'x' }, data: { key: 'value' } } } });
    const hookAgent = new Agent({ keepAlive: true, maxSockets: 1, ca: t.tls.ca });
    await runLoad(1, warmupSeconds(t.seconds), create('admission-hooked', 'warm'));
    const own = await runLoad(1, t.seconds, async () => (await call(hookAgent, webhook.port, { method: 'POST', path: '/validate?timeout=10s', body: review })).status === 200);
    const without = await runLoad(1, t.seconds, create('admission-plain', 'serial'));
    const before = webhook.calls();
    const withHook = await runLoad(1, t.seconds, create('admission-hooked', 'serial'));
    if (webhook.calls() - before < withHook.requests || own.errors) throw new Error(`the matching webhook was not called for every CREATE (${webhook.calls() - before} calls, ${withHook.requests} creates; ${own.errors} direct errors)`);
    const added = withHook.p50ms - without.p50ms - own.p50ms;
    const detail = `p50 ${withHook.p50ms.toFixed(2)} ms vs ${without.p50ms.toFixed(2)} ms without, webhook alone ${own.p50ms.toFixed(2)} ms → adds ${added.toFixed(2)} ms (errors ${withHook.errors})`;
    console.log(figure('CREATE, 1 matching webhook (serial)', added, 'ms', detail, '≤ 2 ms'));
    hookAgent.destroy();
  } finally {
    agent.destroy();
    webhook.server.closeAllConnections();
    webhook.server.close();
  }
}
