import type { IncomingMessage } from 'node:http';
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { ApiRequest, Filter } from '../filters/api-request';
import type { RequestInfo } from '../request-info';

export interface RequestTracingOptions {
  tracer: Tracer;
  /**
   * Whether the caller's traceparent makes the request's span its child. kube's WithTracing treats every caller
   * as a public endpoint (its privileged-group check runs before authentication): the caller's span becomes a
   * link of a new trace. A backend trusts the front proxy's, which is the front door's span of the same request.
   */
  trustedParent(req: IncomingMessage): boolean;
  /** Pass the request's span on in its traceparent header (the front door, to the backend it proxies to). */
  forward?: boolean;
}

/** W3C traceparent/tracestate, as kube's tracing.Propagators() (whatever global propagator the process has). */
const propagation = new W3CTraceContextPropagator();

const HEADER_GETTER = {
  keys: (carrier: IncomingMessage['headers']): string[] => Object.keys(carrier),
  get: (carrier: IncomingMessage['headers'], key: string): string | string[] | undefined => carrier[key],
};
const HEADER_SETTER = {
  set: (carrier: IncomingMessage['headers'], key: string, value: string): void => {
    carrier[key] = value;
  },
};

/**
 * kube's WithTracing (otelhttp): a server span per request named as kube names it (`GET
 * /api/v1/namespaces/{:namespace}/configmaps/{:name}`, only the method for non-resource paths) with otelhttp's and
 * kube's attributes (http.target, audit-id), active while the rest of the chain runs, so the stages and etcd
 * calls are its children. Only in the chain when tracing is configured: off, it costs nothing.
 */
export function withTracing(o: RequestTracingOptions): Filter {
  return (next) => async (r) => {
    const req = r.req;
    const remote = propagation.extract(ROOT_CONTEXT, req.headers, HEADER_GETTER);
    const remoteSpan = trace.getSpanContext(remote);
    const trusted = remoteSpan !== undefined && o.trustedParent(req);
    const socket = req.socket;
    const span = o.tracer.startSpan(
      spanName(req.method ?? 'GET', r.info),
      {
        kind: SpanKind.SERVER,
        startTime: performanceNow(r),
        root: !trusted,
        links: remoteSpan && !trusted ? [{ context: remoteSpan }] : undefined,
        attributes: {
          'http.method': req.method ?? 'GET',
          'http.scheme': 'https',
          'http.target': req.url ?? '/',
          'net.host.name': hostOf(req.headers.host),
          'net.protocol.version': req.httpVersion,
          'net.sock.peer.addr': socket.remoteAddress ?? '',
          'net.sock.peer.port': socket.remotePort ?? 0,
          'user_agent.original': req.headers['user-agent'] ?? '',
          'audit-id': r.requestId,
        },
      },
      trusted ? remote : ROOT_CONTEXT,
    );
    r.span = span;
    const active = trace.setSpan(context.active(), span);
    // The backend sees this request's span as its caller (the proxy copies the request's headers, as Audit-Id).
    if (o.forward) propagation.inject(active, req.headers, HEADER_SETTER);
    let code = 0;
    try {
      code = await context.with(active, next, undefined, r);
      return code;
    } catch (err) {
      span.recordException(err as Error);
      throw err;
    } finally {
      code ||= r.res.statusCode;
      span.setAttribute('http.status_code', code);
      if (code >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}

/**
 * kube's filterlatency.TrackStarted/TrackCompleted spans: a child span named after a filter ("authentication",
 * "authorization", "impersonation", "audit", "priorityandfairness") from the moment the filter starts until it
 * hands the request on (or answers it itself).
 */
export function tracked(name: string, tracer: Tracer, filter: Filter): Filter {
  return (next) => {
    const inner = filter((r) => {
      endStage(r);
      return next(r);
    });
    return async (r) => {
      if (!r.span) return inner(r);
      r.stage = tracer.startSpan(name, undefined, trace.setSpan(ROOT_CONTEXT, r.span));
      try {
        return await inner(r);
      } finally {
        endStage(r);
      }
    };
  };
}

function endStage(r: ApiRequest): void {
  const stage = r.stage;
  if (stage) {
    r.stage = undefined;
    stage.end();
  }
}

/** kube's getSpanNameFromRequestInfo. */
export function spanName(method: string, info: RequestInfo): string {
  if (!info.isResourceRequest) return method;
  let name = `/${info.apiPrefix}`;
  if (info.group) name += `/${info.group}`;
  name += `/${info.version}`;
  if (info.namespace) name += '/namespaces/{:namespace}';
  name += `/${info.resource}`;
  if (info.name) name += '/{:name}';
  if (info.subresource) name += `/${info.subresource}`;
  return `${method} ${name}`;
}

function hostOf(host: string | undefined): string {
  if (!host) return '';
  const i = host.lastIndexOf(':');
  return i > 0 && !host.endsWith(']') ? host.slice(0, i) : host;
}

/** The request's arrival (kube starts the span at the received timestamp the metrics use). */
function performanceNow(r: ApiRequest): number {
  return Date.now() - Number(process.hrtime.bigint() - r.started) / 1e6;
}
