/**
 * groupPriorityMinimum / versionPriority of the built-in group/versions (kube-aggregator's table); CRD
 * group/versions get 1000/100, anything else unknown 1000/15.
 */
const BUILT_IN: Record<string, [number, number]> = {
  '/v1': [18000, 1],
  'apps/v1': [17800, 15],
  'events.k8s.io/v1': [17750, 15],
  'authentication.k8s.io/v1': [17700, 15],
  'authorization.k8s.io/v1': [17600, 15],
  'autoscaling/v2': [17500, 30],
  'autoscaling/v1': [17500, 15],
  'batch/v1': [17400, 15],
  'certificates.k8s.io/v1': [17300, 15],
  'networking.k8s.io/v1': [17200, 15],
  'policy/v1': [17100, 15],
  'rbac.authorization.k8s.io/v1': [17000, 15],
  'storage.k8s.io/v1': [16800, 15],
  'apiextensions.k8s.io/v1': [16700, 15],
  'admissionregistration.k8s.io/v1': [16700, 15],
  'coordination.k8s.io/v1': [16500, 15],
  'discovery.k8s.io/v1': [16200, 15],
  'flowcontrol.apiserver.k8s.io/v1': [16100, 21],
  'apiregistration.k8s.io/v1': [18100, 21],
};

export function priorityFor(group: string, version: string, source: 'onstart' | 'crd' | 'remote' = 'onstart'): { groupPriorityMinimum: number; versionPriority: number } {
  const known = BUILT_IN[`${group}/${version}`];
  if (known) return { groupPriorityMinimum: known[0], versionPriority: known[1] };
  return source === 'crd' ? { groupPriorityMinimum: 1000, versionPriority: 100 } : { groupPriorityMinimum: 1000, versionPriority: 15 };
}
