/** The cluster groups core-api serves beside the core kinds (issue 16), in discovery order. */
import type { ResourceDefinition } from '@kube/apiserver';
import { autoscalingResources } from './autoscaling.resources';
import { certificateSigningRequestsResource } from './certificates.resources';
import { coreClusterResources } from './core-cluster.resources';
import { endpointSlicesResource } from './discovery.resources';
import { networkingResources } from './networking.resources';
import { podDisruptionBudgetsResource } from './policy.resources';
import { priorityClassesResource, runtimeClassesResource } from './scheduling.resources';
import { storageResources } from './storage.resources';

export const clusterResources: ResourceDefinition[] = [
  ...coreClusterResources,
  ...autoscalingResources,
  podDisruptionBudgetsResource,
  ...networkingResources,
  endpointSlicesResource,
  ...storageResources,
  priorityClassesResource,
  runtimeClassesResource,
  certificateSigningRequestsResource,
];
