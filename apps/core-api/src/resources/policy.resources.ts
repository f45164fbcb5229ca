/**
 * policy/v1 PodDisruptionBudget (pkg/apis/policy/validation, printPodDisruptionBudget) and the Pod `eviction`
 * subresource honouring them as kube's pkg/registry/core/pod/storage/eviction.go does. No disruption
 * controller computes PDB status: whoever owns the budget writes it through /status.
 */
import { Errors, FieldError, isStatusError, labelSelectorFromMetav1, StatusError, validateLabelSelector, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import { nowTimestamp, statusSubresource, type ResourceDefinition, type SubresourceStrategy } from '@kube/apiserver';
import type { StorageInterface } from '@kube/storage';
import { column } from './cluster.helpers';
import { validateAtMost100Percent, validatePositiveIntOrPercent, type IntOrString } from './workload.validation';
import { isRecord, validateEnum } from './validation.helpers';

export interface PodDisruptionBudget extends KubeObject {
  spec?: { minAvailable?: IntOrString; maxUnavailable?: IntOrString; selector?: MetaV1LabelSelector | null; unhealthyPodEvictionPolicy?: string };
  status?: {
    observedGeneration?: number;
    disruptedPods?: Record<string, string>;
    disruptionsAllowed?: number;
    currentHealthy?: number;
    desiredHealthy?: number;
    expectedPods?: number;
    conditions?: unknown[];
  };
}

const UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

/** ValidatePodDisruptionBudgetSpec. */
export function validatePodDisruptionBudget(pdb: PodDisruptionBudget): FieldError[] {
  const spec = pdb.spec ?? {};
  const errs: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) errs.push(FieldError.invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  for (const field of ['minAvailable', 'maxUnavailable'] as const) {
    const value = spec[field];
    if (value === undefined) continue;
    errs.push(...validatePositiveIntOrPercent(value, `spec.${field}`), ...validateAtMost100Percent(value, `spec.${field}`));
  }
  errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  if (spec.unhealthyPodEvictionPolicy !== undefined) errs.push(...validateEnum(spec.unhealthyPodEvictionPolicy, 'spec.unhealthyPodEvictionPolicy', UNHEALTHY_POD_EVICTION_POLICIES));
  return errs;
}

/** ValidatePodDisruptionBudgetStatusUpdate: counts are never negative. */
export function validatePodDisruptionBudgetStatus(pdb: PodDisruptionBudget): FieldError[] {
  const status = pdb.status ?? {};
  const errs: FieldError[] = [];
  for (const field of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const) {
    const value = status[field] ?? 0;
    if (value < 0) errs.push(FieldError.invalid(`status.${field}`, value, 'must be greater than or equal to 0'));
  }
  return errs;
}

/** The status kube's PrepareForCreate leaves (every count 0: the v1 fields are not omitempty). */
function emptyStatus(): NonNullable<PodDisruptionBudget['status']> {
  return { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
}

export const podDisruptionBudgetsResource: ResourceDefinition = {
  tracksGeneration: true,
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  singular: 'poddisruptionbudget',
  shortNames: ['pdb'],
  namespaced: true,
  subresources: { status: statusSubresource((obj) => validatePodDisruptionBudgetStatus(obj as PodDisruptionBudget)) },
  strategy: {
    allowCreateOnUpdate: false,
    prepareForCreate: (obj) => {
      (obj as PodDisruptionBudget).status = emptyStatus();
    },
    validate: (obj) => validatePodDisruptionBudget(obj as PodDisruptionBudget),
  },
  tableColumns: [
    column<PodDisruptionBudget>('Min Available', 'string', 'The minimum number of pods that must be available simultaneously. This can be either an integer or a string specifying a percentage, e.g. "28%".', (p) => (p.spec?.minAvailable !== undefined ? String(p.spec.minAvailable) : 'N/A')),
    column<PodDisruptionBudget>('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable simultaneously. This can be either an integer or a string specifying a percentage, e.g. "28%".', (p) => (p.spec?.maxUnavailable !== undefined ? String(p.spec.maxUnavailable) : 'N/A')),
    column<PodDisruptionBudget>('Allowed Disruptions', 'integer', 'Number of pod disruptions that are currently allowed.', (p) => p.status?.disruptionsAllowed ?? 0),
  ],
};

// ---------------------------------------------------------------------------
// pods/eviction
// ---------------------------------------------------------------------------

/** Where an eviction reads budgets and deletes the pod. */
export interface EvictionStores {
  pods: StorageInterface;
  podDisruptionBudgets: StorageInterface;
}

interface Eviction extends KubeObject {
  deleteOptions?: { preconditions?: { uid?: string; resourceVersion?: string }; dryRun?: string[] } | null;
}

const EVICTION_KIND = { group: 'policy', version: 'v1', kind: 'Eviction' };
const EVICTION_API_VERSIONS = ['policy/v1', 'policy/v1beta1'];
const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
const PODS = { group: '', resource: 'pods' };

/** 429 TooManyRequests with the DisruptionBudget cause, as createTooManyRequestsError. */
function budgetViolation(message: string): StatusError {
  const err = new StatusError(429, 'TooManyRequests', VIOLATION, {});
  err.status.details = { causes: [{ reason: 'DisruptionBudget', message }] };
  return err;
}

/** A pod that is not running yet or any more can go whatever its budget says (canIgnorePDB). */
function canIgnoreBudget(pod: KubeObject): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata.deletionTimestamp;
}

async function budgetsOf(stores: EvictionStores, pod: KubeObject): Promise<PodDisruptionBudget[]> {
  const { items } = await stores.podDisruptionBudgets.list(pod.metadata.namespace);
  return (items as PodDisruptionBudget[]).filter((pdb) => {
    try {
      const selector = labelSelectorFromMetav1(pdb.spec?.selector);
      return !selector.empty && selector.matches(pod.metadata.labels);
    } catch {
      return false;
    }
  });
}

/** checkAndDecrement: refuses while the budget is unprocessed or spent, else takes one disruption. */
async function takeDisruption(stores: EvictionStores, pdbName: string, namespace: string, podName: string, dryRun: boolean): Promise<void> {
  await stores.podDisruptionBudgets.guaranteedUpdate(
    namespace,
    pdbName,
    (current) => {
      const pdb = structuredClone(current as PodDisruptionBudget);
      const status = (pdb.status ??= emptyStatus());
      if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) throw budgetViolation(`The disruption budget ${pdbName} is still being processed by the server.`);
      const allowed = status.disruptionsAllowed ?? 0;
      if (allowed < 0) throw Errors.forbidden({ group: 'policy', resource: 'poddisruptionbudgets' }, pdbName, 'pdb disruptions allowed is negative');
      if (Object.keys(status.disruptedPods ?? {}).length > 2000) throw Errors.forbidden({ group: 'policy', resource: 'poddisruptionbudgets' }, pdbName, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
      if (allowed === 0) throw budgetViolation(`The disruption budget ${pdbName} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`);
      status.disruptionsAllowed = allowed - 1;
      status.disruptedPods = { ...status.disruptedPods, [podName]: nowTimestamp() };
      return pdb;
    },
    { dryRun },
  );
}

/** Deletes the evicted pod: graceful when finalizers hold it, at once otherwise. */
async function deletePod(stores: EvictionStores, pod: KubeObject, preconditions: { uid?: string; resourceVersion?: string } | undefined, dryRun: boolean): Promise<void> {
  const { namespace, name } = pod.metadata;
  if (pod.metadata.finalizers?.length) {
    await stores.pods.guaranteedUpdate(
      namespace,
      name as string,
      (current) => {
        const next = structuredClone(current as KubeObject);
        next.metadata.deletionTimestamp ??= nowTimestamp();
        next.metadata.deletionGracePeriodSeconds = 0;
        return next;
      },
      { preconditions, dryRun },
    );
    return;
  }
  await stores.pods.delete(namespace, name as string, { preconditions: preconditions ?? { uid: pod.metadata.uid }, dryRun });
}

/** POST pods/<name>/eviction: a policy/v1 Eviction in, 201 Success out, or 429 when a budget forbids it. */
export function podEvictionSubresource(stores: EvictionStores): SubresourceStrategy {
  return {
    verbs: ['create'],
    discovered: true,
    prepareForUpdate: (_incoming, old) => old,
    creater: {
      kind: EVICTION_KIND,
      create: async (pod: KubeObject, body: unknown, ctx): Promise<KubeObject> => {
        const eviction = (isRecord(body) ? body : {}) as Eviction;
        if (eviction.kind !== undefined && eviction.kind !== 'Eviction') throw Errors.badRequest(`the kind in the data (${String(eviction.kind)}) does not match the expected kind (Eviction)`);
        if (eviction.apiVersion !== undefined && !EVICTION_API_VERSIONS.includes(eviction.apiVersion)) throw Errors.badRequest(`unsupported Eviction apiVersion ${String(eviction.apiVersion)}`);
        const name = pod.metadata.name as string;
        if (eviction.metadata?.name && eviction.metadata.name !== name) throw Errors.badRequest('name in URL does not match name in Eviction object');
        const dryRun = ctx.dryRun || (eviction.deleteOptions?.dryRun ?? []).includes('All');
        const preconditions = eviction.deleteOptions?.preconditions ?? undefined;
        if (!canIgnoreBudget(pod)) {
          const budgets = await budgetsOf(stores, pod);
          if (budgets.length > 1) throw Errors.internal(new Error('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.'));
          if (budgets.length === 1) await takeDisruption(stores, budgets[0].metadata.name as string, pod.metadata.namespace as string, name, dryRun);
        }
        try {
          await deletePod(stores, pod, preconditions, dryRun);
        } catch (err) {
          if (isStatusError(err) && err.code === 404) throw Errors.notFound(PODS, name);
          throw err;
        }
        return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as unknown as KubeObject;
      },
    },
  };
}
