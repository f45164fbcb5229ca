import { EventRecorder } from '../event.recorder';
import type { ControllerContext, ManagedController } from '../controller.context';
import { KubeletSimulator } from './kubelet.simulator';
import { NodeSimulator, NODES, simulatedNodeIP, simulatedNodeName } from './node.simulator';
import { PodScheduler, PODS, POD_NODE_INDEX, podNodeIndex } from './pod.scheduler';
import type { SimulationOptions } from './simulation.options';

/**
 * Simulated nodes (KUBE_SIMULATED_NODES), in the spirit of KWOK: the Nodes and their Leases, a scheduler for
 * pending pods and the kubelets that run them, as one controller of the controller-manager, so it starts and
 * stops with the leader's term like the workload controllers it exists for.
 */
export class SimulatedNodesController implements ManagedController {
  readonly name = 'simulated-nodes';
  private readonly nodes: NodeSimulator;
  private readonly scheduler: PodScheduler;
  private readonly kubelets: KubeletSimulator;

  constructor(
    private readonly ctx: ControllerContext,
    options: SimulationOptions,
  ) {
    const byName = new Map(Array.from({ length: options.nodes }, (_, i) => [simulatedNodeName(i), { hostIP: simulatedNodeIP(i), podPrefix: `10.244.${i}.` }] as const));
    const pods = ctx.informers.informerFor(PODS);
    pods.addIndexers({ [POD_NODE_INDEX]: podNodeIndex });
    this.nodes = new NodeSimulator(ctx.client, options);
    this.scheduler = new PodScheduler(ctx.client, pods, ctx.informers.informerFor(NODES), new EventRecorder(ctx.client, 'default-scheduler'), (n) => byName.has(n));
    this.kubelets = new KubeletSimulator(ctx.client, pods, options, new EventRecorder(ctx.client, 'kubelet'), (n) => byName.get(n));
  }

  async start(): Promise<void> {
    await this.nodes.start();
    this.ctx.informers.start();
    await Promise.all([this.scheduler.controller.run(), this.kubelets.controller.run()]);
  }

  async stop(): Promise<void> {
    this.nodes.stop();
    await Promise.all([this.scheduler.controller.shutDown(), this.kubelets.controller.shutDown()]);
  }
}
