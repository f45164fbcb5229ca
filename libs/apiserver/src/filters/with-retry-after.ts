import { Errors } from '@kube/apimachinery';
import { respondWithError, type Filter } from './api-request';

/** Probes must keep seeing the real state of a stopping server (readyz fails on its own). */
const EXEMPT = /^\/(healthz|livez|readyz|metrics)(\/|$)/;

/**
 * kube's WithRetryAfter: once the server is shutting down, new requests (on connections still open) answer
 * 429 with Retry-After and `Connection: close`, so clients retry on another instance.
 */
export function withRetryAfter(shuttingDown: () => boolean): Filter {
  return (next) => (r) => {
    if (!shuttingDown() || EXEMPT.test(r.path)) return next(r);
    r.res.setHeader('Connection', 'close');
    return Promise.resolve(respondWithError(r.res, Errors.tooManyRequests('The apiserver is shutting down, please try again later.')));
  };
}
