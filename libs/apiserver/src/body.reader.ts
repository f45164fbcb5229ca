import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { decodeKubeProtobuf, Errors, goJsonSyntaxError, isKubeProtobuf, type JsonValue } from '@kube/apimachinery';

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

/** encoding/json's error for text JSON.parse refused, as Go's scanner words it. */
function goJsonError(raw: Buffer): string {
  return goJsonSyntaxError(raw) ?? 'unexpected end of JSON input';
}

/** runtime's summarizeData: a JSON object's first bytes as text, anything else's in hex. */
function summarizeBody(raw: Buffer, max = 30): string {
  if (raw.length === 0) return '<empty>';
  const head = raw.subarray(0, max);
  const more = raw.length > max ? ' ...' : '';
  return raw[0] === 0x7b ? `${head.toString('utf8')}${more}` : `${head.toString('hex')}${more}`;
}

/**
 * Protobuf decodes to the JSON form kube shows of the same object (fields unknown to kube 1.33 dropped, as Go does). `into`: the kind a create or
 * update decodes into, named by kube's error for a body that is not JSON (transformDecodeError).
 */
export function decodeBody(raw: Buffer, format: BodyFormat, into?: string): JsonValue {
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
      if (format === 'json' && into) {
        const cause = `couldn't get version/kind; json parse error: ${goJsonError(raw)}`;
        throw Errors.badRequest(`the object provided is unrecognized (must be of type ${into}): ${cause} (${summarizeBody(raw)})`);
      }
      if (format === 'json') throw Errors.badRequest(`the request body could not be decoded: ${(err as Error).message}`);
    }
  }
  return decodeYaml(text);
}

/**
 * A JSON, merge or strategic merge patch body. Text that is no JSON gets kube's 400 for that patch type (patch.go):
 * "error decoding patch: " and encoding/json's error for JSON and merge patches (a merge patch with
 * fieldValidation=Ignore goes to json-patch's MergePatch, whose error is "Invalid JSON Patch"), the bare error for
 * strategic ones.
 */
export function decodePatchBody(raw: Buffer, type: 'json' | 'merge' | 'strategic', fieldValidation: string): JsonValue {
  try {
    return decodeBody(raw, 'json');
  } catch (err) {
    const syntax = raw.toString('utf8').trim() ? goJsonSyntaxError(raw) : undefined;
    if (!syntax) throw err;
    if (type === 'strategic') throw Errors.badRequest(syntax);
    if (type === 'merge' && fieldValidation === 'Ignore') throw Errors.badRequest('Invalid JSON Patch');
    throw Errors.badRequest(`error decoding patch: ${syntax}`);
  }
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
