/**
 * kube's JSON form ⇄ the protobufjs message form of the same object, driven by the .proto files plus the Go facts
 * of proto.schema.ts. The encoding side writes what Go's generated Marshal writes (every non-pointer field, zero or
 * not; map keys sorted), so the bytes equal kube's; the decoding side shows what Go's JSON shows of the decoded
 * struct (omitempty zeros dropped, pointers and non-omitempty fields kept, nil slices and maps left out).
 */
import type { JsonObject, JsonValue } from '../types';
import { formatGoDuration, parseGoDuration } from './go-duration';
import type { FieldPlan, MessagePlan } from './proto.schema';

type ProtoValue = unknown;
type ProtoMessage = Record<string, ProtoValue>;

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

// ---------------------------------------------------------------- JSON → protobuf

/** The protobufjs form of a JSON object of `plan`'s message. */
export function jsonToProto(plan: MessagePlan, json: JsonObject | undefined): ProtoMessage {
  const out: ProtoMessage = {};
  for (const f of plan.fields) {
    if (f.inline) {
      out[f.proto] = jsonToProto(f.message as MessagePlan, json);
      continue;
    }
    const v = json?.[f.json];
    if (v === undefined || v === null) {
      const zero = zeroOf(f);
      if (zero !== undefined) out[f.proto] = zero;
      continue;
    }
    if (f.map) {
      if (typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${f.json}: expected an object`);
      const m: Record<string, ProtoValue> = {};
      for (const k of Object.keys(v).sort()) m[k] = valueToProto(f, v[k]);
      out[f.proto] = m;
    } else if (f.repeated) {
      if (!Array.isArray(v)) throw new TypeError(`${f.json}: expected an array`);
      out[f.proto] = v.map((item) => valueToProto(f, item));
    } else {
      out[f.proto] = valueToProto(f, v);
    }
  }
  return out;
}

/** What Go writes for a field its struct leaves unset: nothing for pointers, slices, maps; the zero value else. */
function zeroOf(f: FieldPlan): ProtoValue {
  if (f.pointer || f.repeated || f.map) return undefined;
  switch (f.scalar) {
    case undefined:
      return specialZero(f.message as MessagePlan);
    case 'bytes':
      return undefined;
    case 'string':
      return '';
    case 'bool':
      return false;
    default:
      return 0;
  }
}

function specialZero(plan: MessagePlan): ProtoValue {
  switch (plan.special) {
    case 'time':
    case 'microTime':
      // metav1.Time's Marshal writes nothing for the zero time: an empty message.
      return {};
    case 'quantity':
      return { string: '0' };
    default:
      return jsonToProto(plan, undefined);
  }
}

function valueToProto(f: FieldPlan, v: JsonValue): ProtoValue {
  // A map value or list item Go holds as a zero struct (a null Time in PodDisruptionBudget's disruptedPods).
  if (f.message) return v === null ? specialZero(f.message) : messageToProto(f.message, v);
  return scalarToProto(f.scalar as string, v, f.json);
}

function scalarToProto(type: string, v: JsonValue, name: string): ProtoValue {
  switch (type) {
    case 'string':
      if (typeof v !== 'string') throw new TypeError(`${name}: expected a string`);
      return v;
    case 'bool':
      if (typeof v !== 'boolean') throw new TypeError(`${name}: expected a boolean`);
      return v;
    case 'bytes':
      if (typeof v !== 'string') throw new TypeError(`${name}: expected base64 text`);
      return Buffer.from(v, 'base64');
    default:
      if (typeof v !== 'number') throw new TypeError(`${name}: expected a number`);
      return v;
  }
}

function messageToProto(plan: MessagePlan, v: JsonValue): ProtoValue {
  switch (plan.special) {
    case 'time':
      return timeToProto(v, false);
    case 'microTime':
      return timeToProto(v, true);
    case 'duration':
      return { duration: parseGoDuration(String(v)) };
    case 'quantity':
      return { string: typeof v === 'number' ? String(v) : v };
    case 'intOrString':
      return typeof v === 'number' ? { type: 0, intVal: v, strVal: '' } : { type: 1, intVal: 0, strVal: String(v) };
    case 'rawJson':
      return plan.type.fields.Raw ? { Raw: Buffer.from(JSON.stringify(v)) } : { raw: Buffer.from(JSON.stringify(v)) };
    case 'stringSlice':
      return { items: v };
    case 'schemaOrArray':
      return Array.isArray(v) ? { jSONSchemas: v.map((s) => schemaToProto(plan, s)) } : { schema: schemaToProto(plan, v) };
    case 'schemaOrBool':
      return typeof v === 'boolean' ? { allows: v } : { allows: true, schema: schemaToProto(plan, v) };
    case 'schemaOrStringArray':
      return Array.isArray(v) ? { property: v } : { schema: schemaToProto(plan, v) };
    default:
      if (typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${plan.type.name}: expected an object`);
      return jsonToProto(plan, v);
  }
}

function schemaToProto(orPlan: MessagePlan, v: JsonValue): ProtoMessage {
  const schema = orPlan.fields.find((f) => f.proto === 'schema')?.message as MessagePlan;
  return jsonToProto(schema, v as JsonObject);
}

function timeToProto(v: JsonValue, micro: boolean): ProtoValue {
  if (typeof v !== 'string') throw new TypeError('expected an RFC 3339 time');
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) throw new TypeError(`parsing time "${v}": not RFC 3339`);
  const seconds = Math.floor(ms / 1000);
  // Date keeps milliseconds; MicroTime's microseconds come from the text itself.
  const fraction = /\.(\d+)/.exec(v)?.[1] ?? '';
  const nanos = micro ? Number((fraction + '000000000').slice(0, 9)) : 0;
  return { seconds, nanos: micro ? nanos - (nanos % 1000) : 0 };
}

// ---------------------------------------------------------------- protobuf → JSON

/** kube's JSON of a decoded message. */
export function protoToJson(plan: MessagePlan, m: ProtoMessage, out: JsonObject = {}): JsonObject {
  for (const f of plan.fields) {
    const present = hasOwn(m, f.proto) && m[f.proto] !== null && m[f.proto] !== undefined;
    const v = m[f.proto];
    if (f.map) {
      const entries = present ? Object.keys(v as object) : [];
      if (entries.length) {
        const o: JsonObject = {};
        for (const k of entries.sort()) o[k] = valueToJson(f, (v as ProtoMessage)[k]);
        out[f.json] = o;
      }
    } else if (f.repeated) {
      if (present && (v as unknown[]).length) out[f.json] = (v as unknown[]).map((item) => valueToJson(f, item));
    } else if (f.inline) {
      if (present) protoToJson(f.message as MessagePlan, v as ProtoMessage, out);
    } else if (!present) {
      // Go gives an absent non-pointer field its zero value, which its JSON shows without omitempty.
      if (f.keepZero && !f.pointer && f.scalar && f.scalar !== 'bytes') out[f.json] = f.scalar === 'string' ? '' : f.scalar === 'bool' ? false : 0;
    } else if (f.scalar) {
      const j = scalarToJson(f.scalar, v);
      if (f.keepZero || !(j === '' || j === 0 || j === false)) out[f.json] = j;
    } else {
      out[f.json] = messageToJson(f.message as MessagePlan, v as ProtoMessage);
    }
  }
  return out;
}

function valueToJson(f: FieldPlan, v: unknown): JsonValue {
  return f.message ? messageToJson(f.message, v as ProtoMessage) : scalarToJson(f.scalar as string, v);
}

function scalarToJson(type: string, v: unknown): JsonValue {
  switch (type) {
    case 'bytes':
      return Buffer.from(v as Uint8Array).toString('base64');
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return typeof v === 'number' ? v : Number(String(v));
    default:
      return v as JsonValue;
  }
}

function messageToJson(plan: MessagePlan, m: ProtoMessage): JsonValue {
  switch (plan.special) {
    case 'time':
    case 'microTime':
      if (!hasOwn(m, 'seconds') && !hasOwn(m, 'nanos')) return null;
      return formatTime(Number(String(m.seconds ?? 0)), Number(m.nanos ?? 0), plan.special === 'microTime');
    case 'duration':
      return formatGoDuration(Number(String(m.duration ?? 0)));
    case 'quantity':
      return (m.string as string) || '0';
    case 'intOrString':
      return Number(String(m.type ?? 0)) === 1 ? ((m.strVal as string) ?? '') : ((m.intVal as number) ?? 0);
    case 'rawJson': {
      const raw = (m.raw ?? m.Raw) as Uint8Array | undefined;
      if (!raw) return null;
      if (raw.length === 0) return null;
      return JSON.parse(Buffer.from(raw).toString('utf8')) as JsonValue;
    }
    case 'stringSlice':
      return ((m.items as string[] | undefined) ?? []).slice();
    case 'schemaOrArray': {
      const schema = plan.fields.find((f) => f.proto === 'schema')?.message as MessagePlan;
      const list = (m.jSONSchemas as ProtoMessage[] | undefined) ?? [];
      if (list.length) return list.map((s) => protoToJson(schema, s));
      return hasOwn(m, 'schema') && m.schema ? protoToJson(schema, m.schema as ProtoMessage) : null;
    }
    case 'schemaOrBool': {
      const schema = plan.fields.find((f) => f.proto === 'schema')?.message as MessagePlan;
      return hasOwn(m, 'schema') && m.schema ? protoToJson(schema, m.schema as ProtoMessage) : Boolean(m.allows);
    }
    case 'schemaOrStringArray': {
      const schema = plan.fields.find((f) => f.proto === 'schema')?.message as MessagePlan;
      const property = (m.property as string[] | undefined) ?? [];
      if (property.length) return property.slice();
      return hasOwn(m, 'schema') && m.schema ? protoToJson(schema, m.schema as ProtoMessage) : null;
    }
    default:
      return protoToJson(plan, m);
  }
}

/** metav1.Time: RFC 3339 in UTC, seconds; MicroTime: six fraction digits ("2006-01-02T15:04:05.000000Z07:00"). */
function formatTime(seconds: number, nanos: number, micro: boolean): string {
  const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
  return micro ? `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso}Z`;
}
