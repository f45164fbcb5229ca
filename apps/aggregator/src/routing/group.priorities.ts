import { GROUP_PRIORITIES, priorityFor as registeredPriority, type GroupVersionPriority } from '@kube/registration';

/** The aggregator's own group sorts first (kube pins apiregistration.k8s.io at the top of /apis). */
const AGGREGATOR_OWN: GroupVersionPriority = { groupPriorityMinimum: 18100, versionPriority: 21 };

/**
 * groupPriorityMinimum / versionPriority for a group/version: kube's built-in table (shared with the NATS
 * registration contract), 1000/100 for CRDs, 1000/15 for anything else unknown.
 */
export function priorityFor(group: string, version: string, source: 'onstart' | 'crd' | 'remote' = 'onstart'): GroupVersionPriority {
  if (group === 'apiregistration.k8s.io' && !GROUP_PRIORITIES[`${group}/${version}`]) return AGGREGATOR_OWN;
  return registeredPriority(group, version, source === 'crd' ? 'crd' : 'onstart') ?? { groupPriorityMinimum: 1000, versionPriority: 15 };
}
