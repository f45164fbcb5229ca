import type { KubeObject, OwnerReference } from '@kube/apimachinery';

export const FOREGROUND_FINALIZER = 'foregroundDeletion';
export const ORPHAN_FINALIZER = 'orphan';

/** An object's coordinates (kube's objectReference: an owner reference's coordinates plus the namespace). */
export interface ObjectIdentity {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /** '' for cluster-scoped objects (and for virtual owners referenced by cluster-scoped dependents). */
  namespace: string;
}

/** One object in the graph, or a virtual node: an owner something refers to that no informer has shown yet. */
export class GraphNode {
  readonly dependents = new Set<GraphNode>();
  owners: OwnerReference[] = [];
  /** The informer's last view: enough to delete with a resourceVersion precondition without reading it again. */
  resourceVersion?: string;
  finalizers: string[] = [];
  virtual: boolean;
  beingDeleted = false;
  deletingDependents = false;

  constructor(public identity: ObjectIdentity, virtual: boolean) {
    this.virtual = virtual;
  }

  /** Dependents that block this owner's foreground deletion (blockOwnerDeletion on their reference to it). */
  blockingDependents(): GraphNode[] {
    return [...this.dependents].filter((d) => d.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion));
  }
}

/** What the graph asks the collector to look at after a change. */
export interface GraphQueues {
  attemptToDelete(node: GraphNode): void;
  attemptToOrphan(node: GraphNode): void;
  /** A dependent refers to an owner observed in another namespace (kube's OwnerRefInvalidNamespace event). */
  invalidNamespaceOwnerRef(dependent: GraphNode, owner: OwnerReference): void;
}

const hasFinalizer = (obj: KubeObject, f: string): boolean => (obj.metadata.finalizers ?? []).includes(f);

/** True for an object being deleted that waits for its dependents (foregroundDeletion). */
export function deletingDependents(obj: KubeObject): boolean {
  return !!obj.metadata.deletionTimestamp && hasFinalizer(obj, FOREGROUND_FINALIZER);
}

/**
 * kube's GraphBuilder (pkg/controller/garbagecollector/graph_builder.go): the uid → node graph of owners and
 * dependents, kept from informer events, queueing what needs a look: dependents of deleted owners, virtual owners
 * to verify, owners that start foreground or orphan deletion, owners whose blocking dependents went away.
 */
export class DependencyGraph {
  private readonly nodes = new Map<string, GraphNode>();
  /** Owners verified absent (kube's absentOwnerCache), by `namespace/uid`; bounded. */
  private readonly absent = new Set<string>();

  constructor(private readonly queues: GraphQueues) {}

  get size(): number {
    return this.nodes.size;
  }

  node(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  isAbsent(namespace: string, uid: string): boolean {
    return this.absent.has(`${namespace}/${uid}`);
  }

  markAbsent(namespace: string, uid: string): void {
    if (this.absent.size >= 10_000) this.absent.delete(this.absent.values().next().value as string);
    this.absent.add(`${namespace}/${uid}`);
  }

  /** An add or update observed by an informer. */
  upsert(obj: KubeObject, identity: ObjectIdentity): void {
    let node = this.nodes.get(identity.uid);
    const owners = obj.metadata.ownerReferences ?? [];
    if (!node || node.virtual) {
      const existing = node;
      node = existing ?? new GraphNode(identity, false);
      node.virtual = false;
      node.identity = identity;
      this.nodes.set(identity.uid, node);
      node.owners = [...owners];
      this.addToOwners(node, owners);
    } else {
      const before = new Map(node.owners.map((o) => [o.uid, o]));
      const after = new Map(owners.map((o) => [o.uid, o]));
      const added = owners.filter((o) => !before.has(o.uid));
      const removed = node.owners.filter((o) => !after.has(o.uid));
      node.owners = [...owners];
      node.identity = identity;
      this.addToOwners(node, added);
      for (const o of removed) {
        const owner = this.nodes.get(o.uid);
        if (!owner) continue;
        owner.dependents.delete(node);
        if (owner.deletingDependents) this.queues.attemptToDelete(owner);
      }
      // A dependent that stopped blocking its owner's foreground deletion lets the owner go on.
      for (const o of owners) {
        const old = before.get(o.uid);
        if (old?.blockOwnerDeletion && !o.blockOwnerDeletion) {
          const owner = this.nodes.get(o.uid);
          if (owner?.deletingDependents) this.queues.attemptToDelete(owner);
        }
      }
    }
    this.processTransitions(obj, node);
  }

  /** A delete observed by an informer. */
  remove(obj: KubeObject): void {
    const uid = obj.metadata.uid;
    const node = uid ? this.nodes.get(uid) : undefined;
    if (!node) return;
    this.removeNode(node);
    if (node.dependents.size) this.markAbsent(node.identity.namespace, node.identity.uid);
  }

  /**
   * The collector verified that an owner the graph only knows by reference does not exist (kube's virtual delete
   * event): a virtual node goes and its dependents are looked at; an observed node with other coordinates stays.
   */
  virtualDelete(identity: ObjectIdentity): void {
    const node = this.nodes.get(identity.uid);
    if (!node) return;
    this.markAbsent(identity.namespace, identity.uid);
    if (node.virtual) this.removeNode(node);
    else for (const d of node.dependents) if (d.identity.namespace === identity.namespace) this.queues.attemptToDelete(d);
  }

  private removeNode(node: GraphNode): void {
    this.nodes.delete(node.identity.uid);
    for (const o of node.owners) {
      const owner = this.nodes.get(o.uid);
      if (!owner) continue;
      owner.dependents.delete(node);
      if (owner.deletingDependents) this.queues.attemptToDelete(owner);
    }
    for (const d of node.dependents) this.queues.attemptToDelete(d);
  }

  /** kube's addDependentToOwners: link, create virtual owners (to verify), flag references that cannot be right. */
  private addToOwners(node: GraphNode, owners: readonly OwnerReference[]): void {
    let suspicious = false;
    for (const ref of owners) {
      let owner = this.nodes.get(ref.uid);
      if (!owner) {
        owner = new GraphNode({ apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: node.identity.namespace }, true);
        this.nodes.set(ref.uid, owner);
        owner.dependents.add(node);
        this.queues.attemptToDelete(owner);
        continue;
      }
      owner.dependents.add(node);
      const ownerNamespaced = owner.identity.namespace !== '';
      if (ownerNamespaced && owner.identity.namespace !== node.identity.namespace) {
        // A namespaced owner can only own objects of its own namespace.
        if (!owner.virtual) this.queues.invalidNamespaceOwnerRef(node, ref);
        suspicious = true;
      } else if (owner.identity.name !== ref.name || owner.identity.kind !== ref.kind || apiGroup(owner.identity.apiVersion) !== apiGroup(ref.apiVersion)) {
        suspicious = true;
      } else if (!ownerNamespaced && owner.virtual && owner.identity.namespace !== node.identity.namespace) {
        suspicious = true;
      }
    }
    if (suspicious) this.queues.attemptToDelete(node);
  }

  /** kube's processTransitions: an owner starting orphan or foreground deletion. */
  private processTransitions(obj: KubeObject, node: GraphNode): void {
    node.resourceVersion = obj.metadata.resourceVersion;
    node.finalizers = obj.metadata.finalizers ?? [];
    node.beingDeleted = !!obj.metadata.deletionTimestamp;
    if (obj.metadata.deletionTimestamp && hasFinalizer(obj, ORPHAN_FINALIZER)) {
      this.queues.attemptToOrphan(node);
      return;
    }
    const deleting = deletingDependents(obj);
    if (deleting && !node.deletingDependents) {
      node.deletingDependents = true;
      for (const d of node.dependents) this.queues.attemptToDelete(d);
      this.queues.attemptToDelete(node);
    }
    node.deletingDependents = deleting;
  }
}

function apiGroup(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}
