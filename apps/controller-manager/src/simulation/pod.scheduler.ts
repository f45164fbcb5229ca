import { isStatusError, parseQuantity, type KubeObject } from '@kube/apimachinery';
import { Controller, metaNamespaceKey, resourcePath, type ReconcileResult, type RestClient, type SharedIndexInformer } from '@kube/client';
import type { EventRecorder } from '../event.recorder';
import { withCondition, isTerminal, type ContainerSpec, type NodeSelectorRequirement, type NodeSelectorTerm, type Pod, type Toleration } from './pod.lifecycle';
import type { Node } from './node.simulator';

export const PODS = { group: '', version: 'v1', resource: 'pods', namespaced: true };
/** Pods by spec.nodeName (the scheduler's and the kubelets' view of a node). */
export const POD_NODE_INDEX = 'simulation:nodeName';
export const DEFAULT_SCHEDULER = 'default-scheduler';
/** An unschedulable pod is tried again this often even when nothing we watch changed (kube: podMaxInUnschedulablePodsDuration, 5 min). */
const UNSCHEDULABLE_RETRY_MS = 30_000;

export const podNodeIndex = (obj: KubeObject): string[] => {
  const node = (obj as Pod).spec?.nodeName;
  return node ? [node] : [];
};

/** The pod's requests (kube's resource.PodRequests: the sum of containers, or the largest init container when larger). */
export function podRequests(pod: Pod): { milliCpu: number; memory: number } {
  const sum = (containers: readonly ContainerSpec[] | undefined): { milliCpu: number; memory: number } => {
    let milliCpu = 0;
    let memory = 0;
    for (const c of containers ?? []) {
      milliCpu += parseQuantity(c.resources?.requests?.cpu)?.milliValue() ?? 0;
      memory += parseQuantity(c.resources?.requests?.memory)?.value() ?? 0;
    }
    return { milliCpu, memory };
  };
  const main = sum(pod.spec?.containers);
  for (const c of pod.spec?.initContainers ?? []) {
    main.milliCpu = Math.max(main.milliCpu, parseQuantity(c.resources?.requests?.cpu)?.milliValue() ?? 0);
    main.memory = Math.max(main.memory, parseQuantity(c.resources?.requests?.memory)?.value() ?? 0);
  }
  return main;
}

/** v1helper.MatchNodeSelectorTerms for one requirement. */
function requirementMatches(req: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
      return value !== undefined && Number.parseInt(value, 10) > Number.parseInt(values[0] ?? '', 10);
    case 'Lt':
      return value !== undefined && Number.parseInt(value, 10) < Number.parseInt(values[0] ?? '', 10);
    default:
      return false;
  }
}

function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  // A term with no requirements matches nothing.
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  return exprs.every((r) => requirementMatches(r, labels[r.key])) && fields.every((r) => requirementMatches(r, r.key === 'metadata.name' ? (node.metadata.name as string) : undefined));
}

/** The NodeAffinity plugin's filter: nodeSelector and requiredDuringSchedulingIgnoredDuringExecution. */
export function matchesNodeAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return terms === undefined || terms.some((t) => termMatches(t, node));
}

/** v1helper.TolerationsTolerateTaint for one toleration. */
function tolerates(t: Toleration, taint: { key: string; value?: string; effect: string }): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (!t.key && t.operator !== 'Exists') return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

/** The first NoSchedule/NoExecute taint the pod does not tolerate (the TaintToleration plugin), if any. */
export function untoleratedTaint(pod: Pod, node: Node): { key: string; value?: string; effect: string } | undefined {
  const taints = [...(node.spec?.taints ?? [])];
  if (node.spec?.unschedulable) taints.push({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });
  return taints.find((taint) => (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') && !(pod.spec?.tolerations ?? []).some((t) => tolerates(t, taint)));
}

interface NodeUsage {
  milliCpu: number;
  memory: number;
  pods: number;
}

/**
 * A small kube-scheduler for the simulated nodes: pending pods of the default scheduler are filtered as kube's
 * NodeUnschedulable, TaintToleration, NodeAffinity and NodeResourcesFit plugins do, spread (the node with the
 * fewest pods of the same owner, then the fewest pods) and bound through pods/binding, one at a time so no two
 * pods take the same room. A pod that fits nowhere gets PodScheduled=False/Unschedulable and a FailedScheduling
 * event with kube's message, and is tried again when a pod or node changes.
 */
export class PodScheduler {
  readonly controller: Controller;
  /** Bound but not in the informer yet (the scheduler cache's assumed pods). */
  private readonly assumed = new Map<string, { node: string; pod: Pod }>();
  private readonly unschedulable = new Set<string>();

  constructor(
    private readonly client: RestClient,
    private readonly pods: SharedIndexInformer,
    private readonly nodes: SharedIndexInformer,
    private readonly events: EventRecorder,
    private readonly isSimulated: (node: string) => boolean,
  ) {
    this.controller = new Controller({ name: 'simulated-scheduler', reconcile: (key) => this.schedule(key), workers: 1, waitFor: [pods, nodes] });
    pods.addEventHandler({
      add: (p) => this.consider(p as Pod),
      update: (_old, p) => this.consider(p as Pod),
      delete: (p) => {
        this.assumed.delete(metaNamespaceKey(p));
        if ((p as Pod).spec?.nodeName) this.retryUnschedulable();
      },
    });
    nodes.addEventHandler({ add: () => this.retryUnschedulable(), update: (o, n) => o !== n && this.retryUnschedulable() });
  }

  private consider(pod: Pod): void {
    const key = metaNamespaceKey(pod);
    if (pod.spec?.nodeName) {
      this.assumed.delete(key);
      this.unschedulable.delete(key);
      return;
    }
    if (this.wantsScheduling(pod)) this.controller.enqueue(key);
  }

  private wantsScheduling(pod: Pod): boolean {
    return !pod.spec?.nodeName && !pod.metadata.deletionTimestamp && !pod.spec?.schedulingGates?.length && !isTerminal(pod) && (pod.spec?.schedulerName ?? DEFAULT_SCHEDULER) === DEFAULT_SCHEDULER;
  }

  private retryUnschedulable(): void {
    for (const key of this.unschedulable) this.controller.enqueue(key);
  }

  private usage(node: string): NodeUsage {
    const usage: NodeUsage = { milliCpu: 0, memory: 0, pods: 0 };
    const add = (p: Pod): void => {
      const r = podRequests(p);
      usage.milliCpu += r.milliCpu;
      usage.memory += r.memory;
      usage.pods++;
    };
    for (const p of this.pods.lister.byIndex(POD_NODE_INDEX, node) as Pod[]) if (!isTerminal(p)) add(p);
    for (const a of this.assumed.values()) if (a.node === node) add(a.pod);
    return usage;
  }

  private async schedule(key: string): Promise<ReconcileResult | void> {
    const pod = this.pods.lister.get(key) as Pod | undefined;
    // An assumed pod's binding is under way.
    if (!pod || !this.wantsScheduling(pod) || this.assumed.has(key)) {
      this.unschedulable.delete(key);
      return;
    }
    const nodes = (this.nodes.lister.list() as Node[]).filter((n) => this.isSimulated(n.metadata.name as string));
    const reasons = new Map<string, number>();
    const reject = (reason: string): void => void reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    const requests = podRequests(pod);
    const owner = pod.metadata.ownerReferences?.find((r) => r.controller)?.uid;
    let best: { node: string; score: number } | undefined;
    for (const node of nodes) {
      const name = node.metadata.name as string;
      const taint = untoleratedTaint(pod, node);
      if (taint) {
        reject(taint.key === 'node.kubernetes.io/unschedulable' ? 'node(s) were unschedulable' : `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`);
        continue;
      }
      if (!matchesNodeAffinity(pod, node)) {
        reject("node(s) didn't match Pod's node affinity/selector");
        continue;
      }
      const alloc = node.status?.allocatable ?? {};
      const usage = this.usage(name);
      const misfits: string[] = [];
      if (usage.pods + 1 > (parseQuantity(alloc.pods)?.value() ?? 0)) misfits.push('Too many pods');
      if (requests.milliCpu > 0 && usage.milliCpu + requests.milliCpu > (parseQuantity(alloc.cpu)?.milliValue() ?? 0)) misfits.push('Insufficient cpu');
      if (requests.memory > 0 && usage.memory + requests.memory > (parseQuantity(alloc.memory)?.value() ?? 0)) misfits.push('Insufficient memory');
      if (misfits.length) {
        for (const m of misfits) reject(m);
        continue;
      }
      // Spreading: fewest pods of the same controller on the node, then fewest pods.
      const siblings = owner ? (this.pods.lister.byIndex(POD_NODE_INDEX, name) as Pod[]).filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === owner)).length + [...this.assumed.values()].filter((a) => a.node === name && a.pod.metadata.ownerReferences?.some((r) => r.uid === owner)).length : 0;
      const score = siblings * 100_000 + usage.pods;
      if (!best || score < best.score) best = { node: name, score };
    }
    if (!best) return this.unschedulableNow(pod, nodes.length, reasons);
    // kube-scheduler's binding cycle: the pod is assumed on the node at once and bound in the background, so the
    // next pod is placed while this binding is under way (and cannot take the same room).
    this.assumed.set(key, { node: best.node, pod });
    this.unschedulable.delete(key);
    void this.bind(key, pod, best.node);
  }

  private async bind(key: string, pod: Pod, node: string): Promise<void> {
    const { namespace, name, uid } = pod.metadata;
    try {
      await this.client.request('POST', resourcePath(PODS, namespace, name, 'binding'), {
        body: { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace, uid }, target: { apiVersion: 'v1', kind: 'Node', name: node } },
      });
      this.events.normal(involved(pod), 'Scheduled', `Successfully assigned ${namespace}/${name} to ${node}`);
      // The watch may have brought the bound pod already: it no longer needs to be assumed.
      if ((this.pods.lister.get(key) as Pod | undefined)?.spec?.nodeName) this.assumed.delete(key);
    } catch (err) {
      // Forget the assumption; gone, bound or being deleted meanwhile (404, 409): the informer tells what became of it.
      this.assumed.delete(key);
      if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) this.controller.queue.addRateLimited(key);
    }
  }

  /** kube's FitError message, its PodScheduled=False condition and FailedScheduling event. */
  private async unschedulableNow(pod: Pod, total: number, reasons: Map<string, number>): Promise<ReconcileResult> {
    const key = metaNamespaceKey(pod);
    const histogram = [...reasons.entries()].map(([reason, n]) => `${n} ${reason}`).sort();
    const message = `0/${total} nodes are available${histogram.length ? `: ${histogram.join(', ')}` : ''}. preemption: 0/${total} nodes are available: ${total} Preemption is not helpful for scheduling.`;
    const first = !this.unschedulable.has(key);
    this.unschedulable.add(key);
    const current = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (current?.status !== 'False' || current.message !== message) {
      const conditions = withCondition(pod.status?.conditions ?? [], { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') });
      await this.client
        .request('PUT', resourcePath(PODS, pod.metadata.namespace, pod.metadata.name, 'status'), { body: { ...pod, status: { ...pod.status, conditions } } })
        .catch((err: unknown) => {
          if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
        });
    }
    if (first || current?.message !== message) this.events.warning(involved(pod), 'FailedScheduling', message);
    return { requeueAfterMs: UNSCHEDULABLE_RETRY_MS };
  }
}

export function involved(obj: KubeObject): { apiVersion: string; kind: string; name: string; namespace?: string; uid: string } {
  return { apiVersion: obj.apiVersion ?? 'v1', kind: obj.kind ?? 'Pod', name: obj.metadata.name as string, namespace: obj.metadata.namespace, uid: obj.metadata.uid as string };
}
