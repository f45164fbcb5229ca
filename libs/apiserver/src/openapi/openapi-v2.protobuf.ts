import type { JSONSchemaProps, SchemaComponents } from '@kube/apimachinery';
import { HTTP_METHODS, type OperationV2, type ParameterV2, type PathItemV2, type ResponseV2, type SwaggerDocument } from './openapi-document.types';
import { openApiV2DocumentType } from './openapi-v2.proto';

/** The Content-Type kube-apiserver answers /openapi/v2 protobuf requests with ('.' where clients ask with '@'). */
export const OPENAPI_V2_PROTOBUF_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/**
 * Encodes a Swagger 2.0 document as gnostic's openapi.v2.Document protobuf, the way kube-apiserver does
 * (openapi_v2.ParseDocument + proto.Marshal). Free-form values (defaults, enums, vendor extensions) travel
 * as Any.yaml; JSON text is valid YAML, and kubectl reads x-kubernetes-group-version-kind from there.
 */
export function encodeOpenApiV2Protobuf(swagger: SwaggerDocument): Buffer {
  const type = openApiV2DocumentType();
  const message = type.fromObject(documentMessage(swagger));
  return Buffer.from(type.encode(message).finish());
}

/** Plain objects shaped like the generated messages (protobufjs fills them in with fromObject). */
type Message = { [field: string]: unknown };

function documentMessage(swagger: SwaggerDocument): Message {
  return {
    swagger: swagger.swagger,
    info: { title: swagger.info.title, version: swagger.info.version },
    paths: { path: Object.entries(swagger.paths).map(([name, item]) => ({ name, value: pathItemMessage(item) })) },
    definitions: definitionsMessage(swagger.definitions),
  };
}

function definitionsMessage(definitions: SchemaComponents): Message {
  return { additional_properties: Object.entries(definitions).map(([name, schema]) => ({ name, value: schemaMessage(schema) })) };
}

function pathItemMessage(item: PathItemV2): Message {
  const message: Message = {};
  for (const method of HTTP_METHODS) {
    const op = item[method];
    if (op) message[method] = operationMessage(op);
  }
  if (item.parameters) message.parameters = item.parameters.map(parameterMessage);
  return message;
}

function operationMessage(op: OperationV2): Message {
  return {
    tags: op.tags,
    description: op.description,
    operation_id: op.operationId,
    produces: op.produces,
    consumes: op.consumes,
    parameters: (op.parameters ?? []).map(parameterMessage),
    responses: {
      response_code: Object.entries(op.responses).map(([name, response]) => ({ name, value: { response: responseMessage(response) } })),
    },
    schemes: op.schemes,
    vendor_extension: vendorExtensions(op),
  };
}

function responseMessage(response: ResponseV2): Message {
  return { description: response.description, ...(response.schema ? { schema: { schema: schemaMessage(response.schema) } } : {}) };
}

/** gnostic's Parameter is a oneof: a body parameter, or a non-body one keyed by where it lives. */
function parameterMessage(p: ParameterV2): Message {
  if (p.in === 'body') {
    const body = { description: p.description ?? '', name: p.name, in: p.in, required: !!p.required, schema: schemaMessage(p.schema ?? {}) };
    return { parameter: { body_parameter: body } };
  }
  const sub = { required: !!p.required, in: p.in, description: p.description ?? '', name: p.name, type: p.type ?? '', unique_items: !!p.uniqueItems };
  const nonBody = p.in === 'path' ? { path_parameter_sub_schema: sub } : { query_parameter_sub_schema: sub };
  return { parameter: { non_body_parameter: nonBody } };
}

function schemaMessage(s: JSONSchemaProps): Message {
  const m: Message = {};
  if (s.$ref !== undefined) m._ref = s.$ref;
  if (s.format !== undefined) m.format = s.format;
  if (s.description !== undefined) m.description = s.description;
  if (s.default !== undefined) m.default = anyMessage(s.default);
  Object.assign(m, numericConstraints(s));
  if (s.pattern !== undefined) m.pattern = s.pattern;
  if (s.uniqueItems !== undefined) m.unique_items = s.uniqueItems;
  if (s.required) m.required = s.required;
  if (s.enum) m.enum = s.enum.map(anyMessage);
  if (s.additionalProperties !== undefined) m.additional_properties = additionalPropertiesMessage(s.additionalProperties);
  if (s.type !== undefined) m.type = { value: [s.type] };
  if (s.items) m.items = { schema: [schemaMessage(s.items)] };
  if (s.allOf) m.all_of = s.allOf.map(schemaMessage);
  // An empty `properties` still has to arrive: kube tells an object with no fields from a map by its presence.
  if (s.properties) m.properties = { additional_properties: Object.entries(s.properties).map(([name, value]) => ({ name, value: schemaMessage(value) })) };
  const extensions = vendorExtensions(s);
  if (extensions.length > 0) m.vendor_extension = extensions;
  return m;
}

function numericConstraints(s: JSONSchemaProps): Message {
  const m: Message = {};
  if (s.multipleOf !== undefined) m.multiple_of = s.multipleOf;
  if (s.maximum !== undefined) m.maximum = s.maximum;
  if (s.exclusiveMaximum !== undefined) m.exclusive_maximum = s.exclusiveMaximum;
  if (s.minimum !== undefined) m.minimum = s.minimum;
  if (s.exclusiveMinimum !== undefined) m.exclusive_minimum = s.exclusiveMinimum;
  if (s.maxLength !== undefined) m.max_length = s.maxLength;
  if (s.minLength !== undefined) m.min_length = s.minLength;
  if (s.maxItems !== undefined) m.max_items = s.maxItems;
  if (s.minItems !== undefined) m.min_items = s.minItems;
  if (s.maxProperties !== undefined) m.max_properties = s.maxProperties;
  if (s.minProperties !== undefined) m.min_properties = s.minProperties;
  return m;
}

function additionalPropertiesMessage(value: JSONSchemaProps | boolean): Message {
  return typeof value === 'boolean' ? { boolean: value } : { schema: schemaMessage(value) };
}

function anyMessage(value: unknown): Message {
  return { yaml: JSON.stringify(value) };
}

/** The x-* members of an object as gnostic NamedAny entries. */
function vendorExtensions(obj: object): Message[] {
  return Object.entries(obj)
    .filter(([key, value]) => key.startsWith('x-') && value !== undefined)
    .map(([name, value]) => ({ name, value: anyMessage(value) }));
}
