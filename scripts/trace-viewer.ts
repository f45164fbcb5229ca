/**
 * `npm run traces`: an OTLP/gRPC receiver (libs/apiserver's) that puts the spans every service exports back
 * together into traces and prints each as an indented tree, so an operator sees where a slow request spent its
 * time across the front door, core-api, etcd and the rest without running a collector (docs/operations.md, Tracing).
 *
 *   npm run traces -- [--listen 127.0.0.1:4317] [--min-ms N] [--json] [--quiet-ms 2000]
 *
 * A trace is printed once its root span has arrived and no new span came for --quiet-ms (each service batches its
 * exports every 500 ms); a trace whose root never comes is printed after ROOTLESS_MS. Spans whose parent never
 * arrived hang under the root, marked as orphans. --json prints the spans of each such trace as JSON lines instead.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startOtlpReceiver, type ReceivedSpan } from '@kube/apiserver';

/** A trace whose root never arrives (its server was not sampled or not traced) is printed after this much quiet. */
const ROOTLESS_MS = 30_000;
const DEFAULT_QUIET_MS = 2_000;
/** Attributes worth a look per span, in print order: the answer, what was asked, the etcd call, the request's id. */
const KEY_ATTRIBUTES = ['http.status_code', 'resource', 'verb', 'etcd.operation', 'etcd.type', 'audit-id'] as const;

export interface TraceNode {
  span: ReceivedSpan;
  /** Its parent never arrived: it hangs under the root (or is a top-level node of a rootless trace). */
  orphan: boolean;
  children: TraceNode[];
}

export interface AssembledTrace {
  traceId: string;
  /** The root span first (a trace has one), then orphans when no root arrived. */
  roots: TraceNode[];
  /** The root's duration; for a rootless trace, first start to last end. */
  durationMs: number;
  startNs: bigint;
  spanCount: number;
}

const ns = (value: string): bigint => BigInt(value || '0');
const durationMs = (span: ReceivedSpan): number => Number(ns(span.endTimeUnixNano) - ns(span.startTimeUnixNano)) / 1e6;
const byStart = (a: TraceNode, b: TraceNode): number => (ns(a.span.startTimeUnixNano) < ns(b.span.startTimeUnixNano) ? -1 : ns(a.span.startTimeUnixNano) > ns(b.span.startTimeUnixNano) ? 1 : 0);

/** The tree of one trace's spans: children under their parents, ordered by start; spans of absent parents as orphans. */
export function assembleTrace(traceId: string, spans: readonly ReceivedSpan[]): AssembledTrace {
  const nodes = new Map<string, TraceNode>(spans.map((span) => [span.spanId, { span, orphan: false, children: [] }]));
  const roots: TraceNode[] = [];
  const orphans: TraceNode[] = [];
  for (const node of nodes.values()) {
    if (!node.span.parentSpanId) roots.push(node);
    else {
      const parent = nodes.get(node.span.parentSpanId);
      if (parent) parent.children.push(node);
      else {
        node.orphan = true;
        orphans.push(node);
      }
    }
  }
  for (const node of nodes.values()) node.children.sort(byStart);
  roots.sort(byStart);
  orphans.sort(byStart);
  const root = roots[0];
  if (root) root.children = [...root.children, ...orphans].sort(byStart);
  const top = root ? [...roots] : orphans;
  const startNs = spans.reduce((min, s) => (ns(s.startTimeUnixNano) < min ? ns(s.startTimeUnixNano) : min), spans.length ? ns(spans[0].startTimeUnixNano) : 0n);
  const endNs = spans.reduce((max, s) => (ns(s.endTimeUnixNano) > max ? ns(s.endTimeUnixNano) : max), 0n);
  return { traceId, roots: top, durationMs: root ? durationMs(root.span) : Number(endNs - startNs) / 1e6, startNs: root ? ns(root.span.startTimeUnixNano) : startNs, spanCount: spans.length };
}

/** Collects spans by trace and hands out the traces that are complete. */
export class TraceAssembler {
  private readonly traces = new Map<string, { spans: ReceivedSpan[]; lastArrival: number; hasRoot: boolean }>();

  constructor(
    private readonly quietMs: number = DEFAULT_QUIET_MS,
    private readonly rootlessMs: number = ROOTLESS_MS,
  ) {}

  add(spans: readonly ReceivedSpan[], now: number = Date.now()): void {
    for (const span of spans) {
      let trace = this.traces.get(span.traceId);
      if (!trace) this.traces.set(span.traceId, (trace = { spans: [], lastArrival: now, hasRoot: false }));
      trace.spans.push(span);
      trace.lastArrival = now;
      if (!span.parentSpanId) trace.hasRoot = true;
    }
  }

  /** Traces whose root arrived and that had no new span for quietMs (rootless ones: rootlessMs), removed from the buffer. */
  takeComplete(now: number = Date.now()): AssembledTrace[] {
    const done: AssembledTrace[] = [];
    for (const [traceId, trace] of this.traces) {
      if (now - trace.lastArrival < (trace.hasRoot ? this.quietMs : this.rootlessMs)) continue;
      this.traces.delete(traceId);
      done.push(assembleTrace(traceId, trace.spans));
    }
    return done;
  }

  /** Every buffered trace, complete or not (the viewer is stopping). */
  takeAll(): AssembledTrace[] {
    return this.takeComplete(Number.POSITIVE_INFINITY);
  }
}

/** The traces whose root took at least minMs, slowest first. */
export function selectTraces(traces: readonly AssembledTrace[], minMs: number): AssembledTrace[] {
  return traces.filter((t) => t.durationMs >= minMs).sort((a, b) => b.durationMs - a.durationMs);
}

const ms = (value: number): string => `${value.toFixed(value >= 100 ? 0 : value >= 10 ? 1 : 2)} ms`;

function attributeText(span: ReceivedSpan, inheritedAuditId: unknown): string {
  const parts: string[] = [];
  for (const key of KEY_ATTRIBUTES) {
    const value = span.attributes[key];
    // The audit-id is the same down a request's spans: said once, where it first appears.
    if (value === undefined || value === '' || (key === 'audit-id' && value === inheritedAuditId)) continue;
    parts.push(`${key}=${String(value)}`);
  }
  if (span.statusCode === 2) parts.push(`error=${JSON.stringify(span.statusMessage ?? '')}`);
  return parts.join(' ');
}

/** One trace as an indented tree: service, span name, duration, offset from the root's start, key attributes. */
export function formatTrace(trace: AssembledTrace): string {
  const lines = [`trace ${trace.traceId}  ${ms(trace.durationMs)}  ${trace.spanCount} span${trace.spanCount === 1 ? '' : 's'}`];
  const walk = (node: TraceNode, depth: number, auditId: unknown): void => {
    const { span } = node;
    const offset = Number(ns(span.startTimeUnixNano) - trace.startNs) / 1e6;
    const attrs = attributeText(span, auditId);
    const orphan = node.orphan ? `  (orphan: parent ${span.parentSpanId} never arrived)` : '';
    lines.push(`${'  '.repeat(depth)}${span.service || '?'}  ${span.name}  ${ms(durationMs(span))}  +${ms(offset)}${attrs ? `  ${attrs}` : ''}${orphan}`);
    for (const child of node.children) walk(child, depth + 1, span.attributes['audit-id'] ?? auditId);
  };
  for (const root of trace.roots) walk(root, 1, undefined);
  return lines.join('\n');
}

/** Each span of the trace as a JSON line, in start order. */
export function formatTraceJson(trace: AssembledTrace): string {
  const spans: ReceivedSpan[] = [];
  const walk = (node: TraceNode): void => {
    spans.push(node.span);
    node.children.forEach(walk);
  };
  trace.roots.forEach(walk);
  return spans.map((s) => JSON.stringify(s)).join('\n');
}

export interface TraceViewerArgs {
  listen: string;
  minMs: number;
  json: boolean;
  quietMs: number;
}

export function parseTraceViewerArgs(argv: readonly string[]): TraceViewerArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: { listen: { type: 'string', default: '127.0.0.1:4317' }, 'min-ms': { type: 'string', default: '0' }, json: { type: 'boolean', default: false }, 'quiet-ms': { type: 'string', default: String(DEFAULT_QUIET_MS) } },
    strict: true,
  });
  const number = (flag: string, raw: string): number => {
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${flag}: want a number of milliseconds ≥ 0, got ${JSON.stringify(raw)}`);
    return n;
  };
  const listen = values.listen as string;
  if (!/^.+:\d+$/.test(listen)) throw new Error(`--listen: want host:port, got ${JSON.stringify(listen)}`);
  return { listen, minMs: number('min-ms', values['min-ms'] as string), json: values.json as boolean, quietMs: number('quiet-ms', values['quiet-ms'] as string) };
}

async function main(): Promise<void> {
  const args = parseTraceViewerArgs(process.argv.slice(2));
  const assembler = new TraceAssembler(args.quietMs);
  const print = (traces: readonly AssembledTrace[]): void => {
    for (const trace of selectTraces(traces, args.minMs)) process.stdout.write(`${args.json ? formatTraceJson(trace) : `${formatTrace(trace)}\n`}\n`);
  };
  const receiver = await startOtlpReceiver({ listen: args.listen, keep: false, onSpans: (spans) => assembler.add(spans) });
  console.error(
    `receiving OTLP/gRPC spans on ${receiver.endpoint}; printing traces whose root took ≥ ${args.minMs} ms ` +
      `(start the stack with KUBE_TRACING=true npm start, or point a TracingConfiguration's endpoint here)`,
  );
  const timer = setInterval(() => print(assembler.takeComplete()), 250);
  const stop = (): void => {
    clearInterval(timer);
    print(assembler.takeAll());
    void receiver.stop().then(() => process.exit(0));
    // A client holding a connection open must not keep the viewer alive.
    setTimeout(() => process.exit(0), 2_000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === __filename) {
  main().catch((err: unknown) => {
    console.error(`[traces] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
