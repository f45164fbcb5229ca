import { Errors } from '@kube/apimachinery';

/** The decoded form of a list continue token (kube's metav1 continue token). */
export interface ContinueToken {
  /** Revision at which the first page was read; every page is read at that revision. */
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

export function encodeContinueToken(token: ContinueToken): string {
  const wire: WireToken = { v: TOKEN_VERSION, rv: token.resourceVersion, start: token.startKey };
  return Buffer.from(JSON.stringify(wire)).toString('base64url');
}

export function decodeContinueToken(value: string): ContinueToken {
  let wire: Partial<WireToken>;
  try {
    wire = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<WireToken>;
  } catch {
    throw Errors.badRequest('continue key is not valid: illegal base64 or JSON');
  }
  if (wire?.v !== TOKEN_VERSION) throw Errors.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof wire.rv !== 'number' || wire.rv <= 0) throw Errors.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof wire.start !== 'string' || wire.start === '' || wire.start.startsWith('/') || wire.start.split('/').includes('..')) {
    throw Errors.badRequest('continue key is not valid: encoded start key is not valid');
  }
  return { resourceVersion: wire.rv, startKey: wire.start };
}
