import type { ServiceStores } from '@kube/apiserver';
import type { CustomResourceDefinition } from '../crd/crd.types';
import { ConversionWebhookClient } from './conversion-webhook.client';
import { WebhookConverter } from './webhook.converter';

interface Entry {
  generation: string;
  converter: WebhookConverter;
}

/**
 * One converter, and so one keep-alive connection pool, per CRD generation: the CRD controller rebuilds the
 * resource definitions on every status change, which must not open new connections to the webhook.
 */
export class WebhookConverters {
  private readonly byCRD = new Map<string, Entry>();

  /** The converter of a CRD with `strategy: Webhook`, undefined otherwise (conversion "None"). */
  converterFor(crd: CustomResourceDefinition, services?: ServiceStores): WebhookConverter | undefined {
    const name = crd.metadata.name ?? '';
    const webhook = crd.spec.conversion?.strategy === 'Webhook' ? crd.spec.conversion.webhook : undefined;
    if (!webhook?.clientConfig) {
      this.byCRD.delete(name);
      return undefined;
    }
    const generation = `${crd.metadata.uid ?? ''}/${crd.metadata.generation ?? ''}`;
    const existing = this.byCRD.get(name);
    if (existing?.generation === generation) return existing.converter;
    // A replaced client is just dropped: its idle connections time out, conversions in flight finish.
    const converter = new WebhookConverter(
      {
        group: crd.spec.group,
        kind: crd.status?.acceptedNames?.kind || crd.spec.names.kind,
        storageVersion: crd.spec.versions.find((v) => v.storage)?.name ?? '',
        versions: crd.spec.versions.map((v) => v.name),
        conversionReviewVersions: webhook.conversionReviewVersions ?? [],
      },
      new ConversionWebhookClient(webhook.clientConfig, services),
    );
    this.byCRD.set(name, { generation, converter });
    return converter;
  }
}

/** The process-wide set (the CRD controller is the only user). */
export const webhookConverters = new WebhookConverters();
