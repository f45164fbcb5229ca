import type { GroupVersion, GroupVersionKind, JSONSchemaProps, SchemaComponents } from '@kube/apimachinery';
import type { ResourceDefinition } from '../resource.definition';
import { metaV1Components } from './meta-v1.schemas';

export const V3_REF_PREFIX = '#/components/schemas/';

const META_V1 = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

/** meta/v1 schemas every document references (request and response bodies of the generic operations). */
export const META_SCHEMA_NAMES = {
  status: `${META_V1}Status`,
  deleteOptions: `${META_V1}DeleteOptions`,
  patch: `${META_V1}Patch`,
  watchEvent: `${META_V1}WatchEvent`,
  objectMeta: `${META_V1}ObjectMeta`,
  listMeta: `${META_V1}ListMeta`,
} as const;

/** The components.schemas entries describing one resource's kind and its list kind. */
export interface ResourceSchemaNames {
  kind: string;
  list: string;
}

export function schemaRef(name: string): JSONSchemaProps {
  return { $ref: `${V3_REF_PREFIX}${name}` };
}

/** Name of the schema a $ref points to ("#/components/schemas/X" or "#/definitions/X"). */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

export function kindOf(def: ResourceDefinition): GroupVersionKind {
  return { group: def.group, version: def.version, kind: def.kind };
}

export function listKindOf(def: ResourceDefinition): GroupVersionKind {
  return { group: def.group, version: def.version, kind: def.listKind ?? `${def.kind}List` };
}

/**
 * kube's definition-name prefix for a group/version: built-in groups live under io.k8s.api
 * ("apps" → io.k8s.api.apps.v1, "coordination.k8s.io" → io.k8s.api.coordination.v1), other groups are
 * reversed domains as for CRDs ("stable.example.com" → com.example.stable.v1).
 */
export function definitionPrefix(gv: GroupVersion): string {
  if (gv.group === '') return `io.k8s.api.core.${gv.version}`;
  if (!gv.group.includes('.') || gv.group.endsWith('.k8s.io')) return `io.k8s.api.${gv.group.split('.')[0]}.${gv.version}`;
  return `${gv.group.split('.').reverse().join('.')}.${gv.version}`;
}

export function resourceSchemaNames(def: ResourceDefinition): ResourceSchemaNames {
  const kind = def.schema?.name ?? `${definitionPrefix(def)}.${def.kind}`;
  const listKind = listKindOf(def).kind;
  const list = kind.endsWith(`.${def.kind}`) ? `${kind.slice(0, -def.kind.length)}${listKind}` : `${kind}List`;
  return { kind, list };
}

/**
 * components.schemas for a set of resources: their kind and list schemas plus everything those reference,
 * plus the meta/v1 schemas the generic operations use. Keys are sorted so the document (and its hash) is stable.
 * Throws when a $ref cannot be resolved: kubectl rejects the whole v2 document over one dangling reference.
 */
export function collectSchemas(resources: readonly ResourceDefinition[]): SchemaComponents {
  const available = availableSchemas(resources);
  const roots = [...Object.values(META_SCHEMA_NAMES), ...resources.flatMap((def) => Object.values(resourceSchemaNames(def)))];
  return closure(roots, available);
}

/** Every schema a document may draw from: meta/v1 fallbacks, then the resources' own components. */
function availableSchemas(resources: readonly ResourceDefinition[]): SchemaComponents {
  const available: SchemaComponents = { ...metaV1Components };
  for (const def of resources) Object.assign(available, def.schema?.components);
  for (const def of resources) {
    const names = resourceSchemaNames(def);
    available[names.kind] = withGroupVersionKind(available[names.kind] ?? placeholderKindSchema(def), kindOf(def));
    available[names.list] = withGroupVersionKind(available[names.list] ?? listSchema(def, names.kind), listKindOf(def));
  }
  return available;
}

function closure(roots: readonly string[], available: SchemaComponents): SchemaComponents {
  const found = new Map<string, JSONSchemaProps>();
  const pending = [...roots];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (found.has(name)) continue;
    const schema = available[name];
    if (!schema) throw new Error(`OpenAPI schema "${name}" is referenced but not defined`);
    found.set(name, schema);
    pending.push(...referencedNames(schema));
  }
  return Object.fromEntries([...found.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The schema names a schema references; extension values, defaults and enums are data, not schemas. */
export function referencedNames(schema: JSONSchemaProps): string[] {
  const names: string[] = [];
  const visit = (s: JSONSchemaProps): void => {
    if (s.$ref) names.push(refName(s.$ref));
    for (const sub of subSchemas(s)) visit(sub);
  };
  visit(schema);
  return names;
}

function subSchemas(s: JSONSchemaProps): JSONSchemaProps[] {
  const subs: JSONSchemaProps[] = [...Object.values(s.properties ?? {}), ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  if (s.items) subs.push(s.items);
  if (s.not) subs.push(s.not);
  if (typeof s.additionalProperties === 'object') subs.push(s.additionalProperties);
  return subs;
}

/** kubectl finds a kind's schema by x-kubernetes-group-version-kind, so make sure it is there. */
function withGroupVersionKind(schema: JSONSchemaProps, gvk: GroupVersionKind): JSONSchemaProps {
  const listed = schema['x-kubernetes-group-version-kind'] ?? [];
  if (listed.some((g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind)) return schema;
  return { ...schema, 'x-kubernetes-group-version-kind': [...listed, { group: gvk.group, kind: gvk.kind, version: gvk.version }] };
}

const API_VERSION_PROPERTY: JSONSchemaProps = {
  description:
    'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  type: 'string',
};

const KIND_PROPERTY: JSONSchemaProps = {
  description:
    'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  type: 'string',
};

/** For a resource served without a schema: the envelope is known, the rest is left open. */
function placeholderKindSchema(def: ResourceDefinition): JSONSchemaProps {
  return {
    description: `${def.kind} is served without a published schema.`,
    type: 'object',
    properties: {
      apiVersion: API_VERSION_PROPERTY,
      kind: KIND_PROPERTY,
      metadata: {
        allOf: [schemaRef(META_SCHEMA_NAMES.objectMeta)],
        default: {},
        description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
      },
    },
    'x-kubernetes-preserve-unknown-fields': true,
  };
}

/** The list schema kube generates for CRDs, used when a resource brings only its kind's schema. */
function listSchema(def: ResourceDefinition, kindSchemaName: string): JSONSchemaProps {
  return {
    description: `${listKindOf(def).kind} is a list of ${def.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: API_VERSION_PROPERTY,
      items: {
        description: `List of ${def.plural}. More info: https://git.k8s.io/community/contributors/devel/api-conventions.md`,
        type: 'array',
        items: schemaRef(kindSchemaName),
      },
      kind: KIND_PROPERTY,
      metadata: {
        allOf: [schemaRef(META_SCHEMA_NAMES.listMeta)],
        default: {},
        description: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
      },
    },
  };
}
