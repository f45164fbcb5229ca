/**
 * Field tables for k8s.io/apimachinery meta/v1 messages (field numbers from pkg/apis/meta/v1/generated.proto).
 * Hand-written: only what clients send for the kinds in kind.registry.ts.
 */
import { bool, fieldsV1, int64, KEEP, map, msg, msgList, str, strList, time, type MessageSpec } from './field.schema';

export const OwnerReference: MessageSpec = {
  5: str('apiVersion', KEEP),
  1: str('kind', KEEP),
  3: str('name', KEEP),
  4: str('uid', KEEP),
  6: bool('controller', KEEP),
  7: bool('blockOwnerDeletion', KEEP),
};

export const ManagedFieldsEntry: MessageSpec = {
  1: str('manager'),
  2: str('operation'),
  3: str('apiVersion'),
  4: time('time'),
  6: str('fieldsType'),
  7: fieldsV1('fieldsV1'),
  8: str('subresource'),
};

export const ObjectMeta: MessageSpec = {
  1: str('name'),
  2: str('generateName'),
  3: str('namespace'),
  4: str('selfLink'),
  5: str('uid'),
  6: str('resourceVersion'),
  7: int64('generation'),
  8: time('creationTimestamp'),
  9: time('deletionTimestamp'),
  10: int64('deletionGracePeriodSeconds', KEEP),
  11: map('labels'),
  12: map('annotations'),
  13: msgList('ownerReferences', OwnerReference),
  14: strList('finalizers'),
  17: msgList('managedFields', ManagedFieldsEntry),
};

export const LabelSelectorRequirement: MessageSpec = {
  1: str('key', KEEP),
  2: str('operator', KEEP),
  3: strList('values'),
};

export const LabelSelector: MessageSpec = {
  1: map('matchLabels'),
  2: msgList('matchExpressions', LabelSelectorRequirement),
};

/** metav1.Condition, used in ServiceStatus.conditions. */
export const Condition: MessageSpec = {
  1: str('type', KEEP),
  2: str('status', KEEP),
  3: int64('observedGeneration'),
  4: time('lastTransitionTime'),
  5: str('reason', KEEP),
  6: str('message', KEEP),
};

export const Preconditions: MessageSpec = {
  1: str('uid', KEEP),
  2: str('resourceVersion', KEEP),
};

export const DeleteOptions: MessageSpec = {
  1: int64('gracePeriodSeconds', KEEP),
  2: msg('preconditions', Preconditions),
  3: bool('orphanDependents', KEEP),
  4: str('propagationPolicy', KEEP),
  5: strList('dryRun'),
  6: bool('ignoreStoreReadErrorWithClusterBreakingPotential', KEEP),
};

