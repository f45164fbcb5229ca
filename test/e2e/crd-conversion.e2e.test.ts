import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { issueCertificate, loadCertificateAuthority } from '@kube/pki';
import { runKubectl, type KubectlResult } from '@kube/testing';
import { startStack, type StackHarness } from '../support/core-api.harness';

const GROUP = 'stable.example.com';
const V1 = `/apis/${GROUP}/v1/namespaces/default/crontabs`;
const V2 = `/apis/${GROUP}/v2/namespaces/default/crontabs`;

interface SeenReview {
  desiredAPIVersion: string;
  objects: number;
}

/**
 * A conversion webhook for CronTab: v1 `spec.cronSpec` is v2 `spec.schedule`. HTTPS with a serving certificate
 * for 127.0.0.1 from the stack's CA; it can answer with a wrong uid, and be stopped and started again.
 */
interface ConversionWebhook {
  port: number;
  caPem: string;
  reviews: SeenReview[];
  wrongUID: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

interface ReviewBody {
  apiVersion: string;
  request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] };
}

function convert(obj: KubeObject, desiredAPIVersion: string): KubeObject {
  const { cronSpec, schedule, ...rest } = (obj.spec ?? {}) as Record<string, unknown>;
  const spec = desiredAPIVersion.endsWith('/v2') ? { ...rest, schedule: cronSpec } : { ...rest, cronSpec: schedule };
  return { ...obj, apiVersion: desiredAPIVersion, spec };
}

async function startConversionWebhook(stack: StackHarness): Promise<ConversionWebhook> {
  const ca = await loadCertificateAuthority(stack.pki.caCert, stack.pki.caKey);
  const cert = await issueCertificate(ca, { commonName: 'crontab-conversion', ipAddresses: ['127.0.0.1'], usage: 'server' });
  let server: Server | undefined;
  const webhook: ConversionWebhook = {
    port: 0,
    caPem: ca.certPem,
    reviews: [],
    wrongUID: false,
    start: async () => {
      server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const review = JSON.parse(Buffer.concat(chunks).toString()) as ReviewBody;
          const { uid, desiredAPIVersion, objects } = review.request;
          webhook.reviews.push({ desiredAPIVersion, objects: objects.length });
          const response = { uid: webhook.wrongUID ? 'not-the-request-uid' : uid, result: { status: 'Success' }, convertedObjects: objects.map((o) => convert(o, desiredAPIVersion)) };
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'ConversionReview', response }));
        });
      });
      await new Promise<void>((resolve) => server!.listen(webhook.port, '127.0.0.1', resolve));
      webhook.port = (server.address() as AddressInfo).port;
    },
    stop: () => new Promise<void>((resolve) => (server ? (server.closeAllConnections(), server.close(() => resolve())) : resolve())),
  };
  await webhook.start();
  return webhook;
}

const crd = (webhook: ConversionWebhook): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.${GROUP}
spec:
  group: ${GROUP}
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        url: https://127.0.0.1:${webhook.port}/convert
        caBundle: ${Buffer.from(webhook.caPem).toString('base64')}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              replicas: {type: integer}
  - name: v2
    served: true
    storage: false
    additionalPrinterColumns:
    - {name: Schedule, type: string, jsonPath: .spec.schedule}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              schedule: {type: string}
              replicas: {type: integer}
`;

const crontab = (version: 'v1' | 'v2', name: string, spec: Record<string, unknown>): KubeObject => ({ apiVersion: `${GROUP}/${version}`, kind: 'CronTab', metadata: { name }, spec });

interface WatchEvent {
  type: string;
  object: KubeObject;
}

describe('CRD conversion webhooks', () => {
  let stack: StackHarness;
  let webhook: ConversionWebhook;
  const kubectl = (args: string[], stdin?: string): Promise<KubectlResult> => runKubectl(args, { kubeconfig: stack.kubeconfig, stdin });
  const ok = async (args: string[], stdin?: string): Promise<string> => {
    const r = await kubectl(args, stdin);
    expect(r.code, `kubectl ${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout;
  };
  const get = async (path: string): Promise<KubeObject> => {
    const r = await stack.request('GET', path);
    expect(r.status, r.body).toBe(200);
    return r.json<KubeObject>();
  };

  beforeAll(async () => {
    // Counts every ConversionReview: without the controller-manager, whose GC informer would watch crontabs in v2 too.
    stack = await startStack({ controllerManager: false });
    webhook = await startConversionWebhook(stack);
    await ok(['apply', '-f', '-'], crd(webhook));
    await ok(['wait', '--for=condition=Established', `crd/crontabs.${GROUP}`, '--timeout=20s']);
  });

  afterAll(async () => {
    await webhook?.stop();
    await stack?.stop();
  });

  it('stores objects created in the storage version as they are and serves them in v2 through the webhook', async () => {
    expect(await ok(['create', '-f', '-'], JSON.stringify(crontab('v1', 'first', { cronSpec: '* * * * */5', replicas: 1 })))).toContain('crontab.stable.example.com/first created');
    expect(webhook.reviews).toEqual([]);
    const v2 = await get(`${V2}/first`);
    expect(v2).toMatchObject({ apiVersion: `${GROUP}/v2`, kind: 'CronTab', metadata: { name: 'first', namespace: 'default' }, spec: { schedule: '* * * * */5', replicas: 1 } });
    expect(v2.spec).not.toHaveProperty('cronSpec');
    expect(webhook.reviews).toEqual([{ desiredAPIVersion: `${GROUP}/v2`, objects: 1 }]);
  });

  it('converts objects created in v2 to the storage version', async () => {
    const r = await stack.request('POST', V2, { body: JSON.stringify(crontab('v2', 'second', { schedule: '0 * * * *', replicas: 2 })) });
    expect(r.status, r.body).toBe(201);
    expect(r.json()).toMatchObject({ apiVersion: `${GROUP}/v2`, spec: { schedule: '0 * * * *' } });
    webhook.reviews.length = 0;
    const v1 = await get(`${V1}/second`);
    expect(v1).toMatchObject({ apiVersion: `${GROUP}/v1`, spec: { cronSpec: '0 * * * *', replicas: 2 } });
    expect(v1.spec).not.toHaveProperty('schedule');
    // Stored in v1: reading v1 needs no conversion.
    expect(webhook.reviews).toEqual([]);
  });

  it('lists in v2 with one review for all items', async () => {
    webhook.reviews.length = 0;
    const list = (await stack.request('GET', V2)).json<{ apiVersion: string; items: KubeObject[] }>();
    expect(list.apiVersion).toBe(`${GROUP}/v2`);
    expect(list.items.map((o) => [o.metadata.name, o.apiVersion, (o.spec as { schedule?: string }).schedule])).toEqual([
      ['first', `${GROUP}/v2`, '* * * * */5'],
      ['second', `${GROUP}/v2`, '0 * * * *'],
    ]);
    expect(webhook.reviews).toEqual([{ desiredAPIVersion: `${GROUP}/v2`, objects: 2 }]);
  });

  it('prints v2 columns with kubectl get crontabs.v2.stable.example.com', async () => {
    const table = await ok(['get', `crontabs.v2.${GROUP}`]);
    expect(table).toMatch(/^NAME\s+SCHEDULE\n^first\s+\* \* \* \* \*\/5\n^second\s+0 \* \* \* \*$/m);
    expect(await ok(['get', `crontabs.v2.${GROUP}`, 'first', '-o', 'jsonpath={.spec.schedule}'])).toBe('* * * * */5');
  });

  it('watches in v2 and patches in v2', async () => {
    const watching = stack.request('GET', `${V2}?watch=true&timeoutSeconds=3`);
    await new Promise((r) => setTimeout(r, 500));
    await ok(['patch', `crontabs.v2.${GROUP}`, 'second', '--type=merge', '-p', '{"spec":{"schedule":"30 2 * * *"}}']);
    const events = (await watching).body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as WatchEvent);
    expect(events.map((e) => [e.type, e.object.metadata.name, e.object.apiVersion, (e.object.spec as { schedule?: string }).schedule])).toEqual([
      ['ADDED', 'first', `${GROUP}/v2`, '* * * * */5'],
      ['ADDED', 'second', `${GROUP}/v2`, '0 * * * *'],
      ['MODIFIED', 'second', `${GROUP}/v2`, '30 2 * * *'],
    ]);
    expect((await get(`${V1}/second`)).spec).toEqual({ cronSpec: '30 2 * * *', replicas: 2 });
  });

  it('refuses an answer with another uid', async () => {
    webhook.wrongUID = true;
    try {
      const r = await stack.request('GET', `${V2}/first`);
      expect(r.status).toBe(500);
      expect(r.json<{ message: string }>().message).toMatch(/^conversion webhook for stable\.example\.com\/v1, Kind=CronTab failed: expected response\.uid="[0-9a-f-]{36}", got "not-the-request-uid"$/);
      const k = await kubectl(['get', `crontabs.v2.${GROUP}`, 'first']);
      expect(k.code).not.toBe(0);
      expect(k.stderr).toContain('conversion webhook for stable.example.com/v1, Kind=CronTab failed: expected response.uid=');
    } finally {
      webhook.wrongUID = false;
    }
  });

  it('answers 500 with kube message while the webhook is down, and serves the storage version meanwhile', async () => {
    await webhook.stop();
    try {
      const r = await stack.request('GET', `${V2}/first`);
      expect(r.status).toBe(500);
      expect(r.json()).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        code: 500,
        reason: 'InternalError',
        message: `conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "https://127.0.0.1:${webhook.port}/convert?timeout=30s": dial tcp 127.0.0.1:${webhook.port}: connect: connection refused`,
      });
      const created = await stack.request('POST', V2, { body: JSON.stringify(crontab('v2', 'third', { schedule: '1 1 * * *' })) });
      expect(created.status).toBe(500);
      expect(created.json<{ message: string }>().message).toMatch(/^conversion webhook for stable\.example\.com\/v2, Kind=CronTab failed: Post /);
      expect((await get(`${V1}/first`)).spec).toMatchObject({ cronSpec: '* * * * */5' });
    } finally {
      await webhook.start();
    }
    expect((await get(`${V2}/first`)).spec).toMatchObject({ schedule: '* * * * */5' });
  });
});
