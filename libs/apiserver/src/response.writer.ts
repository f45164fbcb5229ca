import type { ServerResponse } from 'node:http';
import { stringify as toYaml } from 'yaml';
import { toStatus, type Status } from '@kube/apimachinery';
import type { Negotiated } from './negotiation';

/** Writes a JSON (or YAML) body with Warning headers; every error goes through writeStatus. */
export function writeObject(res: ServerResponse, code: number, body: unknown, format: Negotiated['format'] = 'json', warnings: readonly string[] = []): void {
  if (res.headersSent || res.writableEnded) return;
  const yaml = format === 'yaml';
  const payload = yaml ? toYaml(body) : JSON.stringify(body);
  if (warnings.length) res.setHeader('Warning', warnings.map((w) => `299 - ${JSON.stringify(w)}`));
  res.writeHead(code, { 'Content-Type': yaml ? 'application/yaml' : 'application/json', 'Content-Length': Buffer.byteLength(payload), 'Cache-Control': 'no-cache, private' });
  res.end(payload);
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
  if (warnings.length) res.setHeader('Warning', warnings.map((w) => `299 - ${JSON.stringify(w)}`));
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json), 'Cache-Control': 'no-cache, private' });
  res.end(json);
}
