export * from './openapi-document.types';
export { metaV1Components } from './meta-v1.schemas';
export { collectSchemas, definitionPrefix, META_SCHEMA_NAMES, referencedNames, resourceSchemaNames, type ResourceSchemaNames } from './openapi.components';
export { patchMediaTypes, RESPONSE_MEDIA_TYPES } from './openapi.paths';
export { buildOpenApiV3, OPENAPI_INFO } from './openapi-v3.builder';
export { buildOpenApiV2, groupVersionsOf, toV2Schema } from './openapi-v2.builder';
export { encodeOpenApiV2Protobuf, OPENAPI_V2_PROTOBUF_CONTENT_TYPE } from './openapi-v2.protobuf';
export { OPENAPI_V2_PROTO, openApiV2DocumentType } from './openapi-v2.proto';
export { OpenApiDocuments, openApiV3Key, type OpenApiV3Index, type ServedDocument } from './openapi.documents';
