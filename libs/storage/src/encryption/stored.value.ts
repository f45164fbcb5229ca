import { Errors } from '@kube/apimachinery';
import type { TransformedValue, ValueTransformer } from './value.transformer';

/**
 * The transformer a resource's values currently go through (the configuration may be reloaded), or undefined:
 * no rule names the resource, and its values are plain JSON on the path they always took.
 */
export type TransformerLookup = () => ValueTransformer | undefined;

export const NO_TRANSFORMER: TransformerLookup = () => undefined;

/** Decrypts a stored value; one that cannot be read is kube's storage InternalError (500: "Internal error occurred: no matching prefix found"). */
export function readStoredValue(transformer: ValueTransformer, value: Buffer, key: string): TransformedValue {
  try {
    return transformer.fromStorage(value, key);
  } catch (err) {
    throw Errors.internal(err);
  }
}

/** Encrypts a value to store; a provider that cannot (a KMS plugin never reached, an expired DEK seed) is kube's InternalError (500). */
export function sealStoredValue(transformer: ValueTransformer, value: Buffer, key: string): Buffer {
  try {
    return transformer.toStorage(value, key);
  } catch (err) {
    throw Errors.internal(err);
  }
}

/** A value read from etcd: a kv, or a watch event with its previous value. */
interface StoredValues {
  value?: Buffer;
  prevValue?: Buffer;
}

/**
 * Fetches what reading these values needs (a KMS plugin's Decrypt of DEKs not cached yet) before they are
 * decoded synchronously. Undefined, at no cost, when the resource's providers need nothing (every provider but KMS).
 */
export function prepareStoredValues(lookup: TransformerLookup, items: readonly StoredValues[]): Promise<void> | undefined {
  const t = lookup();
  if (!t?.prepare || items.length === 0) return undefined;
  const values: Buffer[] = [];
  for (const item of items) {
    if (item.value) values.push(item.value);
    if (item.prevValue) values.push(item.prevValue);
  }
  return t.prepare(values);
}

/**
 * Applies batches of watch events in arrival order, each once its values are prepared: synchronously while nothing
 * needs fetching, queued behind the fetch (and behind every batch already queued) otherwise.
 */
export class PreparedSequence<T extends { events: readonly StoredValues[] }> {
  private tail?: Promise<void>;

  constructor(
    private readonly lookup: TransformerLookup,
    private readonly apply: (batch: T) => void,
    private readonly onError: (err: unknown) => void,
  ) {}

  push(batch: T): void {
    if (!this.tail) {
      const wait = prepareStoredValues(this.lookup, batch.events);
      if (!wait) return this.apply(batch);
      this.track(wait.then(() => this.apply(batch)));
      return;
    }
    this.track(this.tail.then(() => prepareStoredValues(this.lookup, batch.events)).then(() => this.apply(batch)));
  }

  private track(p: Promise<void>): void {
    const tail = p.catch(this.onError);
    this.tail = tail;
    void tail.then(() => {
      if (this.tail === tail) this.tail = undefined;
    });
  }
}
