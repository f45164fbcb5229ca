/**
 * Schemas of the kinds the aggregator serves itself, extracted from Kubernetes' published OpenAPI v3 spec.
 * They are generated .ts modules rather than .json because the swc build does not copy JSON into dist.
 * The meta/v1 types they reference (ObjectMeta, ListMeta, Time) are shared from @kube/apiserver.
 */
import type { SchemaComponents } from '@kube/apimachinery';
import { metaV1Components } from '@kube/apiserver';
import { apiregistrationV1Components as apiregistrationOwn } from './apiregistration-v1.schemas';

export const apiregistrationV1Components: SchemaComponents = { ...metaV1Components, ...apiregistrationOwn };

export const APISERVICE_SCHEMA = 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService';
