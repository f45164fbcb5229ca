/**
 * @kube/apiextensions: the CustomResourceDefinition schema machinery of kubernetes/apiextensions-apiserver.
 * Structural schema rules, pruning, defaulting, OpenAPI v3 validation with kube's messages, list types,
 * and CEL x-kubernetes-validations.
 */
export { DEFAULT_SCHEMA_PATH, validateStructuralSchema } from './structural-schema.validation';
export { validateCustomResourceDefinitionSchema } from './crd-schema.validation';
export { pruneCustomResource, pruneWithSchema } from './schema.pruning';
export { applyDefaults, dropNullsInNonNullable, pruneDefaults } from './schema.defaulting';
export { validateCustomResource, type ValidateCustomResourceOptions } from './custom-resource.validation';
export { validateOpenAPISchema } from './openapi-schema.validator';
export { validateListSetsAndMaps } from './list-type.validation';
export { validateEmbeddedResources } from './embedded-resource.validation';
export { validateCelRules, RULE_STEP_LIMIT } from './cel.validation';
export { CustomResourceSchema } from './custom-resource.schema';
export type { ValidationRule } from './schema.props';
/** The CEL pieces other admission code builds its own environments from (kube's k8s.io/apiserver/pkg/cel). */
export { registerKubeLibrary } from './cel.library';
export { formatIssue } from './cel.compilation';
export { dynValue } from './cel.values';
