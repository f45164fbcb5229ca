// API Priority and Fairness: the flowcontrol.apiserver.k8s.io/v1 types, kube's bootstrap objects and defaults,
// the classifier and fair queuing the front door's withPriorityAndFairness filter runs on.
export * from './flowcontrol.types';
export { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS, MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS } from './flowcontrol.bootstrap';
export { defaultFlowSchema, defaultPriorityLevel } from './flowcontrol.defaults';
export { FlowControl, type FlowControlOptions } from './flow-control';
export { flowSchemasFromInformers, FLOW_SCHEMAS_RESOURCE, PRIORITY_LEVELS_RESOURCE } from './flowcontrol.informers';
