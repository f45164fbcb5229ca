/**
 * Test helpers: build protobuf bodies with protobufjs's Writer, an encoder independent of our reader.
 * Each helper returns one encoded field, so messages read like their field tables: `pb.msg(1, pb.str(1, 'x'))`.
 */
import { Writer } from 'protobufjs';

type Field = Uint8Array;

const tag = (fieldNumber: number, wireType: number): number => ((fieldNumber << 3) | wireType) >>> 0;

const lengthDelimited = (fieldNumber: number, bytes: Uint8Array): Field => Writer.create().uint32(tag(fieldNumber, 2)).bytes(bytes).finish();

export const pb = {
  str: (n: number, value: string): Field => lengthDelimited(n, Buffer.from(value, 'utf8')),
  bytes: (n: number, value: Uint8Array): Field => lengthDelimited(n, value),
  /** int32, int64 and bool alike (negative numbers are sign-extended to ten bytes, as Go does). */
  varint: (n: number, value: number | boolean): Field => Writer.create().uint32(tag(n, 0)).int64(Number(value)).finish(),
  fixed64: (n: number, value: number): Field => Writer.create().uint32(tag(n, 1)).fixed64(value).finish(),
  fixed32: (n: number, value: number): Field => Writer.create().uint32(tag(n, 5)).fixed32(value).finish(),
  msg: (n: number, ...fields: Field[]): Field => lengthDelimited(n, Buffer.concat(fields)),
  /** A map<string, string> entry. */
  entry: (n: number, key: string, value: string): Field => pb.msg(n, pb.str(1, key), pb.str(2, value)),
  /** A map<string, bytes> entry. */
  bytesEntry: (n: number, key: string, value: Uint8Array): Field => pb.msg(n, pb.str(1, key), pb.bytes(2, value)),
  /** metav1.Time / MicroTime. */
  time: (n: number, date: Date, nanos = (date.getTime() % 1000) * 1e6): Field =>
    pb.msg(n, pb.varint(1, Math.floor(date.getTime() / 1000)), ...(nanos ? [pb.varint(2, nanos)] : [])),
  intOrString: (n: number, value: number | string): Field =>
    typeof value === 'number' ? pb.msg(n, pb.varint(1, 0), pb.varint(2, value), pb.str(3, '')) : pb.msg(n, pb.varint(1, 1), pb.varint(2, 0), pb.str(3, value)),
  quantity: (n: number, value: string): Field => pb.msg(n, pb.str(1, value)),
};

/** The message fields concatenated, without an envelope. */
export function message(...fields: Field[]): Buffer {
  return Buffer.concat(fields);
}

/** A complete request body: "k8s\0" + runtime.Unknown{typeMeta, raw, contentEncoding "", contentType ""}. */
export function kubeProtobufBody(apiVersion: string, kind: string, ...fields: Field[]): Buffer {
  const unknown = message(pb.msg(1, pb.str(1, apiVersion), pb.str(2, kind)), pb.bytes(2, message(...fields)), pb.str(3, ''), pb.str(4, ''));
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), unknown]);
}
