/** spec.conversion in kube's internal shape: spec.conversion.{strategy, webhookClientConfig, conversionReviewVersions}. */
import { FieldError, isDNS1035Label } from '@kube/apimachinery';
import { validateEnum } from './crd-names.validation';
import type { CustomResourceConversion, WebhookClientConfig } from './crd.types';
import { isRecord, list, present, str } from './plain-json.helpers';
import { validateCABundle, validateWebhookService, validateWebhookURL } from './webhook.validation';

/** ConversionReview versions this server (and the one before it) understands, sorted as sets.List prints them. */
export const CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** What conversion checks take from the old object on update. */
export interface ConversionValidationOptions {
  requireRecognizedConversionReviewVersion: boolean;
  allowInvalidCABundle: boolean;
}

function validateConversionReviewVersions(versions: readonly string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length === 0) return [FieldError.required(path)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((raw, i) => {
    const v = str(raw);
    if (seen.has(v)) {
      errs.push(FieldError.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    errs.push(...isDNS1035Label(v).map((m) => FieldError.invalid(`${path}[${i}]`, v, m)));
  });
  if (requireRecognized && !versions.some((v) => CONVERSION_REVIEW_VERSIONS.includes(v))) {
    errs.push(FieldError.invalid(path, versions, `must include at least one of ${CONVERSION_REVIEW_VERSIONS.join(', ')}`));
  }
  return errs;
}

function validateClientConfig(config: WebhookClientConfig, opts: ConversionValidationOptions, path: string): FieldError[] {
  const hasURL = present(config.url);
  const errs: FieldError[] = [];
  if (hasURL === present(config.service)) errs.push(FieldError.required(path, 'exactly one of url or service is required'));
  else if (hasURL) errs.push(...validateWebhookURL(`${path}.url`, str(config.url), true));
  else if (config.service) errs.push(...validateWebhookService(`${path}.service`, config.service));
  const caBundle = str(config.caBundle);
  if (caBundle && !opts.allowInvalidCABundle) errs.push(...validateCABundle(`${path}.caBundle`, caBundle));
  return errs;
}

export function validateConversion(conversion: CustomResourceConversion | undefined, opts: ConversionValidationOptions): FieldError[] {
  if (!isRecord(conversion)) return [];
  const path = 'spec.conversion';
  const strategy = str(conversion.strategy);
  const clientConfig = conversion.webhook?.clientConfig;
  const reviewVersions = list(conversion.webhook?.conversionReviewVersions);
  const errs = validateEnum(`${path}.strategy`, strategy, ['None', 'Webhook']);
  if (strategy === 'Webhook') {
    if (!isRecord(clientConfig)) errs.push(FieldError.required(`${path}.webhookClientConfig`, 'required when strategy is set to Webhook'));
    else errs.push(...validateClientConfig(clientConfig, opts, `${path}.webhookClientConfig`));
    errs.push(...validateConversionReviewVersions(reviewVersions, opts.requireRecognizedConversionReviewVersion, `${path}.conversionReviewVersions`));
    return errs;
  }
  if (isRecord(clientConfig)) errs.push(FieldError.forbidden(`${path}.webhookClientConfig`, 'should not be set when strategy is not set to Webhook'));
  if (reviewVersions.length > 0) errs.push(FieldError.forbidden(`${path}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
  return errs;
}
