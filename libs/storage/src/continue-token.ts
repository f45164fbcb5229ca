import { posix } from 'node:path';
import { Errors, GO_INT64, GO_STRING, goDecodeError, goJsonSyntaxError, goStruct } from '@kube/apimachinery';

/** The decoded form of a list continue token (kube's metav1 continue token). */
export interface ContinueToken {
  /**
   * Revision at which the first page was read; every page is read at that revision. Negative (kube writes -1):
   * the remainder is read at the latest revision, as the token of kube's 410 for a compacted one says.
   */
  resourceVersion: number;
  /** Key to start the next page from, relative to the listed prefix. */
  startKey: string;
}

interface WireToken {
  v: string;
  rv: number;
  start: string;
}

const TOKEN_VERSION = 'meta.k8s.io/v1';
/** The token kube's store hands out with a 410 for a compacted continue: the rest of the list at the latest revision. */
export const LATEST_REVISION_TOKEN = -1;

export function encodeContinueToken(token: ContinueToken): string {
  const wire: WireToken = { v: TOKEN_VERSION, rv: token.resourceVersion, start: token.startKey };
  return Buffer.from(JSON.stringify(wire)).toString('base64url');
}

/** kube's 400 for a token its store cannot decode: "invalid continue token: " + storage.DecodeContinue's error. */
const invalid = (detail: string): Error => Errors.badRequest(`invalid continue token: continue key is not valid${detail}`);

/** Go's base64.RawURLEncoding: the first byte that is no URL-safe digit (padding included), or a lone last digit. */
function base64Error(value: string): string | undefined {
  const bad = value.search(/[^A-Za-z0-9_-]/);
  if (bad >= 0) return `illegal base64 data at input byte ${bad}`;
  if (value.length % 4 === 1) return `illegal base64 data at input byte ${value.length - 1}`;
  return undefined;
}

const WIRE_TYPE = goStruct('storage.continueToken', { v: GO_STRING, rv: GO_INT64, start: GO_STRING });

export function decodeContinueToken(value: string): ContinueToken {
  const b64 = base64Error(value);
  if (b64) throw invalid(`: ${b64}`);
  const data = Buffer.from(value, 'base64url');
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    throw invalid(`: ${goJsonSyntaxError(data) ?? 'unexpected end of JSON input'}`);
  }
  const typeError = goDecodeError(parsed, WIRE_TYPE);
  if (typeError) throw invalid(`: ${typeError}`);
  const wire = (parsed ?? {}) as Partial<WireToken>;
  if (wire.v !== TOKEN_VERSION) throw invalid(`: server does not recognize this encoded version ${wire.v ?? ''}`);
  if (!wire.rv) throw invalid(': incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (!wire.start) throw invalid(': encoded start key empty (version meta.k8s.io/v1)');
  // kube's path.Clean check: a start key that would leave (or rename within) the listed prefix is refused.
  const key = wire.start.startsWith('/') ? wire.start : `/${wire.start}`;
  const cleaned = posix.normalize(key);
  if (cleaned !== key || (key.length > 1 && key.endsWith('/'))) throw invalid(`: ${wire.start}`);
  return { resourceVersion: wire.rv, startKey: cleaned.slice(1) };
}
