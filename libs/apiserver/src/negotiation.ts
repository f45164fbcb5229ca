import { Errors, KUBE_PROTOBUF_MEDIA_TYPE } from '@kube/apimachinery';

export interface MediaRange {
  type: string;
  params: Record<string, string>;
  q: number;
}

/** What a response should be encoded as. `as` asks for a conversion (Table, PartialObjectMetadata, discovery). */
export interface Negotiated {
  format: 'json' | 'yaml' | 'protobuf';
  as?: { kind: string; group: string; version: string };
}

export const SERVED_MEDIA_TYPES = ['application/json', 'application/yaml', 'application/json;stream=watch'];
/** What an endpoint of a kind with a protobuf message serves (kube lists its serializers' media types). */
export const SERVED_MEDIA_TYPES_PROTOBUF = ['application/json', 'application/yaml', KUBE_PROTOBUF_MEDIA_TYPE];

export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header) return [];
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [rawType, ...rawParams] = part.split(';');
    const type = rawType.trim().toLowerCase();
    if (!type) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      const v = p.slice(eq + 1).trim();
      if (k === 'q') q = Number(v) || 0;
      else params[k] = v;
    }
    ranges.push({ type, params, q });
  }
  return ranges.sort((a, b) => b.q - a.q);
}

/**
 * Picks the first acceptable media range. `conversions` lists which `as=` kinds this endpoint can produce
 * (e.g. Table/meta.k8s.io/v1); unknown conversions and unsupported types (cbor) are skipped, as kube does, so
 * clients fall back to the next entry of their Accept header. `protobuf` says whether the endpoint's kind has a
 * protobuf message (built-in kinds; custom resources have none): asked only when a client names protobuf, so
 * JSON clients never load the protobuf schema. As in kube's AllowsMediaTypeTransform, a Table is JSON or YAML
 * only, and PartialObjectMetadata(List) comes in protobuf for any resource, custom ones included.
 */
export function negotiate(header: string | undefined, conversions: ReadonlyArray<{ kind: string; group: string; version: string }> = [], protobuf: () => boolean = () => false): Negotiated {
  const ranges = parseAccept(header);
  if (ranges.length === 0) return { format: 'json' };
  let servesProtobuf: boolean | undefined;
  for (const r of ranges) {
    const format = formatOf(r.type);
    if (!format) continue;
    if (r.params.as) {
      const wanted = conversions.find((c) => c.kind === r.params.as && c.group === (r.params.g ?? '') && c.version === (r.params.v ?? ''));
      if (!wanted) continue;
      if (format === 'protobuf' && wanted.kind === 'Table') continue;
      return { format, as: wanted };
    }
    if (format === 'protobuf' && !(servesProtobuf ??= protobuf())) continue;
    return { format };
  }
  throw Errors.notAcceptable((servesProtobuf ?? protobuf()) ? SERVED_MEDIA_TYPES_PROTOBUF : SERVED_MEDIA_TYPES);
}

function formatOf(type: string): Negotiated['format'] | undefined {
  switch (type) {
    case KUBE_PROTOBUF_MEDIA_TYPE:
      return 'protobuf';
    case 'application/json':
    case 'application/*':
    case '*/*':
      return 'json';
    case 'application/yaml':
      return 'yaml';
    default:
      return undefined;
  }
}

export const TABLE_V1 = { kind: 'Table', group: 'meta.k8s.io', version: 'v1' };
export const TABLE_V1BETA1 = { kind: 'Table', group: 'meta.k8s.io', version: 'v1beta1' };
export const PARTIAL_METADATA_V1 = { kind: 'PartialObjectMetadata', group: 'meta.k8s.io', version: 'v1' };
export const PARTIAL_METADATA_LIST_V1 = { kind: 'PartialObjectMetadataList', group: 'meta.k8s.io', version: 'v1' };
