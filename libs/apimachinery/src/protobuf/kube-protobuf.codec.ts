/**
 * The Kubernetes protobuf envelope (application/vnd.kubernetes.protobuf): the magic "k8s\0" followed by a
 * runtime.Unknown { typeMeta 1 {apiVersion 1, kind 2}, raw 2, contentEncoding 3, contentType 4 } whose raw
 * bytes are the object's own message. client-go's typed clients send built-in kinds this way and never fall
 * back to JSON, so the server decodes them into the JSON form it works with.
 */
import { Errors } from '../status.errors';
import type { JsonObject } from '../types';
import { messageSpecFor } from './kind.registry';
import { decodeMessage } from './message.decoder';
import { expectWireType } from './value.readers';
import { WireReader, WireType } from './wire.reader';

export const KUBE_PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
const ACCEPTED_MEDIA_TYPES = ['application/json', 'application/yaml'];

export interface KubeProtobufObject {
  readonly apiVersion: string;
  readonly kind: string;
  /** The JSON form of the object, apiVersion and kind included. */
  readonly object: JsonObject;
  /** Paths of fields present on the wire that the tables do not map; they are dropped from `object`. */
  readonly skipped: string[];
}

interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
}

/** True for the Kubernetes protobuf media type, parameters ignored. */
export function isKubeProtobuf(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0].trim().toLowerCase() === KUBE_PROTOBUF_MEDIA_TYPE;
}

/** Decodes a request body; 400 when malformed, 415 for a kind the field tables do not cover. */
export function decodeKubeProtobuf(body: Buffer): KubeProtobufObject {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw Errors.badRequest('the protobuf request body is malformed: it does not start with the Kubernetes "k8s\\0" prefix');
  }
  const envelope = readEnvelope(new WireReader(body, MAGIC.length));
  if (envelope.contentEncoding) throw Errors.badRequest(`the protobuf request body uses an unsupported content encoding "${envelope.contentEncoding}"`);
  const spec = messageSpecFor(envelope.apiVersion, envelope.kind);
  if (!spec) throw Errors.unsupportedMediaType(KUBE_PROTOBUF_MEDIA_TYPE, ACCEPTED_MEDIA_TYPES);
  const { object, skipped } = decodeMessage(envelope.raw, spec);
  return { apiVersion: envelope.apiVersion, kind: envelope.kind, object: { apiVersion: envelope.apiVersion, kind: envelope.kind, ...object }, skipped };
}

function readEnvelope(r: WireReader): Envelope {
  const envelope: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '' };
  while (!r.done) {
    const tag = r.readTag();
    if (tag.fieldNumber === 1) {
      expectWireType(tag, WireType.LengthDelimited, 'typeMeta');
      readTypeMeta(r.readMessage(), envelope);
    } else if (tag.fieldNumber === 2) {
      expectWireType(tag, WireType.LengthDelimited, 'raw');
      envelope.raw = r.readBytes();
    } else if (tag.fieldNumber === 3) {
      expectWireType(tag, WireType.LengthDelimited, 'contentEncoding');
      envelope.contentEncoding = r.readString();
    } else {
      // contentType (4) is always empty from client-go; the raw bytes are protobuf.
      r.skip(tag.wireType);
    }
  }
  return envelope;
}

function readTypeMeta(r: WireReader, into: Envelope): void {
  while (!r.done) {
    const tag = r.readTag();
    const key = tag.fieldNumber === 1 ? 'apiVersion' : tag.fieldNumber === 2 ? 'kind' : undefined;
    if (!key) {
      r.skip(tag.wireType);
      continue;
    }
    expectWireType(tag, WireType.LengthDelimited, `typeMeta.${key}`);
    into[key] = r.readString();
  }
}
