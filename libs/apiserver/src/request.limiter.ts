import type { ServerResponse } from 'node:http';
import { Errors } from '@kube/apimachinery';
import { inflightRequests, rejectedRequests } from './apiserver.metrics';
import { writeStatus } from './response.writer';

export interface RequestLimits {
  maxRequestsInFlight?: number;
  maxMutatingRequestsInFlight?: number;
  requestTimeoutMs?: number;
}

/**
 * kube's max-in-flight and request-timeout filters for non-long-running requests: over the limit → 429 with
 * Retry-After (and Connection: close while draining), past the timeout → 504. Watches never go through it.
 */
export class RequestLimiter {
  private readOnly = 0;
  private mutating = 0;
  draining = false;

  constructor(private readonly limits: RequestLimits) {}

  async run(mutating: boolean, res: ServerResponse, fn: () => Promise<number>): Promise<number> {
    const kind = mutating ? 'mutating' : 'readOnly';
    const limit = mutating ? (this.limits.maxMutatingRequestsInFlight ?? 200) : (this.limits.maxRequestsInFlight ?? 400);
    if ((mutating ? this.mutating : this.readOnly) >= limit || this.draining) {
      rejectedRequests.inc({ request_kind: kind });
      return writeStatus(res, Errors.tooManyRequests(), this.draining ? { Connection: 'close' } : {}).code;
    }
    this.adjust(mutating, 1);
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<number>((resolve) => {
        timer = setTimeout(() => resolve(writeStatus(res, Errors.timeout()).code), this.limits.requestTimeoutMs ?? 60_000);
      });
      return await Promise.race([fn(), timeout]);
    } finally {
      clearTimeout(timer);
      this.adjust(mutating, -1);
    }
  }

  private adjust(mutating: boolean, delta: number): void {
    if (mutating) this.mutating += delta;
    else this.readOnly += delta;
    inflightRequests.set({ request_kind: mutating ? 'mutating' : 'readOnly' }, mutating ? this.mutating : this.readOnly);
  }
}
