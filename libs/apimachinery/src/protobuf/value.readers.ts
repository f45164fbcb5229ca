/**
 * Readers for the apimachinery value types that travel as small messages but read as one JSON value:
 * metav1.Time / MicroTime, intstr.IntOrString, resource.Quantity, metav1.FieldsV1.
 */
import { Errors } from '../status.errors';
import type { JsonValue } from '../types';
import { type FieldTag, WireType, WireReader } from './wire.reader';

export interface Timestamp {
  readonly seconds: number;
  readonly nanos: number;
}

const NANOS_PER_SECOND = 1e9;

/** Fails like Go's generated code does when a known field arrives with the wrong wire type. */
export function expectWireType(tag: FieldTag, expected: number, path: string): void {
  if (tag.wireType !== expected) {
    throw Errors.badRequest(`the protobuf request body is malformed: field "${path}" has wire type ${tag.wireType}, expected ${expected}`);
  }
}

/** Visits each field of a small value message; unknown fields are skipped (they carry no JSON meaning). */
function eachField(r: WireReader, visit: (tag: FieldTag) => boolean): void {
  while (!r.done) {
    const tag = r.readTag();
    if (!visit(tag)) r.skip(tag.wireType);
  }
}

/** {seconds 1, nanos 2}; an empty message is Go's zero time, which JSON shows as null, so it is undefined here. */
export function readTimestamp(r: WireReader, path: string): Timestamp | undefined {
  let seen = false;
  let seconds = 0;
  let nanos = 0;
  eachField(r, (tag) => {
    seen = true;
    if (tag.fieldNumber === 1) {
      expectWireType(tag, WireType.Varint, `${path}.seconds`);
      seconds = r.readInt64();
      return true;
    }
    if (tag.fieldNumber === 2) {
      expectWireType(tag, WireType.Varint, `${path}.nanos`);
      nanos = r.readInt32();
      return true;
    }
    return false;
  });
  return seen ? { seconds, nanos } : undefined;
}

/** RFC 3339 in UTC as metav1.Time (seconds) and metav1.MicroTime (microseconds) marshal to JSON. */
export function formatTimestamp(ts: Timestamp, precision: 'seconds' | 'micros', path: string): string {
  // time.Unix normalises nanos outside [0, 1e9) into the seconds.
  const seconds = ts.seconds + Math.floor(ts.nanos / NANOS_PER_SECOND);
  const nanos = ((ts.nanos % NANOS_PER_SECOND) + NANOS_PER_SECOND) % NANOS_PER_SECOND;
  const date = new Date(seconds * 1000);
  const year = date.getUTCFullYear();
  // Go refuses to marshal years outside [0, 9999]; Date is NaN far beyond that.
  if (Number.isNaN(year) || year < 0 || year > 9999) throw Errors.badRequest(`the protobuf request body is malformed: "${path}" is out of the range of a timestamp`);
  const base = date.toISOString().slice(0, 19);
  return precision === 'seconds' ? `${base}Z` : `${base}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`;
}

/** {type 1, intVal 2, strVal 3} → a number (type 0, the default) or a string (type 1). */
export function readIntOrString(r: WireReader, path: string): number | string {
  let type = 0;
  let intVal = 0;
  let strVal = '';
  eachField(r, (tag) => {
    switch (tag.fieldNumber) {
      case 1:
        expectWireType(tag, WireType.Varint, `${path}.type`);
        type = r.readInt64();
        return true;
      case 2:
        expectWireType(tag, WireType.Varint, `${path}.intVal`);
        intVal = r.readInt32();
        return true;
      case 3:
        expectWireType(tag, WireType.LengthDelimited, `${path}.strVal`);
        strVal = r.readString();
        return true;
      default:
        return false;
    }
  });
  return type === 1 ? strVal : intVal;
}

/** {string 1}; kept as sent (the JSON path does not canonicalise either). A missing string is Go's zero "0". */
export function readQuantity(r: WireReader, path: string): string {
  let value = '0';
  eachField(r, (tag) => {
    if (tag.fieldNumber !== 1) return false;
    expectWireType(tag, WireType.LengthDelimited, `${path}.string`);
    value = r.readString();
    return true;
  });
  return value;
}

/** {Raw 1}: the managed-fields set is a JSON document carried as bytes. Empty means Go's nil (JSON null). */
export function readFieldsV1(r: WireReader, path: string): JsonValue | undefined {
  let raw: Uint8Array | undefined;
  eachField(r, (tag) => {
    if (tag.fieldNumber !== 1) return false;
    expectWireType(tag, WireType.LengthDelimited, `${path}.Raw`);
    raw = r.readBytes();
    return true;
  });
  if (!raw?.length) return undefined;
  try {
    return JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8')) as JsonValue;
  } catch (err) {
    // RangeError (absurd nesting) included: anything unparseable is the client's fault.
    throw Errors.badRequest(`the protobuf request body is malformed: "${path}" is not JSON: ${(err as Error).message}`);
  }
}
