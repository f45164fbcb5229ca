/**
 * Webhook admission against a real HTTPS webhook, configured through real etcd: what kube's dispatchers do with a
 * webhook's answer (its refusal's Status, read from `status`) and with a dry run (only webhooks without side
 * effects are called; the others fail the request with kube's error).
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { createCertificateAuthority, issueCertificate } from '@kube/pki';
import { Storage } from '@kube/storage';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import type { AdmissionAttributes } from '../admission.types';
import { AdmissionSources } from '../configuration/admission.sources';
import { ValidatingWebhookAdmission } from './webhook.admission';

let etcd: EtcdProcess;
let storage: Storage;
let server: Server;
let caBundle: string;
let sources: AdmissionSources;
const seen: Array<{ path: string; request: { dryRun: boolean; options: Record<string, unknown> | null } }> = [];

/** What the webhook answers, by path. */
const ANSWERS: Record<string, Record<string, unknown>> = {
  '/allow': { allowed: true },
  '/deny-policy': { allowed: false, status: { code: 403, message: 'denied by policy' } },
  '/not-go': { allowed: 'yes' },
};

beforeAll(async () => {
  etcd = await startEtcd();
  storage = new Storage({ endpoints: [etcd.endpoint], watchCache: false });
  const ca = await createCertificateAuthority({ commonName: 'webhook-ca' });
  const cert = await issueCertificate(ca, { commonName: 'webhook', ipAddresses: ['127.0.0.1'], usage: 'server' });
  caBundle = Buffer.from(ca.certPem).toString('base64');
  server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString()) as { request: { uid: string; dryRun: boolean; options: Record<string, unknown> | null } };
      const path = (req.url ?? '').split('?')[0];
      seen.push({ path, request: review.request });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...ANSWERS[path] } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  // Stored as they are (an old v1beta1 configuration may still say sideEffects Unknown; v1 validation refuses it).
  const hook = (name: string, path: string, sideEffects: string): Record<string, unknown> => ({
    name: `${name}.example.com`,
    clientConfig: { url: `https://127.0.0.1:${port}${path}`, caBundle },
    rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' }],
    objectSelector: { matchLabels: { hook: name } },
    namespaceSelector: {},
    failurePolicy: 'Fail',
    sideEffects,
    timeoutSeconds: 5,
    admissionReviewVersions: ['v1'],
  });
  const configs = storage.resource({ group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations' }, 'validatingwebhookconfigurations');
  await configs.create({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'hooks', uid: 'u' },
    webhooks: [hook('none', '/allow', 'None'), hook('nonedryrun', '/allow', 'NoneOnDryRun'), hook('unknown', '/allow', 'Unknown'), hook('some', '/allow', 'Some'), hook('policy', '/deny-policy', 'None'), hook('notgo', '/not-go', 'None')],
  } as KubeObject);
  sources = AdmissionSources.forStorage(storage);
});

afterAll(async () => {
  sources?.stop();
  server?.closeAllConnections();
  server?.close();
  await storage?.close();
  await etcd?.stop();
});

const CONFIGMAPS = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };

function deleteOf(hook: string, dryRun: boolean): AdmissionAttributes {
  const old: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${hook}`, namespace: 'ns', labels: { hook } } };
  return { operation: 'DELETE', resource: CONFIGMAPS, subresource: '', namespace: 'ns', name: old.metadata.name as string, oldObject: old, ctx: { user: { name: 'u', groups: [] }, dryRun, warnings: [] }, options: { delete: { propagationPolicy: 'Background' } } };
}

async function statusOf(p: Promise<unknown>): Promise<{ code: number; reason?: string; message?: string } | 'admitted'> {
  try {
    await p;
    return 'admitted';
  } catch (err) {
    if (!isStatusError(err)) throw err;
    return { code: err.code, reason: err.status.reason, message: err.status.message };
  }
}

describe('ValidatingWebhookAdmission', () => {
  const admission = (): ValidatingWebhookAdmission => new ValidatingWebhookAdmission(sources);

  it('calls webhooks without side effects on a dry run, with dryRun and the DeleteOptions', async () => {
    for (const hook of ['none', 'nonedryrun']) {
      const before = seen.length;
      expect(await statusOf(admission().validate(deleteOf(hook, true)))).toBe('admitted');
      expect(seen.slice(before)).toEqual([{ path: '/allow', request: expect.objectContaining({ dryRun: true, options: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background', dryRun: ['All'] } }) }]);
    }
  });

  it('fails a dry run that would reach a webhook with side effects (Unknown, Some), without calling it', async () => {
    for (const hook of ['unknown', 'some']) {
      const before = seen.length;
      expect(await statusOf(admission().validate(deleteOf(hook, true)))).toEqual({ code: 400, reason: 'BadRequest', message: `admission webhook "${hook}.example.com" does not support dry run` });
      expect(seen.length).toBe(before);
      expect(await statusOf(admission().validate(deleteOf(hook, false)))).toBe('admitted');
    }
  });

  it('refuses with the webhook\'s own code and message (AdmissionResponse.status)', async () => {
    expect(await statusOf(admission().validate(deleteOf('policy', false)))).toEqual({ code: 403, reason: undefined, message: 'admission webhook "policy.example.com" denied the request: denied by policy' });
  });

  it('fails the call when the answer does not decode as Go decodes an AdmissionReview', async () => {
    expect(await statusOf(admission().validate(deleteOf('notgo', false)))).toMatchObject({
      code: 500,
      message: 'Internal error occurred: failed calling webhook "notgo.example.com": failed to call webhook: json: cannot unmarshal string into Go struct field AdmissionResponse.response.allowed of type bool',
    });
  });
});
