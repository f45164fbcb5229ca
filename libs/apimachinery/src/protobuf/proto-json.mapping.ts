/**
 * kube's JSON form ⇄ protobuf, driven by the .proto files plus the Go facts of proto.schema.ts: JSON objects are
 * written straight to bytes; bodies are read with protobufjs, then mapped to JSON. The encoding side writes what Go's generated Marshal writes (every non-pointer field, zero or
 * not; map keys sorted), so the bytes equal kube's; the decoding side shows what Go's JSON shows of the decoded
 * struct (omitempty zeros dropped, pointers and non-omitempty fields kept, nil slices and maps null without
 * omitempty, left out with it).
 */
import type { JsonObject, JsonValue } from '../types';
import { formatGoDuration, parseGoDuration } from './go-duration';
import type { FieldPlan, MessagePlan } from './proto.schema';
import { encodeWith, type ProtoWriter } from './proto.writer';

type ProtoValue = unknown;
type ProtoMessage = Record<string, ProtoValue>;

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

// ---------------------------------------------------------------- JSON → protobuf

/**
 * Writes the message of a JSON object of `plan` straight to `w`, as Go's generated Marshal does: fields in number
 * order, every non-pointer field even when unset (its zero value), map keys sorted. No intermediate message
 * objects: this is the encoding side of every protobuf GET, LIST item and watch event.
 */
export function writeMessage(plan: MessagePlan, json: JsonObject | undefined, w: ProtoWriter): ProtoWriter {
  for (const f of plan.fields) {
    if (f.inline) {
      const mark = w.uint32(f.tag).fork();
      writeMessage(f.message as MessagePlan, json, w).ldelim(mark);
      continue;
    }
    const v = json?.[f.json];
    if (v === undefined || v === null) {
      writeZero(f, w);
    } else if (f.map) {
      if (typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${f.json}: expected an object`);
      for (const k of Object.keys(v).sort()) {
        const mark = w.uint32(f.tag).fork();
        writeValue(f, 2, v[k], w.uint32(0x0a).string(k));
        w.ldelim(mark);
      }
    } else if (f.repeated) {
      if (!Array.isArray(v)) throw new TypeError(`${f.json}: expected an array`);
      for (const item of v) writeValue(f, f.tag >>> 3, item, w);
    } else {
      writeValue(f, f.tag >>> 3, v, w);
    }
  }
  return w;
}

/** What Go writes for a field its struct leaves unset: nothing for pointers, slices, maps; the zero value else. */
function writeZero(f: FieldPlan, w: ProtoWriter): void {
  if (f.pointer || f.repeated || f.map) return;
  switch (f.scalar) {
    case undefined:
      w.uint32(f.tag).bytes(zeroBytes(f.message as MessagePlan));
      return;
    case 'bytes':
      return;
    case 'string':
      w.uint32(f.tag).string('');
      return;
    case 'double':
      w.uint32(f.tag).double(0);
      return;
    default:
      w.uint32(f.tag).uint32(0);
  }
}

/** The bytes of a message's zero value, the same every time: computed once per message. */
const zeros = new WeakMap<MessagePlan, Uint8Array>();

function zeroBytes(plan: MessagePlan): Uint8Array {
  let z = zeros.get(plan);
  if (!z) {
    // metav1.Time's Marshal writes nothing for the zero time; a zero Quantity is "0".
    const special = plan.special;
    z = special === 'time' || special === 'microTime' ? new Uint8Array(0) : special === 'quantity' ? encodeWith((w) => w.uint32(0x0a).string('0')) : encodeWith((w) => writeMessage(plan, undefined, w));
    zeros.set(plan, z);
  }
  return z;
}

/** One value of field `f` (a list item, a map value, or the field's own) as field number `n`. */
function writeValue(f: FieldPlan, n: number, v: JsonValue, w: ProtoWriter): void {
  const message = f.message;
  if (message) {
    w.uint32(((n << 3) | 2) >>> 0);
    // A map value or list item Go holds as a zero struct (a null Time in PodDisruptionBudget's disruptedPods).
    if (v === null) w.bytes(zeroBytes(message));
    else {
      const mark = w.fork();
      writeSpecial(message, v, w).ldelim(mark);
    }
    return;
  }
  switch (f.scalar) {
    case 'string':
      if (typeof v !== 'string') throw new TypeError(`${f.json}: expected a string`);
      w.uint32(((n << 3) | 2) >>> 0).string(v);
      return;
    case 'bool':
      if (typeof v !== 'boolean') throw new TypeError(`${f.json}: expected a boolean`);
      w.uint32(n << 3).bool(v);
      return;
    case 'bytes':
      if (typeof v !== 'string') throw new TypeError(`${f.json}: expected base64 text`);
      w.uint32(((n << 3) | 2) >>> 0).bytes(Buffer.from(v, 'base64'));
      return;
    case 'double':
      if (typeof v !== 'number') throw new TypeError(`${f.json}: expected a number`);
      w.uint32(((n << 3) | 1) >>> 0).double(v);
      return;
    case 'int32':
      if (typeof v !== 'number') throw new TypeError(`${f.json}: expected a number`);
      w.uint32(n << 3).int64(v);
      return;
    default:
      if (typeof v !== 'number') throw new TypeError(`${f.json}: expected a number`);
      w.uint32(n << 3).int64(v);
  }
}

/** The body (no tag, no length) of a message value, apimachinery's special JSON forms included. */
function writeSpecial(plan: MessagePlan, v: JsonValue, w: ProtoWriter): ProtoWriter {
  switch (plan.special) {
    case 'time':
    case 'microTime': {
      const { seconds, nanos } = parseTime(v, plan.special === 'microTime');
      return w.uint32(0x08).int64(seconds).uint32(0x10).int64(nanos);
    }
    case 'duration':
      return w.uint32(0x08).int64(parseGoDuration(String(v)));
    case 'quantity':
      return w.uint32(0x0a).string(String(v));
    case 'intOrString':
      return typeof v === 'number' ? w.uint32(0x08).int64(0).uint32(0x10).int64(v).uint32(0x1a).string('') : w.uint32(0x08).int64(1).uint32(0x10).int64(0).uint32(0x1a).string(String(v));
    case 'rawJson':
      return w.uint32(0x0a).bytes(Buffer.from(JSON.stringify(v)));
    case 'stringSlice':
      if (!Array.isArray(v)) throw new TypeError(`${plan.type.name}: expected an array`);
      for (const item of v) w.uint32(0x0a).string(String(item));
      return w;
    case 'schemaOrArray':
      if (Array.isArray(v)) {
        for (const s of v) nested(w, 0x12, (x) => writeMessage(schemaOf(plan), s as JsonObject, x));
        return w;
      }
      return nested(w, 0x0a, (x) => writeMessage(schemaOf(plan), v as JsonObject, x));
    case 'schemaOrBool':
      // Go's JSONSchemaPropsOrBool: a schema means allows=true.
      if (typeof v === 'boolean') return w.uint32(0x08).bool(v);
      return nested(w.uint32(0x08).bool(true), 0x12, (x) => writeMessage(schemaOf(plan), v as JsonObject, x));
    case 'schemaOrStringArray':
      if (Array.isArray(v)) {
        for (const s of v) w.uint32(0x12).string(String(s));
        return w;
      }
      return nested(w, 0x0a, (x) => writeMessage(schemaOf(plan), v as JsonObject, x));
    default:
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new TypeError(`${plan.type.name}: expected an object`);
      return writeMessage(plan, v, w);
  }
}

/** A length-delimited field `tag` whose body `write` writes. */
function nested(w: ProtoWriter, tag: number, write: (w: ProtoWriter) => void): ProtoWriter {
  const mark = w.uint32(tag).fork();
  write(w);
  return w.ldelim(mark);
}

function schemaOf(orPlan: MessagePlan): MessagePlan {
  return orPlan.fields.find((f) => f.proto === 'schema')?.message as MessagePlan;
}

function parseTime(v: JsonValue, micro: boolean): { seconds: number; nanos: number } {
  if (typeof v !== 'string') throw new TypeError('expected an RFC 3339 time');
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) throw new TypeError(`parsing time "${v}": not RFC 3339`);
  const seconds = Math.floor(ms / 1000);
  if (!micro) return { seconds, nanos: 0 };
  // Date keeps milliseconds; MicroTime's microseconds come from the text itself.
  const fraction = /\.(\d+)/.exec(v)?.[1] ?? '';
  return { seconds, nanos: Number((fraction + '000000').slice(0, 6)) * 1000 };
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
      } else if (f.keepZero) out[f.json] = null;
    } else if (f.repeated) {
      if (present && (v as unknown[]).length) out[f.json] = (v as unknown[]).map((item) => valueToJson(f, item));
      // An empty list is a nil slice once decoded: Go's JSON shows null where the field has no omitempty (a Role's rules).
      else if (f.keepZero) out[f.json] = null;
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
