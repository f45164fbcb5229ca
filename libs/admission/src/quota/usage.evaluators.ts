/**
 * kube's quota evaluators (pkg/quota/v1/evaluator/core and k8s.io/apiserver/pkg/quota/v1/generic): for each
 * resource, which quota names it charges, how much one object uses, which quota scopes select it, and (pods) the
 * requests/limits a quota makes mandatory. Used by the ResourceQuota admission plugin and the quota controller.
 */
import { Quantity, type GroupResource, type KubeObject } from '@kube/apimachinery';
import type { AdmissionOperation } from '../admission.types';
import { add, toResourceList, type ResourceList } from './resource-list';
import { listOf, podTotals, type PodResourcesSpec } from './pod-resources';
import { isExtendedResourceName, LIMITS_PREFIX, OBJECT_COUNT_PREFIX, objectCountResourceName, REQUESTS_PREFIX } from './resource-names';
import type { ScopedResourceSelectorRequirement } from './resource-quota.types';

export interface QuotaEvaluator {
  readonly groupResource: GroupResource;
  /** Charges nothing but one per object (`count/…` and legacy names): usage is a count of keys. */
  readonly objectCount?: boolean;
  /** Whether a write with this operation (and subresource) can change usage. */
  handles(operation: AdmissionOperation, subresource: string): boolean;
  /** The names among `names` (a quota's hard list) this evaluator charges. */
  matchingResources(names: Iterable<string>): string[];
  /** Whether one scope requirement of a quota selects the object (no scopes: every object). */
  matchesScope(scope: ScopedResourceSelectorRequirement, obj: KubeObject): boolean;
  /** What the object uses. */
  usage(obj: KubeObject): ResourceList;
  /** Why the object cannot be admitted while a quota tracks `required` (e.g. containers without limits). */
  constraints?(required: readonly string[], obj: KubeObject): string | undefined;
}

const ONE = Quantity.fromInt(1);

function named(names: readonly string[]): (input: Iterable<string>) => string[] {
  const set = new Set(names);
  return (input) => [...input].filter((n) => set.has(n));
}

const noScope = (): boolean => false;

/**
 * The object-count evaluator kube builds for any resource: `count/<resource>[.<group>]` (and the legacy name
 * for configmaps, secrets, …) charged 1 on create.
 */
export function objectCountEvaluator(gr: GroupResource, legacyName?: string): QuotaEvaluator {
  const names = [objectCountResourceName(gr.group, gr.resource), ...(legacyName ? [legacyName] : [])];
  return {
    groupResource: gr,
    objectCount: true,
    handles: (operation) => operation === 'CREATE',
    matchingResources: named(names),
    matchesScope: noScope,
    usage: () => new Map(names.map((n) => [n, ONE])),
  };
}

// ---------------------------------------------------------------------------
// Pods (evaluator/core/pods.go)
// ---------------------------------------------------------------------------

interface PodSpec extends PodResourcesSpec {
  activeDeadlineSeconds?: number | null;
  priorityClassName?: string;
  affinity?: { podAffinity?: PodAffinity; podAntiAffinity?: PodAffinity };
}
interface PodAffinityTerm {
  namespaces?: string[];
  namespaceSelector?: unknown;
}
interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: { podAffinityTerm?: PodAffinityTerm }[];
}
interface Pod extends KubeObject {
  spec?: PodSpec;
  status?: { phase?: string };
}

const POD_OBJECT_COUNT = objectCountResourceName('', 'pods');
const POD_RESOURCES: readonly string[] = [
  POD_OBJECT_COUNT, 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods',
];
const POD_RESOURCE_SET = new Set(POD_RESOURCES);
const POD_RESOURCE_PREFIXES = ['hugepages-', 'requests.hugepages-'];
/** The names a quota on which makes every container state them (the "BACKWARD COMPATIBILITY REQUIREMENT"). */
const CONTAINER_REQUIRED: ReadonlySet<string> = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** Usage of one container's (or a whole pod's) requests and limits: podComputeUsageHelper. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const result: ResourceList = new Map([['pods', ONE]]);
  for (const base of ['cpu', 'memory', 'ephemeral-storage']) {
    const request = requests.get(base);
    if (request) {
      result.set(base, request);
      result.set(REQUESTS_PREFIX + base, request);
    }
    const limit = limits.get(base);
    if (limit) result.set(LIMITS_PREFIX + base, limit);
  }
  for (const [name, request] of requests) {
    if (name.startsWith('hugepages-')) {
      result.set(name, request);
      result.set(REQUESTS_PREFIX + name, request);
    }
    if (isExtendedResourceName(name)) result.set(REQUESTS_PREFIX + name, request);
  }
  return result;
}

/** QuotaV1Pod: pods that reached a terminal phase use no compute resources (they still count in count/pods). */
function podUsesCompute(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

function isBestEffort(pod: Pod): boolean {
  const spec = pod.spec ?? {};
  for (const c of [...listOf(spec.initContainers), ...listOf(spec.containers)]) {
    for (const list of [c.resources?.requests, c.resources?.limits]) {
      const parsed = toResourceList(list);
      if (['cpu', 'memory'].some((r) => parsed.get(r) && !(parsed.get(r) as Quantity).isZero())) return false;
    }
  }
  return true;
}

function usesCrossNamespacePodAffinity(pod: Pod): boolean {
  const affinity = pod.spec?.affinity;
  const terms = [affinity?.podAffinity, affinity?.podAntiAffinity].flatMap((a) => [
    ...listOf(a?.requiredDuringSchedulingIgnoredDuringExecution),
    ...listOf(a?.preferredDuringSchedulingIgnoredDuringExecution).map((w) => w.podAffinityTerm ?? {}),
  ]);
  return terms.some((t) => listOf(t.namespaces).length > 0 || (t.namespaceSelector !== undefined && t.namespaceSelector !== null));
}

function matchesPriorityClass(scope: ScopedResourceSelectorRequirement, pod: Pod): boolean {
  const name = pod.spec?.priorityClassName ?? '';
  switch (scope.operator) {
    case 'Exists':
      return name !== '';
    case 'DoesNotExist':
      return name === '';
    case 'In':
      return name !== '' && listOf(scope.values).includes(name);
    case 'NotIn':
      return name === '' || !listOf(scope.values).includes(name);
    default:
      return false;
  }
}

export const podEvaluator: QuotaEvaluator = {
  groupResource: { group: '', resource: 'pods' },
  // In-place resize (beta, on in 1.33) changes usage through updates.
  handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
  matchingResources: (input) =>
    [...input].filter((n) => POD_RESOURCE_SET.has(n) || POD_RESOURCE_PREFIXES.some((p) => n.startsWith(p)) || (n.startsWith(REQUESTS_PREFIX) && isExtendedResourceName(n.slice(REQUESTS_PREFIX.length)))),
  matchesScope(scope, obj) {
    const pod = obj as Pod;
    switch (scope.scopeName) {
      case 'Terminating':
        return typeof pod.spec?.activeDeadlineSeconds === 'number' && pod.spec.activeDeadlineSeconds >= 0;
      case 'NotTerminating':
        return !(typeof pod.spec?.activeDeadlineSeconds === 'number' && pod.spec.activeDeadlineSeconds >= 0);
      case 'BestEffort':
        return isBestEffort(pod);
      case 'NotBestEffort':
        return !isBestEffort(pod);
      case 'PriorityClass':
        return matchesPriorityClass(scope, pod);
      case 'CrossNamespacePodAffinity':
        return usesCrossNamespacePodAffinity(pod);
      default:
        return false;
    }
  },
  usage(obj) {
    const pod = obj as Pod;
    const result: ResourceList = new Map([[POD_OBJECT_COUNT, ONE]]);
    if (!podUsesCompute(pod)) return result;
    const spec = pod.spec ?? {};
    return add(result, computeUsage(podTotals(spec, 'requests', true), podTotals(spec, 'limits', true)));
  },
  constraints(required, obj) {
    const requiredSet = required.filter((r) => CONTAINER_REQUIRED.has(r));
    if (requiredSet.length === 0) return undefined;
    const spec = (obj as Pod).spec ?? {};
    const missing = new Map<string, Set<string>>();
    for (const c of [...listOf(spec.containers), ...listOf(spec.initContainers)]) {
      const has = computeUsage(toResourceList(c.resources?.requests), toResourceList(c.resources?.limits));
      for (const r of requiredSet) {
        if (has.has(r)) continue;
        const names = missing.get(r) ?? new Set<string>();
        names.add(c.name ?? '');
        missing.set(r, names);
      }
    }
    if (missing.size === 0) return undefined;
    const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...(missing.get(r) as Set<string>)].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  },
};

// ---------------------------------------------------------------------------
// Services (evaluator/core/services.go)
// ---------------------------------------------------------------------------

interface Service extends KubeObject {
  spec?: { type?: string; ports?: unknown[]; allocateLoadBalancerNodePorts?: boolean };
}

const SERVICE_RESOURCES = ['services', objectCountResourceName('', 'services'), 'services.loadbalancers', 'services.nodeports'];

export const serviceEvaluator: QuotaEvaluator = {
  groupResource: { group: '', resource: 'services' },
  // A type change (ClusterIP → LoadBalancer) changes usage.
  handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
  matchingResources: named(SERVICE_RESOURCES),
  matchesScope: noScope,
  usage(obj) {
    const spec = (obj as Service).spec ?? {};
    const ports = listOf(spec.ports).length;
    const type = spec.type ?? 'ClusterIP';
    const nodePorts = type === 'NodePort' || (type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false) ? ports : 0;
    return new Map([
      ['services', ONE],
      [objectCountResourceName('', 'services'), ONE],
      ['services.loadbalancers', Quantity.fromInt(type === 'LoadBalancer' ? 1 : 0)],
      ['services.nodeports', Quantity.fromInt(nodePorts)],
    ]);
  },
};

// ---------------------------------------------------------------------------
// PersistentVolumeClaims (evaluator/core/persistent_volume_claims.go)
// ---------------------------------------------------------------------------

interface PersistentVolumeClaim extends KubeObject {
  spec?: { storageClassName?: string; resources?: { requests?: Record<string, unknown> } };
  status?: { allocatedResources?: Record<string, unknown> };
}

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';

export const persistentVolumeClaimEvaluator: QuotaEvaluator = {
  groupResource: { group: '', resource: 'persistentvolumeclaims' },
  handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
  matchingResources: (input) =>
    [...input].filter((n) => ['persistentvolumeclaims', objectCountResourceName('', 'persistentvolumeclaims'), 'requests.storage'].includes(n) || n.includes(STORAGE_CLASS_SUFFIX)),
  matchesScope: noScope,
  usage(obj) {
    const pvc = obj as PersistentVolumeClaim;
    const className = pvc.spec?.storageClassName ?? pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
    const result: ResourceList = new Map([
      ['persistentvolumeclaims', ONE],
      [objectCountResourceName('', 'persistentvolumeclaims'), ONE],
    ]);
    if (className) result.set(`${className}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, ONE);
    // The larger of the request and what an expansion already allocated.
    let storage = toResourceList(pvc.spec?.resources?.requests).get('storage');
    const allocated = toResourceList(pvc.status?.allocatedResources).get('storage');
    if (allocated && (!storage || allocated.cmp(storage) > 0)) storage = allocated;
    if (storage) {
      result.set('requests.storage', storage);
      if (className) result.set(`${className}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
    return result;
  },
};

// ---------------------------------------------------------------------------
// The registry
// ---------------------------------------------------------------------------

/** Names kube's object-count evaluators charge besides `count/…` (pkg/quota/v1/evaluator/core/registry.go). */
const LEGACY_OBJECT_COUNT: Record<string, string> = {
  configmaps: 'configmaps',
  secrets: 'secrets',
  resourcequotas: 'resourcequotas',
  replicationcontrollers: 'replicationcontrollers',
};

/** Never charged (kube's default ignoredResources): nothing is stored, or quota would lock out its own writes. */
const IGNORED: ReadonlySet<string> = new Set([
  'events.', 'tokenreviews.authentication.k8s.io', 'selfsubjectreviews.authentication.k8s.io',
  'subjectaccessreviews.authorization.k8s.io', 'selfsubjectaccessreviews.authorization.k8s.io',
  'localsubjectaccessreviews.authorization.k8s.io', 'selfsubjectrulesreviews.authorization.k8s.io',
]);

const CORE_EVALUATORS = new Map<string, QuotaEvaluator>([
  ['pods', podEvaluator],
  ['services', serviceEvaluator],
  ['persistentvolumeclaims', persistentVolumeClaimEvaluator],
  ...Object.entries(LEGACY_OBJECT_COUNT).map(([resource, legacy]): [string, QuotaEvaluator] => [resource, objectCountEvaluator({ group: '', resource }, legacy)]),
]);

const generic = new Map<string, QuotaEvaluator>();

/** The evaluators that charge any of these quota names (`count/<resource>[.<group>]` names any resource). */
export function evaluatorsFor(names: Iterable<string>): QuotaEvaluator[] {
  const found = new Set<QuotaEvaluator>();
  for (const name of names) {
    if (name.startsWith(OBJECT_COUNT_PREFIX)) {
      const rest = name.slice(OBJECT_COUNT_PREFIX.length);
      const dot = rest.indexOf('.');
      const evaluator = evaluatorFor(dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) });
      if (evaluator) found.add(evaluator);
      continue;
    }
    for (const evaluator of CORE_EVALUATORS.values()) if (evaluator.matchingResources([name]).length) found.add(evaluator);
  }
  return [...found];
}

/** The evaluator of a resource (kube builds an object-count one for any resource it has none for); undefined when ignored. */
export function evaluatorFor(gr: GroupResource): QuotaEvaluator | undefined {
  const key = `${gr.resource}.${gr.group}`;
  if (IGNORED.has(key)) return undefined;
  if (gr.group === '') {
    const core = CORE_EVALUATORS.get(gr.resource);
    if (core) return core;
  }
  let evaluator = generic.get(key);
  if (!evaluator) {
    evaluator = objectCountEvaluator(gr);
    generic.set(key, evaluator);
  }
  return evaluator;
}
