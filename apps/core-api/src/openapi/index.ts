/**
 * Schemas of the built-in types core-api serves, extracted from Kubernetes' published OpenAPI v3 spec.
 * They are generated .ts modules rather than .json because the swc build does not copy JSON into dist.
 */
export { coordinationV1Components } from './coordination-v1.schemas';
export { coreV1Components } from './core-v1.schemas';
