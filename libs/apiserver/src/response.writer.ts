import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringify as toYaml } from 'yaml';
import { encodeKubeProtobuf, encodeKubeProtobufList, KUBE_PROTOBUF_MEDIA_TYPE, toStatus, type JsonObject, type Status } from '@kube/apimachinery';
import { negotiate, type Negotiated } from './negotiation';

/** kube's warning recorder limits (endpoints/filters/warning.go): past 4 KiB of text, each warning is cut to 256 characters. */
const WARNINGS_TRUNCATE_AT_TOTAL = 4 * 1024;
const WARNING_TRUNCATE_ITEM = 256;

/** A surrogate that is not half of a pair (String.prototype.toWellFormed's job; Node 20's TypeScript lib lacks it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** unicode.IsControl: C0, DEL and C1. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The `Warning: 299 - "<text>"` header values of a response, as kube's recorder makes them (net.NewWarningHeader):
 * deduplicated; a text holding control characters is dropped (kube refuses it); `"` and `\` are escaped; the
 * text goes out as UTF-8 bytes (a lone surrogate as U+FFFD, as Go decoded it). Node refuses header strings with
 * characters above U+00FF, so each value is the latin1 view of those bytes (see sendBody): user text (an unknown
 * field's name) can never make the header invalid.
 */
export function warningHeaders(warnings: readonly string[]): string[] {
  const texts = [...new Set(warnings)].filter((w) => w !== '' && !CONTROL.test(w)).map((w) => [...w.replace(LONE_SURROGATE, '\ufffd')]);
  const total = texts.reduce((n, runes) => n + runes.length, 0);
  return texts.map((runes) => {
    const text = (total > WARNINGS_TRUNCATE_AT_TOTAL && runes.length > WARNING_TRUNCATE_ITEM ? runes.slice(0, WARNING_TRUNCATE_ITEM) : runes).join('');
    return Buffer.from(`299 - "${text.replace(/["\\]/g, '\\$&')}"`, 'utf8').toString('latin1');
  });
}

/** Sets the Warning headers; true when a value holds bytes beyond ASCII (UTF-8 in its latin1 view). */
function setWarnings(res: ServerResponse, warnings: readonly string[]): boolean {
  const values = warningHeaders(warnings);
  if (values.length) res.setHeader('Warning', values);
  return values.some((v) => NON_ASCII.test(v));
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Ends the response with its body. Node sends the header block in the encoding of a string body written with
 * it (UTF-8 here), which would encode the latin1 view of a warning's UTF-8 a second time; with a Buffer body
 * the header block goes out as latin1, byte for byte. Only responses carrying such warnings pay for the copy.
 */
function sendBody(res: ServerResponse, payload: string, binaryHeaders: boolean): void {
  res.end(binaryHeaders ? Buffer.from(payload) : payload);
}

/** Go's strconv.ParseBool; anything else is false, as kube ignores the parse error. */
const GO_TRUE: ReadonlySet<string> = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const PRETTY_ACCEPT = /;\s*pretty=1\b/;

/**
 * kube's isPrettyPrint (endpoints/handlers/negotiation): JSON is indented for `?pretty=<bool>` (which decides when
 * given), an Accept whose media type says `pretty=1`, or a User-Agent of curl, Wget or a browser (`Mozilla/5.0`).
 * Everyone else (kubectl, client libraries) gets compact JSON, as before.
 */
export function prettyPrint(req: Pick<IncomingMessage, 'url' | 'headers'> | undefined): boolean {
  if (!req) return false;
  const url = req.url;
  if (url !== undefined && url.includes('pretty')) {
    const q = url.indexOf('?');
    const pretty = q < 0 ? null : new URLSearchParams(url.slice(q + 1)).get('pretty');
    if (pretty) return GO_TRUE.has(pretty);
  }
  const accept = req.headers.accept;
  if (accept !== undefined && accept.includes('pretty') && PRETTY_ACCEPT.test(accept)) return true;
  const ua = req.headers['user-agent'];
  return ua !== undefined && (ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0'));
}

/** kube's pretty JSON serializer: json.MarshalIndent with two spaces, no trailing newline. */
function prettyFor(res: ServerResponse): boolean {
  return prettyPrint((res as ServerResponse & { req?: IncomingMessage }).req);
}

/** Writes a JSON, YAML or protobuf body with Warning headers; every error goes through writeStatus. */
export function writeObject(res: ServerResponse, code: number, body: unknown, format: Negotiated['format'] = 'json', warnings: readonly string[] = []): void {
  if (res.headersSent || res.writableEnded) return;
  if (format === 'protobuf') return writeProtobuf(res, code, encodeKubeProtobuf(body as JsonObject), warnings);
  const yaml = format === 'yaml';
  const payload = yaml ? toYaml(body) : prettyFor(res) ? JSON.stringify(body, null, 2) : JSON.stringify(body);
  const binaryHeaders = warnings.length > 0 && setWarnings(res, warnings);
  res.writeHead(code, { 'Content-Type': yaml ? 'application/yaml' : 'application/json', 'Content-Length': Buffer.byteLength(payload), 'Cache-Control': 'no-cache, private' });
  sendBody(res, payload, binaryHeaders);
}

/** A protobuf body (application/vnd.kubernetes.protobuf): the envelope kube's protobuf serializer writes. */
export function writeProtobuf(res: ServerResponse, code: number, payload: Buffer, warnings: readonly string[] = []): void {
  if (res.headersSent || res.writableEnded) return;
  if (warnings.length) setWarnings(res, warnings);
  res.writeHead(code, { 'Content-Type': KUBE_PROTOBUF_MEDIA_TYPE, 'Content-Length': payload.length, 'Cache-Control': 'no-cache, private' });
  res.end(payload);
}

/** A List in protobuf, its items' bytes encoded once per cached object (as cachedJson does for JSON). */
export function writeProtobufList(res: ServerResponse, code: number, head: { kind?: string; apiVersion?: string; metadata: object }, items: readonly object[], warnings: readonly string[] = []): void {
  writeProtobuf(res, code, encodeKubeProtobufList(head, items as JsonObject[]), warnings);
}

/**
 * Responses of endpoints with no protobuf form (custom resources): their errors stay JSON even for a client that
 * prefers protobuf, as kube's unstructured serializer answers them.
 */
const jsonOnly = new WeakSet<ServerResponse>();

export function markJsonOnly(res: ServerResponse): void {
  jsonOnly.add(res);
}

/** kube encodes a Status in what the client negotiated: protobuf for client-go's protobuf clients. */
function statusFormat(res: ServerResponse): Negotiated['format'] {
  const accept = (res as ServerResponse & { req?: IncomingMessage }).req?.headers.accept;
  // Only a client naming protobuf pays for a negotiation here.
  if (!accept || !accept.includes('protobuf') || jsonOnly.has(res)) return 'json';
  try {
    return negotiate(accept, [], () => true).format === 'protobuf' ? 'protobuf' : 'json';
  } catch {
    return 'json';
  }
}

export function writeStatus(res: ServerResponse, err: unknown, extraHeaders: Record<string, string> = {}): Status {
  const status = toStatus(err);
  if (res.headersSent || res.writableEnded) return status;
  const retry = status.details?.retryAfterSeconds;
  if (retry) res.setHeader('Retry-After', String(retry));
  for (const [k, v] of Object.entries(extraHeaders)) res.setHeader(k, v);
  writeObject(res, status.code, status, statusFormat(res));
  return status;
}

export function writeBuffer(res: ServerResponse, code: number, body: Buffer, contentType: string, headers: Record<string, string> = {}): void {
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': body.length, ...headers });
  res.end(body);
}

/**
 * JSON of an object as stored in the watch cache. Cached objects are immutable, so their serialized form is
 * computed once and reused by every GET, LIST and watch event that returns them.
 */
const jsonCache = new WeakMap<object, string>();

export function cachedJson(obj: object): string {
  let json = jsonCache.get(obj);
  if (json === undefined) {
    json = JSON.stringify(obj);
    jsonCache.set(obj, json);
  }
  return json;
}

/** A List body assembled from the cached JSON of its items. */
export function listJson(head: { kind?: string; apiVersion?: string; metadata: object }, items: readonly object[]): string {
  return `{"kind":${JSON.stringify(head.kind)},"apiVersion":${JSON.stringify(head.apiVersion)},"metadata":${JSON.stringify(head.metadata)},"items":[${items.map(cachedJson).join(',')}]}`;
}

export function writeJsonText(res: ServerResponse, code: number, text: string, warnings: readonly string[] = []): void {
  if (res.headersSent || res.writableEnded) return;
  const json = prettyFor(res) ? JSON.stringify(JSON.parse(text), null, 2) : text;
  const binaryHeaders = warnings.length > 0 && setWarnings(res, warnings);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json), 'Cache-Control': 'no-cache, private' });
  sendBody(res, json, binaryHeaders);
}
