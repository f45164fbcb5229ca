/**
 * scheduling.k8s.io/v1 PriorityClass (pkg/apis/scheduling: defaults, validation, the two system classes and
 * their protection from pkg/registry/scheduling/priorityclass) and node.k8s.io/v1 RuntimeClass.
 */
import { Errors, FieldError, type KubeObject } from '@kube/apimachinery';
import type { AdmissionAttributes, AdmissionPlugin, ResourceDefinition } from '@kube/apiserver';
import { column } from './cluster.helpers';
import { ageColumn, NONE } from './table.helpers';
import { validateDNS1123Label, validateEnum, validateImmutableField } from './validation.helpers';

export interface PriorityClass extends KubeObject {
  value?: number;
  globalDefault?: boolean;
  description?: string;
  preemptionPolicy?: string;
}

const SYSTEM_PREFIX = 'system-';
/** HighestUserDefinablePriority. */
const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
const PREEMPTION_POLICIES = ['Never', 'PreemptLowerPriority'];

/** kube's SystemPriorityClasses, created at start and never deleted. */
export const SYSTEM_PRIORITY_CLASSES: readonly PriorityClass[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: 2_000_001_000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: 2_000_000_000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/** IsKnownSystemPriorityClass: undefined when it is, else why not. */
function systemClassMismatch(pc: PriorityClass): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((s) => s.metadata.name === pc.metadata.name);
  if (!known) return `${pc.metadata.name} is not a known system priority class`;
  if (known.value !== pc.value) return `value of ${known.metadata.name} PriorityClass must be ${known.value}`;
  if (!!pc.globalDefault !== false) return `globalDefault of ${known.metadata.name} PriorityClass must be false`;
  return undefined;
}

/** ValidatePriorityClass. */
export function validatePriorityClass(pc: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  if ((pc.metadata.name ?? '').startsWith(SYSTEM_PREFIX)) {
    const why = systemClassMismatch(pc);
    if (why) errs.push(FieldError.forbidden('metadata.name', `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${why}`));
  } else if ((pc.value ?? 0) > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(FieldError.forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (pc.preemptionPolicy !== undefined) errs.push(...validateEnum(pc.preemptionPolicy, 'preemptionPolicy', PREEMPTION_POLICIES));
  return errs;
}

/** ValidatePriorityClassUpdate: value and preemptionPolicy never change. */
export function validatePriorityClassUpdate(pc: PriorityClass, old: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  if (pc.value !== old.value) errs.push(FieldError.forbidden('value', 'may not be changed in an update.'));
  errs.push(...validateImmutableField(pc.preemptionPolicy, old.preemptionPolicy, 'preemptionPolicy'));
  return [...errs, ...validatePriorityClass(pc)];
}

export const priorityClassesResource: ResourceDefinition = {
  group: 'scheduling.k8s.io',
  version: 'v1',
  kind: 'PriorityClass',
  plural: 'priorityclasses',
  singular: 'priorityclass',
  shortNames: ['pc'],
  namespaced: false,
  strategy: {
    allowCreateOnUpdate: false,
    default: (obj) => {
      (obj as PriorityClass).preemptionPolicy ??= 'PreemptLowerPriority';
    },
    validate: (obj) => validatePriorityClass(obj as PriorityClass),
    validateUpdate: (obj, old) => validatePriorityClassUpdate(obj as PriorityClass, old as PriorityClass),
  },
  tableColumns: [
    column<PriorityClass>('Value', 'integer', 'value represents the integer value of this priority class.', (pc) => pc.value ?? 0),
    column<PriorityClass>('Global-Default', 'boolean', 'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class.', (pc) => pc.globalDefault ?? false),
    ageColumn,
    column<PriorityClass>('PreemptionPolicy', 'string', 'preemptionPolicy is the Policy for preempting pods with lower priority.', (pc) => pc.preemptionPolicy ?? ''),
  ],
};

/** The system priority classes cannot be deleted (kube's priorityclass REST Delete). */
export class SystemPriorityClassProtection implements AdmissionPlugin {
  readonly name = 'SystemPriorityClassProtection';

  validate(attrs: AdmissionAttributes): void {
    if (attrs.operation !== 'DELETE' || attrs.resource.group !== 'scheduling.k8s.io' || attrs.resource.plural !== 'priorityclasses') return;
    if (SYSTEM_PRIORITY_CLASSES.some((s) => s.metadata.name === attrs.name)) {
      throw Errors.forbidden({ group: 'scheduling.k8s.io', resource: 'priorityclasses' }, attrs.name, 'this is a system priority class and cannot be deleted');
    }
  }
}

// ---- node.k8s.io/v1 RuntimeClass ----

export interface RuntimeClass extends KubeObject {
  handler?: string;
  overhead?: unknown;
  scheduling?: unknown;
}

export const runtimeClassesResource: ResourceDefinition = {
  group: 'node.k8s.io',
  version: 'v1',
  kind: 'RuntimeClass',
  plural: 'runtimeclasses',
  singular: 'runtimeclass',
  namespaced: false,
  strategy: {
    validate: (obj) => {
      const handler = (obj as RuntimeClass).handler;
      return handler ? validateDNS1123Label(handler, 'handler') : [FieldError.required('handler')];
    },
    validateUpdate: (obj, old) => validateImmutableField((obj as RuntimeClass).handler, (old as RuntimeClass).handler, 'handler'),
  },
  tableColumns: [column<RuntimeClass>('Handler', 'string', 'handler specifies the underlying runtime and configuration that the CRI implementation will use to handle pods of this class.', (rc) => rc.handler ?? NONE)],
};
