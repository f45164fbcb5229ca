import { Errors } from '@kube/apimachinery';
import type { Authenticator } from '../authentication';
import type { UserInfo } from '../resource.definition';
import { respondWithError, type ApiRequest, type Filter, type RequestHandler } from './api-request';

const ANONYMOUS: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

/**
 * kube's WithAuthentication: who is asking, from the authenticator's configuration (client certificates and
 * tokens at the front door; the front proxy's X-Remote-* headers at a backend). Anyone else gets 401, except
 * on the paths kube's system:public-info-viewer opens to anonymous callers (health, version), or where the
 * authentication configuration's anonymous section allows anonymous requests.
 */
export function withAuthentication(authenticator: Authenticator): Filter {
  const proceed = (next: RequestHandler, r: ApiRequest, user: UserInfo | undefined): Promise<number> => {
    if (user) r.user = user;
    else if (authenticator.anonymousAllowed(r.path, r.req)) r.user = ANONYMOUS;
    else return Promise.resolve(respondWithError(r.res, Errors.unauthorized()));
    return next(r);
  };
  return (next) => (r) => {
    const user = authenticator.authenticate(r.req);
    // Only tokens reviewed by the control plane wait; everything else is answered synchronously.
    return user instanceof Promise ? user.then((u) => proceed(next, r, u)) : proceed(next, r, user);
  };
}
