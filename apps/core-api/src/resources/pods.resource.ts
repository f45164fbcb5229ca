/**
 * core/v1 Pod as a stored object (no kubelet): SetDefaults_Pod, the pod strategy (status on create, QoS class),
 * ValidatePodCreate / ValidatePodUpdate for the common fields, pod field selectors and printPod. The pod spec's
 * defaults and validation, shared with the workload kinds' templates, are in pod-spec.*.ts.
 */
import { FieldError, Quantity, type KubeObject } from '@kube/apimachinery';
import { statusSubresource, type ResourceDefinition, type ResourceStrategy, type SubresourceStrategy } from '@kube/apiserver';
import { defaultEphemeralContainers, defaultPod } from './pod-spec.defaults';
import { allContainers, type Container, type PodSpec } from './pod-spec.types';
import { MAX_INT32, validatePodSpec } from './pod-spec.validation';
import { ageColumn, NONE, since } from './table.helpers';
import { child, deepCopy, ensureRecord, entriesOf, inclusiveRangeError, index, listOf, semanticEqual } from './validation.helpers';
import { fieldLabelNotSupported } from './field-labels';

export type { PodSpec } from './pod-spec.types';

// ---------------------------------------------------------------------------
// Types (the fields this file reads; everything else is kept as given)
// ---------------------------------------------------------------------------

export interface ContainerState {
  waiting?: { reason?: string };
  running?: { startedAt?: string };
  terminated?: { exitCode?: number; signal?: number; reason?: string; finishedAt?: string };
}

export interface ContainerStatus {
  name?: string;
  ready?: boolean;
  started?: boolean;
  restartCount?: number;
  state?: ContainerState;
  lastState?: ContainerState;
}

export interface PodCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

export interface PodStatus {
  phase?: string;
  reason?: string;
  conditions?: PodCondition[];
  podIP?: string;
  podIPs?: { ip?: string }[];
  nominatedNodeName?: string;
  qosClass?: string;
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
}

export interface Pod extends KubeObject {
  spec?: PodSpec;
  status?: PodStatus;
}

const SPEC = 'spec';
const specPath = (...names: string[]): string => names.reduce(child, SPEC);
const specOf = (pod: Pod): PodSpec => pod.spec ?? {};
const asPod = (obj: KubeObject): Pod => obj as Pod;

// ---------------------------------------------------------------------------
// Status on create (podStrategy.PrepareForCreate)
// ---------------------------------------------------------------------------

/** A resource.Quantity as a number (0 when unparsable), enough to compare requests and limits. */
export function quantityValue(q: string | number | undefined): number {
  return (q === undefined ? undefined : Quantity.tryParse(q))?.toNumber() ?? 0;
}

const QOS_RESOURCES: readonly string[] = ['cpu', 'memory'];

function addQuantities(into: Map<string, number>, list: Record<string, string | number> | undefined): Set<string> {
  const found = new Set<string>();
  for (const [name, q] of entriesOf(list)) {
    const value = quantityValue(q);
    if (!QOS_RESOURCES.includes(name) || value === 0) continue;
    into.set(name, (into.get(name) ?? 0) + value);
    found.add(name);
  }
  return found;
}

/** qos.ComputePodQOS: BestEffort without cpu/memory requests or limits, Guaranteed when they all match. */
export function computeQOSClass(spec: PodSpec): string {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let guaranteed = true;
  for (const c of allContainers(spec)) {
    addQuantities(requests, c.resources?.requests);
    const found = addQuantities(limits, c.resources?.limits);
    if (!QOS_RESOURCES.every((r) => found.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  const matches = requests.size === limits.size && [...requests].every(([name, v]) => Math.abs((limits.get(name) ?? 0) - v) <= 1e-9 * Math.max(1, v));
  return guaranteed && matches ? 'Guaranteed' : 'Burstable';
}

export function preparePodForCreate(pod: Pod): void {
  const spec = ensureRecord<PodSpec>(pod, SPEC);
  const status: PodStatus = { phase: 'Pending', qosClass: computeQOSClass(spec) };
  if (listOf(spec.schedulingGates).length > 0) {
    status.conditions = [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' }];
  }
  pod.status = status;
}

// ---------------------------------------------------------------------------
// Validation (ValidatePodCreate: the shared pod spec validation plus what only real pods check)
// ---------------------------------------------------------------------------

/** validateContainersOnlyForPod: images of real pods may not carry surrounding whitespace. */
function validateImageWhitespace(spec: PodSpec): FieldError[] {
  const check = (list: readonly Container[], path: string): FieldError[] =>
    list.flatMap((c, i) => {
      const image = String(c.image ?? '');
      return image !== image.trim() ? [FieldError.invalid(child(index(path, i), 'image'), image, 'must not have leading or trailing whitespace')] : [];
    });
  return [...check(listOf(spec.containers), specPath('containers')), ...check(listOf(spec.initContainers), specPath('initContainers'))];
}

function validatePodMetadataAndSpec(pod: Pod): FieldError[] {
  const spec = specOf(pod);
  return [...validatePodSpec(spec), ...validateImageWhitespace(spec)];
}

export function validatePodCreate(pod: Pod): FieldError[] {
  const spec = specOf(pod);
  const errs = validatePodMetadataAndSpec(pod);
  if (listOf(spec.ephemeralContainers).length > 0) errs.push(FieldError.forbidden(specPath('ephemeralContainers'), 'cannot be set on create'));
  if (spec.nodeName && listOf(spec.schedulingGates).length > 0) {
    errs.push(FieldError.forbidden(specPath('nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

// ---------------------------------------------------------------------------
// Update validation (ValidatePodUpdate)
// ---------------------------------------------------------------------------

export const UPDATABLE_POD_SPEC_FIELDS: readonly string[] = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

function validateActiveDeadlineUpdate(spec: PodSpec, old: PodSpec): FieldError[] {
  const path = specPath('activeDeadlineSeconds');
  const next = spec.activeDeadlineSeconds;
  const prev = old.activeDeadlineSeconds;
  if (next == null) return prev == null ? [] : [FieldError.invalid(path, null, 'must not update from a positive integer to nil value')];
  if (next < 0 || next > MAX_INT32) return [FieldError.invalid(path, next, inclusiveRangeError(0, MAX_INT32))];
  return prev != null && prev < next ? [FieldError.invalid(path, next, 'must be less than or equal to previous value')] : [];
}

/** validateOnlyAddedTolerations: existing tolerations stay (their tolerationSeconds may change). */
function validateTolerationsUpdate(spec: PodSpec, old: PodSpec): FieldError[] {
  const path = specPath('tolerations');
  const next = listOf(spec.tolerations);
  const kept = listOf(old.tolerations).every((o) => next.some((n) => semanticEqual({ ...o, tolerationSeconds: n.tolerationSeconds }, n)));
  return kept ? [] : [FieldError.forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
}

/** validateOnlyDeletedSchedulingGates. */
function validateSchedulingGatesUpdate(spec: PodSpec, old: PodSpec): FieldError[] {
  const previous = new Set(listOf(old.schedulingGates).map((g) => g.name));
  return listOf(spec.schedulingGates).flatMap((g, i) =>
    previous.has(g.name)
      ? []
      : [FieldError.forbidden(child(index(specPath('schedulingGates'), i), 'name'), `only deletion is allowed, but found new scheduling gate '${g.name ?? ''}'`)],
  );
}

/** Gated pods may gain node selector entries, never change or lose them. */
function validateNodeSelectorUpdate(spec: PodSpec, old: PodSpec): FieldError[] {
  const next = spec.nodeSelector ?? {};
  const changed = entriesOf(old.nodeSelector).some(([k, v]) => next[k] !== v);
  return changed ? [FieldError.invalid(specPath('nodeSelector'), next, 'only additions to spec.nodeSelector are allowed (no mutations or deletions)')] : [];
}

/** The new spec with every field an update may change reset to its old value. */
function mungedSpec(spec: PodSpec, old: PodSpec): PodSpec {
  const munged = deepCopy(spec);
  const withOldImages = (list: readonly Container[], previous: readonly Container[]): Container[] =>
    list.map((c, i) => ({ ...c, image: previous[i]?.image }));
  munged.containers = withOldImages(listOf(spec.containers), listOf(old.containers));
  munged.initContainers = withOldImages(listOf(spec.initContainers), listOf(old.initContainers));
  munged.activeDeadlineSeconds = old.activeDeadlineSeconds;
  munged.schedulingGates = old.schedulingGates;
  munged.tolerations = old.tolerations;
  const oldGrace = old.terminationGracePeriodSeconds;
  if (oldGrace != null && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (listOf(old.schedulingGates).length > 0) munged.nodeSelector = old.nodeSelector;
  return munged;
}

/** A short stand-in for cmp.Diff: the top-level spec fields that differ. */
function describeSpecDiff(old: PodSpec, munged: PodSpec): string {
  const keys = [...new Set([...Object.keys(old), ...Object.keys(munged)])].sort();
  const lines = keys
    .filter((k) => !semanticEqual(old[k], munged[k]))
    .flatMap((k) => [`- \t${k}: ${JSON.stringify(old[k] ?? null)},`, `+ \t${k}: ${JSON.stringify(munged[k] ?? null)},`]);
  return ['  core.PodSpec{', ...lines, '  }', ''].join('\n');
}

function validateImmutableSpec(spec: PodSpec, old: PodSpec): FieldError[] {
  if (semanticEqual(spec, old)) return [];
  const errs = listOf(old.schedulingGates).length > 0 ? validateNodeSelectorUpdate(spec, old) : [];
  const munged = mungedSpec(spec, old);
  if (semanticEqual(munged, old)) return errs;
  const message = `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS.join(',')}\n${describeSpecDiff(old, munged)}`;
  return [...errs, FieldError.forbidden(SPEC, message)];
}

export function validatePodUpdate(pod: Pod, old: Pod): FieldError[] {
  const spec = specOf(pod);
  const oldSpec = specOf(old);
  const errs = validatePodMetadataAndSpec(pod);
  for (const field of ['containers', 'initContainers'] as const) {
    if (listOf(spec[field]).length !== listOf(oldSpec[field]).length) {
      return [...errs, FieldError.forbidden(specPath(field), 'pod updates may not add or remove containers')];
    }
  }
  const deadline = validateActiveDeadlineUpdate(spec, oldSpec);
  if (deadline.length > 0) return [...errs, ...deadline];
  return [
    ...errs,
    ...validateTolerationsUpdate(spec, oldSpec),
    ...validateSchedulingGatesUpdate(spec, oldSpec),
    ...validateImmutableSpec(spec, oldSpec),
  ];
}

// ---------------------------------------------------------------------------
// pods/ephemeralcontainers (kube's EphemeralContainersREST, podEphemeralContainersStrategy)
// ---------------------------------------------------------------------------

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** ValidatePodEphemeralContainersUpdate: the pod stays valid; existing ephemeral containers are neither removed nor changed. */
export function validatePodEphemeralContainersUpdate(pod: Pod, old: Pod): FieldError[] {
  if (old.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return [FieldError.forbidden('', 'static pods do not support ephemeral containers')];
  const errs = validatePodMetadataAndSpec(pod);
  const path = specPath('ephemeralContainers');
  const next = new Map(listOf(specOf(pod).ephemeralContainers).map((c) => [c.name, c]));
  for (const previous of listOf(specOf(old).ephemeralContainers)) {
    const now = next.get(previous.name);
    if (!now) errs.push(FieldError.forbidden(path, `existing ephemeral containers "${previous.name ?? ''}" may not be removed\n`));
    else if (!semanticEqual(previous, now)) errs.push(FieldError.forbidden(path, `existing ephemeral containers "${previous.name ?? ''}" may not be changed\n`));
  }
  return errs;
}

/**
 * kube's pods/ephemeralcontainers (what `kubectl debug` patches): a write of the whole Pod that changes only
 * spec.ephemeralContainers (dropNonEphemeralContainerUpdates), each defaulted as a container.
 */
export const ephemeralContainersSubresource: SubresourceStrategy = {
  verbs: ['get', 'patch', 'update'],
  discovered: true,
  prepareForUpdate(incoming, old) {
    const obj = deepCopy(old) as Pod;
    const spec = ensureRecord<PodSpec>(obj, SPEC);
    const ephemeral = (incoming as Pod).spec?.ephemeralContainers;
    if (ephemeral === undefined) delete spec.ephemeralContainers;
    else spec.ephemeralContainers = deepCopy(ephemeral);
    defaultEphemeralContainers(spec);
    return obj;
  },
  validateUpdate: (obj, old) => validatePodEphemeralContainersUpdate(asPod(obj), asPod(old)),
};

// ---------------------------------------------------------------------------
// Field selectors (pod ToSelectableFields)
// ---------------------------------------------------------------------------

const podIP = (pod: Pod): string => listOf(pod.status?.podIPs)[0]?.ip ?? pod.status?.podIP ?? '';

export function podFields(pod: Pod): Record<string, string> {
  const spec = specOf(pod);
  return {
    'spec.nodeName': spec.nodeName ?? '',
    'spec.restartPolicy': spec.restartPolicy ?? '',
    'spec.schedulerName': spec.schedulerName ?? '',
    'spec.serviceAccountName': spec.serviceAccountName ?? '',
    'spec.hostNetwork': String(spec.hostNetwork === true),
    'status.phase': pod.status?.phase ?? '',
    'status.podIP': podIP(pod),
    'status.nominatedNodeName': pod.status?.nominatedNodeName ?? '',
  };
}

// ---------------------------------------------------------------------------
// Printing (printPod)
// ---------------------------------------------------------------------------

interface PodSummary {
  ready: number;
  total: number;
  reason: string;
  restarts: number;
  lastRestart: number;
}

const finishedAt = (s: ContainerStatus): number => {
  const at = s.lastState?.terminated?.finishedAt;
  return at ? Date.parse(at) || 0 : 0;
};

function terminatedReason(t: NonNullable<ContainerState['terminated']>, prefix: string): string {
  if (t.reason) return `${prefix}${t.reason}`;
  return t.signal ? `${prefix}Signal:${t.signal}` : `${prefix}ExitCode:${t.exitCode ?? 0}`;
}

/** Init containers: restarts, sidecar readiness, and the "Init:…" reason of the first unfinished one. */
function summarizeInitContainers(spec: PodSpec, status: PodStatus, summary: PodSummary): { initializing: boolean; sidecarRestarts: number; sidecarLastRestart: number } {
  const sidecars = new Set(listOf(spec.initContainers).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  const inits = listOf(spec.initContainers).length;
  let sidecarRestarts = 0;
  let sidecarLastRestart = 0;
  for (const [i, s] of listOf(status.initContainerStatuses).entries()) {
    summary.restarts += s.restartCount ?? 0;
    summary.lastRestart = Math.max(summary.lastRestart, finishedAt(s));
    const sidecar = sidecars.has(s.name);
    if (sidecar) {
      sidecarRestarts += s.restartCount ?? 0;
      sidecarLastRestart = Math.max(sidecarLastRestart, finishedAt(s));
    }
    const terminated = s.state?.terminated;
    if (terminated && (terminated.exitCode ?? 0) === 0) continue;
    if (sidecar && s.started) {
      if (s.ready) summary.ready++;
      continue;
    }
    const waiting = s.state?.waiting?.reason;
    if (terminated) summary.reason = terminatedReason(terminated, 'Init:');
    else if (waiting && waiting !== 'PodInitializing') summary.reason = `Init:${waiting}`;
    else summary.reason = `Init:${i}/${inits}`;
    return { initializing: true, sidecarRestarts, sidecarLastRestart };
  }
  return { initializing: false, sidecarRestarts, sidecarLastRestart };
}

const hasCondition = (status: PodStatus, type: string): boolean =>
  listOf(status.conditions).some((c) => c.type === type && c.status === 'True');

/** Regular containers, last to first: restarts, readiness, and the waiting/terminated reason. */
function summarizeContainers(status: PodStatus, summary: PodSummary): void {
  let hasRunning = false;
  for (const s of [...listOf(status.containerStatuses)].reverse()) {
    summary.restarts += s.restartCount ?? 0;
    summary.lastRestart = Math.max(summary.lastRestart, finishedAt(s));
    const { waiting, terminated, running } = s.state ?? {};
    if (waiting?.reason) summary.reason = waiting.reason;
    else if (terminated) summary.reason = terminatedReason(terminated, '');
    else if (s.ready && running) {
      hasRunning = true;
      summary.ready++;
    }
  }
  if (summary.reason === 'Completed' && hasRunning) summary.reason = hasCondition(status, 'Ready') ? 'Running' : 'NotReady';
}

export function summarizePod(pod: Pod): PodSummary {
  const spec = specOf(pod);
  const status = pod.status ?? {};
  const sidecarCount = listOf(spec.initContainers).filter((c) => c.restartPolicy === 'Always').length;
  const summary: PodSummary = { ready: 0, total: listOf(spec.containers).length + sidecarCount, reason: status.reason || status.phase || '', restarts: 0, lastRestart: 0 };
  if (listOf(status.conditions).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) summary.reason = 'SchedulingGated';
  const init = summarizeInitContainers(spec, status, summary);
  if (!init.initializing || hasCondition(status, 'Initialized')) {
    summary.restarts = init.sidecarRestarts;
    summary.lastRestart = init.sidecarLastRestart;
    summarizeContainers(status, summary);
  }
  if (pod.metadata.deletionTimestamp) {
    if (status.reason === 'NodeLost') summary.reason = 'Unknown';
    else if (status.phase !== 'Succeeded' && status.phase !== 'Failed') summary.reason = 'Terminating';
  }
  return summary;
}

function restartsCell(pod: Pod, now: number): string {
  const { restarts, lastRestart } = summarizePod(pod);
  if (restarts === 0 || lastRestart === 0) return String(restarts);
  return `${restarts} (${since(new Date(lastRestart).toISOString(), now)} ago)`;
}

function readinessGatesCell(pod: Pod): string {
  const gates = listOf(specOf(pod).readinessGates);
  if (gates.length === 0) return NONE;
  const conditions = listOf(pod.status?.conditions);
  const ready = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${ready}/${gates.length}`;
}

const orNone = (value: string | undefined): string => value || NONE;

export const podStrategy: ResourceStrategy = {
  // kube's strategy: a PUT of a missing object is 404, not a create.
  allowCreateOnUpdate: false,
  default: (obj: KubeObject) => defaultPod(ensureRecord<PodSpec>(obj, SPEC)),
  prepareForCreate: (obj: KubeObject) => preparePodForCreate(asPod(obj)),
  prepareForUpdate(obj: KubeObject, old: KubeObject): void {
    asPod(obj).status = deepCopy(asPod(old).status);
  },
  validate: (obj: KubeObject) => validatePodCreate(asPod(obj)),
  validateUpdate: (obj: KubeObject, old: KubeObject) => validatePodUpdate(asPod(obj), asPod(old)),
  fields: (obj: KubeObject) => podFields(asPod(obj)),
  unknownFieldLabel: fieldLabelNotSupported,
  // podStrategy.CheckGracefulDelete: the request's period, else the pod's terminationGracePeriodSeconds; a pod on
  // no node or already finished goes at once. The kubelet (a simulated one here) deletes it once its containers stopped.
  checkGracefulDelete(obj: KubeObject, gracePeriodSeconds: number | undefined): number {
    const pod = asPod(obj);
    if (!specOf(pod).nodeName) return 0;
    if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') return 0;
    return gracePeriodSeconds ?? specOf(pod).terminationGracePeriodSeconds ?? 0;
  },
};

export const podsResource: ResourceDefinition = {
  tracksGeneration: true,
  group: '',
  version: 'v1',
  kind: 'Pod',
  plural: 'pods',
  singular: 'pod',
  shortNames: ['po'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: statusSubresource(), ephemeralcontainers: ephemeralContainersSubresource },
  strategy: podStrategy,
  tableColumns: [
    {
      name: 'Ready',
      type: 'string',
      description: 'The aggregate readiness state of this pod for accepting traffic.',
      cell: (obj: KubeObject) => {
        const { ready, total } = summarizePod(asPod(obj));
        return `${ready}/${total}`;
      },
    },
    { name: 'Status', type: 'string', description: 'The aggregate status of the containers in this pod.', cell: (obj) => summarizePod(asPod(obj)).reason },
    {
      name: 'Restarts',
      type: 'string',
      description: 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
      cell: (obj: KubeObject, now: number = Date.now()) => restartsCell(asPod(obj), now),
    },
    ageColumn,
    {
      name: 'IP',
      type: 'string',
      priority: 1,
      description: 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
      cell: (obj) => orNone(podIP(asPod(obj))),
    },
    { name: 'Node', type: 'string', priority: 1, description: 'NodeName indicates in which node this pod is scheduled.', cell: (obj) => orNone(specOf(asPod(obj)).nodeName) },
    {
      name: 'Nominated Node',
      type: 'string',
      priority: 1,
      description: 'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods.',
      cell: (obj) => orNone(asPod(obj).status?.nominatedNodeName),
    },
    {
      name: 'Readiness Gates',
      type: 'string',
      priority: 1,
      description: 'If specified, all readiness gates will be evaluated for pod readiness.',
      cell: (obj) => readinessGatesCell(asPod(obj)),
    },
  ],
};
