import { trace, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { hostname } from 'node:os';
import type { TracingConfiguration } from './tracing.config';

/** The instrumentation scope of the API server's spans (kube names its tracers after the package). */
export const TRACER_NAME = 'k8s.io/apiserver';

let installed: { tracer: Tracer; provider: NodeTracerProvider } | undefined;

/**
 * Tracing for this process as kube's component-base/tracing sets it up: an OTLP/gRPC exporter to `endpoint`
 * (insecure, as kube's), batched, sampling ParentBased(TraceIDRatioBased(samplingRatePerMillion / 1e6)), W3C trace
 * context propagation, the async-local context manager (so a request's span is the parent of what it awaits:
 * etcd calls, webhook calls). Once per process; later calls get the first tracer (one process may hold several
 * servers: the aggregator embeds one, tests run a stack in one process).
 */
export function startTracing(component: string, config: TracingConfiguration, exporter?: SpanExporter): Tracer {
  if (installed) return installed.tracer;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: component, 'host.name': hostname() }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.samplingRatePerMillion / 1_000_000) }),
    spanProcessors: [new BatchSpanProcessor(exporter ?? new OTLPTraceExporter({ url: `http://${config.endpoint.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')}` }), { scheduledDelayMillis: 500 })],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  installed = { tracer: trace.getTracer(TRACER_NAME), provider };
  return installed.tracer;
}

/** Exports what is buffered (a stopping process), waiting at most `timeoutMs` for an unreachable collector. */
export async function flushTracing(timeoutMs = 2_000): Promise<void> {
  if (!installed) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([installed.provider.forceFlush().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}
