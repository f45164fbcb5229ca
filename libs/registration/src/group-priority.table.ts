import type { GroupVersionPriority, RegistrationSource } from './registration.types';

/** Priority of every CRD group/version (kube's crdregistration controller: 1000/100). */
export const CRD_GROUP_PRIORITY: GroupVersionPriority = Object.freeze({ groupPriorityMinimum: 1000, versionPriority: 100 });

const entry = (groupPriorityMinimum: number, versionPriority: number): GroupVersionPriority =>
  Object.freeze({ groupPriorityMinimum, versionPriority });

/**
 * kube's built-in APIService priorities (k/kubernetes pkg/controlplane/apiserver/aggregator.go), keyed by
 * "<group>/<version>" with "" for the core group. Higher groupPriorityMinimum sorts first in discovery.
 */
export const GROUP_PRIORITIES: Readonly<Record<string, GroupVersionPriority>> = Object.freeze({
  '/v1': entry(18000, 1),
  'apps/v1': entry(17800, 15),
  'events.k8s.io/v1': entry(17750, 15),
  'authentication.k8s.io/v1': entry(17700, 15),
  'authentication.k8s.io/v1beta1': entry(17700, 9),
  'authorization.k8s.io/v1': entry(17600, 15),
  'autoscaling/v2': entry(17500, 30),
  'autoscaling/v1': entry(17500, 15),
  'batch/v1': entry(17400, 15),
  'certificates.k8s.io/v1': entry(17300, 15),
  'networking.k8s.io/v1': entry(17200, 15),
  'policy/v1': entry(17100, 15),
  'rbac.authorization.k8s.io/v1': entry(17000, 15),
  'storage.k8s.io/v1': entry(16800, 15),
  'apiextensions.k8s.io/v1': entry(16700, 15),
  'admissionregistration.k8s.io/v1': entry(16700, 15),
  'scheduling.k8s.io/v1': entry(16600, 15),
  'coordination.k8s.io/v1': entry(16500, 15),
  'node.k8s.io/v1': entry(16300, 15),
  'discovery.k8s.io/v1': entry(16200, 15),
  'flowcontrol.apiserver.k8s.io/v1': entry(16100, 21),
});

/**
 * The priorities to announce for a group/version: CRD group/versions always get 1000/100; built-ins come from
 * GROUP_PRIORITIES. An unknown built-in gives undefined, as kube skips it rather than guess (a guessed
 * priority could reorder discovery): such a service must announce explicit priorities.
 */
export function priorityFor(group: string, version: string, source: RegistrationSource): GroupVersionPriority | undefined {
  if (source === 'crd') return CRD_GROUP_PRIORITY;
  return GROUP_PRIORITIES[`${group}/${version}`];
}
