import type { FieldError, KubeObject, SchemaComponents } from '@kube/apimachinery';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export interface TableColumnDefinition {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  description?: string;
  priority?: number;
}

/** A printed column: its definition plus how to compute its cell from an object. */
export interface TableColumn extends TableColumnDefinition {
  cell(obj: KubeObject): unknown;
}

/** Who is making the request (from the client certificate or the front proxy headers). */
export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** Context handed to strategy hooks. */
export interface RequestContext {
  user: UserInfo;
  namespace?: string;
  dryRun: boolean;
  /** Warnings that end up in `Warning: 299 - "..."` response headers. */
  warnings: string[];
}

/**
 * The per-resource behaviour kube calls a "strategy": defaulting, preparation and validation.
 * Every hook is optional; the generic server already handles metadata (uid, timestamps, generation, …).
 */
export interface ResourceStrategy {
  /** Fill defaults in place (runs on create, update and patch before validation). */
  default?(obj: KubeObject): void;
  /** Adjust a new object before validation (e.g. drop status when there is a status subresource). */
  prepareForCreate?(obj: KubeObject, ctx: RequestContext): void;
  /** Adjust an updated object from its old version (e.g. keep status, keep immutable fields). */
  prepareForUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): void;
  validate?(obj: KubeObject, ctx: RequestContext): FieldError[];
  validateUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): FieldError[];
  /** Field selector values beyond metadata.name / metadata.namespace. */
  fields?(obj: KubeObject): Record<string, string>;
  /** PUT of a missing object creates it (namespaces, configmaps… do; CRs do not). Default true. */
  allowCreateOnUpdate?: boolean;
  /** PUT without metadata.resourceVersion is accepted. Default true. */
  allowUnconditionalUpdate?: boolean;
}

export interface ResourceDefinition {
  group: string;
  version: string;
  kind: string;
  /** Defaults to `${kind}List`. */
  listKind?: string;
  plural: string;
  singular: string;
  shortNames?: string[];
  categories?: string[];
  namespaced: boolean;
  /** Defaults to ALL_VERBS. */
  verbs?: Verb[];
  subresources?: { status?: boolean };
  /** OpenAPI v3 schema: `name` is the entry of `components` describing the kind. */
  schema?: { name: string; components: SchemaComponents };
  /** Extra columns after NAME (and before AGE, which is added unless a column named Age exists). */
  tableColumns?: TableColumn[];
  strategy?: ResourceStrategy;
  /** etcd key segment: /registry/<storagePrefix>/[ns/]name. Defaults to plural (core) or <group>/<plural>. */
  storagePrefix?: string;
}
