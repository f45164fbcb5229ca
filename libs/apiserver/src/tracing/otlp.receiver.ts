/**
 * An OTLP/gRPC trace receiver: the collector's TraceService/Export (grpc-js), the ExportTraceServiceRequest decoded
 * with protobufjs from the OTLP proto's fields (opentelemetry-proto v1). What `npm run traces` listens with, and what
 * the tracing e2e tests collect spans with; no collector image is needed to look at a trace.
 */
import { Server, ServerCredentials, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import protobuf from 'protobufjs';

const OTLP_TRACE_PROTO = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
message InstrumentationScope { string name = 1; string version = 2; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; string name = 5;
  int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9;
  repeated Event events = 11; repeated Link links = 13; Status status = 15;
}
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; }
message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; } }
`;

export interface ReceivedSpan {
  /** The exporting process's resource attribute service.name. */
  service: string;
  scope: string;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  /** Nanoseconds since the epoch, as decimal strings (fixed64 does not fit a number; OTLP/JSON spells them so too). */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, string | number | boolean>;
  links: Array<{ traceId: string; spanId: string }>;
  /** OTLP StatusCode: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage?: string;
}

export interface OtlpReceiverOptions {
  /** host:port to listen on; 127.0.0.1 and a free port by default. */
  listen?: string;
  /** Called with each export request's spans, after they were appended to `spans`. */
  onSpans?: (spans: readonly ReceivedSpan[]) => void;
  /** Keep every span in `spans` (tests); a long-running viewer passes false and consumes them through onSpans. */
  keep?: boolean;
}

export interface OtlpReceiver {
  /** host:port for a TracingConfiguration's endpoint. */
  endpoint: string;
  spans: ReceivedSpan[];
  stop(): Promise<void>;
}

interface Decoded {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      scope?: { name?: string };
      spans?: Array<{
        traceId: Uint8Array;
        spanId: Uint8Array;
        parentSpanId?: Uint8Array;
        name: string;
        kind?: number;
        startTimeUnixNano?: string;
        endTimeUnixNano?: string;
        attributes?: KeyValue[];
        links?: Array<{ traceId: Uint8Array; spanId: Uint8Array }>;
        status?: { code?: number; message?: string };
      }>;
    }>;
  }>;
}
interface KeyValue {
  key: string;
  value?: { stringValue?: string; boolValue?: boolean; intValue?: { toString(): string } | number; doubleValue?: number };
}

const hex = (b: Uint8Array | undefined): string => Buffer.from(b ?? []).toString('hex');

function attributes(kvs: KeyValue[] = []): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of kvs) {
    if (!value) continue;
    out[key] = value.stringValue ?? value.boolValue ?? (value.intValue !== undefined ? Number(value.intValue.toString()) : (value.doubleValue ?? ''));
  }
  return out;
}

let requestType: protobuf.Type | undefined;

/** The spans of one serialized ExportTraceServiceRequest. */
export function decodeExportTraceServiceRequest(body: Uint8Array): ReceivedSpan[] {
  requestType ??= protobuf.parse(OTLP_TRACE_PROTO).root.lookupType('otlp.ExportTraceServiceRequest');
  const decoded = requestType.toObject(requestType.decode(body), { longs: String }) as Decoded;
  const spans: ReceivedSpan[] = [];
  for (const rs of decoded.resourceSpans ?? []) {
    const service = String(attributes(rs.resource?.attributes)['service.name'] ?? '');
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        spans.push({
          service,
          scope: ss.scope?.name ?? '',
          traceId: hex(s.traceId),
          spanId: hex(s.spanId),
          parentSpanId: hex(s.parentSpanId),
          name: s.name,
          kind: s.kind ?? 0,
          startTimeUnixNano: s.startTimeUnixNano ?? '0',
          endTimeUnixNano: s.endTimeUnixNano ?? '0',
          attributes: attributes(s.attributes),
          links: (s.links ?? []).map((l) => ({ traceId: hex(l.traceId), spanId: hex(l.spanId) })),
          statusCode: s.status?.code ?? 0,
          ...(s.status?.message ? { statusMessage: s.status.message } : {}),
        });
      }
    }
  }
  return spans;
}

export async function startOtlpReceiver(options: OtlpReceiverOptions = {}): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const keep = options.keep ?? true;
  const server = new Server();
  server.addService(
    {
      Export: {
        path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        requestStream: false,
        responseStream: false,
        requestSerialize: (b: Buffer) => b,
        requestDeserialize: (b: Buffer) => b,
        // An empty ExportTraceServiceResponse: every span accepted.
        responseSerialize: () => Buffer.alloc(0),
        responseDeserialize: (b: Buffer) => b,
      },
    },
    {
      Export: (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
        let received: ReceivedSpan[];
        try {
          received = decodeExportTraceServiceRequest(call.request);
        } catch (err) {
          // INVALID_ARGUMENT, as a collector answers a request it cannot decode.
          callback({ code: 3, details: `cannot decode ExportTraceServiceRequest: ${err instanceof Error ? err.message : String(err)}` });
          return;
        }
        if (keep) spans.push(...received);
        options.onSpans?.(received);
        callback(null, Buffer.alloc(0));
      },
    },
  );
  const listen = options.listen ?? '127.0.0.1:0';
  const port = await new Promise<number>((resolve, reject) => server.bindAsync(listen, ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  const host = listen.slice(0, listen.lastIndexOf(':'));
  return {
    endpoint: `${host}:${port}`,
    spans,
    stop: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}
