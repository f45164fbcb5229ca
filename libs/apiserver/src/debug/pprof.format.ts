import { gzipSync } from 'node:zlib';
import protobuf from 'protobufjs';

/** The fields of Go's profile.proto (github.com/google/pprof/proto/profile.proto) a CPU profile uses. */
const PROFILE_PROTO = `
syntax = "proto3";
package perftools.profiles;
message Profile {
  repeated ValueType sample_type = 1; repeated Sample sample = 2; repeated Location location = 4; repeated Function function = 5;
  repeated string string_table = 6; int64 time_nanos = 9; int64 duration_nanos = 10; ValueType period_type = 11; int64 period = 12;
}
message ValueType { int64 type = 1; int64 unit = 2; }
message Sample { repeated uint64 location_id = 1; repeated int64 value = 2; }
message Location { uint64 id = 1; repeated Line line = 4; }
message Line { uint64 function_id = 1; int64 line = 2; }
message Function { uint64 id = 1; int64 name = 2; int64 system_name = 3; int64 filename = 4; int64 start_line = 5; }
`;

let profileType: protobuf.Type | undefined;
/** The Profile message type (also for specs that decode what pprofFromCpuProfile wrote). */
export function pprofProfileType(): protobuf.Type {
  return (profileType ??= protobuf.parse(PROFILE_PROTO).root.lookupType('perftools.profiles.Profile'));
}

/** V8's profile (Profiler.stop's result, the .cpuprofile), the parts the conversion reads. */
export interface V8CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }>;
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * A V8 CPU profile as Go's pprof format (gzipped profile.proto), so `go tool pprof` reads what
 * /debug/pprof/profile?format=pprof returns: one location per call-tree node (its function, file and line), one
 * sample per node that was on CPU, valued in samples and in CPU nanoseconds (V8's time deltas).
 */
export function pprofFromCpuProfile(profile: V8CpuProfile, intervalMicros: number): Buffer {
  const strings = [''];
  const index = new Map<string, number>([['', 0]]);
  const str = (s: string): number => {
    let i = index.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      index.set(s, i);
    }
    return i;
  };
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const functions = new Map<string, { id: number; name: number; systemName: number; filename: number; startLine: number }>();
  const locations = profile.nodes.map((n) => {
    const { functionName, url, lineNumber } = n.callFrame;
    const name = functionName || '(anonymous)';
    const key = `${name}\u0000${url}\u0000${lineNumber}`;
    let fn = functions.get(key);
    if (!fn) functions.set(key, (fn = { id: functions.size + 1, name: str(name), systemName: str(name), filename: str(url), startLine: lineNumber + 1 }));
    return { id: n.id, line: [{ functionId: fn.id, line: lineNumber + 1 }] };
  });
  // Samples per node (a node is one stack): count and CPU time.
  const counts = new Map<number, { n: number; nanos: number }>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const c = counts.get(samples[i]) ?? { n: 0, nanos: 0 };
    c.n++;
    c.nanos += Math.max(0, deltas[i] ?? 0) * 1000;
    counts.set(samples[i], c);
  }
  const sample = [...counts].map(([leaf, c]) => {
    const stack: number[] = [];
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) stack.push(id);
    return { locationId: stack, value: [c.n, Math.round(c.nanos)] };
  });
  const type = pprofProfileType();
  const message = type.create({
    sampleType: [{ type: str('samples'), unit: str('count') }, { type: str('cpu'), unit: str('nanoseconds') }],
    sample,
    location: locations,
    function: [...functions.values()],
    stringTable: strings,
    timeNanos: Math.round(profile.startTime * 1000),
    durationNanos: Math.round((profile.endTime - profile.startTime) * 1000),
    periodType: { type: str('cpu'), unit: str('nanoseconds') },
    period: intervalMicros * 1000,
  });
  return gzipSync(type.encode(message).finish());
}
