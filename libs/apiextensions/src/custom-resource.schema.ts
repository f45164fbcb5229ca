/**
 * The per-request schema pipeline of a served CRD version: prune on decode, default, validate.
 * Built once per schema; everything derivable from the schema alone (pruned defaults, compiled rules,
 * per-node type and format info) is prepared here or cached by schema identity.
 */
import type { FieldError, JSONSchemaProps } from '@kube/apimachinery';
import { schemaRules } from './cel.compilation';
import { hasRules } from './cel.validation';
import { validateCustomResource } from './custom-resource.validation';
import { applyDefaults, dropNullsInNonNullable, pruneDefaults } from './schema.defaulting';
import { pruneCustomResource } from './schema.pruning';
import { anyStructuralNode, forEachStructuralNode, hasDefault, validations } from './schema.props';

export class CustomResourceSchema {
  /** The schema with its defaults pruned (kube's PruneDefaults), used for every step. */
  readonly schema: JSONSchemaProps;

  /** Whether any node declares a default: without one, defaulting changes nothing and is skipped. */
  readonly hasDefaults: boolean;

  constructor(schema: JSONSchemaProps) {
    this.schema = pruneDefaults(schema);
    this.hasDefaults = anyStructuralNode(this.schema, hasDefault);
    this.precompileRules();
  }

  /** Compiles every x-kubernetes-validations rule now rather than on the first request (no CEL environment without rules). */
  private precompileRules(): void {
    if (!hasRules(this.schema)) return;
    const rules = schemaRules(this.schema);
    forEachStructuralNode(this.schema, (node) => {
      if (validations(node).length > 0) rules.forNode(node);
    });
  }

  /**
   * Decode-time cleanup, in place: unknown fields dropped (and returned as paths for fieldValidation
   * Warn/Strict), metadata coerced to ObjectMeta, nulls of non-nullable fields without default removed.
   */
  prune(obj: Record<string, unknown>): string[] {
    const unknown = pruneCustomResource(obj, this.schema);
    dropNullsInNonNullable(obj, this.schema);
    return unknown;
  }

  /** Applies the schema's defaults in place (on write and on read from storage). */
  default(obj: Record<string, unknown>): void {
    if (this.hasDefaults) applyDefaults(obj, this.schema);
  }

  /** Validates obj; with old (an update) transition rules run and stored list duplicates are tolerated. */
  validate(obj: Record<string, unknown>, old?: Record<string, unknown>): FieldError[] {
    return validateCustomResource(obj, this.schema, { oldObject: old });
  }
}
