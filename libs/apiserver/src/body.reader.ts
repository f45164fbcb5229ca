import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { decodeKubeProtobuf, Errors, isKubeProtobuf, type JsonValue } from '@kube/apimachinery';

/** kube-apiserver's MaxRequestBodyBytes. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;
/** Deeper input is refused before any recursive code sees it. */
export const MAX_NESTING_DEPTH = 1000;

export type BodyFormat = 'json' | 'yaml' | 'protobuf';

/**
 * Reads a request body, refusing anything over the limit with 413 as soon as that is known (the
 * Content-Length header, or while streaming), so an oversized body is never held in memory whole.
 */
export async function readBody(req: IncomingMessage, limit = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) {
    req.resume();
    throw Errors.requestEntityTooLarge(`limit is ${limit}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume();
      throw Errors.requestEntityTooLarge(`limit is ${limit}`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * JSON for every JSON-ish media type (patch types included), YAML for application/yaml and apply patches,
 * protobuf for the Kubernetes envelope that client-go's typed clients send for built-in kinds.
 */
export function bodyFormat(contentType: string | undefined): BodyFormat | undefined {
  if (isKubeProtobuf(contentType)) return 'protobuf';
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === '' || type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/yaml' || type === 'application/apply-patch+yaml' || type === 'text/yaml') return 'yaml';
  return undefined;
}

/** Fails fast on pathological nesting by scanning brackets outside strings (linear, no recursion). */
export function checkNesting(text: string, max = MAX_NESTING_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91 /* { [ */) {
      if (++depth > max) throw Errors.badRequest(`the request body is nested too deeply: more than ${max} levels`);
    } else if (c === 125 || c === 93) depth--;
  }
}

/** Protobuf decodes to the same JSON form; fields its tables do not map are dropped. */
export function decodeBody(raw: Buffer, format: BodyFormat): JsonValue {
  if (format === 'protobuf') {
    if (raw.length === 0) throw Errors.badRequest('the request body is empty');
    return decodeKubeProtobuf(raw).object;
  }
  const text = raw.toString('utf8');
  if (text.trim() === '') throw Errors.badRequest('the request body is empty');
  if (format === 'json' || /^\s*[{[]/.test(text)) {
    checkNesting(text);
    try {
      return JSON.parse(text) as JsonValue;
    } catch (err) {
      if (format === 'json') throw Errors.badRequest(`the request body could not be decoded: ${(err as Error).message}`);
    }
  }
  return decodeYaml(text);
}

function decodeYaml(text: string): JsonValue {
  checkNesting(text);
  try {
    return parseYaml(text, { maxAliasCount: 100, uniqueKeys: false, prettyErrors: false }) as JsonValue;
  } catch (err) {
    const message = err instanceof RangeError ? 'the request body is nested too deeply' : (err as Error).message.split('\n')[0];
    throw Errors.badRequest(`error converting YAML to JSON: ${message}`);
  }
}
