import type { GroupVersion, JSONSchemaProps, SchemaComponents } from '@kube/apimachinery';
import type { ResourceDefinition } from '../resource.definition';
import { refName } from './openapi.components';
import {
  HTTP_METHODS,
  type OperationV2,
  type OperationV3,
  type ParameterV2,
  type ParameterV3,
  type PathItemV2,
  type PathItemV3,
  type RequestBodyV3,
  type ResponseV2,
  type ResponseV3,
  type SwaggerDocument,
  type OpenApiV3Document,
} from './openapi-document.types';
import { buildOpenApiV3, OPENAPI_INFO } from './openapi-v3.builder';

export const V2_REF_PREFIX = '#/definitions/';

/**
 * The Swagger 2.0 document for every resource a server serves (kube-apiserver's /openapi/v2), derived from
 * the per-group/version v3 documents so both always agree. kubectl 1.27/1.28 validate and `explain
 * --output=plaintext-openapiv2` from it; they also read the PATCH operation's `consumes` to choose
 * strategic merge patch.
 */
export function buildOpenApiV2(resources: readonly ResourceDefinition[]): SwaggerDocument {
  return JSON.parse(openApiV2Body(groupVersionsOf(resources).map((gv) => openApiV2Part(buildOpenApiV3(gv, resources)))).toString()) as SwaggerDocument;
}

/** One group/version's share of the Swagger 2.0 document: its paths and definitions, each as `"key":value` JSON. */
export interface OpenApiV2Part {
  readonly paths: ReadonlyMap<string, Buffer>;
  readonly definitions: ReadonlyMap<string, Buffer>;
}

export function openApiV2Part(v3: OpenApiV3Document): OpenApiV2Part {
  const member = (key: string, value: unknown): [string, Buffer] => [key, Buffer.from(`${JSON.stringify(key)}:${JSON.stringify(value)}`)];
  return {
    paths: new Map(Object.entries(v3.paths).map(([path, item]) => member(path, toV2PathItem(item)))),
    definitions: new Map(Object.entries(v3.components.schemas).map(([name, schema]) => member(name, toV2Schema(schema)))),
  };
}

const COMMA = Buffer.from(',');

/**
 * The Swagger 2.0 document of these parts as JSON, paths and definitions sorted by key (a later part's entry
 * replaces an earlier one's): the same bytes as JSON.stringify of the whole document, copied together from
 * parts kept per group/version, so a server with 1,000 CRDs does not rebuild and re-encode them all when one
 * changes.
 */
export function openApiV2Body(parts: Iterable<OpenApiV2Part>): Buffer {
  const paths = new Map<string, Buffer>();
  const definitions = new Map<string, Buffer>();
  for (const part of parts) {
    for (const [k, v] of part.paths) paths.set(k, v);
    for (const [k, v] of part.definitions) definitions.set(k, v);
  }
  const chunks: Buffer[] = [Buffer.from(`{"swagger":"2.0","info":${JSON.stringify(OPENAPI_INFO)},"paths":{`)];
  const members = (m: Map<string, Buffer>): void => {
    [...m.keys()].sort(compareKeys).forEach((k, i) => {
      if (i > 0) chunks.push(COMMA);
      chunks.push(m.get(k) as Buffer);
    });
  };
  members(paths);
  chunks.push(Buffer.from('},"definitions":{'));
  members(definitions);
  chunks.push(Buffer.from('}}'));
  return Buffer.concat(chunks);
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The distinct group/versions of a resource set, in first-seen order. */
export function groupVersionsOf(resources: readonly ResourceDefinition[]): GroupVersion[] {
  const seen = new Map<string, GroupVersion>();
  for (const r of resources) {
    const key = `${r.group}/${r.version}`;
    if (!seen.has(key)) seen.set(key, { group: r.group, version: r.version });
  }
  return [...seen.values()];
}

/**
 * A v3 schema as Swagger 2.0 understands it: refs point at #/definitions, an allOf wrapping a single $ref
 * becomes the $ref itself (its description and default kept beside it, as kube's v2 does), and v3-only
 * keywords are dropped. oneOf between primitives (IntOrString, Quantity) becomes type string, kube's v2 form.
 */
export function toV2Schema(schema: JSONSchemaProps): JSONSchemaProps {
  const gvk = schema['x-kubernetes-group-version-kind'];
  // A kind whose whole object keeps unknown fields is a bare object in v2 (apiextensions' buildKubeNative: not even
  // apiVersion, kind and metadata, or kubectl's client-side validation refuses every field it does not see).
  if (gvk && schema['x-kubernetes-preserve-unknown-fields'] === true) return { type: 'object', 'x-kubernetes-group-version-kind': gvk };
  return v2Node(schema);
}

function v2Node(schema: JSONSchemaProps): JSONSchemaProps {
  const { allOf, oneOf, anyOf, not: _not, nullable: _nullable, ...kept } = schema;
  let { properties, items, additionalProperties, ...rest } = kept;
  // apiextensions' ToStructuralOpenAPIV2: kubectl breaks on properties or items beside unknown fields, on an array
  // without items, and on an object type that keeps unknown fields.
  if (rest['x-kubernetes-preserve-unknown-fields'] === true) {
    properties = undefined;
    items = undefined;
    if (rest.type === 'object') delete rest.type;
  }
  if (rest.type === 'array' && !items) delete rest.type;
  const out: JSONSchemaProps = { ...rest };
  if (rest.$ref) out.$ref = toV2Ref(rest.$ref);
  const wrapped = singleRef(allOf);
  if (wrapped && !rest.$ref && !rest.type && !properties) out.$ref = toV2Ref(wrapped);
  else if (allOf) out.allOf = allOf.map(v2Node);
  if (!out.type && !out.$ref) {
    const primitive = primitiveAlternative(oneOf ?? anyOf);
    if (primitive) out.type = primitive;
  }
  if (properties) out.properties = mapValues(properties, v2Node);
  if (items) out.items = v2Node(items);
  if (additionalProperties !== undefined) out.additionalProperties = typeof additionalProperties === 'boolean' ? additionalProperties : v2Node(additionalProperties);
  return out;
}

function toV2Ref(ref: string): string {
  return `${V2_REF_PREFIX}${refName(ref)}`;
}

function singleRef(allOf: JSONSchemaProps[] | undefined): string | undefined {
  return allOf?.length === 1 && allOf[0].$ref && Object.keys(allOf[0]).length === 1 ? allOf[0].$ref : undefined;
}

function primitiveAlternative(alternatives: JSONSchemaProps[] | undefined): JSONSchemaProps['type'] | undefined {
  const types = (alternatives ?? []).map((a) => a.type);
  if (types.length === 0 || types.some((t) => t === undefined || t === 'object' || t === 'array')) return undefined;
  return types.includes('string') ? 'string' : types[0];
}

function toV2PathItem(item: PathItemV3): PathItemV2 {
  const out: PathItemV2 = {};
  for (const method of HTTP_METHODS) {
    const op = item[method];
    if (op) out[method] = toV2Operation(op);
  }
  if (item.parameters) out.parameters = item.parameters.map(toV2Parameter);
  return out;
}

function toV2Operation(op: OperationV3): OperationV2 {
  const parameters = [...(op.requestBody ? [toV2BodyParameter(op.requestBody)] : []), ...(op.parameters ?? []).map(toV2Parameter)];
  return {
    consumes: op.requestBody ? Object.keys(op.requestBody.content) : ['*/*'],
    description: op.description,
    operationId: op.operationId,
    ...(parameters.length > 0 ? { parameters } : {}),
    produces: producedMediaTypes(op.responses),
    responses: mapValues(op.responses, toV2Response),
    schemes: ['https'],
    tags: [...op.tags],
    'x-kubernetes-action': op['x-kubernetes-action'],
    'x-kubernetes-group-version-kind': { ...op['x-kubernetes-group-version-kind'] },
  };
}

function toV2Parameter(p: ParameterV3): ParameterV2 {
  return {
    ...(p.description !== undefined ? { description: p.description } : {}),
    in: p.in,
    name: p.name,
    ...(p.required ? { required: true } : {}),
    ...(p.schema.type ? { type: p.schema.type } : {}),
    ...(p.schema.uniqueItems ? { uniqueItems: true } : {}),
  };
}

/** Every media type of a v3 body carries the same schema; v2 has one body parameter plus `consumes`. */
function toV2BodyParameter(body: RequestBodyV3): ParameterV2 {
  const [first] = Object.values(body.content);
  return { in: 'body', name: 'body', ...(body.required ? { required: true } : {}), schema: toV2Schema(first.schema) };
}

function toV2Response(response: ResponseV3): ResponseV2 {
  const [first] = Object.values(response.content ?? {});
  return { description: response.description, ...(first ? { schema: toV2Schema(first.schema) } : {}) };
}

function producedMediaTypes(responses: Record<string, ResponseV3>): string[] {
  return [...new Set(Object.values(responses).flatMap((r) => Object.keys(r.content ?? {})))];
}

function mapValues<T, U>(record: Record<string, T>, fn: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v)]));
}
