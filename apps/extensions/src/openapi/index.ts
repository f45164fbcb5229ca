/**
 * Schemas of the apiextensions.k8s.io/v1 types the extensions server serves as built-ins (the CRD kind
 * itself), extracted from Kubernetes' published OpenAPI v3 spec. They feed `kubectl apply` client-side
 * validation and `kubectl explain crd.spec…`. The meta/v1 types they reference come from @kube/apiserver.
 */
import type { SchemaComponents } from '@kube/apimachinery';
import { metaV1Components } from '@kube/apiserver';
import { apiextensionsV1Components as apiextensionsOwn } from './apiextensions-v1.schemas';

export const apiextensionsV1Components: SchemaComponents = { ...metaV1Components, ...apiextensionsOwn };

/** The components entry describing the CustomResourceDefinition kind. */
export const CUSTOM_RESOURCE_DEFINITION_SCHEMA = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition';
