import { parseGoDuration } from './pod.lifecycle';

/** What the simulated nodes are (KUBE_SIMULATED_NODES and friends). */
export interface SimulationOptions {
  /** How many Nodes: sim-node-0 … sim-node-(N-1). */
  nodes: number;
  /** capacity = allocatable of every node (KWOK's default node: 32 CPUs, 256Gi, 110 pods). */
  capacity: Record<string, string>;
  /** A scheduled pod turns Running and Ready after this long (a pod's pod-ready.stage.kwok.x-k8s.io/delay wins). */
  podReadyDelayMs: number;
  /** A pod that runs to completion Succeeds this long after it started (pod-complete.stage.kwok.x-k8s.io/delay wins). */
  podCompleteDelayMs: number;
  /**
   * How long a deleted pod's containers take to stop, at most its grace period (pod-delete.stage.kwok.x-k8s.io/delay
   * wins); undefined: the whole grace period, as containers that ignore SIGTERM.
   */
  podDeleteDelayMs?: number;
  /** How often each node's Lease in kube-node-lease is renewed (the kubelet: every 10 s of a 40 s lease). */
  leaseRenewMs: number;
}

export const DEFAULT_NODE_CAPACITY: Readonly<Record<string, string>> = { cpu: '32', memory: '256Gi', pods: '110', 'ephemeral-storage': '100Gi' };

function duration(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (!text) return fallback;
  const ms = parseGoDuration(text);
  if (ms === undefined) throw new Error(`${name}: ${JSON.stringify(text)} is not a duration (e.g. 1s, 500ms)`);
  return ms;
}

/**
 * KUBE_SIMULATED_NODES (0 or unset: off), KUBE_SIMULATED_NODE_CAPACITY (`cpu=32,memory=256Gi,pods=110`),
 * KUBE_SIMULATED_POD_READY_DELAY (default 1s), KUBE_SIMULATED_POD_COMPLETE_DELAY (default 5s) and
 * KUBE_SIMULATED_POD_DELETE_DELAY (default: the pod's whole grace period), Go durations.
 */
export function simulationOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SimulationOptions | undefined {
  const text = env.KUBE_SIMULATED_NODES;
  if (!text || text === '0') return undefined;
  const nodes = Number(text);
  if (!Number.isInteger(nodes) || nodes < 0 || nodes > 1000) throw new Error(`KUBE_SIMULATED_NODES: ${JSON.stringify(text)} is not a number of nodes (0-1000)`);
  const capacity: Record<string, string> = { ...DEFAULT_NODE_CAPACITY };
  for (const pair of (env.KUBE_SIMULATED_NODE_CAPACITY ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [key, value] = pair.split('=');
    if (!key || !value) throw new Error(`KUBE_SIMULATED_NODE_CAPACITY: ${JSON.stringify(pair)} is not resource=quantity`);
    capacity[key.trim()] = value.trim();
  }
  return {
    nodes,
    capacity,
    podReadyDelayMs: duration(env, 'KUBE_SIMULATED_POD_READY_DELAY', 1000),
    podCompleteDelayMs: duration(env, 'KUBE_SIMULATED_POD_COMPLETE_DELAY', 5000),
    podDeleteDelayMs: env.KUBE_SIMULATED_POD_DELETE_DELAY ? duration(env, 'KUBE_SIMULATED_POD_DELETE_DELAY', 0) : undefined,
    leaseRenewMs: 10_000,
  };
}
