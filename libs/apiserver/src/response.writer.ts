import type { ServerResponse } from 'node:http';
import { stringify as toYaml } from 'yaml';
import { toStatus, type Status } from '@kube/apimachinery';
import type { Negotiated } from './negotiation';

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

/** Writes a JSON (or YAML) body with Warning headers; every error goes through writeStatus. */
export function writeObject(res: ServerResponse, code: number, body: unknown, format: Negotiated['format'] = 'json', warnings: readonly string[] = []): void {
  if (res.headersSent || res.writableEnded) return;
  const yaml = format === 'yaml';
  const payload = yaml ? toYaml(body) : JSON.stringify(body);
  const binaryHeaders = warnings.length > 0 && setWarnings(res, warnings);
  res.writeHead(code, { 'Content-Type': yaml ? 'application/yaml' : 'application/json', 'Content-Length': Buffer.byteLength(payload), 'Cache-Control': 'no-cache, private' });
  sendBody(res, payload, binaryHeaders);
}

export function writeStatus(res: ServerResponse, err: unknown, extraHeaders: Record<string, string> = {}): Status {
  const status = toStatus(err);
  if (res.headersSent || res.writableEnded) return status;
  const retry = status.details?.retryAfterSeconds;
  if (retry) res.setHeader('Retry-After', String(retry));
  for (const [k, v] of Object.entries(extraHeaders)) res.setHeader(k, v);
  writeObject(res, status.code, status);
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

export function writeJsonText(res: ServerResponse, code: number, json: string, warnings: readonly string[] = []): void {
  if (res.headersSent || res.writableEnded) return;
  const binaryHeaders = warnings.length > 0 && setWarnings(res, warnings);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json), 'Cache-Control': 'no-cache, private' });
  sendBody(res, json, binaryHeaders);
}
