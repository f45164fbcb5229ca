import { describe, expect, it } from 'vitest';
import type { ReceivedSpan } from '@kube/apiserver';
import { assembleTrace, formatTrace, formatTraceJson, parseTraceViewerArgs, selectTraces, TraceAssembler } from './trace-viewer';

const T0 = 1_700_000_000_000_000_000n;
/** A span starting `startMs` after T0 and lasting `ms`. */
function span(traceId: string, spanId: string, parentSpanId: string, service: string, name: string, startMs: number, ms: number, attributes: ReceivedSpan['attributes'] = {}): ReceivedSpan {
  const start = T0 + BigInt(Math.round(startMs * 1e6));
  return { service, scope: 'k8s.io/apiserver', traceId, spanId, parentSpanId, name, kind: 2, startTimeUnixNano: String(start), endTimeUnixNano: String(start + BigInt(Math.round(ms * 1e6))), attributes, links: [], statusCode: 0 };
}

const POST = 'POST /api/v1/namespaces/{:namespace}/configmaps';
const create = (traceId: string, totalMs = 12): ReceivedSpan[] => [
  span(traceId, 'a1', '', 'aggregator', POST, 0, totalMs, { 'http.status_code': 201, 'audit-id': 'id-1', 'http.method': 'POST' }),
  span(traceId, 'a2', 'a1', 'aggregator', 'authentication', 0.1, 0.05),
  span(traceId, 'c1', 'a1', 'core-api', POST, 2, 8, { 'http.status_code': 201, 'audit-id': 'id-1' }),
  span(traceId, 'c2', 'c1', 'core-api', 'Create', 3, 6, { resource: 'configmaps', verb: 'POST', 'audit-id': 'id-1' }),
  span(traceId, 'c3', 'c2', 'core-api', 'etcdserverpb.KV/Txn', 4, 3, { 'etcd.operation': 'create', 'etcd.type': 'configmaps', 'rpc.method': 'Txn' }),
];

describe('trace viewer', () => {
  it('prints a trace as a tree: service, name, duration, offset from the root, key attributes (the audit-id once)', () => {
    // Arrival order is export order (children end and export first), not tree order.
    expect(formatTrace(assembleTrace('t1', [...create('t1')].reverse()))).toBe(
      [
        'trace t1  12.0 ms  5 spans',
        `  aggregator  ${POST}  12.0 ms  +0.00 ms  http.status_code=201 audit-id=id-1`,
        '    aggregator  authentication  0.05 ms  +0.10 ms',
        `    core-api  ${POST}  8.00 ms  +2.00 ms  http.status_code=201`,
        '      core-api  Create  6.00 ms  +3.00 ms  resource=configmaps verb=POST',
        '        core-api  etcdserverpb.KV/Txn  3.00 ms  +4.00 ms  etcd.operation=create etcd.type=configmaps',
      ].join('\n'),
    );
  });

  it('hangs spans whose parent never arrived under the root, marked as orphans, with their own subtree', () => {
    const spans = create('t2').filter((s) => s.spanId !== 'c1');
    expect(formatTrace(assembleTrace('t2', spans))).toBe(
      [
        'trace t2  12.0 ms  4 spans',
        `  aggregator  ${POST}  12.0 ms  +0.00 ms  http.status_code=201 audit-id=id-1`,
        '    aggregator  authentication  0.05 ms  +0.10 ms',
        '    core-api  Create  6.00 ms  +3.00 ms  resource=configmaps verb=POST  (orphan: parent c1 never arrived)',
        '      core-api  etcdserverpb.KV/Txn  3.00 ms  +4.00 ms  etcd.operation=create etcd.type=configmaps',
      ].join('\n'),
    );
  });

  it('prints a rootless trace from its orphans, timed from the first start to the last end', () => {
    const spans = create('t3').filter((s) => s.spanId !== 'a1');
    const trace = assembleTrace('t3', spans);
    expect(trace.durationMs).toBeCloseTo(9.9);
    expect(formatTrace(trace).split('\n').slice(0, 3)).toEqual([
      'trace t3  9.90 ms  4 spans',
      '  aggregator  authentication  0.05 ms  +0.00 ms  (orphan: parent a1 never arrived)',
      `  core-api  ${POST}  8.00 ms  +1.90 ms  http.status_code=201 audit-id=id-1  (orphan: parent a1 never arrived)`,
    ]);
  });

  it('marks a failed span with its status message', () => {
    const failed = { ...span('t4', 'x', '', 'core-api', 'GET /healthz', 0, 1), statusCode: 2, statusMessage: 'etcd down' };
    expect(formatTrace(assembleTrace('t4', [failed]))).toContain('GET /healthz  1.00 ms  +0.00 ms  error="etcd down"');
  });

  it('hands out a trace once its root arrived and no span came for the quiet time; rootless ones only much later', () => {
    const assembler = new TraceAssembler(2_000, 30_000);
    const [root, ...rest] = create('t5');
    assembler.add(rest, 0);
    assembler.add(create('t6').slice(1), 0);
    expect(assembler.takeComplete(5_000)).toEqual([]); // no root yet
    assembler.add([root], 5_000);
    expect(assembler.takeComplete(6_999)).toEqual([]);
    const done = assembler.takeComplete(7_000);
    expect(done.map((t) => [t.traceId, t.spanCount])).toEqual([['t5', 5]]);
    expect(assembler.takeComplete(8_000)).toEqual([]); // handed out once
    expect(assembler.takeComplete(30_000).map((t) => t.traceId)).toEqual(['t6']);
  });

  it('a late span keeps its trace open', () => {
    const assembler = new TraceAssembler(2_000);
    const spans = create('t7');
    assembler.add(spans.slice(0, 3), 0);
    assembler.add(spans.slice(3), 1_500);
    expect(assembler.takeComplete(2_500)).toEqual([]);
    expect(assembler.takeComplete(3_500)[0].spanCount).toBe(5);
  });

  it('selects the traces whose root took at least --min-ms, slowest first', () => {
    const traces = [assembleTrace('fast', create('fast', 5)), assembleTrace('slow', create('slow', 80)), assembleTrace('mid', create('mid', 50))];
    expect(selectTraces(traces, 0).map((t) => t.traceId)).toEqual(['slow', 'mid', 'fast']);
    expect(selectTraces(traces, 50).map((t) => t.traceId)).toEqual(['slow', 'mid']);
    expect(selectTraces(traces, 81)).toEqual([]);
  });

  it('--json prints the spans as JSON lines, parents first', () => {
    const lines = formatTraceJson(assembleTrace('t8', [...create('t8')].reverse())).split('\n');
    expect(lines.map((l) => (JSON.parse(l) as ReceivedSpan).spanId)).toEqual(['a1', 'a2', 'c1', 'c2', 'c3']);
  });

  it('parses its flags', () => {
    expect(parseTraceViewerArgs([])).toEqual({ listen: '127.0.0.1:4317', minMs: 0, json: false, quietMs: 2_000 });
    expect(parseTraceViewerArgs(['--listen', '0.0.0.0:14317', '--min-ms', '50', '--json'])).toEqual({ listen: '0.0.0.0:14317', minMs: 50, json: true, quietMs: 2_000 });
    expect(() => parseTraceViewerArgs(['--min-ms', 'soon'])).toThrow('--min-ms: want a number of milliseconds ≥ 0, got "soon"');
    expect(() => parseTraceViewerArgs(['--listen', '4317'])).toThrow('--listen: want host:port');
    expect(() => parseTraceViewerArgs(['--bogus'])).toThrow();
  });
});
