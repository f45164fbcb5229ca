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
