/**
 * Turns one protobuf message into the JSON object Go's encoding/json would print for the same Go struct,
 * guided by a hand-written field table (field.schema.ts).
 */
import { Errors } from '../status.errors';
import type { JsonObject, JsonValue } from '../types';
import type { FieldSpec, MapField, MapValueType, MessageField, MessageSpec, ScalarField, ScalarType } from './field.schema';
import { expectWireType, formatTimestamp, readFieldsV1, readIntOrString, readQuantity, readTimestamp } from './value.readers';
import { type FieldTag, WireType, WireReader } from './wire.reader';

/** Far deeper than any Kubernetes object; a guard in case a table ever becomes recursive. */
export const MAX_MESSAGE_DEPTH = 64;

export interface DecodedMessage {
  readonly object: JsonObject;
  /** JSON paths of fields the tables do not map, e.g. "spec.containers[0].#25"; they are dropped. */
  readonly skipped: string[];
}

interface Walk {
  readonly path: string;
  readonly depth: number;
  readonly skipped: Set<string>;
}

export function decodeMessage(bytes: Uint8Array, spec: MessageSpec): DecodedMessage {
  const skipped = new Set<string>();
  const object: JsonObject = {};
  decodeInto(object, new WireReader(bytes), spec, { path: '', depth: 0, skipped });
  return { object, skipped: [...skipped] };
}

function decodeInto(target: JsonObject, reader: WireReader, spec: MessageSpec, walk: Walk): void {
  if (walk.depth > MAX_MESSAGE_DEPTH) throw Errors.badRequest(`the protobuf request body is nested too deeply: more than ${MAX_MESSAGE_DEPTH} levels`);
  while (!reader.done) {
    const tag = reader.readTag();
    const field = Object.hasOwn(spec, tag.fieldNumber) ? spec[tag.fieldNumber] : undefined;
    if (!field) {
      walk.skipped.add(joinPath(walk.path, `#${tag.fieldNumber}`));
      reader.skip(tag.wireType);
      continue;
    }
    decodeField(target, reader, field, tag, walk);
  }
}

function decodeField(target: JsonObject, reader: WireReader, field: FieldSpec, tag: FieldTag, walk: Walk): void {
  switch (field.kind) {
    case 'scalar':
      return decodeScalarField(target, reader, field, tag, walk);
    case 'message':
      return decodeMessageField(target, reader, field, tag, walk);
    case 'map':
      return decodeMapEntry(target, reader, field, tag, walk);
  }
}

function decodeMessageField(target: JsonObject, reader: WireReader, field: MessageField, tag: FieldTag, walk: Walk): void {
  const path = joinPath(walk.path, field.name);
  expectWireType(tag, WireType.LengthDelimited, path);
  const sub = reader.readMessage();
  const depth = walk.depth + 1;
  if (field.inline) return decodeInto(target, sub, field.message, { ...walk, depth });
  if (field.list) {
    const list = arrayAt(target, field.name);
    const item: JsonObject = {};
    decodeInto(item, sub, field.message, { path: `${path}[${list.length}]`, depth, skipped: walk.skipped });
    list.push(item);
    return;
  }
  // A repeated occurrence of a singular message merges into the first, as protobuf specifies.
  decodeInto(objectAt(target, field.name), sub, field.message, { path, depth, skipped: walk.skipped });
}

function decodeScalarField(target: JsonObject, reader: WireReader, field: ScalarField, tag: FieldTag, walk: Walk): void {
  const path = joinPath(walk.path, field.name);
  const wireType = wireTypeOf(field.type);
  if (field.list) {
    const list = arrayAt(target, field.name);
    // Numeric lists may arrive packed (one length-delimited run) or one element per tag.
    if (wireType === WireType.Varint && tag.wireType === WireType.LengthDelimited) {
      const packed = reader.readMessage();
      while (!packed.done) pushDefined(list, readScalar(packed, field.type, path));
      return;
    }
    expectWireType(tag, wireType, path);
    pushDefined(list, readScalar(reader, field.type, path));
    return;
  }
  expectWireType(tag, wireType, path);
  const value = readScalar(reader, field.type, path);
  // Last occurrence wins; a zero omitempty value means "unset", so it also clears an earlier one.
  if (value === undefined || (!field.keepZero && isZeroValue(value))) delete target[field.name];
  else target[field.name] = value;
}

function decodeMapEntry(target: JsonObject, reader: WireReader, field: MapField, tag: FieldTag, walk: Walk): void {
  const path = joinPath(walk.path, field.name);
  expectWireType(tag, WireType.LengthDelimited, path);
  const entry = reader.readMessage();
  let key = '';
  let value: JsonValue = zeroMapValue(field.value);
  while (!entry.done) {
    const entryTag = entry.readTag();
    if (entryTag.fieldNumber === 1) {
      expectWireType(entryTag, WireType.LengthDelimited, `${path} key`);
      key = entry.readString();
    } else if (entryTag.fieldNumber === 2) {
      expectWireType(entryTag, WireType.LengthDelimited, `${path} value`);
      value = readMapValue(entry, field.value, path);
    } else {
      walk.skipped.add(joinPath(path, `#${entryTag.fieldNumber}`));
      entry.skip(entryTag.wireType);
    }
  }
  // defineProperty: a key such as "__proto__" must become data, never a prototype.
  Object.defineProperty(objectAt(target, field.name), key, { value, enumerable: true, writable: true, configurable: true });
}

function readScalar(reader: WireReader, type: ScalarType, path: string): JsonValue | undefined {
  switch (type) {
    case 'string':
      return reader.readString();
    case 'bool':
      return reader.readBool();
    case 'int32':
      return reader.readInt32();
    case 'int64':
      return reader.readInt64();
    case 'time':
    case 'microTime': {
      const ts = readTimestamp(reader.readMessage(), path);
      return ts && formatTimestamp(ts, type === 'time' ? 'seconds' : 'micros', path);
    }
    case 'intOrString':
      return readIntOrString(reader.readMessage(), path);
    case 'quantity':
      return readQuantity(reader.readMessage(), path);
    case 'fieldsV1':
      return readFieldsV1(reader.readMessage(), path);
    case 'bytes':
      return toBase64(reader.readBytes());
  }
}

function readMapValue(reader: WireReader, type: MapValueType, path: string): JsonValue {
  switch (type) {
    case 'string':
      return reader.readString();
    case 'bytes':
      return toBase64(reader.readBytes());
    case 'quantity':
      return readQuantity(reader.readMessage(), path);
  }
}

function zeroMapValue(type: MapValueType): JsonValue {
  return type === 'quantity' ? '0' : '';
}

function wireTypeOf(type: ScalarType): number {
  return type === 'bool' || type === 'int32' || type === 'int64' ? WireType.Varint : WireType.LengthDelimited;
}

/** What Go's omitempty treats as empty for our scalars (an IntOrString is zero as 0 or ""). */
function isZeroValue(value: JsonValue): boolean {
  return value === '' || value === 0 || value === false;
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function pushDefined(list: JsonValue[], value: JsonValue | undefined): void {
  if (value !== undefined) list.push(value);
}

function arrayAt(target: JsonObject, name: string): JsonValue[] {
  const existing = target[name];
  if (Array.isArray(existing)) return existing;
  const list: JsonValue[] = [];
  target[name] = list;
  return list;
}

function objectAt(target: JsonObject, name: string): JsonObject {
  const existing = target[name];
  if (existing !== null && typeof existing === 'object' && !Array.isArray(existing)) return existing;
  const object: JsonObject = {};
  target[name] = object;
  return object;
}

function joinPath(parent: string, name: string): string {
  return parent ? `${parent}.${name}` : name;
}
