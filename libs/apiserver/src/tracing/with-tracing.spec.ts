import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filter } from '../filters/api-request';
import { echo, serveFilters } from '../filters/filter.testing';
import { buildHandlerChain } from '../filters/handler-chain';
import { parseRequestInfo } from '../request-info';
import { spanName, tracked, withTracing } from './with-tracing';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('test');
const manager = new AsyncLocalStorageContextManager();

describe('withTracing', () => {
  beforeAll(() => {
    context.setGlobalContextManager(manager.enable());
  });
  afterAll(() => {
    context.disable();
  });

  it("names spans as kube's getSpanNameFromRequestInfo", () => {
    expect(spanName('GET', parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps/one', false))).toBe('GET /api/v1/namespaces/{:namespace}/configmaps/{:name}');
    expect(spanName('POST', parseRequestInfo('POST', '/apis/apps/v1/namespaces/x/deployments', false))).toBe('POST /apis/apps/v1/namespaces/{:namespace}/deployments');
    expect(spanName('PUT', parseRequestInfo('PUT', '/apis/apps/v1/namespaces/x/deployments/d/scale', false))).toBe('PUT /apis/apps/v1/namespaces/{:namespace}/deployments/{:name}/scale');
    expect(spanName('GET', parseRequestInfo('GET', '/api/v1/nodes', false))).toBe('GET /api/v1/nodes');
    expect(spanName('GET', parseRequestInfo('GET', '/healthz', false))).toBe('GET');
  });

  it('makes an untrusted caller\'s traceparent a link, a trusted one the parent; stages are children; the active span reaches the handler', async () => {
    exporter.reset();
    let trusted = false;
    let activeInHandler = '';
    const stage: Filter = (next) => (r) => next(r);
    const server = await serveFilters([withTracing({ tracer, trustedParent: () => trusted, forward: true }), tracked('authentication', tracer, stage)], async (r) => {
      activeInHandler = trace.getActiveSpan()?.spanContext().spanId ?? '';
      r.res.setHeader('x-forwarded-traceparent', String(r.req.headers.traceparent));
      return echo(r);
    });
    try {
      const parent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const linked = await server.request('GET', '/api/v1/namespaces/default/configmaps/one', { traceparent: parent });
      trusted = true;
      const child = await server.request('GET', '/api/v1/namespaces/default/configmaps/one', { traceparent: parent });
      const spans = exporter.getFinishedSpans();
      const servers = spans.filter((s) => s.name === 'GET /api/v1/namespaces/{:namespace}/configmaps/{:name}');
      expect(servers).toHaveLength(2);
      const [first, second] = servers;
      expect(first.spanContext().traceId).not.toBe('4bf92f3577b34da6a3ce929d0e0e4736');
      expect(first.links.map((l) => l.context.spanId)).toEqual(['00f067aa0ba902b7']);
      expect(second.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
      expect(second.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
      expect(second.attributes['http.status_code']).toBe(200);
      // Forwarded: the request's own span, as the proxy passes it on.
      expect(linked.headers['x-forwarded-traceparent']).toBe(`00-${first.spanContext().traceId}-${first.spanContext().spanId}-01`);
      expect(child.headers['x-forwarded-traceparent']).toBe(`00-${second.spanContext().traceId}-${second.spanContext().spanId}-01`);
      expect(activeInHandler).toBe(second.spanContext().spanId);
      const stages = spans.filter((s) => s.name === 'authentication');
      expect(stages.map((s) => s.parentSpanContext?.spanId)).toEqual([first.spanContext().spanId, second.spanContext().spanId]);
    } finally {
      await server.close();
    }
  });

  it('is not in the chain at all without a tracer (tracing off costs nothing)', async () => {
    exporter.reset();
    let seen: unknown = 'unset';
    const chain = buildHandlerChain(
      async (r) => {
        seen = r.span ?? trace.getActiveSpan();
        return echo(r);
      },
      { authenticator: { authenticate: () => ({ name: 'admin', groups: ['system:masters'] }) } as never, requestLog: { done: () => undefined } as never, trustRequestId: () => false, shuttingDown: () => false },
    );
    const server = await serveFilters([(_next) => chain]);
    try {
      expect((await server.request('GET', '/api/v1/namespaces', { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' })).status).toBe(200);
      expect(seen).toBeUndefined();
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
