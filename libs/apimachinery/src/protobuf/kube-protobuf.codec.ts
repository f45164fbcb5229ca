/**
 * The Kubernetes protobuf envelope (application/vnd.kubernetes.protobuf): the magic "k8s\0" followed by a
 * runtime.Unknown { typeMeta 1 {apiVersion 1, kind 2}, raw 2, contentEncoding 3, contentType 4 } whose raw bytes
 * are the object's own message, for every kind kube generates protobuf for (api/proto). Custom resources have none:
 * their bodies are 415 and their responses JSON, as kube's unstructured serializer offers no protobuf.
 */
import { Errors } from '../status.errors';
import type { JsonObject } from '../types';
import { protoToJson, writeMessage } from './proto-json.mapping';
import { META_V1, protoSchema, RUNTIME, type MessagePlan } from './proto.schema';
import { encodeWith } from './proto.writer';

export const KUBE_PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
export const KUBE_PROTOBUF_WATCH_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf;stream=watch';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
const ACCEPTED_MEDIA_TYPES = ['application/json', 'application/yaml'];

export interface KubeProtobufObject {
  readonly apiVersion: string;
  readonly kind: string;
  /** The JSON form of the object, apiVersion and kind included. */
  readonly object: JsonObject;
}

/** True for the Kubernetes protobuf media type, parameters ignored. */
export function isKubeProtobuf(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0].trim().toLowerCase() === KUBE_PROTOBUF_MEDIA_TYPE;
}

/** Whether apiVersion/kind has a protobuf message (built-in kinds, their lists, metav1 kinds). */
export function hasProtobufKind(apiVersion: string | undefined, kind: string | undefined): boolean {
  return !!apiVersion && !!kind && protoSchema().kind(apiVersion, kind) !== undefined;
}

interface Unknown {
  typeMeta?: { apiVersion?: string; kind?: string };
  raw?: Uint8Array;
  contentEncoding?: string;
}

/** Decodes a request body; 400 when malformed, 415 for a kind with no protobuf message. */
export function decodeKubeProtobuf(body: Uint8Array): KubeProtobufObject {
  if (body.length < MAGIC.length || !MAGIC.equals(body.subarray(0, MAGIC.length))) {
    throw Errors.badRequest('the protobuf request body is malformed: it does not start with the Kubernetes "k8s\\0" prefix');
  }
  const schema = protoSchema();
  let envelope: Unknown;
  try {
    envelope = schema.root.lookupType(`${RUNTIME}.Unknown`).decode(body.subarray(MAGIC.length)) as Unknown;
  } catch (err) {
    throw Errors.badRequest(`the protobuf request body is malformed: ${(err as Error).message}`);
  }
  if (envelope.contentEncoding) throw Errors.badRequest(`the protobuf request body uses an unsupported content encoding "${envelope.contentEncoding}"`);
  const apiVersion = envelope.typeMeta?.apiVersion ?? '';
  const kind = envelope.typeMeta?.kind ?? '';
  const plan = schema.kind(apiVersion, kind);
  if (!plan) throw Errors.unsupportedMediaType(KUBE_PROTOBUF_MEDIA_TYPE, ACCEPTED_MEDIA_TYPES);
  let object: JsonObject;
  try {
    object = protoToJson(plan, plan.type.decode(envelope.raw ?? new Uint8Array(0)) as unknown as Record<string, unknown>);
  } catch (err) {
    throw Errors.badRequest(`the protobuf request body is malformed: ${(err as Error).message}`);
  }
  return { apiVersion, kind, object: { apiVersion, kind, ...object } };
}

function planOf(obj: JsonObject): MessagePlan {
  const plan = protoSchema().kind(String(obj.apiVersion ?? ''), String(obj.kind ?? ''));
  if (!plan) throw Errors.internal(new Error(`no protobuf message for ${String(obj.apiVersion)}/${String(obj.kind)}`));
  return plan;
}

/** The object's own message bytes (no envelope), once per object: cached objects are immutable. */
const rawCache = new WeakMap<object, Uint8Array>();

function rawOf(plan: MessagePlan, obj: JsonObject): Uint8Array {
  let raw = rawCache.get(obj);
  if (!raw) {
    raw = encodeWith((w) => writeMessage(plan, obj, w));
    rawCache.set(obj, raw);
  }
  return raw;
}

function envelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  // Go writes every field of Unknown: contentEncoding and contentType as empty strings.
  return encodeWith((w) => {
    w.raw(MAGIC);
    const typeMeta = w.uint32(0x0a).fork();
    w.uint32(0x0a).string(apiVersion).uint32(0x12).string(kind).ldelim(typeMeta);
    w.uint32(0x12).bytes(raw).uint32(0x1a).string('').uint32(0x22).string('');
  });
}

/** The protobuf body of an object that names its apiVersion and kind. */
export function encodeKubeProtobuf(obj: JsonObject): Buffer {
  return envelope(String(obj.apiVersion), String(obj.kind), rawOf(planOf(obj), obj));
}

/** A List body whose items' bytes come from the per-object cache (as a GET of each would). */
export function encodeKubeProtobufList(head: { kind?: string; apiVersion?: string; metadata: object }, items: readonly JsonObject[]): Buffer {
  const listPlan = planOf(head as JsonObject);
  const itemsField = listPlan.fields.find((f) => f.proto === 'items');
  if (!itemsField?.message) throw Errors.internal(new Error(`${String(head.kind)} has no items`));
  const itemPlan = itemsField.message;
  // Items first (each from the per-object cache, or encoded now), then the List around them.
  const raws = items.map((item) => rawOf(itemPlan, item));
  const body = encodeWith((w) => {
    // ListMeta is field 1 and items field 2 in every generated List.
    writeMessage(listPlan, { metadata: head.metadata as JsonObject }, w);
    for (const raw of raws) w.uint32(itemsField.tag).bytes(raw);
  });
  return envelope(String(head.apiVersion), String(head.kind), body);
}

/**
 * One frame of a protobuf watch (kube's raw stream serializer, length-delimited framer): a 4-byte big-endian
 * length, then metav1.WatchEvent { type, object: RawExtension { raw: the object's enveloped protobuf } }.
 */
export function encodeWatchEventFrame(type: string, object: JsonObject): Buffer {
  const inner = encodeKubeProtobuf(object);
  const event = encodeWith((w) => {
    const raw = w.uint32(0x0a).string(type).uint32(0x12).fork();
    w.uint32(0x0a).bytes(inner).ldelim(raw);
  });
  const out = Buffer.allocUnsafeSlow(4 + event.length);
  out.writeUInt32BE(event.length, 0);
  event.copy(out, 4);
  return out;
}

/** Reads the frames of a protobuf watch body: each event's type and decoded object. */
export function decodeWatchEventFrames(body: Buffer): Array<{ type: string; object: JsonObject }> {
  const eventType = protoSchema().root.lookupType(`${META_V1}.WatchEvent`);
  const events: Array<{ type: string; object: JsonObject }> = [];
  for (let at = 0; at + 4 <= body.length; ) {
    const len = body.readUInt32BE(at);
    const frame = body.subarray(at + 4, at + 4 + len);
    at += 4 + len;
    const ev = eventType.decode(frame) as unknown as { type: string; object?: { raw?: Uint8Array } };
    events.push({ type: ev.type, object: decodeKubeProtobuf(ev.object?.raw ?? new Uint8Array(0)).object });
  }
  return events;
}
