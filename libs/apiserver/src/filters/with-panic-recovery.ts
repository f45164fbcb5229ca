import { Logger } from '@nestjs/common';
import { isStatusError } from '@kube/apimachinery';
import { respondWithError, type Filter } from './api-request';

const logger = new Logger('PanicRecovery');

/**
 * kube's WithPanicRecovery: whatever a handler throws becomes a Status answer (500 for anything that is not
 * a StatusError) instead of a crashed process or a hung connection.
 */
export const withPanicRecovery: Filter = (next) => async (r) => {
  try {
    return await next(r);
  } catch (err) {
    if (!isStatusError(err)) logger.error({ msg: 'handler failed', requestId: r.requestId, uri: r.req.url, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    return respondWithError(r.res, err);
  }
};
