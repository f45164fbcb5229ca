import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '@kube/apimachinery';
import type { ServiceStores } from '@kube/apiserver';
import { createCertificateAuthority, issueCertificate } from '@kube/pki';
import { ConversionWebhookClient } from './conversion-webhook.client';
import { conversionReview } from './conversion-review';

interface Seen {
  method: string;
  url: string;
  contentType: string;
  body: unknown;
  socket: unknown;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: unknown) => void;

const REVIEW = conversionReview('v1', { uid: 'u-1', desiredAPIVersion: 'stable.example.com/v2', objects: [] });

const echo: Handler = (_req, res, body) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ echoed: body }));
};

/** Services/Endpoints as the stores would hold them, for `clientConfig.service`: each name leads to `port`. */
function fakeServices(port: number, names = ['convert']): ServiceStores {
  const objects = new Map<string, KubeObject>(
    names.flatMap((name): Array<[string, KubeObject]> => [
      [`webhooks/${name}/services`, { metadata: { name, namespace: 'webhooks' }, spec: { ports: [{ name: 'https', port: 443, targetPort: port }] } }],
      [`webhooks/${name}/endpoints`, { metadata: { name, namespace: 'webhooks' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] }],
    ]),
  );
  const reader = (kind: string): ServiceStores['services'] => ({ tryGet: async (ns, name) => objects.get(`${ns}/${name}/${kind}`) });
  return { services: reader('services'), endpoints: reader('endpoints') };
}

describe('ConversionWebhookClient', () => {
  let server: Server;
  let port: number;
  let caBundle: string;
  let handler: Handler = echo;
  const seen: Seen[] = [];

  beforeAll(async () => {
    const ca = await createCertificateAuthority({ commonName: 'webhook-test-ca' });
    const cert = await issueCertificate(ca, { commonName: 'convert', dnsNames: ['convert.webhooks.svc'], ipAddresses: ['127.0.0.1'], usage: 'server' });
    caBundle = Buffer.from(ca.certPem).toString('base64');
    server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString() || 'null') as unknown;
        seen.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'] ?? '', body, socket: req.socket });
        handler(req, res, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    seen.length = 0;
    handler = echo;
  });

  it('POSTs the review as JSON to the URL with kube timeout parameter, trusting caBundle', async () => {
    const client = new ConversionWebhookClient({ url: `https://127.0.0.1:${port}/convert`, caBundle });
    expect(await client.post(REVIEW)).toEqual({ echoed: REVIEW });
    expect(seen).toMatchObject([{ method: 'POST', url: '/convert?timeout=30s', contentType: 'application/json' }]);
  });

  it('keeps the connection alive between calls', async () => {
    const client = new ConversionWebhookClient({ url: `https://127.0.0.1:${port}/convert`, caBundle });
    await client.post(REVIEW);
    await client.post(REVIEW);
    expect(seen).toHaveLength(2);
    expect(seen[1].socket).toBe(seen[0].socket);
  });

  it('does not trust the webhook without its caBundle', async () => {
    const client = new ConversionWebhookClient({ url: `https://127.0.0.1:${port}/convert` });
    await expect(client.post(REVIEW)).rejects.toThrow(new RegExp(`^Post "https://127\\.0\\.0\\.1:${port}/convert\\?timeout=30s": .*certificate`));
  });

  it('reports a refused connection in the words of Go', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = new ConversionWebhookClient({ url: `https://127.0.0.1:${deadPort}/convert`, caBundle });
    await expect(client.post(REVIEW)).rejects.toThrow(`Post "https://127.0.0.1:${deadPort}/convert?timeout=30s": dial tcp 127.0.0.1:${deadPort}: connect: connection refused`);
  });

  it('gives up at the deadline', async () => {
    handler = () => undefined;
    const client = new ConversionWebhookClient({ url: `https://127.0.0.1:${port}/convert`, caBundle }, undefined, 200);
    await expect(client.post(REVIEW)).rejects.toThrow(`Post "https://127.0.0.1:${port}/convert?timeout=200ms": context deadline exceeded`);
  });

  it('reports an error status with its body', async () => {
    handler = (_req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('boom');
    };
    const client = new ConversionWebhookClient({ url: `https://127.0.0.1:${port}/convert`, caBundle });
    await expect(client.post(REVIEW)).rejects.toThrow(`Post "https://127.0.0.1:${port}/convert?timeout=30s": an error on the server ("boom") has prevented the request from succeeding`);
  });

  describe('with a service reference', () => {
    it('dials the endpoint of the Service port and verifies <name>.<namespace>.svc', async () => {
      const client = new ConversionWebhookClient({ service: { namespace: 'webhooks', name: 'convert', path: '/convert', port: 443 }, caBundle }, fakeServices(port));
      expect(await client.post(REVIEW)).toEqual({ echoed: REVIEW });
      expect(seen[0].url).toBe('/convert?timeout=30s');
    });

    it('refuses a serving certificate not issued for the Service name, even at the right address', async () => {
      const client = new ConversionWebhookClient({ service: { namespace: 'webhooks', name: 'impostor', port: 443 }, caBundle }, fakeServices(port, ['impostor']));
      await expect(client.post(REVIEW)).rejects.toThrow(/impostor\.webhooks\.svc.*altnames/);
    });

    it('names the Service in errors, as kube does', async () => {
      const client = new ConversionWebhookClient({ service: { namespace: 'webhooks', name: 'missing', path: '/convert', port: 443 }, caBundle }, fakeServices(port));
      expect(client.displayURL).toBe('https://missing.webhooks.svc:443/convert?timeout=30s');
      await expect(client.post(REVIEW)).rejects.toThrow('Post "https://missing.webhooks.svc:443/convert?timeout=30s": service/missing in "webhooks" is not present');
    });

    it('refuses a port the Service does not have', async () => {
      const client = new ConversionWebhookClient({ service: { namespace: 'webhooks', name: 'convert', port: 8443 }, caBundle }, fakeServices(port));
      await expect(client.post(REVIEW)).rejects.toThrow('service/convert in "webhooks" is not listening on port 8443');
    });
  });
});
