import { Errors, type StatusError } from '@kube/apimachinery';
import { decodeContinueToken, type ContinueToken } from './continue-token';
import type { ListOptions } from './storage.interface';

/** A resourceVersion query parameter as a revision; undefined when unset; 400 when not a number. */
export function parseResourceVersion(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value)) throw Errors.badRequest(`invalid resourceVersion: ${value}`);
  return Number(value);
}

/** A list's options, checked as kube's apiserver checks them. */
export interface ListRequest {
  resourceVersion?: number;
  match: '' | 'Exact' | 'NotOlderThan';
  token?: ContinueToken;
}

export function parseListOptions(opts: ListOptions): ListRequest {
  const match = opts.resourceVersionMatch ?? '';
  if (match !== '' && match !== 'Exact' && match !== 'NotOlderThan') {
    throw Errors.badRequest(`resourceVersionMatch: Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"`);
  }
  if (opts.continue) {
    if (opts.resourceVersion) throw Errors.badRequest('specifying resource version is not allowed when using continue');
    return { match, token: decodeContinueToken(opts.continue) };
  }
  const rv = parseResourceVersion(opts.resourceVersion);
  if (match && rv === undefined) throw Errors.badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
  if (match === 'Exact' && rv === 0) throw Errors.badRequest('resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  return { resourceVersion: rv, match };
}

/**
 * 504 for a read at a revision the storage has not reached (kube's NewTooLargeResourceVersionError): the cause
 * ResourceVersionTooLarge is what client-go's reflector recognises (it then relists without a resourceVersion);
 * the watch cache asks for a retry after 1 s (kube's resourceVersionTooHighRetrySeconds), etcd's store for none.
 */
export function tooLargeResourceVersion(requested: number, current: number, retryAfterSeconds = 0): StatusError {
  const err = Errors.timeout(`Too large resource version: ${requested}, current: ${current}`);
  const details = err.status.details ?? {};
  details.causes = [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }];
  if (retryAfterSeconds) details.retryAfterSeconds = retryAfterSeconds;
  err.status.details = details;
  return err;
}
