import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import { createCertificateAuthority, issueCertificate } from '@kube/pki';
import { collectionPath, RegistrationClient, type RegistrationTarget } from './registration.client';

interface Seen {
  method: string;
  path: string;
  contentType: string;
}

const DISCOVERY: Record<string, object> = {
  '/api/v1': { kind: 'APIResourceList', groupVersion: 'v1', resources: [{ name: 'services', singularName: 'service', namespaced: true, kind: 'Service', verbs: ['create', 'get', 'patch'] }] },
  '/apis/apiregistration.k8s.io/v1': {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'apiregistration.k8s.io/v1',
    resources: [{ name: 'apiservices', singularName: 'apiservice', namespaced: false, kind: 'APIService', verbs: ['create', 'get', 'patch'] }],
  },
};

/** A fake front door: discovery for the two kinds, objects in a map, merge-patch answers 404 for missing ones, one 503 before anything. */
async function fakeFrontDoor(): Promise<{ server: Server; target: RegistrationTarget; seen: Seen[]; objects: Map<string, KubeObject> }> {
  const ca = await createCertificateAuthority({ commonName: 'test-ca' });
  const serving = await issueCertificate(ca, { commonName: 'front-door', ipAddresses: ['127.0.0.1'], usage: 'server' });
  const client = await issueCertificate(ca, { commonName: 'admin', organizations: ['system:masters'], usage: 'client' });
  const seen: Seen[] = [];
  const objects = new Map<string, KubeObject>();
  let warmingUp = true;
  const server = createServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '', 'https://front-door').pathname;
      // client-node finds each kind's resource through discovery first
      if (req.method === 'GET' && DISCOVERY[path]) return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(DISCOVERY[path]));
      seen.push({ method: req.method ?? '', path: req.url ?? '', contentType: String(req.headers['content-type']) });
      if (warmingUp) {
        warmingUp = false;
        res.writeHead(503).end('{}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString()) as KubeObject;
      if (body.metadata.name === 'invalid') return void res.writeHead(422).end('{"reason":"Invalid"}');
      if (req.method === 'POST') objects.set(`${path}/${body.metadata.name}`, body);
      else if (!objects.has(path)) return void res.writeHead(404).end('{}');
      else objects.set(path, { ...objects.get(path), ...body });
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, seen, objects, target: { url, certPem: client.certPem, keyPem: client.keyPem, caPem: ca.certPem } };
}

const service: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'wardle-server', namespace: 'default' }, spec: { ports: [] } };
const apiService: KubeObject = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1alpha1.wardle.example.com' }, spec: {} };

describe('RegistrationClient', () => {
  let fake: Awaited<ReturnType<typeof fakeFrontDoor>>;

  beforeAll(async () => {
    fake = await fakeFrontDoor();
  });

  afterAll(() => new Promise<void>((resolve) => fake.server.close(() => resolve())));

  it('finds the collection of each registration kind', () => {
    expect(collectionPath(service)).toBe('/api/v1/namespaces/default/services');
    expect(collectionPath(apiService)).toBe('/apis/apiregistration.k8s.io/v1/apiservices');
    expect(() => collectionPath({ apiVersion: 'v1', kind: 'Pod', metadata: {} })).toThrow('cannot register a Pod');
  });

  it('creates missing objects (after retrying a 503), then only merge-patches them', async () => {
    const client = new RegistrationClient(fake.target, 10_000);
    await client.apply([service, apiService]);
    expect(fake.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'PATCH /api/v1/namespaces/default/services/wardle-server?fieldManager=kube-ts-registration',
      'PATCH /api/v1/namespaces/default/services/wardle-server?fieldManager=kube-ts-registration',
      'POST /api/v1/namespaces/default/services?fieldManager=kube-ts-registration',
      'PATCH /apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.wardle.example.com?fieldManager=kube-ts-registration',
      'POST /apis/apiregistration.k8s.io/v1/apiservices?fieldManager=kube-ts-registration',
    ]);
    fake.seen.length = 0;
    await client.apply([service, apiService]);
    expect(fake.seen.map((s) => `${s.method} ${s.contentType}`)).toEqual(['PATCH application/merge-patch+json', 'PATCH application/merge-patch+json']);
    expect([...fake.objects.keys()]).toEqual(['/api/v1/namespaces/default/services/wardle-server', '/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.wardle.example.com']);
  });

  it('gives up at once on a refusal that retrying cannot fix', async () => {
    const client = new RegistrationClient(fake.target, 10_000);
    const started = Date.now();
    await expect(client.apply([{ ...service, metadata: { name: 'invalid', namespace: 'default' } }])).rejects.toThrow(
      'PATCH /api/v1/namespaces/default/services/invalid: 422 {"reason":"Invalid"}',
    );
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('does not trust a front door whose certificate another CA signed', async () => {
    const other = await createCertificateAuthority({ commonName: 'other' });
    await expect(new RegistrationClient({ ...fake.target, caPem: other.certPem }, 10_000).apply([service])).rejects.toThrow(/certificate/);
  });
});
