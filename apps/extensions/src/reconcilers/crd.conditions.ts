import { validateStructuralSchema } from '@kube/apiextensions';
import type { JSONSchemaProps } from '@kube/apimachinery';
import { nowTimestamp } from '@kube/apiserver';
import { setCondition, type CustomResourceDefinition, type CustomResourceDefinitionCondition } from '../crd/crd.types';
import { checkNames } from './crd-names';

export { CUSTOM_RESOURCE_CLEANUP_FINALIZER as CLEANUP_FINALIZER } from '../crd/crd.types';
const APPROVAL_ANNOTATION = 'api-approved.kubernetes.io';

type Condition = CustomResourceDefinitionCondition;

function condition(type: string, status: 'True' | 'False', reason: string, message: string): Condition {
  return { type, status, reason, message, lastTransitionTime: nowTimestamp() };
}

/**
 * `conditions` with `next` set by kube's SetCRDCondition (setCondition): in place, lastTransitionTime kept while
 * the status holds. In place matters: appending made every pass reorder the conditions, so each new CRD got a
 * second, empty status write (one more etcd commit between the CRD and its first custom resource).
 */
export function withCondition(conditions: readonly Condition[], next: Condition): Condition[] {
  const holder = { status: { conditions: conditions.map((c) => ({ ...c })) } } as unknown as CustomResourceDefinition;
  const { lastTransitionTime, ...rest } = next;
  setCondition(holder, rest, lastTransitionTime ? Date.parse(lastTransitionTime) : Date.now());
  return holder.status?.conditions ?? [];
}

export function withoutCondition(conditions: readonly Condition[], type: string): Condition[] {
  return conditions.filter((c) => c.type !== type);
}

function isProtectedGroup(group: string): boolean {
  return group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

function approvalCondition(crd: CustomResourceDefinition): Condition | undefined {
  if (!isProtectedGroup(crd.spec.group)) return undefined;
  const value = crd.metadata.annotations?.[APPROVAL_ANNOTATION];
  if (value === undefined) {
    return condition('KubernetesAPIApprovalPolicyConformant', 'False', 'MissingAnnotation', `protected groups must have approval annotation "${APPROVAL_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111`);
  }
  if (value.startsWith('unapproved')) return condition('KubernetesAPIApprovalPolicyConformant', 'False', 'UnapprovedAnnotation', `not approved: "${value}"`);
  return condition('KubernetesAPIApprovalPolicyConformant', 'True', 'ApprovedAnnotation', `approved in ${value}`);
}

function structuralCondition(crd: CustomResourceDefinition): Condition | undefined {
  const problems = crd.spec.versions.flatMap((v, i) =>
    v.schema?.openAPIV3Schema ? validateStructuralSchema(v.schema.openAPIV3Schema as JSONSchemaProps, `spec.versions[${i}].schema.openAPIV3Schema`).map((e) => e.toString()) : [],
  );
  return problems.length ? condition('NonStructuralSchema', 'True', 'Violations', problems.join(', ')) : undefined;
}

/**
 * The status the naming, establishing, non-structural-schema and API-approval controllers would write.
 * Established stays True once set (kube never un-establishes a CRD).
 */
export function desiredStatus(crd: CustomResourceDefinition, others: readonly CustomResourceDefinition[]): NonNullable<CustomResourceDefinition['status']> {
  const status = crd.status ?? {};
  let conditions = [...(status.conditions ?? [])];
  const names = checkNames(crd, others);
  conditions = withCondition(conditions, condition('NamesAccepted', names.accepted ? 'True' : 'False', names.reason, names.message));
  const established = conditions.find((c) => c.type === 'Established')?.status === 'True';
  if (names.accepted && !established) conditions = withCondition(conditions, condition('Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'));
  if (!names.accepted && !established) conditions = withCondition(conditions, condition('Established', 'False', 'NotAccepted', 'not all names are accepted'));
  const structural = structuralCondition(crd);
  conditions = structural ? withCondition(conditions, structural) : withoutCondition(conditions, 'NonStructuralSchema');
  const approval = approvalCondition(crd);
  conditions = approval ? withCondition(conditions, approval) : withoutCondition(conditions, 'KubernetesAPIApprovalPolicyConformant');
  const n = crd.spec.names;
  const acceptedNames = names.accepted
    ? { plural: n.plural, singular: n.singular ?? n.kind.toLowerCase(), shortNames: n.shortNames, kind: n.kind, listKind: n.listKind ?? `${n.kind}List`, categories: n.categories }
    : (status.acceptedNames ?? { plural: '', kind: '' });
  const storage = crd.spec.versions.find((v) => v.storage)?.name;
  const storedVersions = [...(status.storedVersions ?? [])];
  if (storage && !storedVersions.includes(storage)) storedVersions.push(storage);
  return { ...status, conditions, acceptedNames: dropUndefined(acceptedNames), storedVersions };
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** Status for a CRD whose deletion started: Terminating with the given stage. */
export function terminatingStatus(crd: CustomResourceDefinition, reason: 'InstanceDeletionPending' | 'InstanceDeletionInProgress', message: string): NonNullable<CustomResourceDefinition['status']> {
  const status = crd.status ?? {};
  return { ...status, conditions: withCondition(status.conditions ?? [], condition('Terminating', 'True', reason, message)) };
}
