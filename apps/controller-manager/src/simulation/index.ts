// Simulated nodes (KWOK-like): what other simulations and controllers reuse.
export { SimulatedNodesController } from './simulated-nodes.controller';
export { simulationOptionsFromEnv, DEFAULT_NODE_CAPACITY, type SimulationOptions } from './simulation.options';
export { NodeSimulator, simulatedNodeName, simulatedNodeIP, SIMULATED_NODE_LABEL, NODE_LEASE_NAMESPACE } from './node.simulator';
export { PodScheduler, podRequests, matchesNodeAffinity, untoleratedTaint, POD_NODE_INDEX, DEFAULT_SCHEDULER } from './pod.scheduler';
export { KubeletSimulator } from './kubelet.simulator';
export * from './pod.lifecycle';
