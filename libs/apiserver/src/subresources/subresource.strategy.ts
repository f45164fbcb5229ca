import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FieldError, KubeObject } from '@kube/apimachinery';
import type { RequestContext, ResourceStrategy, Verb } from '../resource.definition';

/** The kind a subresource answers with, when it is not the resource's own (autoscaling/v1 Scale). */
export interface SubresourceKind {
  group: string;
  version: string;
  kind: string;
}

/**
 * A subresource shown as another kind (kube's /scale): reads return the view of the object, writes change the
 * view and are applied back onto the object.
 */
export interface SubresourceView {
  kind: SubresourceKind;
  /** The view of an object. */
  get(obj: KubeObject): KubeObject;
  /** Writes a changed view back onto `obj` (a copy of the stored object); a bad view throws 422. */
  apply(obj: KubeObject, view: unknown): void;
  /** Content types a PATCH of the view may use (kube: JSON and merge patch for /scale). */
  patchTypes: readonly string[];
}

/**
 * A subresource that creates another kind from the object and stores nothing (kube's NamedCreater:
 * serviceaccounts/token answers a TokenRequest).
 */
export interface SubresourceCreater {
  kind: SubresourceKind;
  /** The answer to a POST on the subresource of `parent` (the stored object); bad input throws a Status. */
  create(parent: KubeObject, body: unknown, ctx: RequestContext): Promise<KubeObject> | KubeObject;
}

/** One request to a connect subresource (kube's rest.Connecter / GetterWithOptions streaming its answer). */
export interface ConnectRequest {
  req: IncomingMessage;
  res: ServerResponse;
  query: URLSearchParams;
  /** The name in the URL (services/proxy's may carry a scheme and port: `https:web:8443`). */
  name: string;
  /** The path after the subresource (`/healthz` of `pods/x/proxy/healthz`), empty when none. */
  subpath: string;
  /** The stored parent by name (404 as kube words it when missing); called only once options are valid. */
  get(name: string): Promise<KubeObject>;
  /** Whether the request asks for a protocol upgrade (exec, attach, port-forward over SPDY or WebSocket). */
  upgrade: boolean;
  ctx: RequestContext;
}

/**
 * A subresource that answers with a stream of its own rather than an object (kube's pods/log, exec, attach,
 * portforward and the proxy subresources): it writes the whole response and returns its status code.
 */
export interface SubresourceConnecter {
  /** The options kind discovery names (PodExecOptions; pods/log names Pod). */
  kind: SubresourceKind;
  connect(r: ConnectRequest): Promise<number>;
}

/**
 * kube's per-subresource REST storage and strategy (status, scale, finalize; later token, approval, eviction):
 * which verbs it serves, what a write through it may change of the stored object, how that write is validated,
 * what the resource's own writes leave to it, and how discovery lists it.
 */
export interface SubresourceStrategy {
  /** Verbs served on the subresource (kube's status and scale: get, patch, update). */
  verbs: readonly Verb[];
  /** Listed in discovery; a subresource kube serves but we do not advertise (namespaces/finalize) says false. */
  discovered: boolean;
  /** Set when the subresource is another kind's view of the object. */
  view?: SubresourceView;
  /** Set when a POST on the subresource creates another kind (verbs: create). */
  creater?: SubresourceCreater;
  /** Set when the subresource streams its own answer (log, exec, proxy). */
  connecter?: SubresourceConnecter;
  /** The object a write through this subresource stores: the stored object with only this subresource's part taken from `incoming`. */
  prepareForUpdate(incoming: KubeObject, old: KubeObject): KubeObject;
  /** Validation of a write through this subresource; `resource` is the resource's own strategy. */
  validateUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext, resource: ResourceStrategy | undefined): FieldError[];
  /** What a create of the resource itself does with this subresource's part (status: dropped). */
  prepareResourceForCreate?(obj: KubeObject): void;
  /** What an update of the resource itself does with this subresource's part (status: kept as stored). */
  prepareResourceForUpdate?(obj: KubeObject, old: KubeObject): void;
}

/** The kind a subresource answers with when it is not the resource's own. */
export function subresourceKind(sub: SubresourceStrategy): SubresourceKind | undefined {
  return sub.view?.kind ?? sub.creater?.kind ?? sub.connecter?.kind;
}

/** A resource's subresources by name (`pods/status` → `status`). */
export type Subresources = Readonly<Record<string, SubresourceStrategy>>;
