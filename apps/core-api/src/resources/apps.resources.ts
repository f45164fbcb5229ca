/**
 * apps/v1: Deployment, ReplicaSet, StatefulSet, DaemonSet and ControllerRevision as stored objects (no workload
 * controllers run): SetDefaults_* of pkg/apis/apps/v1/defaults.go, the registry strategies of pkg/registry/apps,
 * pkg/apis/apps/validation with kube's paths and messages, and the printers' Table columns.
 */
import { FieldError, goLabelSelector, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import { scaleSubresource, statusSubresource, type ResourceDefinition, type ResourceStrategy, type SubresourceStrategy, type TableColumn } from '@kube/apiserver';
import { appsV1Components } from '../openapi';
import { defaultPodTemplate } from './pod-spec.defaults';
import type { PodTemplateSpec } from './pod-spec.types';
import { validatePodTemplateMeta, validatePodTemplateSpec } from './pod-spec.validation';
import { ageColumn, formatLabels, NONE } from './table.helpers';
import { ensureRecord, isRecord, listOf, notSupported, semanticEqual, validateImmutableField, type StringMap } from './validation.helpers';
import {
  asSelector,
  intOrPercentValue,
  validateAtMost100Percent,
  validateCollisionCount,
  validateLongRunningTemplate,
  validateNonnegative,
  validateNonnegativeFields,
  validatePositiveIntOrPercent,
  validateReplicaCounters,
  validateRestartAlways,
  validateSelectorMatchesTemplate,
  validateSpecSelector,
  goIntOrString,
  type IntOrString,
} from './workload.validation';

interface RollingUpdate {
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
  partition?: number;
}

interface Strategy {
  type?: string;
  rollingUpdate?: RollingUpdate | null;
}

export interface WorkloadSpec {
  replicas?: number;
  selector?: MetaV1LabelSelector;
  template?: PodTemplateSpec;
  minReadySeconds?: number;
  revisionHistoryLimit?: number | null;
  progressDeadlineSeconds?: number | null;
  strategy?: Strategy;
  updateStrategy?: Strategy;
  podManagementPolicy?: string;
  serviceName?: string;
  ordinals?: { start?: number } | null;
  persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string } | null;
  volumeClaimTemplates?: unknown[];
  [field: string]: unknown;
}

export interface Workload extends KubeObject {
  spec?: WorkloadSpec;
  status?: Record<string, unknown>;
}

const asWorkload = (obj: KubeObject): Workload => obj as Workload;
const specOf = (obj: KubeObject): WorkloadSpec => asWorkload(obj).spec ?? {};
const statusOf = (obj: KubeObject): Record<string, unknown> => asWorkload(obj).status ?? {};
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

const SPEC = 'spec';
const TEMPLATE = 'spec.template';

// ---------------------------------------------------------------------------
// Defaults (pkg/apis/apps/v1/defaults.go) — the pod template gets the pod spec's defaults in every kind
// ---------------------------------------------------------------------------

function defaultWorkload(obj: KubeObject): WorkloadSpec {
  const spec = ensureRecord<WorkloadSpec>(obj, SPEC);
  defaultPodTemplate(spec.template);
  return spec;
}

function defaultReplicas(spec: WorkloadSpec): void {
  if (spec.replicas == null) spec.replicas = 1;
}

function defaultRevisionHistoryLimit(spec: WorkloadSpec): void {
  if (spec.revisionHistoryLimit == null) spec.revisionHistoryLimit = 10;
}

/** The rollingUpdate block of a RollingUpdate strategy, created when missing. */
function rollingUpdateOf(strategy: Strategy): RollingUpdate {
  if (!isRecord(strategy.rollingUpdate)) strategy.rollingUpdate = {};
  return strategy.rollingUpdate as RollingUpdate;
}

export function defaultDeployment(obj: KubeObject): void {
  const spec = defaultWorkload(obj);
  defaultReplicas(spec);
  const strategy = ensureRecord<Strategy>(spec, 'strategy');
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = rollingUpdateOf(strategy);
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
  defaultRevisionHistoryLimit(spec);
  if (spec.progressDeadlineSeconds == null) spec.progressDeadlineSeconds = 600;
}

export function defaultReplicaSet(obj: KubeObject): void {
  defaultReplicas(defaultWorkload(obj));
}

export function defaultStatefulSet(obj: KubeObject): void {
  const spec = defaultWorkload(obj);
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  const strategy = ensureRecord<Strategy>(spec, 'updateStrategy');
  if (!strategy.type) {
    strategy.type = 'RollingUpdate';
    rollingUpdateOf(strategy);
  }
  if (strategy.type === 'RollingUpdate' && isRecord(strategy.rollingUpdate)) (strategy.rollingUpdate as RollingUpdate).partition ??= 0;
  // StatefulSetAutoDeletePVC is GA: the retention policy is always filled in.
  const retention = ensureRecord<NonNullable<WorkloadSpec['persistentVolumeClaimRetentionPolicy']>>(spec, 'persistentVolumeClaimRetentionPolicy');
  if (!retention.whenDeleted) retention.whenDeleted = 'Retain';
  if (!retention.whenScaled) retention.whenScaled = 'Retain';
  defaultReplicas(spec);
  defaultRevisionHistoryLimit(spec);
}

export function defaultDaemonSet(obj: KubeObject): void {
  const spec = defaultWorkload(obj);
  const strategy = ensureRecord<Strategy>(spec, 'updateStrategy');
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = rollingUpdateOf(strategy);
    ru.maxUnavailable ??= 1;
    ru.maxSurge ??= 0;
  }
  defaultRevisionHistoryLimit(spec);
}

// ---------------------------------------------------------------------------
// Validation (pkg/apis/apps/validation)
// ---------------------------------------------------------------------------

/** Deployment and ReplicaSet selectors: required, valid, non-empty, and selecting the template. */
function validateReplicatedSpec(spec: WorkloadSpec, kind: string): FieldError[] {
  const errs = validateNonnegativeFields(spec, SPEC, ['replicas', 'minReadySeconds']);
  // kube says "deployment" for replica sets too.
  errs.push(...validateSpecSelector(spec.selector, 'spec.selector', 'deployment'));
  const selector = asSelector(spec.selector);
  if (!selector) errs.push(FieldError.invalid('spec.selector', goLabelSelector(spec.selector), 'invalid label selector'));
  else errs.push(...validateLongRunningTemplate(selector, spec.template, TEMPLATE, kind));
  return errs;
}

function validateRollingUpdateDeployment(ru: RollingUpdate, path: string): FieldError[] {
  const errs = [...validatePositiveIntOrPercent(ru.maxUnavailable, `${path}.maxUnavailable`), ...validatePositiveIntOrPercent(ru.maxSurge, `${path}.maxSurge`)];
  if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
    errs.push(FieldError.invalid(`${path}.maxUnavailable`, goIntOrString(ru.maxUnavailable ?? 0), 'may not be 0 when `maxSurge` is 0'));
  }
  errs.push(...validateAtMost100Percent(ru.maxUnavailable, `${path}.maxUnavailable`));
  return errs;
}

function validateDeploymentStrategy(strategy: Strategy, path: string): FieldError[] {
  switch (strategy.type) {
    case 'Recreate':
      return strategy.rollingUpdate != null ? [FieldError.forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate':
      return isRecord(strategy.rollingUpdate)
        ? validateRollingUpdateDeployment(strategy.rollingUpdate as RollingUpdate, `${path}.rollingUpdate`)
        : [FieldError.required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil')];
    default:
      return [notSupported(path, strategy.type ?? '', ['Recreate', 'RollingUpdate'])];
  }
}

export function validateDeploymentSpec(spec: WorkloadSpec): FieldError[] {
  const errs = validateReplicatedSpec(spec, 'Deployment');
  errs.push(...validateDeploymentStrategy(spec.strategy ?? {}, 'spec.strategy'));
  errs.push(...validateNonnegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (spec.progressDeadlineSeconds != null) {
    errs.push(...validateNonnegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    if (spec.progressDeadlineSeconds <= num(spec.minReadySeconds)) {
      errs.push(FieldError.invalid('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

/** apps/v1 (unlike extensions/v1beta1) never lets an update change the selector. */
const selectorImmutable = (obj: KubeObject, old: KubeObject): FieldError[] =>
  semanticEqual(specOf(obj).selector, specOf(old).selector) ? [] : [FieldError.invalid('spec.selector', goLabelSelector(specOf(obj).selector), 'field is immutable')];

function validateRollingUpdateStatefulSet(ru: RollingUpdate, path: string): FieldError[] {
  const errs = validateNonnegative(ru.partition, `${path}.partition`);
  if (ru.maxUnavailable != null) {
    errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, `${path}.maxUnavailable`));
    if (intOrPercentValue(ru.maxUnavailable) === 0) errs.push(FieldError.invalid(`${path}.maxUnavailable`, goIntOrString(ru.maxUnavailable), 'cannot be 0'));
    errs.push(...validateAtMost100Percent(ru.maxUnavailable, `${path}.maxUnavailable`));
  }
  return errs;
}

function validateStatefulSetStrategy(strategy: Strategy, path: string): FieldError[] {
  switch (strategy.type ?? '') {
    case '':
      return [FieldError.required(path)];
    case 'OnDelete':
      return strategy.rollingUpdate != null ? [FieldError.invalid(`${path}.rollingUpdate`, strategy.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate':
      return isRecord(strategy.rollingUpdate) ? validateRollingUpdateStatefulSet(strategy.rollingUpdate as RollingUpdate, `${path}.rollingUpdate`) : [];
    default:
      return [FieldError.invalid(path, strategy, "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

const RETENTION_POLICIES: readonly string[] = ['Retain', 'Delete'];

function validateStatefulSetPolicies(spec: WorkloadSpec): FieldError[] {
  const errs: FieldError[] = [];
  const policy = spec.podManagementPolicy ?? '';
  if (!policy) errs.push(FieldError.required('spec.podManagementPolicy'));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(FieldError.invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...validateStatefulSetStrategy(spec.updateStrategy ?? {}, 'spec.updateStrategy'));
  const retention = spec.persistentVolumeClaimRetentionPolicy;
  if (isRecord(retention)) {
    for (const f of ['whenDeleted', 'whenScaled'] as const) {
      if (!RETENTION_POLICIES.includes(retention[f] ?? '')) errs.push(notSupported(`spec.persistentVolumeClaimRetentionPolicy.${f}`, retention[f] ?? '', RETENTION_POLICIES));
    }
  }
  return errs;
}

export function validateStatefulSetSpec(spec: WorkloadSpec): FieldError[] {
  const errs = validateStatefulSetPolicies(spec);
  errs.push(...validateNonnegativeFields(spec, SPEC, ['replicas', 'minReadySeconds']));
  if (isRecord(spec.ordinals)) errs.push(...validateNonnegative(spec.ordinals.start, 'spec.ordinals.start'));
  errs.push(...validateSpecSelector(spec.selector, 'spec.selector', 'statefulset'));
  const selector = asSelector(spec.selector);
  const template = spec.template ?? {};
  if (!selector) errs.push(FieldError.invalid('spec.selector', goLabelSelector(spec.selector), ''));
  else {
    // ValidatePodTemplateSpecForStatefulSet checks the template's metadata only (kube leaves its pod spec unchecked).
    errs.push(...validateSelectorMatchesTemplate(selector, template, TEMPLATE));
    errs.push(...validatePodTemplateMeta(template, TEMPLATE));
  }
  errs.push(...validateRestartAlways(template, TEMPLATE, 'StatefulSet'));
  return errs;
}

export const STATEFULSET_UPDATABLE_FIELDS =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

const STATEFULSET_MUTABLE: readonly string[] = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

export function validateStatefulSetUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateStatefulSetSpec(specOf(obj));
  const frozen = (spec: WorkloadSpec): WorkloadSpec => Object.fromEntries(Object.entries(spec).filter(([k]) => !STATEFULSET_MUTABLE.includes(k)));
  if (!semanticEqual(frozen(specOf(obj)), frozen(specOf(old)))) errs.push(FieldError.forbidden(SPEC, STATEFULSET_UPDATABLE_FIELDS));
  return errs;
}

function validateRollingUpdateDaemonSet(ru: RollingUpdate, path: string): FieldError[] {
  const errs = [...validatePositiveIntOrPercent(ru.maxUnavailable, `${path}.maxUnavailable`), ...validatePositiveIntOrPercent(ru.maxSurge, `${path}.maxSurge`)];
  errs.push(...validateAtMost100Percent(ru.maxUnavailable, `${path}.maxUnavailable`), ...validateAtMost100Percent(ru.maxSurge, `${path}.maxSurge`));
  const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
  if (hasUnavailable && hasSurge) errs.push(FieldError.invalid(`${path}.maxSurge`, goIntOrString(ru.maxSurge ?? 0), 'may not be set when maxUnavailable is non-zero'));
  if (!hasUnavailable && !hasSurge) errs.push(FieldError.required(`${path}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  return errs;
}

function validateDaemonSetStrategy(strategy: Strategy, path: string): FieldError[] {
  switch (strategy.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate':
      return isRecord(strategy.rollingUpdate) ? validateRollingUpdateDaemonSet(strategy.rollingUpdate as RollingUpdate, `${path}.rollingUpdate`) : [FieldError.required(`${path}.rollingUpdate`)];
    default:
      return [notSupported(path, strategy.type ?? '', ['RollingUpdate', 'OnDelete'])];
  }
}

export function validateDaemonSetSpec(spec: WorkloadSpec): FieldError[] {
  // Not required, but a missing selector selects nothing, so no template matches it.
  const errs = isRecord(spec.selector) ? validateSpecSelector(spec.selector, 'spec.selector', 'daemonset') : [];
  errs.push(...validateSelectorMatchesTemplate(asSelector(spec.selector), spec.template, TEMPLATE));
  errs.push(...validatePodTemplateSpec(spec.template ?? {}, TEMPLATE));
  errs.push(...validateRestartAlways(spec.template ?? {}, TEMPLATE, 'DaemonSet'));
  errs.push(...validateNonnegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...validateDaemonSetStrategy(spec.updateStrategy ?? {}, 'spec.updateStrategy'));
  errs.push(...validateNonnegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

// ---------------------------------------------------------------------------
// Status validation (ValidateXStatusUpdate)
// ---------------------------------------------------------------------------

function statusValidation(nonnegative: readonly string[], bounded: readonly string[], availableAtMostReady?: string) {
  return (obj: KubeObject, old: KubeObject): FieldError[] => {
    const status = statusOf(obj);
    return [
      ...validateNonnegativeFields(status, 'status', nonnegative),
      ...validateReplicaCounters(status, 'status', bounded, availableAtMostReady),
      ...validateCollisionCount(status, statusOf(old)),
    ];
  };
}

const REPLICA_COUNTERS = ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'];

// ---------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------

/** The deprecated annotation apps/v1 carries DaemonSet's internal spec.templateGeneration in. */
export const DAEMONSET_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

function templateGeneration(obj: KubeObject): number {
  const value = Number(obj.metadata.annotations?.[DAEMONSET_TEMPLATE_GENERATION]);
  return Number.isInteger(value) ? value : 0;
}

function setTemplateGeneration(obj: KubeObject, generation: number): void {
  obj.metadata.annotations = { ...obj.metadata.annotations, [DAEMONSET_TEMPLATE_GENERATION]: String(generation) };
}

/** Deployments move generation on annotation changes too (rollbacks were annotations). */
function bumpGenerationOnAnnotations(obj: KubeObject, old: KubeObject): void {
  const same = obj.metadata.generation === old.metadata.generation;
  if (same && !semanticEqual(obj.metadata.annotations, old.metadata.annotations)) obj.metadata.generation = (old.metadata.generation ?? 1) + 1;
}

/**
 * A new object's status as kube returns it: the status subresource dropped the client's, and Go marshals the
 * status fields without omitempty even when zero (deployments: none).
 */
function freshStatus(zeroFields: readonly string[]): (obj: KubeObject) => void {
  return (obj) => {
    asWorkload(obj).status = Object.fromEntries(zeroFields.map((f) => [f, 0]));
  };
}

export const deploymentStrategy: ResourceStrategy = {
  allowCreateOnUpdate: false,
  default: defaultDeployment,
  prepareForCreate: freshStatus([]),
  prepareForUpdate: bumpGenerationOnAnnotations,
  validate: (obj) => validateDeploymentSpec(specOf(obj)),
  validateUpdate: (obj, old) => [...validateDeploymentSpec(specOf(obj)), ...selectorImmutable(obj, old)],
};

export const replicaSetStrategy: ResourceStrategy = {
  allowCreateOnUpdate: false,
  default: defaultReplicaSet,
  prepareForCreate: freshStatus(['replicas']),
  fields: (obj) => ({ 'status.replicas': String(num(statusOf(obj).replicas)) }),
  validate: (obj) => validateReplicatedSpec(specOf(obj), 'ReplicaSet'),
  // ValidateReplicaSet then ValidateReplicaSetUpdate: kube checks the spec twice.
  validateUpdate: (obj, old) => [...validateReplicatedSpec(specOf(obj), 'ReplicaSet'), ...validateReplicatedSpec(specOf(obj), 'ReplicaSet'), ...selectorImmutable(obj, old)],
};

export const statefulSetStrategy: ResourceStrategy = {
  allowCreateOnUpdate: false,
  default: defaultStatefulSet,
  prepareForCreate: freshStatus(['replicas', 'availableReplicas']),
  validate: (obj) => validateStatefulSetSpec(specOf(obj)),
  // The selector is frozen by the "updates to statefulset spec" rule.
  validateUpdate: validateStatefulSetUpdate,
};

export const daemonSetStrategy: ResourceStrategy = {
  allowCreateOnUpdate: false,
  default: defaultDaemonSet,
  prepareForCreate(obj) {
    freshStatus(['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'])(obj);
    if (templateGeneration(obj) < 1) setTemplateGeneration(obj, 1);
  },
  prepareForUpdate(obj, old) {
    const changed = !semanticEqual(specOf(obj).template, specOf(old).template);
    setTemplateGeneration(obj, templateGeneration(old) + (changed ? 1 : 0));
  },
  validate: (obj) => validateDaemonSetSpec(specOf(obj)),
  // ValidateDaemonSet then ValidateDaemonSetUpdate: kube checks the spec twice.
  validateUpdate: (obj, old) => [...validateDaemonSetSpec(specOf(obj)), ...validateDaemonSetSpec(specOf(obj)), ...selectorImmutable(obj, old)],
};

interface ControllerRevision extends KubeObject {
  data?: unknown;
  revision?: number;
}

function validateControllerRevision(obj: KubeObject): FieldError[] {
  const rev = obj as ControllerRevision;
  const errs = rev.data == null ? [FieldError.required('data', 'data is mandatory')] : [];
  errs.push(...validateNonnegative(rev.revision, 'revision'));
  return errs;
}

export const controllerRevisionStrategy: ResourceStrategy = {
  allowCreateOnUpdate: false,
  validate: validateControllerRevision,
  validateUpdate: (obj, old) => [...validateControllerRevision(obj), ...validateImmutableField((obj as ControllerRevision).data, (old as ControllerRevision).data, 'data')],
};

// ---------------------------------------------------------------------------
// Printing (pkg/printers/internalversion: printDeployment, printReplicaSet, printStatefulSet, printDaemonSet…)
// ---------------------------------------------------------------------------

/** A field's description in the apps/v1 schema: what kube's printers take from SwaggerDoc(). */
export function schemaDescription(components: typeof appsV1Components, type: string, field: string): string {
  return components[type]?.properties?.[field]?.description ?? '';
}

const appsDoc = (type: string, field: string): string => schemaDescription(appsV1Components, `io.k8s.api.apps.v1.${type}`, field);

/** layoutContainerCells: container names and images, comma-separated. */
export function containerCells(template: PodTemplateSpec | undefined): { names: string; images: string } {
  const containers = listOf(template?.spec?.containers);
  return { names: containers.map((c) => c.name ?? '').join(','), images: containers.map((c) => c.image ?? '').join(',') };
}

export function selectorCell(sel: MetaV1LabelSelector | undefined): string {
  return asSelector(sel)?.toString() ?? '<error>';
}

/** The wide columns every workload kind prints after AGE. */
export function templateColumns(template: (obj: KubeObject) => PodTemplateSpec | undefined, selector?: { description: string; cell(obj: KubeObject): string }): TableColumn[] {
  const columns: TableColumn[] = [
    { name: 'Containers', type: 'string', priority: 1, description: 'Names of each container in the template.', cell: (obj) => containerCells(template(obj)).names },
    { name: 'Images', type: 'string', priority: 1, description: 'Images referenced by each container in the template.', cell: (obj) => containerCells(template(obj)).images },
  ];
  if (selector) columns.push({ name: 'Selector', type: 'string', priority: 1, description: selector.description, cell: selector.cell });
  return columns;
}

const podTemplate = (obj: KubeObject): PodTemplateSpec | undefined => specOf(obj).template;
const specSelector = (type: string) => ({ description: appsDoc(type, 'selector'), cell: (obj: KubeObject) => selectorCell(specOf(obj).selector) });
const ready = (obj: KubeObject): string => `${num(statusOf(obj).readyReplicas)}/${num(specOf(obj).replicas)}`;
const readyColumn: TableColumn = { name: 'Ready', type: 'string', description: 'Number of the pod with ready state', cell: ready };

const deploymentColumns: TableColumn[] = [
  readyColumn,
  { name: 'Up-to-date', type: 'string', description: appsDoc('DeploymentStatus', 'updatedReplicas'), cell: (obj) => num(statusOf(obj).updatedReplicas) },
  { name: 'Available', type: 'string', description: appsDoc('DeploymentStatus', 'availableReplicas'), cell: (obj) => num(statusOf(obj).availableReplicas) },
  ageColumn,
  ...templateColumns(podTemplate, specSelector('DeploymentSpec')),
];

const replicaSetColumns: TableColumn[] = [
  { name: 'Desired', type: 'integer', description: appsDoc('ReplicaSetSpec', 'replicas'), cell: (obj) => num(specOf(obj).replicas) },
  { name: 'Current', type: 'integer', description: appsDoc('ReplicaSetStatus', 'replicas'), cell: (obj) => num(statusOf(obj).replicas) },
  { name: 'Ready', type: 'integer', description: appsDoc('ReplicaSetStatus', 'readyReplicas'), cell: (obj) => num(statusOf(obj).readyReplicas) },
  ageColumn,
  ...templateColumns(podTemplate, specSelector('ReplicaSetSpec')),
];

const statefulSetColumns: TableColumn[] = [readyColumn, ageColumn, ...templateColumns(podTemplate)];

const daemonSetStatus = (field: string, type: 'integer' = 'integer'): Omit<TableColumn, 'name'> => ({
  type,
  description: appsDoc('DaemonSetStatus', field),
  cell: (obj: KubeObject) => num(statusOf(obj)[field]),
});

const daemonSetColumns: TableColumn[] = [
  { name: 'Desired', ...daemonSetStatus('desiredNumberScheduled') },
  { name: 'Current', ...daemonSetStatus('currentNumberScheduled') },
  { name: 'Ready', ...daemonSetStatus('numberReady') },
  { name: 'Up-to-date', ...daemonSetStatus('updatedNumberScheduled') },
  { name: 'Available', ...daemonSetStatus('numberAvailable') },
  {
    name: 'Node Selector',
    type: 'string',
    description: schemaDescription(appsV1Components, 'io.k8s.api.core.v1.PodSpec', 'nodeSelector'),
    cell: (obj) => formatLabels(podTemplate(obj)?.spec?.nodeSelector as StringMap | undefined),
  },
  ageColumn,
  ...templateColumns(podTemplate, specSelector('DaemonSetSpec')),
];

/** metav1.GetControllerOf, printed as "<kind>.<group>/<name>" (formatResourceName with kind). */
function controllerCell(obj: KubeObject): string {
  const ref = listOf(obj.metadata.ownerReferences).find((r) => r.controller === true);
  if (!ref) return NONE;
  const slash = ref.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
  const kind = group ? `${ref.kind}.${group}` : ref.kind;
  return kind ? `${kind.toLowerCase()}/${ref.name}` : ref.name;
}

const controllerRevisionColumns: TableColumn[] = [
  { name: 'Controller', type: 'string', description: 'Controller of the object', cell: controllerCell },
  { name: 'Revision', type: 'string', description: appsDoc('ControllerRevision', 'revision'), cell: (obj) => num((obj as ControllerRevision).revision) },
  ageColumn,
];

// ---------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------

const APPS = { group: 'apps', version: 'v1', namespaced: true } as const;
const SCALE = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' };

/**
 * deploymentStatusStrategy keeps only spec and labels of the stored object: the deployment controller writes the
 * revision annotation through /status, so it moves no generation (a metadata update would: annotations count).
 */
function deploymentStatusSubresource(base: SubresourceStrategy): SubresourceStrategy {
  return {
    ...base,
    prepareForUpdate(incoming, old) {
      const obj = base.prepareForUpdate(incoming, old);
      if (incoming.metadata?.annotations === undefined) delete obj.metadata.annotations;
      else obj.metadata.annotations = structuredClone(incoming.metadata.annotations);
      return obj;
    },
  };
}

export const deploymentsResource: ResourceDefinition = {
  tracksGeneration: true,
  ...APPS,
  kind: 'Deployment',
  plural: 'deployments',
  singular: 'deployment',
  shortNames: ['deploy'],
  categories: ['all'],
  subresources: {
    status: deploymentStatusSubresource(statusSubresource(statusValidation(REPLICA_COUNTERS, ['updatedReplicas', 'readyReplicas', 'availableReplicas'], 'cannot be greater than readyReplicas'))),
    scale: scaleSubresource(SCALE),
  },
  strategy: deploymentStrategy,
  tableColumns: deploymentColumns,
};

export const replicaSetsResource: ResourceDefinition = {
  tracksGeneration: true,
  ...APPS,
  kind: 'ReplicaSet',
  plural: 'replicasets',
  singular: 'replicaset',
  shortNames: ['rs'],
  categories: ['all'],
  subresources: {
    status: statusSubresource(
      statusValidation(['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'], ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], 'cannot be greater than readyReplicas'),
    ),
    scale: scaleSubresource(SCALE),
  },
  strategy: replicaSetStrategy,
  tableColumns: replicaSetColumns,
};

export const statefulSetsResource: ResourceDefinition = {
  tracksGeneration: true,
  ...APPS,
  kind: 'StatefulSet',
  plural: 'statefulsets',
  singular: 'statefulset',
  shortNames: ['sts'],
  categories: ['all'],
  // ValidateStatefulSetName: pods are named <statefulset>-<ordinal>, so the name is a DNS label.
  nameValidation: 'label',
  subresources: {
    status: statusSubresource(
      statusValidation(
        ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'],
        ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'],
        'cannot be greater than status.readyReplicas',
      ),
    ),
    scale: scaleSubresource(SCALE),
  },
  strategy: statefulSetStrategy,
  tableColumns: statefulSetColumns,
};

export const daemonSetsResource: ResourceDefinition = {
  tracksGeneration: true,
  ...APPS,
  kind: 'DaemonSet',
  plural: 'daemonsets',
  singular: 'daemonset',
  shortNames: ['ds'],
  categories: ['all'],
  subresources: {
    status: statusSubresource(
      statusValidation(
        ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'],
        [],
      ),
    ),
  },
  strategy: daemonSetStrategy,
  tableColumns: daemonSetColumns,
};

export const controllerRevisionsResource: ResourceDefinition = {
  ...APPS,
  kind: 'ControllerRevision',
  plural: 'controllerrevisions',
  singular: 'controllerrevision',
  strategy: controllerRevisionStrategy,
  tableColumns: controllerRevisionColumns,
};

export const appsResources: ResourceDefinition[] = [deploymentsResource, replicaSetsResource, statefulSetsResource, daemonSetsResource, controllerRevisionsResource];
