import { groupVersionPath, type GroupVersion, type GroupVersionKind } from '@kube/apimachinery';
import { servedVerbs, type ResourceDefinition, type Verb } from '../resource.definition';
import { kindOf, META_SCHEMA_NAMES, resourceSchemaNames, schemaRef, type ResourceSchemaNames } from './openapi.components';
import type { KubeAction, OperationV3, ParameterV3, PathItemV3, RequestBodyV3, ResponseV3 } from './openapi-document.types';
import {
  byName,
  DELETE_COLLECTION_PARAMETERS,
  DELETE_PARAMETERS,
  LIST_PARAMETERS,
  NAMESPACE_PARAMETER,
  nameParameter,
  PATCH_PARAMETERS,
  queryParameters,
  WATCH_PARAMETERS,
  WRITE_PARAMETERS,
} from './openapi.parameters';

/** Media types our REST handlers answer with (no protobuf or CBOR, unlike kube). */
export const RESPONSE_MEDIA_TYPES: readonly string[] = ['application/json', 'application/yaml'];
export const WATCH_MEDIA_TYPES: readonly string[] = ['application/json;stream=watch'];

/**
 * Patch bodies a resource accepts, mirroring RestHandler: strategic merge patch needs a schema (its patch
 * merge keys) and is never taken by custom resources (disableStrategicMergePatch, a 415 as kube answers). kubectl
 * apply picks strategic merge only when the PATCH operation lists it.
 */
export function patchMediaTypes(def: ResourceDefinition): string[] {
  return ['application/json-patch+json', 'application/merge-patch+json', ...(def.schema && !def.disableStrategicMergePatch ? ['application/strategic-merge-patch+json'] : [])];
}

/** What every operation of one resource shares. */
interface ResourceContext {
  def: ResourceDefinition;
  gvk: GroupVersionKind;
  schemas: ResourceSchemaNames;
  verbs: ReadonlySet<Verb>;
  /** "CoreV1", "CoordinationV1": the middle of kube's operation ids. */
  idInfix: string;
  tag: string;
}

/** The collection, item, status and all-namespaces paths of one resource, each with the operations its verbs allow. */
export function resourcePaths(def: ResourceDefinition): Record<string, PathItemV3> {
  const ctx = resourceContext(def);
  const base = groupVersionPath(def);
  const collection = def.namespaced ? `${base}/namespaces/{namespace}/${def.plural}` : `${base}/${def.plural}`;
  const candidates: Array<[string, PathItemV3]> = [
    [collection, collectionPath(ctx)],
    [`${collection}/{name}`, itemPath(ctx)],
  ];
  if (def.subresources?.status) candidates.push([`${collection}/{name}/status`, statusPath(ctx)]);
  if (def.namespaced) candidates.push([`${base}/${def.plural}`, allNamespacesPath(ctx)]);
  return Object.fromEntries(candidates.filter(([, item]) => hasOperations(item)));
}

function resourceContext(def: ResourceDefinition): ResourceContext {
  const groupWords = groupWordsOf(def);
  return {
    def,
    gvk: kindOf(def),
    schemas: resourceSchemaNames(def),
    verbs: new Set(servedVerbs(def)),
    idInfix: `${groupWords.map(capitalize).join('')}${capitalize(def.version)}`,
    tag: `${groupWords.map((w, i) => (i === 0 ? w : capitalize(w))).join('')}_${def.version}`,
  };
}

/** kube's operation-id words for a group: "" → core, "coordination.k8s.io" → coordination, "stable.example.com" → stable example com. */
function groupWordsOf(gv: GroupVersion): string[] {
  if (gv.group === '') return ['core'];
  return gv.group.replace(/\.k8s\.io$/, '').split(/[.-]/).filter(Boolean);
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function hasOperations(item: PathItemV3): boolean {
  return Boolean(item.get || item.put || item.post || item.delete || item.patch);
}

function scopeParameters(ctx: ResourceContext): ParameterV3[] {
  return ctx.def.namespaced ? [NAMESPACE_PARAMETER] : [];
}

function namespacedWord(ctx: ResourceContext): string {
  return ctx.def.namespaced ? 'Namespaced' : '';
}

function collectionPath(ctx: ResourceContext): PathItemV3 {
  const { kind } = ctx.gvk;
  const ns = namespacedWord(ctx);
  const item: PathItemV3 = {};
  if (ctx.verbs.has('list')) {
    item.get = operation(ctx, 'list', `list${ctx.idInfix}${ns}${kind}`, `list or watch objects of kind ${kind}`, {
      parameters: listParameters(ctx),
      responses: responses(OK, ctx.schemas.list, listMediaTypes(ctx)),
    });
  }
  if (ctx.verbs.has('create')) {
    item.post = operation(ctx, 'post', `create${ctx.idInfix}${ns}${kind}`, `create a ${kind}`, {
      parameters: queryParameters(WRITE_PARAMETERS),
      requestBody: objectBody(ctx.schemas.kind),
      responses: responses(CREATED, ctx.schemas.kind),
    });
  }
  if (ctx.verbs.has('deletecollection')) {
    item.delete = operation(ctx, 'deletecollection', `delete${ctx.idInfix}Collection${ns}${kind}`, `delete collection of ${kind}`, {
      parameters: queryParameters(DELETE_COLLECTION_PARAMETERS),
      requestBody: deleteOptionsBody(),
      responses: responses(OK, META_SCHEMA_NAMES.status),
    });
  }
  return withPathParameters(item, scopeParameters(ctx));
}

function itemPath(ctx: ResourceContext): PathItemV3 {
  const { kind } = ctx.gvk;
  const id = `${ctx.idInfix}${namespacedWord(ctx)}${kind}`;
  const item = objectOperations(ctx, id, 'the specified');
  if (ctx.verbs.has('delete')) {
    item.delete = operation(ctx, 'delete', `delete${id}`, `delete a ${kind}`, {
      parameters: queryParameters(DELETE_PARAMETERS),
      requestBody: deleteOptionsBody(),
      responses: responses(DELETED, META_SCHEMA_NAMES.status),
    });
  }
  return withPathParameters(item, [nameParameter(kind), ...scopeParameters(ctx)]);
}

function statusPath(ctx: ResourceContext): PathItemV3 {
  const { kind } = ctx.gvk;
  const item = objectOperations(ctx, `${ctx.idInfix}${namespacedWord(ctx)}${kind}Status`, 'status of the specified');
  return withPathParameters(item, [nameParameter(kind), ...scopeParameters(ctx)]);
}

/** get / put / patch on one object (the object itself or its status). */
function objectOperations(ctx: ResourceContext, id: string, what: string): PathItemV3 {
  const { kind } = ctx.gvk;
  const item: PathItemV3 = {};
  if (ctx.verbs.has('get')) {
    item.get = operation(ctx, 'get', `read${id}`, `read ${what} ${kind}`, { responses: responses(OK, ctx.schemas.kind) });
  }
  if (ctx.verbs.has('update')) {
    item.put = operation(ctx, 'put', `replace${id}`, `replace ${what} ${kind}`, {
      parameters: queryParameters(WRITE_PARAMETERS),
      requestBody: objectBody(ctx.schemas.kind),
      responses: responses(UPDATED, ctx.schemas.kind),
    });
  }
  if (ctx.verbs.has('patch')) {
    item.patch = operation(ctx, 'patch', `patch${id}`, `partially update ${what} ${kind}`, {
      parameters: queryParameters(PATCH_PARAMETERS),
      requestBody: patchBody(ctx.def),
      responses: responses(UPDATED, ctx.schemas.kind),
    });
  }
  return item;
}

function allNamespacesPath(ctx: ResourceContext): PathItemV3 {
  if (!ctx.verbs.has('list')) return {};
  const { kind } = ctx.gvk;
  const get = operation(ctx, 'list', `list${ctx.idInfix}${kind}ForAllNamespaces`, `list or watch objects of kind ${kind}`, {
    responses: responses(OK, ctx.schemas.list, listMediaTypes(ctx)),
  });
  // kube puts the list parameters on this path item rather than on the operation.
  return { get, parameters: listParameters(ctx) };
}

function listParameters(ctx: ResourceContext): ParameterV3[] {
  const names = ctx.verbs.has('watch') ? [...LIST_PARAMETERS, ...WATCH_PARAMETERS] : LIST_PARAMETERS;
  return queryParameters(names).sort(byName);
}

function listMediaTypes(ctx: ResourceContext): readonly string[] {
  return ctx.verbs.has('watch') ? [...RESPONSE_MEDIA_TYPES, ...WATCH_MEDIA_TYPES] : RESPONSE_MEDIA_TYPES;
}

function withPathParameters(item: PathItemV3, parameters: ParameterV3[]): PathItemV3 {
  return parameters.length > 0 ? { ...item, parameters } : item;
}

type OperationBody = Pick<OperationV3, 'parameters' | 'requestBody' | 'responses'>;

function operation(ctx: ResourceContext, action: KubeAction, operationId: string, description: string, body: OperationBody): OperationV3 {
  return {
    description,
    operationId,
    ...(body.parameters && body.parameters.length > 0 ? { parameters: body.parameters } : {}),
    ...(body.requestBody ? { requestBody: body.requestBody } : {}),
    responses: body.responses,
    tags: [ctx.tag],
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': { ...ctx.gvk },
  };
}

const OK: ReadonlyArray<[string, string]> = [['200', 'OK']];
const CREATED: ReadonlyArray<[string, string]> = [['200', 'OK'], ['201', 'Created'], ['202', 'Accepted']];
const UPDATED: ReadonlyArray<[string, string]> = [['200', 'OK'], ['201', 'Created']];
const DELETED: ReadonlyArray<[string, string]> = [['200', 'OK'], ['202', 'Accepted']];

function responses(codes: ReadonlyArray<[string, string]>, schemaName: string, mediaTypes: readonly string[] = RESPONSE_MEDIA_TYPES): Record<string, ResponseV3> {
  const result: Record<string, ResponseV3> = {};
  for (const [code, description] of codes) result[code] = { content: content(mediaTypes, schemaName), description };
  result['401'] = { description: 'Unauthorized' };
  return result;
}

function content(mediaTypes: readonly string[], schemaName: string): RequestBodyV3['content'] {
  return Object.fromEntries(mediaTypes.map((type) => [type, { schema: schemaRef(schemaName) }]));
}

function objectBody(schemaName: string): RequestBodyV3 {
  return { content: content(['*/*'], schemaName), required: true };
}

function deleteOptionsBody(): RequestBodyV3 {
  return { content: content(['*/*'], META_SCHEMA_NAMES.deleteOptions) };
}

function patchBody(def: ResourceDefinition): RequestBodyV3 {
  return { content: content(patchMediaTypes(def), META_SCHEMA_NAMES.patch), required: true };
}
