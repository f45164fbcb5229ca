/**
 * What a simulated kubelet writes into a pod as it moves (KWOK's pod-ready, pod-complete and pod-delete stages),
 * as pure functions of the pod: other simulations (a Job or StatefulSet test, a DaemonSet) reuse them.
 */
import type { KubeObject } from '@kube/apimachinery';
import { formatTimestamp } from '@kube/apiserver';

export interface PodCondition {
  type: string;
  status: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ContainerSpec {
  name: string;
  image?: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  ports?: Array<{ containerPort?: number; hostPort?: number; protocol?: string }>;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface Pod extends KubeObject {
  spec?: {
    nodeName?: string;
    schedulerName?: string;
    nodeSelector?: Record<string, string>;
    restartPolicy?: string;
    containers?: ContainerSpec[];
    initContainers?: ContainerSpec[];
    tolerations?: Toleration[];
    schedulingGates?: unknown[];
    readinessGates?: Array<{ conditionType: string }>;
    terminationGracePeriodSeconds?: number;
    affinity?: {
      nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] } };
    };
    topologySpreadConstraints?: unknown[];
  };
  status?: {
    phase?: string;
    conditions?: PodCondition[];
    podIP?: string;
    podIPs?: Array<{ ip: string }>;
    hostIP?: string;
    hostIPs?: Array<{ ip: string }>;
    startTime?: string;
    containerStatuses?: unknown[];
    initContainerStatuses?: unknown[];
    qosClass?: string;
    reason?: string;
    message?: string;
  };
}

/** KWOK's stage annotations: how long a pod takes to be Ready, to complete (Job pods), to go once deleted. Go durations. */
export const POD_READY_DELAY_ANNOTATION = 'pod-ready.stage.kwok.x-k8s.io/delay';
export const POD_COMPLETE_DELAY_ANNOTATION = 'pod-complete.stage.kwok.x-k8s.io/delay';
export const POD_DELETE_DELAY_ANNOTATION = 'pod-delete.stage.kwok.x-k8s.io/delay';

const DURATION_UNITS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's time.ParseDuration (milliseconds), or undefined for text that is not one. */
export function parseGoDuration(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (text === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * DURATION_UNITS[m[2]];
    matched = re.lastIndex;
  }
  return matched === text.length && matched > 0 ? total : undefined;
}

/** The pod's delay for a stage: its annotation when it parses, else the default. */
export function stageDelayMs(pod: Pod, annotation: string, defaultMs: number): number {
  return parseGoDuration(pod.metadata.annotations?.[annotation]) ?? defaultMs;
}

/** Pods that run to completion (a Job's, restartPolicy Never or OnFailure) complete; the others run until deleted. */
export function runsToCompletion(pod: Pod): boolean {
  const policy = pod.spec?.restartPolicy ?? 'Always';
  return policy !== 'Always';
}

export function isTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** podutil.IsPodReady. */
export function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The Ready condition's lastTransitionTime, for availability (minReadySeconds). */
export function readySince(pod: Pod): number | undefined {
  const c = (pod.status?.conditions ?? []).find((x) => x.type === 'Ready' && x.status === 'True');
  return c?.lastTransitionTime ? Date.parse(c.lastTransitionTime) : undefined;
}

/** A fake image ID in the form the container runtime reports. */
function imageId(image: string | undefined): string {
  return `docker.io/library/${image ?? 'unknown'}@sha256:${'0'.repeat(64)}`;
}

/** The condition list with `next` set, its transition time kept when the status did not change (podutil.UpdatePodCondition). */
export function withCondition(conditions: readonly PodCondition[], next: PodCondition): PodCondition[] {
  const out = conditions.filter((c) => c.type !== next.type);
  const prev = conditions.find((c) => c.type === next.type);
  const lastTransitionTime = prev && prev.status === next.status ? prev.lastTransitionTime : next.lastTransitionTime;
  out.push({ lastProbeTime: null, ...next, lastTransitionTime });
  return out;
}

/** The status of a pod whose containers all started on `hostIP` with `podIP` (and, without readiness gates, Ready). */
export function runningStatus(pod: Pod, hostIP: string, podIP: string, now = new Date()): NonNullable<Pod['status']> {
  const ts = formatTimestamp(now);
  const startedAt = pod.status?.startTime ?? ts;
  let conditions = pod.status?.conditions ?? [];
  const gated = (pod.spec?.readinessGates ?? []).some((g) => !conditions.some((c) => c.type === g.conditionType && c.status === 'True'));
  for (const type of ['PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'PodScheduled']) conditions = withCondition(conditions, { type, status: 'True', lastTransitionTime: ts });
  conditions = withCondition(conditions, gated ? { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: 'corresponding condition of pod readiness gate is not True', lastTransitionTime: ts } : { type: 'Ready', status: 'True', lastTransitionTime: ts });
  return {
    ...pod.status,
    phase: 'Running',
    conditions,
    hostIP,
    hostIPs: [{ ip: hostIP }],
    podIP,
    podIPs: [{ ip: podIP }],
    startTime: startedAt,
    initContainerStatuses: (pod.spec?.initContainers ?? []).map((c) => ({
      name: c.name,
      image: c.image,
      imageID: imageId(c.image),
      containerID: `containerd://${pod.metadata.uid ?? ''}-${c.name}`.slice(0, 80),
      ready: true,
      restartCount: 0,
      started: false,
      state: { terminated: { exitCode: 0, reason: 'Completed', startedAt, finishedAt: ts, containerID: `containerd://${pod.metadata.uid ?? ''}-${c.name}`.slice(0, 80) } },
      lastState: {},
    })),
    containerStatuses: (pod.spec?.containers ?? []).map((c) => ({
      name: c.name,
      image: c.image,
      imageID: imageId(c.image),
      containerID: `containerd://${pod.metadata.uid ?? ''}-${c.name}`.slice(0, 80),
      ready: true,
      restartCount: 0,
      started: true,
      state: { running: { startedAt } },
      lastState: {},
    })),
  };
}

/** The status of a pod whose containers all exited 0 (a Job pod done): Succeeded, not Ready any more. */
export function succeededStatus(pod: Pod, now = new Date()): NonNullable<Pod['status']> {
  const ts = formatTimestamp(now);
  let conditions = pod.status?.conditions ?? [];
  for (const type of ['Ready', 'ContainersReady']) conditions = withCondition(conditions, { type, status: 'False', reason: 'PodCompleted', lastTransitionTime: ts });
  conditions = withCondition(conditions, { type: 'PodReadyToStartContainers', status: 'False', lastTransitionTime: ts });
  return {
    ...pod.status,
    phase: 'Succeeded',
    conditions,
    containerStatuses: (pod.spec?.containers ?? []).map((c) => ({
      name: c.name,
      image: c.image,
      imageID: imageId(c.image),
      containerID: `containerd://${pod.metadata.uid ?? ''}-${c.name}`.slice(0, 80),
      ready: false,
      restartCount: 0,
      started: false,
      state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: pod.status?.startTime ?? ts, finishedAt: ts, containerID: `containerd://${pod.metadata.uid ?? ''}-${c.name}`.slice(0, 80) } },
      lastState: {},
    })),
  };
}
