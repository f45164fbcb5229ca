/**
 * Creates or updates objects idempotently through the front door (the aggregator), with client-node's generic
 * object API:
 * merge-patch first (keeps what the server filled in, e.g. a Service's clusterIP), create when missing.
 * Retries while the control plane is not reachable or not ready yet (connection errors, 429, 5xx).
 */
import { ApiException, type KubernetesObject, PatchStrategy } from '@kubernetes/client-node';
import type { KubeObject } from '@kube/apimachinery';
import { ApiClient, type RegistrationTarget } from './api.client';

export type { RegistrationTarget } from './api.client';

const PLURALS: Readonly<Record<string, string>> = { Service: 'services', Endpoints: 'endpoints', APIService: 'apiservices' };
const RETRY_DELAY_MS = 1_000;
const FIELD_MANAGER = 'kube-ts-registration';
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
    const spec = obj as KubernetesObject;
    try {
      await this.client.objects.patch(spec, undefined, undefined, FIELD_MANAGER, undefined, PatchStrategy.MergePatch);
      return;
    } catch (err) {
      if (!(err instanceof ApiException) || err.code !== 404) throw refusal(err, `PATCH ${item}`);
    }
    try {
      await this.client.objects.create(spec, undefined, undefined, FIELD_MANAGER);
    } catch (err) {
      // Someone created it between our PATCH and POST: patch again on the next attempt.
      if (err instanceof ApiException && err.code === 409) throw new RetryableError(`POST ${collection}: already exists`);
      throw refusal(err, `POST ${collection}`);
    }
  }

  private async withRetries(fn: () => Promise<void>): Promise<void> {
    const deadline = Date.now() + this.deadlineMs;
    for (;;) {
      try {
        return await fn();
      } catch (err) {
        const retryable = err instanceof RetryableError || isConnectionError(err);
        if (!retryable || Date.now() + RETRY_DELAY_MS > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      }
    }
  }
}

/** A refusal worth retrying (429, 5xx: not ready yet) or not (anything else); other errors as they are. */
function refusal(err: unknown, what: string): unknown {
  if (!(err instanceof ApiException)) return err;
  const body = typeof err.body === 'string' ? err.body : JSON.stringify(err.body ?? '');
  const error = `${what}: ${err.code} ${body.slice(0, 500)}`;
  return err.code === 429 || err.code >= 500 ? new RetryableError(error) : new Error(error);
}

function isConnectionError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  // client-node's fetch reports the system error code of the socket, or the type of its own timeouts
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE' || code === 'ETIMEDOUT' || (err as { type?: string } | undefined)?.type === 'request-timeout';
}
