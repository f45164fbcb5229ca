import { Logger } from '@nestjs/common';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { formatTimestamp } from '@kube/apiserver';
import { resourcePath, type RestClient } from '@kube/client';
import type { SimulationOptions } from './simulation.options';

export const NODES = { group: '', version: 'v1', resource: 'nodes', namespaced: false };
const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', namespaced: true };
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** Marks a Node as one of ours (KWOK marks its nodes with kwok.x-k8s.io/node=fake). */
export const SIMULATED_NODE_ANNOTATION = 'kwok.x-k8s.io/node';
export const SIMULATED_NODE_LABEL = 'kube-ts.io/simulated-node';
/** The kubelet's --node-lease-duration-seconds default. */
const LEASE_DURATION_SECONDS = 40;

export const simulatedNodeName = (i: number): string => `sim-node-${i}`;
/** The node's InternalIP (a documentation-free private range, never routed). */
export const simulatedNodeIP = (i: number): string => `172.31.${Math.floor(i / 250)}.${(i % 250) + 2}`;
/** Each node's pod CIDR, as the node-ipam controller hands out /24s of 10.244.0.0/16. */
export const simulatedPodCIDR = (i: number): string => `10.244.${i}.0/24`;

export interface Node extends KubeObject {
  spec?: { unschedulable?: boolean; taints?: Array<{ key: string; value?: string; effect: string }>; podCIDR?: string; podCIDRs?: string[] };
  status?: { allocatable?: Record<string, string>; capacity?: Record<string, string>; conditions?: Array<{ type: string; status: string }>; addresses?: Array<{ type: string; address: string }> };
}

function nodeConditions(now: string): unknown[] {
  const c = (type: string, status: string, reason: string, message: string): unknown => ({ type, status, reason, message, lastHeartbeatTime: now, lastTransitionTime: now });
  return [
    c('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    c('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    c('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    c('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
  ];
}

/** The Node a kubelet registers, as KWOK's fake node. */
export function simulatedNode(i: number, options: SimulationOptions): Node {
  const name = simulatedNodeName(i);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/os': 'linux', 'beta.kubernetes.io/arch': 'amd64', type: 'kwok', [SIMULATED_NODE_LABEL]: 'true' },
      annotations: { [SIMULATED_NODE_ANNOTATION]: 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: { podCIDR: simulatedPodCIDR(i), podCIDRs: [simulatedPodCIDR(i)] },
  };
}

function nodeStatus(i: number, options: SimulationOptions): Record<string, unknown> {
  const now = formatTimestamp(new Date());
  return {
    capacity: options.capacity,
    allocatable: options.capacity,
    conditions: nodeConditions(now),
    addresses: [
      { type: 'InternalIP', address: simulatedNodeIP(i) },
      { type: 'Hostname', address: simulatedNodeName(i) },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: '',
      systemUUID: '',
      bootID: '',
      kernelVersion: '',
      osImage: '',
      containerRuntimeVersion: 'kwok://simulated',
      kubeletVersion: 'v1.33.0-kube-ts-simulated',
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
    phase: 'Running',
  };
}

/**
 * The kubelets' part of a simulated node: the Node registered with its capacity and a Ready condition, and its
 * Lease in kube-node-lease renewed every options.leaseRenewMs (what the node lifecycle controller and
 * `kubectl get nodes` read as the heartbeat). Nodes past the configured count that we made are removed.
 */
export class NodeSimulator {
  private readonly logger = new Logger('NodeSimulator');
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly client: RestClient,
    private readonly options: SimulationOptions,
  ) {}

  async start(): Promise<void> {
    for (let i = 0; i < this.options.nodes; i++) await this.register(i);
    await this.removeExtra();
    await this.renewLeases();
    this.timer = setInterval(() => void this.renewLeases(), this.options.leaseRenewMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  private async register(i: number): Promise<void> {
    const name = simulatedNodeName(i);
    try {
      await this.client.request('POST', resourcePath(NODES), { body: simulatedNode(i, this.options) });
    } catch (err) {
      if (!(isStatusError(err) && err.code === 409)) throw err;
    }
    // The status goes through nodes/status, as the kubelet's own status updates do.
    await this.client.request('PATCH', resourcePath(NODES, undefined, name, 'status'), { body: { status: nodeStatus(i, this.options) }, contentType: 'application/merge-patch+json' });
  }

  private async removeExtra(): Promise<void> {
    const { items } = await this.client.list(resourcePath(NODES), { labelSelector: SIMULATED_NODE_LABEL });
    const wanted = new Set(Array.from({ length: this.options.nodes }, (_, i) => simulatedNodeName(i)));
    for (const node of items) {
      if (wanted.has(node.metadata.name as string)) continue;
      await this.client.request('DELETE', resourcePath(NODES, undefined, node.metadata.name)).catch(() => undefined);
    }
  }

  private async renewLeases(): Promise<void> {
    // metav1.MicroTime: microseconds.
    const renewTime = new Date().toISOString().replace(/Z$/, '000Z');
    for (let i = 0; i < this.options.nodes && !this.stopped; i++) {
      const name = simulatedNodeName(i);
      const path = resourcePath(LEASES, NODE_LEASE_NAMESPACE, name);
      try {
        await this.client.request('PATCH', path, { body: { spec: { holderIdentity: name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime } }, contentType: 'application/merge-patch+json' });
      } catch (err) {
        if (!(isStatusError(err) && err.code === 404)) {
          this.logger.warn(`lease of ${name}: ${(err as Error).message}`);
          continue;
        }
        const node = await this.client.get(resourcePath(NODES, undefined, name)).catch(() => undefined);
        const ownerReferences = node ? [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata.uid }] : undefined;
        await this.client
          .request('POST', resourcePath(LEASES, NODE_LEASE_NAMESPACE), { body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: NODE_LEASE_NAMESPACE, ownerReferences }, spec: { holderIdentity: name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime } } })
          .catch((e: unknown) => this.logger.warn(`lease of ${name}: ${(e as Error).message}`));
      }
    }
  }
}
