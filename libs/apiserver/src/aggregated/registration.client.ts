/**
 * A minimal client for the front door (the aggregator) that creates or updates objects idempotently:
 * merge-patch first (keeps what the server filled in, e.g. a Service's clusterIP), create when missing.
 * Retries while the control plane is not reachable or not ready yet (connection errors, 429, 5xx).
 */
import type { KubeObject } from '@kube/apimachinery';
import { ApiClient, ApiTimeoutError, type ApiResponse, type RegistrationTarget } from './api.client';

export type { RegistrationTarget } from './api.client';

const PLURALS: Readonly<Record<string, string>> = { Service: 'services', Endpoints: 'endpoints', APIService: 'apiservices' };
const RETRY_DELAY_MS = 1_000;
const DEFAULT_DEADLINE_MS = 60_000;

class RetryableError extends Error {}

/** /api/v1/namespaces/ns/services/name, /apis/apiregistration.k8s.io/v1/apiservices/name, … */
export function collectionPath(obj: KubeObject): string {
  const plural = obj.kind ? PLURALS[obj.kind] : undefined;
  if (!plural || !obj.apiVersion) throw new Error(`cannot register a ${obj.kind ?? 'kind-less object'}`);
  const root = obj.apiVersion.includes('/') ? `/apis/${obj.apiVersion}` : `/api/${obj.apiVersion}`;
  const ns = obj.metadata.namespace ? `/namespaces/${obj.metadata.namespace}` : '';
  return `${root}${ns}/${plural}`;
}

export class RegistrationClient {
  private readonly client: ApiClient;

  constructor(
    target: RegistrationTarget,
    private readonly deadlineMs = DEFAULT_DEADLINE_MS,
  ) {
    this.client = new ApiClient(target);
  }

  /** Creates or updates each object, in order; returns once all exist as given. */
  async apply(objects: readonly KubeObject[]): Promise<void> {
    try {
      for (const obj of objects) await this.withRetries(() => this.applyOne(obj));
    } finally {
      this.client.close();
    }
  }

  private async applyOne(obj: KubeObject): Promise<void> {
    const collection = collectionPath(obj);
    const item = `${collection}/${obj.metadata.name}`;
    const patched = await this.send('PATCH', item, obj, 'application/merge-patch+json');
    if (patched.status !== 404) return this.expectSuccess(patched, `PATCH ${item}`);
    const created = await this.send('POST', collection, obj, 'application/json');
    // Someone created it between our PATCH and POST: patch again on the next attempt.
    if (created.status === 409) throw new RetryableError(`POST ${collection}: already exists`);
    this.expectSuccess(created, `POST ${collection}`);
  }

  private expectSuccess(res: ApiResponse, what: string): void {
    if (res.status >= 200 && res.status < 300) return;
    const error = `${what}: ${res.status} ${res.body.slice(0, 500)}`;
    if (res.status === 429 || res.status >= 500) throw new RetryableError(error);
    throw new Error(error);
  }

  private async withRetries(fn: () => Promise<void>): Promise<void> {
    const deadline = Date.now() + this.deadlineMs;
    for (;;) {
      try {
        return await fn();
      } catch (err) {
        const retryable = err instanceof RetryableError || err instanceof ApiTimeoutError || isConnectionError(err);
        if (!retryable || Date.now() + RETRY_DELAY_MS > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      }
    }
  }

  private send(method: string, path: string, body: KubeObject, contentType: string): Promise<ApiResponse> {
    return this.client.send({ method, path, body: JSON.stringify(body), contentType });
  }
}

function isConnectionError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE' || code === 'ETIMEDOUT';
}
