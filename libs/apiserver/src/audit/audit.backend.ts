import type { AuditEvent } from './audit.event';

/**
 * kube's audit.Backend: takes events as requests produce them. The answer is whether every event was handled:
 * synchronous for a backend that only queues (buffered, log), a promise for one that waits on the network
 * (the webhook in blocking mode), so that a request waits only where kube's would.
 */
export interface AuditBackend {
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean>;
  /** Flushes what is buffered and stops; events after it are errors. */
  shutdown(): Promise<void>;
  /**
   * Shutdown has begun: a failed send is not retried any more (a batch backend calls it on its delegate before
   * its last batches, so a webhook that is down does not hold the server's exit for minutes of backoff).
   */
  stopRetries?(): void;
  /** kube's String(): `union[log,buffered<webhook>]`, for the start-up line. */
  toString(): string;
}

/** The conjunction of results, synchronous when all of them are. */
export function allProcessed(results: ReadonlyArray<boolean | Promise<boolean>>): boolean | Promise<boolean> {
  if (results.every((r) => typeof r === 'boolean')) return results.every((r) => r === true);
  return Promise.all(results).then((rs) => rs.every(Boolean));
}

/** kube's audit.Union: every backend gets every event (log and webhook both configured). */
export function unionBackend(backends: readonly AuditBackend[]): AuditBackend {
  if (backends.length === 1) return backends[0];
  return {
    processEvents: (events) => allProcessed(backends.map((b) => b.processEvents(events))),
    shutdown: async () => {
      await Promise.all(backends.map((b) => b.shutdown()));
    },
    stopRetries: () => backends.forEach((b) => b.stopRetries?.()),
    toString: () => `union[${backends.map(String).join(',')}]`,
  };
}

/** kube's ignoreErrorsBackend (mode `blocking`): the request waits for the backend but never fails for it. */
export function ignoreErrors(backend: AuditBackend): AuditBackend {
  return {
    processEvents: (events) => {
      const r = backend.processEvents(events);
      return typeof r === 'boolean' ? true : r.then(() => true);
    },
    shutdown: () => backend.shutdown(),
    stopRetries: () => backend.stopRetries?.(),
    toString: () => `ignoreErrors<${String(backend)}>`,
  };
}
