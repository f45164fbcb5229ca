/**
 * Webhook conversion of custom resources (kube's webhookConverter behind crConverter): objects not yet in the
 * desired version go to the webhook in one ConversionReview; the answer is checked object by object and each
 * keeps its metadata except labels and annotations. Every failure is a 500 with kube's message.
 */
import { randomUUID } from 'node:crypto';
import { StatusError, type KubeObject } from '@kube/apimachinery';
import type { ResourceConversion } from '@kube/apiserver';
import { ConvertedObjectError, acceptConvertedObject, type ConvertedObjectCheck, conversionReview, convertedObjectsOf, formatGVK, reviewVersionFor } from './conversion-review';
import type { ConversionTransport } from './conversion-webhook.client';

export interface WebhookConverterOptions {
  group: string;
  kind: string;
  /** The version objects are written in. */
  storageVersion: string;
  /** Every version of the CRD: objects of any other version cannot be converted. */
  versions: readonly string[];
  /** spec.conversion.webhook.conversionReviewVersions, in the CRD's order. */
  conversionReviewVersions: readonly string[];
}

/** A conversion failure as the client sees it: 500, with kube's message as is. */
function conversionError(message: string): StatusError {
  return new StatusError(500, 'InternalError', message, { causes: [{ message }] });
}

/** kube's wording for a bad answer about a single object. */
function singleObjectProblem(check: ConvertedObjectCheck): string {
  if (check === 'metadata') return 'invalid metadata';
  return check === 'type' ? 'invalid object at index 0' : 'invalid object';
}

/** kube's wording for a bad list item; past decoding it reports the index 1-based (its counter has moved on). */
function listItemProblem(check: ConvertedObjectCheck, index: number): string {
  if (check === 'decode') return `invalid converted object at index ${index}`;
  return check === 'metadata' ? `invalid metadata in object at index ${index + 1}` : `invalid converted object at index ${index + 1}`;
}

export class WebhookConverter implements ResourceConversion {
  constructor(
    private readonly options: WebhookConverterOptions,
    private readonly transport: ConversionTransport,
  ) {}

  async toStorage(obj: KubeObject): Promise<KubeObject> {
    const [converted] = await this.convert([obj], this.apiVersion(this.options.storageVersion));
    return converted;
  }

  fromStorage(objs: KubeObject[], version: string): Promise<KubeObject[]> {
    return this.convert(objs, this.apiVersion(version));
  }

  private apiVersion(version: string): string {
    return `${this.options.group}/${version}`;
  }

  /** Converts the objects not already in `desired`, keeping the order; the others are returned untouched. */
  private async convert(objs: KubeObject[], desired: string): Promise<KubeObject[]> {
    const pending = objs.filter((o) => o.apiVersion !== desired);
    if (!pending.length) return objs;
    this.checkVersions(pending, desired);
    const converted = await this.exchange(pending, desired);
    let next = 0;
    return objs.map((o) => (o.apiVersion === desired ? o : converted[next++]));
  }

  /** crConverter.ConvertToVersion: both ends must be versions of this CRD. */
  private checkVersions(objs: KubeObject[], desired: string): void {
    const valid = new Set(this.options.versions.map((v) => this.apiVersion(v)));
    if (!valid.has(desired)) throw conversionError(`request to convert CR to an invalid group/version: ${desired}`);
    objs.forEach((o, i) => {
      const from = o.apiVersion ?? '';
      if (valid.has(from)) return;
      throw conversionError(objs.length === 1 ? `request to convert CR from an invalid group/version: ${from}` : `request to convert CR list failed, list index ${i} has invalid group/version: ${from}`);
    });
  }

  /** One ConversionReview round trip and kube's checks of its answer. */
  private async exchange(objs: KubeObject[], desired: string): Promise<KubeObject[]> {
    const gvk = formatGVK(objs[0].apiVersion ?? '', objs[0].kind ?? this.options.kind);
    const uid = randomUUID();
    let convertedObjects: unknown[];
    try {
      const version = reviewVersionFor(this.options.conversionReviewVersions);
      const body = await this.transport.post(conversionReview(version, { uid, desiredAPIVersion: desired, objects: objs }));
      convertedObjects = convertedObjectsOf(version, uid, body);
    } catch (err) {
      throw conversionError(`conversion webhook for ${gvk} failed: ${(err as Error).message}`);
    }
    if (convertedObjects.length !== objs.length) throw conversionError(`conversion webhook for ${gvk} returned ${convertedObjects.length} objects, expected ${objs.length}`);
    return objs.map((original, i) => this.accept(original, convertedObjects[i], desired, gvk, i, objs.length === 1));
  }

  private accept(original: KubeObject, converted: unknown, desired: string, gvk: string, index: number, single: boolean): KubeObject {
    try {
      return acceptConvertedObject(original, converted, desired);
    } catch (err) {
      if (!(err instanceof ConvertedObjectError)) throw err;
      throw conversionError(`conversion webhook for ${gvk} returned ${single ? singleObjectProblem(err.check) : listItemProblem(err.check, index)}: ${err.message}`);
    }
  }
}
