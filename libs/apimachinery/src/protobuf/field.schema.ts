/**
 * The shape of the hand-written field tables: for each protobuf message, field number → JSON name and type.
 * Only what the tables say is decoded; every other field is skipped and reported.
 */

/** Leaf types: protobuf scalars plus the apimachinery value types that have their own JSON form. */
export type ScalarType =
  | 'string'
  | 'bool'
  | 'int32'
  | 'int64'
  /** metav1.Time → RFC 3339 with seconds. */
  | 'time'
  /** metav1.MicroTime → RFC 3339 with microseconds. */
  | 'microTime'
  /** intstr.IntOrString → number or string. */
  | 'intOrString'
  /** resource.Quantity → its string form. */
  | 'quantity'
  /** metav1.FieldsV1 → the JSON document its raw bytes hold. */
  | 'fieldsV1'
  /** []byte → base64, as Go's JSON writes it. */
  | 'bytes';

/** map<string, V> value types; bytes become base64 strings, as in Go's JSON. */
export type MapValueType = 'string' | 'bytes' | 'quantity';

export interface ScalarField {
  readonly kind: 'scalar';
  readonly name: string;
  readonly type: ScalarType;
  readonly list?: boolean;
  /**
   * Go marshals non-pointer scalars even when zero, and its JSON drops them (omitempty); pointer fields and
   * fields without omitempty keep a zero value. This flag marks the latter.
   */
  readonly keepZero?: boolean;
}

export interface MessageField {
  readonly kind: 'message';
  readonly name: string;
  readonly message: MessageSpec;
  readonly list?: boolean;
  /** An embedded Go struct whose JSON fields sit in the parent object (`json:",inline"`). */
  readonly inline?: boolean;
}

export interface MapField {
  readonly kind: 'map';
  readonly name: string;
  readonly value: MapValueType;
}

export type FieldSpec = ScalarField | MessageField | MapField;

/** One protobuf message: field number → how to decode it. */
export type MessageSpec = Readonly<Record<number, FieldSpec>>;

export interface ScalarOptions {
  readonly keepZero?: boolean;
}

/** For pointer fields and fields without omitempty: a zero value on the wire is real and kept. */
export const KEEP: ScalarOptions = { keepZero: true };

const scalar = (type: ScalarType, name: string, opts: ScalarOptions = {}, list = false): ScalarField => ({
  kind: 'scalar',
  name,
  type,
  ...(list ? { list } : {}),
  ...(opts.keepZero ? { keepZero: true } : {}),
});

export const str = (name: string, opts?: ScalarOptions): ScalarField => scalar('string', name, opts);
export const bool = (name: string, opts?: ScalarOptions): ScalarField => scalar('bool', name, opts);
export const int32 = (name: string, opts?: ScalarOptions): ScalarField => scalar('int32', name, opts);
export const int64 = (name: string, opts?: ScalarOptions): ScalarField => scalar('int64', name, opts);
export const time = (name: string): ScalarField => scalar('time', name);
export const microTime = (name: string): ScalarField => scalar('microTime', name);
export const intOrString = (name: string, opts?: ScalarOptions): ScalarField => scalar('intOrString', name, opts);
export const quantity = (name: string): ScalarField => scalar('quantity', name);
export const bytes = (name: string): ScalarField => scalar('bytes', name);
export const fieldsV1 = (name: string): ScalarField => scalar('fieldsV1', name);
export const strList = (name: string): ScalarField => scalar('string', name, {}, true);
export const int64List = (name: string): ScalarField => scalar('int64', name, {}, true);

export const msg = (name: string, message: MessageSpec): MessageField => ({ kind: 'message', name, message });
export const msgList = (name: string, message: MessageSpec): MessageField => ({ kind: 'message', name, message, list: true });
/** The name only labels skipped-field paths; the fields land in the parent object. */
export const inline = (name: string, message: MessageSpec): MessageField => ({ kind: 'message', name, message, inline: true });
export const map = (name: string, value: MapValueType = 'string'): MapField => ({ kind: 'map', name, value });
