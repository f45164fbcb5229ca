import type { FieldError, KubeObject, SchemaComponents, UserInfo } from '@kube/apimachinery';
import type { Subresources } from './subresources/subresource.strategy';

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

/** Who is making the request; defined beside the object types so that storage can carry it too. */
export type { UserInfo };

/** Context handed to strategy hooks. */
export interface RequestContext {
  user: UserInfo;
  namespace?: string;
  dryRun: boolean;
  /** Warnings that end up in `Warning: 299 - "..."` response headers. */
  warnings: string[];
  /** The client's User-Agent: the field manager of writes that name none. */
  userAgent?: string;
}

/**
 * The per-resource behaviour kube calls a "strategy": defaulting, preparation and validation.
 * Every hook is optional; the generic server already handles metadata (uid, timestamps, generation, …).
 */
export interface ResourceStrategy {
  /** Fill defaults in place (runs on create, update and patch before validation). */
  default?(obj: KubeObject): void;
  /** Adjust a new object before validation (e.g. a fresh status; the status subresource already dropped the client's). */
  prepareForCreate?(obj: KubeObject, ctx: RequestContext): void;
  /** Adjust an updated object from its old version (e.g. keep status, keep immutable fields). */
  prepareForUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): void;
  validate?(obj: KubeObject, ctx: RequestContext): FieldError[];
  validateUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): FieldError[];
  /**
   * Drops fields the type does not know and returns their paths (for fieldValidation). Default: prune against
   * `schema` as built-in types do; custom resources bring kube's CR pruning (embedded resources, …).
   */
  prune?(obj: KubeObject): string[];
  /**
   * Changes applied when an object is read (kube applies CR defaults on read too): return the object itself
   * when nothing changes, else a new object — never mutate the argument, it is the watch cache's copy.
   */
  decorate?(obj: KubeObject): KubeObject;
  /** Field selector values beyond metadata.name / metadata.namespace. */
  fields?(obj: KubeObject): Record<string, string>;
  /**
   * The 400 message for a field the selector cannot use, where kube registers a field label conversion of its own
   * for the kind (`field label not supported: <label>` for pods, nodes, events…); else runtime's default
   * (`"<label>" is not a known field selector: only …`).
   */
  unknownFieldLabel?(label: string): string;
  /** PUT of a missing object creates it (services, endpoints, events, leases, RBAC… do; configmaps, pods, CRs do not). Default true. */
  allowCreateOnUpdate?: boolean;
  /** PUT without metadata.resourceVersion is accepted. Default true. */
  allowUnconditionalUpdate?: boolean;
  /**
   * kube's GarbageCollectionDeleteStrategy: what a DELETE without a propagation policy does to dependents.
   * Default 'DeleteDependents' (background); 'Unsupported' never adds the GC finalizers.
   */
  garbageCollectionPolicy?: GarbageCollectionPolicy;
  /**
   * kube's RESTGracefulDeleteStrategy.CheckGracefulDelete: the grace period a DELETE of `obj` gets (0: at once).
   * Resources without it are deleted at once (or when their finalizers are done).
   */
  checkGracefulDelete?(obj: KubeObject, gracePeriodSeconds: number | undefined): number;
}

/** A graceful deletion being started or shortened: when it is due and the period it was given. */
export interface GracefulDeletion {
  deletionTimestamp: string;
  gracePeriodSeconds: number;
}

export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

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
  /** Defaults to ALL_VERBS (SOURCE_VERBS for a resource with a `source`). */
  verbs?: Verb[];
  /** Subresources by name, each with its own strategy: `{ status: statusSubresource(), scale: scaleSubresource(paths) }`. */
  subresources?: Subresources;
  /** OpenAPI v3 schema: `name` is the entry of `components` describing the kind. */
  schema?: { name: string; components: SchemaComponents };
  /** Extra columns after NAME (and before AGE, which is added unless a column named Age exists). */
  tableColumns?: TableColumn[];
  /** Append an Age column to tableColumns (default true; CRDs and custom resources with printer columns say false). */
  tableAge?: boolean;
  strategy?: ResourceStrategy;
  /**
   * metadata.generation is the server's: 1 on create, +1 when anything but metadata and status changes (kube's
   * strategies for workloads, pods, custom resources, CRDs, webhook configurations…). Without it, as kube's generic
   * registry does, a create keeps the client's value and an update the stored one (ConfigMaps have none).
   */
  tracksGeneration?: boolean;
  /** etcd key segment: /registry/<storagePrefix>/[ns/]name. Defaults to plural (core) or <group>/<plural>. */
  storagePrefix?: string;
  nameValidation?: NameValidation;
  /** Custom resources do not take strategic merge patches (kube answers 415 listing the accepted types). */
  disableStrategicMergePatch?: boolean;
  /** Sent as a `Warning` header on every request to this version (deprecated CRD versions). */
  deprecationWarning?: string;
  /** apiVersion objects are stored in when several versions share one storage (CRDs); default this version. */
  storageVersion?: string;
  /**
   * Converts objects between this version and storage when that takes more than rewriting apiVersion (CRD
   * conversion webhooks). Without it, conversion is "None".
   */
  conversion?: ResourceConversion;
  hooks?: ResourceHooks;
  /** Objects expire this many seconds after their last write (events: 3600), through an etcd lease. */
  ttlSeconds?: number;
  /**
   * Serve reads from your own code instead of etcd: computed or virtual resources (metrics-server's model).
   * Such a resource is read-only: `verbs` defaults to, and may only contain, get and list.
   */
  source?: ResourceSource;
  /**
   * Answer creates from your own code and store nothing (kube's review APIs: SubjectAccessReview, TokenReview…):
   * the decoded object and the request's context in, the object to return (201) out. Such a resource serves
   * `create` only. Throw a StatusError (Errors.*) to answer with another status.
   */
  createOnly?(obj: KubeObject, ctx: RequestContext): Promise<KubeObject> | KubeObject;
}

/** Where a computed resource's reads are answered; the request's namespace is undefined for all namespaces. */
export interface SourceRequest {
  namespace?: string;
  user: UserInfo;
}

/**
 * Your handlers for a computed resource. Return objects with at least metadata.name (and metadata.namespace
 * when namespaced); kind and apiVersion are filled in, label and field selectors applied, Table built from
 * tableColumns. Throw a StatusError (Errors.*) to answer with another status.
 */
export interface ResourceSource {
  /** One object, or undefined for 404 NotFound. */
  get(request: SourceRequest & { name: string }): Promise<KubeObject | undefined>;
  /** Every object in the request's namespace (all of them when it has none). */
  list(request: SourceRequest): Promise<KubeObject[]>;
}

/** The verbs a computed resource (one with a `source`) can serve. */
export const SOURCE_VERBS: readonly Verb[] = ['get', 'list'];

/** The verbs a resource serves: as declared, else every verb (reads only for a computed resource). */
export function servedVerbs(def: ResourceDefinition): readonly Verb[] {
  return def.verbs ?? (def.source ? SOURCE_VERBS : ALL_VERBS);
}

/**
 * Conversion between the versions of a resource that share one storage. Objects handed in are not mutated;
 * metadata comes back unchanged except labels and annotations. Errors are thrown as StatusErrors.
 */
export interface ResourceConversion {
  /** An object of the request's version, converted to the storage version before it is written. */
  toStorage(obj: KubeObject): Promise<KubeObject>;
  /** Stored objects (of any version) converted to `version` (e.g. "v2"), in one batch: a whole LIST at once. */
  fromStorage(objs: KubeObject[], version: string): Promise<KubeObject[]>;
}

/** Rules for metadata.name (kube's ValidateNameFunc): DNS-1123 subdomain unless the kind says otherwise. */
export type NameValidation = 'subdomain' | 'label' | 'path-segment';

/**
 * Side effects a resource needs around storage (kube does these in its REST storage wrappers):
 * allocations before a write (with an undo if the write fails), cleanup after a delete, custom finalization.
 */
export interface ResourceHooks {
  beforeCreate?(obj: KubeObject, ctx: RequestContext): Promise<UndoFn | void>;
  beforeUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): Promise<UndoFn | void>;
  afterDelete?(obj: KubeObject): Promise<void>;
  /** Whether a delete must wait (besides metadata.finalizers), e.g. a namespace's spec.finalizers. */
  pendingFinalizers?(obj: KubeObject): boolean;
  /** Mutates the object when graceful deletion starts (e.g. namespace status.phase = Terminating). */
  onDeletionStarted?(obj: KubeObject): void;
}

export type UndoFn = () => Promise<void>;

/** Admission plugins and what they see are defined by @kube/admission (the admission machinery). */
export type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '@kube/admission';
