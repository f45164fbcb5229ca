/**
 * Validation of a custom resource against its CRD schema, in the order the CR strategy runs it
 * (pkg/registry/customresource/strategy.go): OpenAPI schema, embedded resources, list-type
 * uniqueness, then x-kubernetes-validations unless an earlier error makes rules meaningless.
 */
import { FieldError, type JSONSchemaProps } from '@kube/apimachinery';
import { hasRules, validateCelRules } from './cel.validation';
import { validateEmbeddedResources } from './embedded-resource.validation';
import { NIL_PATH } from './field-path.format';
import { isJsonMap } from './json.values';
import { validateListSetsAndMaps } from './list-type.validation';
import { validateOpenAPISchema } from './openapi-schema.validator';

export interface ValidateCustomResourceOptions {
  /** The stored object on update: enables transition rules and list-type ratcheting. */
  oldObject?: Record<string, unknown>;
}

/** Errors that keep kube from running CEL rules (hasBlockingErr). */
const BLOCKING: ReadonlySet<string> = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

function listTypeErrors(obj: Record<string, unknown>, schema: JSONSchemaProps, old: Record<string, unknown> | undefined): FieldError[] {
  // On update, duplicates already stored are tolerated (kube ratchets list-type validation).
  if (old && validateListSetsAndMaps(old, schema).length > 0) return [];
  return validateListSetsAndMaps(obj, schema);
}

/**
 * Validates a (pruned, defaulted) custom resource. Errors use kube's paths and messages, e.g.
 * `spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10`.
 * The root's apiVersion/kind/metadata checks are the API server's, not the schema's.
 */
export function validateCustomResource(obj: Record<string, unknown>, schema: JSONSchemaProps, opts: ValidateCustomResourceOptions = {}): FieldError[] {
  const old = isJsonMap(opts.oldObject) ? opts.oldObject : undefined;
  const errs = [...validateOpenAPISchema(obj, schema), ...validateEmbeddedResources(obj, schema), ...listTypeErrors(obj, schema, old)];
  if (!hasRules(schema)) return errs;
  if (errs.some((e) => BLOCKING.has(e.type))) {
    errs.push(FieldError.invalid(NIL_PATH, null, 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation'));
    return errs;
  }
  return [...errs, ...validateCelRules(obj, schema, old)];
}
