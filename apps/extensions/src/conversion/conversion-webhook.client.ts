/**
 * The HTTPS client of one conversion webhook: @kube/admission's WebhookClient (the same client admission webhooks
 * use) with kube's 30 s conversion deadline, its Service resolved through the Services and Endpoints in etcd.
 */
import { WebhookClient, WEBHOOK_TIMEOUT_MS } from '@kube/admission';
import { resolveServiceEndpoint, type ServiceStores } from '@kube/apiserver';
import type { WebhookClientConfig } from '../crd/crd.types';
import type { ConversionReview } from './conversion-review';

export { WEBHOOK_TIMEOUT_MS };

/** Sends a review and returns the decoded response body (the seam the converter is tested through). */
export interface ConversionTransport {
  post(review: ConversionReview): Promise<unknown>;
}

export class ConversionWebhookClient extends WebhookClient implements ConversionTransport {
  constructor(config: WebhookClientConfig, services?: ServiceStores, timeoutMs = WEBHOOK_TIMEOUT_MS) {
    super(config, services && ((ref) => resolveServiceEndpoint(services, ref)), timeoutMs);
  }
}
