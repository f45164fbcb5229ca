import { Errors } from '@kube/apimachinery';
import { writeStatus } from '../response.writer';
import type { Filter } from './api-request';

/**
 * kube's WithTimeoutForNonLongRunningRequests: a request that has not answered within `timeoutMs` gets
 * 504 Timeout (the handler may still finish; its late answer is dropped). Watches and upgrades are exempt.
 */
export function withTimeout(timeoutMs = 60_000): Filter {
  return (next) => async (r) => {
    if (r.longRunning) return next(r);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<number>((resolve) => {
      timer = setTimeout(() => resolve(writeStatus(r.res, Errors.timeout()).code), timeoutMs);
    });
    try {
      return await Promise.race([next(r), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
}
