import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePki } from '@kube/pki';
import { tempDir } from '@kube/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { RestClient } from './rest.client';

describe('RestClient', () => {
  let server: Server;
  let client: RestClient;
  const held: Array<() => void> = [];
  const opened: Array<{ close(): void }> = [];
  const traceparents: string[] = [];
  let config: ConstructorParameters<typeof RestClient>[0];

  beforeAll(async () => {
    const pki = await ensurePki(join(tempDir('rest-client'), 'pki'));
    const pem = (p: string): string => readFileSync(p, 'utf8');
    // Watches are answered with headers and then held open, as an API server holds a quiet watch.
    server = createServer({ cert: pem(pki.apiserverCert), key: pem(pki.apiserverKey) }, (req, res) => {
      if (req.url?.includes('watch=1')) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('');
        held.push(() => res.end());
        return;
      }
      traceparents.push(String(req.headers.traceparent ?? ''));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Lease', metadata: { name: 'l' } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    config = { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, caPem: pem(pki.caCert), certPem: pem(pki.adminCert), keyPem: pem(pki.adminKey) };
    client = new RestClient(config);
  });

  afterAll(async () => {
    for (const w of opened) w.close();
    for (const end of held) end();
    client?.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('sends no traceparent without a tracer, and its client span as the traceparent with one (KUBE_TRACING_CONFIG_FILE)', async () => {
    await client.get('/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l');
    expect(traceparents.at(-1)).toBe('');
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
    const traced = new RestClient({ ...config, tracer });
    try {
      await traced.get('/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l');
    } finally {
      traced.close();
    }
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('HTTP GET');
    expect(span.attributes['http.status_code']).toBe(200);
    expect(traceparents.at(-1)).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });

  it('answers requests while more watches than its request sockets stay open (a lease renewal is never starved)', async () => {
    const watches = await Promise.all(Array.from({ length: 80 }, (_, i) => client.watch(`/api/v1/namespaces/ns${i}/configmaps`, '1')));
    opened.push(...watches);
    expect(watches).toHaveLength(80);
    const lease = await client.get('/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l');
    expect(lease.metadata.name).toBe('l');
  });

  it('ends the iteration of a watch it closes (a stopped reflector does not hang on it forever)', async () => {
    const watch = await client.watch('/api/v1/namespaces/closing/configmaps', '1');
    opened.push(watch);
    const iteration = (async () => {
      for await (const _ of watch) void _;
      return 'ended';
    })();
    await new Promise((r) => setTimeout(r, 100));
    watch.close();
    const outcome = await Promise.race([iteration, new Promise((r) => setTimeout(() => r('still iterating'), 10_000))]);
    expect(outcome).toBe('ended');
  });
});
