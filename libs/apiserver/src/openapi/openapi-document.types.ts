import type { GroupVersionKind, JSONSchemaProps, SchemaComponents } from '@kube/apimachinery';

/** The HTTP methods an API path answers, as OpenAPI path item keys. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch'];

/** kube's `x-kubernetes-action` values (clients such as kubectl match operations by action + GVK). */
export type KubeAction = 'get' | 'list' | 'post' | 'put' | 'patch' | 'delete' | 'deletecollection';

/** The x-kubernetes-* vendor extensions kube puts on every operation. */
export interface KubeOperationExtensions {
  'x-kubernetes-action': KubeAction;
  'x-kubernetes-group-version-kind': GroupVersionKind;
}

// ---- OpenAPI 3.0 (served at /openapi/v3/api/v1 and /openapi/v3/apis/<group>/<version>) ----

export interface ParameterV3 {
  name: string;
  in: 'query' | 'path';
  description?: string;
  required?: boolean;
  schema: JSONSchemaProps;
}

export interface MediaTypeV3 {
  schema: JSONSchemaProps;
}

export interface RequestBodyV3 {
  content: Record<string, MediaTypeV3>;
  required?: boolean;
}

export interface ResponseV3 {
  description: string;
  content?: Record<string, MediaTypeV3>;
}

export interface OperationV3 extends KubeOperationExtensions {
  description: string;
  operationId: string;
  tags: string[];
  parameters?: ParameterV3[];
  requestBody?: RequestBodyV3;
  responses: Record<string, ResponseV3>;
}

export interface PathItemV3 extends Partial<Record<HttpMethod, OperationV3>> {
  parameters?: ParameterV3[];
}

export interface OpenApiInfo {
  title: string;
  version: string;
}

export interface OpenApiV3Document {
  openapi: '3.0.0';
  info: OpenApiInfo;
  paths: Record<string, PathItemV3>;
  components: { schemas: SchemaComponents };
}

// ---- Swagger 2.0 (served at /openapi/v2, as JSON or gnostic protobuf) ----

export interface ParameterV2 {
  name: string;
  in: 'query' | 'path' | 'body';
  description?: string;
  required?: boolean;
  /** Non-body parameters: the primitive type. */
  type?: string;
  uniqueItems?: boolean;
  /** Body parameters: the schema of the body. */
  schema?: JSONSchemaProps;
}

export interface ResponseV2 {
  description: string;
  schema?: JSONSchemaProps;
}

export interface OperationV2 extends KubeOperationExtensions {
  description: string;
  operationId: string;
  tags: string[];
  consumes: string[];
  produces: string[];
  schemes: string[];
  parameters?: ParameterV2[];
  responses: Record<string, ResponseV2>;
}

export interface PathItemV2 extends Partial<Record<HttpMethod, OperationV2>> {
  parameters?: ParameterV2[];
}

export interface SwaggerDocument {
  swagger: '2.0';
  info: OpenApiInfo;
  paths: Record<string, PathItemV2>;
  /** Same shape as v3 components.schemas, with refs of the form "#/definitions/<name>". */
  definitions: SchemaComponents;
}
