/**
 * autoscaling/v1 and autoscaling/v2 HorizontalPodAutoscaler: one storage (v2, the storage version), converted
 * to v1 as kube's pkg/apis/autoscaling/v1/conversion.go does (targetCPUUtilizationPercentage, the rest in
 * annotations); defaults of pkg/apis/autoscaling/v1 and v2, the main rules of pkg/apis/autoscaling/validation
 * and printHorizontalPodAutoscaler. No controller scales anything.
 */
import { FieldError, type KubeObject } from '@kube/apimachinery';
import { statusSubresource, type ResourceConversion, type ResourceDefinition, type TableColumn } from '@kube/apiserver';
import { column } from './cluster.helpers';
import { child, index, isRecord, listOf, validateEnum } from './validation.helpers';

// ---------------------------------------------------------------------------
// Types (v2 is the hub; v1's MetricSpec is the v2beta1 shape kept in annotations)
// ---------------------------------------------------------------------------

interface MetricTarget {
  type?: string;
  value?: string;
  averageValue?: string;
  averageUtilization?: number;
}

interface MetricValue {
  value?: string;
  averageValue?: string;
  averageUtilization?: number;
}

interface MetricIdentifier {
  name?: string;
  selector?: unknown;
}

interface ObjectReference {
  kind?: string;
  name?: string;
  apiVersion?: string;
}

interface V2MetricSpec {
  type?: string;
  resource?: { name?: string; target?: MetricTarget };
  containerResource?: { name?: string; container?: string; target?: MetricTarget };
  pods?: { metric?: MetricIdentifier; target?: MetricTarget };
  object?: { describedObject?: ObjectReference; metric?: MetricIdentifier; target?: MetricTarget };
  external?: { metric?: MetricIdentifier; target?: MetricTarget };
}

interface V2MetricStatus {
  type?: string;
  resource?: { name?: string; current?: MetricValue };
  containerResource?: { name?: string; container?: string; current?: MetricValue };
  pods?: { metric?: MetricIdentifier; current?: MetricValue };
  object?: { describedObject?: ObjectReference; metric?: MetricIdentifier; current?: MetricValue };
  external?: { metric?: MetricIdentifier; current?: MetricValue };
}

interface ScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: string;
  policies?: { type?: string; value?: number; periodSeconds?: number }[];
}

export interface HorizontalPodAutoscalerV2 extends KubeObject {
  spec?: {
    scaleTargetRef?: ObjectReference;
    minReplicas?: number;
    maxReplicas?: number;
    metrics?: V2MetricSpec[];
    behavior?: { scaleUp?: ScalingRules; scaleDown?: ScalingRules } | null;
  };
  status?: {
    observedGeneration?: number;
    lastScaleTime?: string;
    currentReplicas?: number;
    desiredReplicas?: number;
    currentMetrics?: V2MetricStatus[] | null;
    conditions?: unknown[] | null;
  };
}

type HorizontalPodAutoscalerV2Spec = NonNullable<HorizontalPodAutoscalerV2['spec']>;

export interface HorizontalPodAutoscalerV1 extends KubeObject {
  spec?: { scaleTargetRef?: ObjectReference; minReplicas?: number; maxReplicas?: number; targetCPUUtilizationPercentage?: number };
  status?: { observedGeneration?: number; lastScaleTime?: string; currentReplicas?: number; desiredReplicas?: number; currentCPUUtilizationPercentage?: number };
}

/** v1 (v2beta1-shaped) metric source: one record per type with flat fields. */
type V1Source = Record<string, unknown>;
type V1Metric = { type?: string } & Record<string, V1Source | string | undefined>;

const METRIC_SPECS = 'autoscaling.alpha.kubernetes.io/metrics';
const METRIC_STATUSES = 'autoscaling.alpha.kubernetes.io/current-metrics';
const BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior';
const CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions';
const DEFAULT_CPU_UTILIZATION = 80;
const TYPE_FIELD: Readonly<Record<string, keyof V2MetricSpec & keyof V2MetricStatus>> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  ContainerResource: 'containerResource',
  External: 'external',
};
const METRIC_TYPES = Object.keys(TYPE_FIELD).sort();

// ---------------------------------------------------------------------------
// Defaults (pkg/apis/autoscaling/v2/defaults.go)
// ---------------------------------------------------------------------------

function cpuUtilizationMetric(utilization: number): V2MetricSpec {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } };
}

function defaultRules(rules: ScalingRules | undefined, scaleUp: boolean): ScalingRules {
  const out: ScalingRules = { ...rules };
  out.stabilizationWindowSeconds ??= scaleUp ? 0 : 300;
  out.selectPolicy ??= 'Max';
  if (!listOf(out.policies).length) {
    out.policies = scaleUp
      ? [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ]
      : [{ type: 'Percent', value: 100, periodSeconds: 15 }];
  }
  return out;
}

/** SetDefaults_HorizontalPodAutoscaler (v2): one replica at least, CPU at 80% when no metric is given, full behavior. */
export function defaultHorizontalPodAutoscalerV2(hpa: HorizontalPodAutoscalerV2): void {
  const spec = (hpa.spec ??= {});
  spec.minReplicas ??= 1;
  if (!listOf(spec.metrics).length) spec.metrics = [cpuUtilizationMetric(DEFAULT_CPU_UTILIZATION)];
  if (spec.behavior) spec.behavior = { scaleUp: defaultRules(spec.behavior.scaleUp, true), scaleDown: defaultRules(spec.behavior.scaleDown, false) };
}

// ---------------------------------------------------------------------------
// Conversion v1 ↔ v2 (pkg/apis/autoscaling/v1/conversion.go)
// ---------------------------------------------------------------------------

function targetToV1(target: MetricTarget | undefined): V1Source {
  const t = target ?? {};
  return { targetAverageUtilization: t.averageUtilization, targetAverageValue: t.averageValue, targetValue: t.value };
}

function targetFromV1(src: V1Source): MetricTarget {
  if (typeof src.targetAverageUtilization === 'number') return { type: 'Utilization', averageUtilization: src.targetAverageUtilization };
  if (src.targetAverageValue !== undefined) return { type: 'AverageValue', averageValue: src.targetAverageValue as string };
  return { type: 'Value', value: src.targetValue as string };
}

function prune<T extends Record<string, unknown>>(obj: T): T {
  for (const k of Object.keys(obj)) if (obj[k] === undefined) delete obj[k];
  return obj;
}

function metricSpecToV1(m: V2MetricSpec): V1Metric {
  switch (m.type) {
    case 'Resource':
      return { type: m.type, resource: prune({ name: m.resource?.name, ...targetToV1(m.resource?.target), targetValue: undefined }) };
    case 'ContainerResource':
      return { type: m.type, containerResource: prune({ name: m.containerResource?.name, container: m.containerResource?.container, ...targetToV1(m.containerResource?.target), targetValue: undefined }) };
    case 'Pods':
      return { type: m.type, pods: prune({ metricName: m.pods?.metric?.name, selector: m.pods?.metric?.selector, targetAverageValue: m.pods?.target?.averageValue }) };
    case 'Object':
      return { type: m.type, object: prune({ target: m.object?.describedObject, metricName: m.object?.metric?.name, selector: m.object?.metric?.selector, targetValue: m.object?.target?.value, averageValue: m.object?.target?.averageValue }) };
    case 'External':
      return { type: m.type, external: prune({ metricName: m.external?.metric?.name, metricSelector: m.external?.metric?.selector, targetValue: m.external?.target?.value, targetAverageValue: m.external?.target?.averageValue }) };
    default:
      return { type: m.type };
  }
}

function metricSpecFromV1(m: V1Metric): V2MetricSpec {
  const src = (field: string): V1Source => (isRecord(m[field]) ? (m[field] as V1Source) : {});
  const metric = (s: V1Source, selectorField = 'selector'): MetricIdentifier => prune({ name: s.metricName as string | undefined, selector: s[selectorField] });
  switch (m.type) {
    case 'Resource':
      return { type: m.type, resource: { name: src('resource').name as string, target: targetFromV1(src('resource')) } };
    case 'ContainerResource':
      return { type: m.type, containerResource: { name: src('containerResource').name as string, container: src('containerResource').container as string, target: targetFromV1(src('containerResource')) } };
    case 'Pods':
      return { type: m.type, pods: { metric: metric(src('pods')), target: { type: 'AverageValue', averageValue: src('pods').targetAverageValue as string } } };
    case 'Object': {
      const o = src('object');
      const target: MetricTarget = o.averageValue !== undefined ? { type: 'AverageValue', averageValue: o.averageValue as string } : { type: 'Value', value: o.targetValue as string };
      return { type: m.type, object: { describedObject: o.target as ObjectReference, metric: metric(o), target } };
    }
    case 'External':
      return { type: m.type, external: { metric: metric(src('external'), 'metricSelector'), target: targetFromV1(src('external')) } };
    default:
      return { type: m.type };
  }
}

function currentToV1(c: MetricValue | undefined): V1Source {
  return { currentAverageUtilization: c?.averageUtilization, currentAverageValue: c?.averageValue, currentValue: c?.value };
}

function metricStatusToV1(m: V2MetricStatus): V1Metric {
  const field = m.type ? TYPE_FIELD[m.type] : undefined;
  if (!field) return { type: m.type };
  const s = m[field] as { name?: string; container?: string; metric?: MetricIdentifier; describedObject?: ObjectReference; current?: MetricValue } | undefined;
  const current = currentToV1(s?.current);
  switch (m.type) {
    case 'Resource':
    case 'ContainerResource':
      return { type: m.type, [field]: prune({ name: s?.name, container: s?.container, ...current, currentValue: undefined }) };
    case 'Pods':
      return { type: m.type, pods: prune({ metricName: s?.metric?.name, selector: s?.metric?.selector, currentAverageValue: current.currentAverageValue }) };
    case 'Object':
      return { type: m.type, object: prune({ target: s?.describedObject, metricName: s?.metric?.name, selector: s?.metric?.selector, currentValue: current.currentValue, averageValue: current.currentAverageValue }) };
    default:
      return { type: m.type, external: prune({ metricName: s?.metric?.name, metricSelector: s?.metric?.selector, currentValue: current.currentValue, currentAverageValue: current.currentAverageValue }) };
  }
}

function metricStatusFromV1(m: V1Metric): V2MetricStatus {
  const field = m.type ? TYPE_FIELD[m.type] : undefined;
  if (!field) return { type: m.type };
  const s = isRecord(m[field]) ? (m[field] as V1Source) : {};
  const current: MetricValue = prune({ averageUtilization: s.currentAverageUtilization as number | undefined, averageValue: (s.currentAverageValue ?? s.averageValue) as string | undefined, value: s.currentValue as string | undefined });
  const metric: MetricIdentifier = prune({ name: s.metricName as string | undefined, selector: s.selector ?? s.metricSelector });
  switch (m.type) {
    case 'Resource':
    case 'ContainerResource':
      return { type: m.type, [field]: prune({ name: s.name as string, container: s.container as string | undefined, current }) };
    case 'Object':
      return { type: m.type, object: { describedObject: s.target as ObjectReference, metric, current } };
    default:
      return { type: m.type, [field]: { metric, current } };
  }
}

function isCPUUtilization(m: V2MetricSpec): boolean {
  return m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target?.averageUtilization !== undefined;
}

function parseAnnotation<T>(annotations: Record<string, string>, key: string): T | undefined {
  const text = annotations[key];
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as T;
    delete annotations[key];
    return value;
  } catch {
    return undefined;
  }
}

/** autoscaling/v2 (storage) → autoscaling/v1. */
export function hpaToV1(obj: HorizontalPodAutoscalerV2): HorizontalPodAutoscalerV1 {
  const spec = obj.spec ?? {};
  const status = obj.status;
  const metrics = listOf(spec.metrics);
  const cpu = metrics.find(isCPUUtilization);
  const other = metrics.filter((m) => !isCPUUtilization(m)).map(metricSpecToV1);
  const current = listOf(status?.currentMetrics);
  const annotations: Record<string, string> = { ...obj.metadata.annotations };
  if (other.length) annotations[METRIC_SPECS] = JSON.stringify(other);
  if (current.length) annotations[METRIC_STATUSES] = JSON.stringify(current.map(metricStatusToV1));
  if (spec.behavior) annotations[BEHAVIOR] = JSON.stringify(spec.behavior);
  if (listOf(status?.conditions).length) annotations[CONDITIONS] = JSON.stringify(status?.conditions);
  const metadata: KubeObject['metadata'] = { ...obj.metadata, annotations };
  if (!Object.keys(annotations).length) delete metadata.annotations;
  const out: HorizontalPodAutoscalerV1 = {
    ...obj,
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata,
    spec: prune({ scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas, targetCPUUtilizationPercentage: cpu?.resource?.target?.averageUtilization }),
  };
  if (status) {
    const cpuStatus = current.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.current?.averageUtilization !== undefined);
    out.status = prune({
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas ?? 0,
      desiredReplicas: status.desiredReplicas ?? 0,
      currentCPUUtilizationPercentage: cpuStatus?.resource?.current?.averageUtilization,
    });
  }
  return out;
}

/** autoscaling/v1 → autoscaling/v2 (storage). */
export function hpaFromV1(obj: HorizontalPodAutoscalerV1): HorizontalPodAutoscalerV2 {
  const spec = obj.spec ?? {};
  const annotations: Record<string, string> = { ...obj.metadata.annotations };
  const other = parseAnnotation<V1Metric[]>(annotations, METRIC_SPECS);
  const behavior = parseAnnotation<HorizontalPodAutoscalerV2Spec['behavior']>(annotations, BEHAVIOR);
  const current = parseAnnotation<V1Metric[]>(annotations, METRIC_STATUSES);
  const conditions = parseAnnotation<unknown[]>(annotations, CONDITIONS);
  const metrics = [...listOf(other).map(metricSpecFromV1), ...(spec.targetCPUUtilizationPercentage !== undefined ? [cpuUtilizationMetric(spec.targetCPUUtilizationPercentage)] : [])];
  const metadata: KubeObject['metadata'] = { ...obj.metadata, annotations };
  if (!Object.keys(annotations).length) delete metadata.annotations;
  const out: HorizontalPodAutoscalerV2 = {
    ...obj,
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata,
    spec: prune({ scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas, metrics: metrics.length ? metrics : undefined, behavior: behavior as HorizontalPodAutoscalerV2Spec['behavior'] }),
  };
  const status = obj.status;
  if (status) {
    const currentMetrics = listOf(current).map(metricStatusFromV1);
    if (!current && status.currentCPUUtilizationPercentage !== undefined) {
      currentMetrics.push({ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } });
    }
    out.status = prune({
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas ?? 0,
      desiredReplicas: status.desiredReplicas ?? 0,
      currentMetrics: currentMetrics.length ? currentMetrics : undefined,
      conditions: conditions ?? undefined,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Validation (pkg/apis/autoscaling/validation, on the v2 form)
// ---------------------------------------------------------------------------

function validateTarget(target: MetricTarget | undefined, path: string, utilizationAllowed: boolean): FieldError[] {
  const t = target ?? {};
  const errs: FieldError[] = [];
  if (!t.type) errs.push(FieldError.required(child(path, 'type'), 'must specify a metric target type'));
  else errs.push(...validateEnum(t.type, child(path, 'type'), utilizationAllowed ? ['AverageValue', 'Utilization', 'Value'] : ['AverageValue', 'Value']));
  if (t.averageUtilization !== undefined && t.averageUtilization < 1) errs.push(FieldError.invalid(child(path, 'averageUtilization'), t.averageUtilization, 'must be greater than 0'));
  if (t.type === 'Utilization' && t.averageUtilization === undefined) errs.push(FieldError.required(child(path, 'averageUtilization'), 'must set either a target raw value or a target utilization'));
  if (t.type === 'AverageValue' && t.averageValue === undefined) errs.push(FieldError.required(child(path, 'averageValue'), 'must set either a target value for metric or a per-pod target'));
  if (t.type === 'Value' && t.value === undefined) errs.push(FieldError.required(child(path, 'value'), 'must set either a target value for metric or a per-pod target'));
  return errs;
}

function validateMetric(m: V2MetricSpec, path: string): FieldError[] {
  if (!m.type) return [FieldError.required(child(path, 'type'), 'must specify a metric source type')];
  const field = TYPE_FIELD[m.type];
  if (!field) return [FieldError.notSupported(child(path, 'type'), m.type, METRIC_TYPES)];
  const errs: FieldError[] = [];
  for (const [type, other] of Object.entries(TYPE_FIELD)) {
    if (type !== m.type && m[other] != null) errs.push(FieldError.forbidden(child(path, other), 'must populate the given metric source only'));
  }
  const source = m[field] as { name?: string; metric?: MetricIdentifier; target?: MetricTarget; describedObject?: ObjectReference } | undefined;
  if (!source) return [...errs, FieldError.required(child(path, field), 'must populate information for the given metric source')];
  const p = child(path, field);
  if (m.type === 'Resource' || m.type === 'ContainerResource') {
    if (!source.name) errs.push(FieldError.required(child(p, 'name'), 'must specify a resource name'));
    errs.push(...validateTarget(source.target, child(p, 'target'), true));
  } else {
    if (!source.metric?.name) errs.push(FieldError.required(`${p}.metric.name`, 'must specify a metric name'));
    if (m.type === 'Object') errs.push(...validateScaleTargetRef(source.describedObject, child(p, 'describedObject')));
    errs.push(...validateTarget(source.target, child(p, 'target'), false));
  }
  return errs;
}

function validateScaleTargetRef(ref: ObjectReference | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!ref?.kind) errs.push(FieldError.required(child(path, 'kind')));
  if (!ref?.name) errs.push(FieldError.required(child(path, 'name')));
  return errs;
}

/** ValidateHorizontalPodAutoscaler (spec). */
export function validateHorizontalPodAutoscaler(hpa: HorizontalPodAutoscalerV2): FieldError[] {
  const spec = hpa.spec ?? {};
  const errs: FieldError[] = [];
  if (spec.minReplicas !== undefined && spec.minReplicas < 1) errs.push(FieldError.invalid('spec.minReplicas', spec.minReplicas, 'must be greater than or equal to 1'));
  const max = spec.maxReplicas ?? 0;
  if (max < 1) errs.push(FieldError.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (spec.minReplicas !== undefined && max < spec.minReplicas) errs.push(FieldError.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateScaleTargetRef(spec.scaleTargetRef, 'spec.scaleTargetRef'));
  listOf(spec.metrics).forEach((m, i) => errs.push(...validateMetric(m, index('spec.metrics', i))));
  return errs;
}

// ---------------------------------------------------------------------------
// Printing (printHorizontalPodAutoscaler, on the v2 form)
// ---------------------------------------------------------------------------

function targetText(target: MetricTarget | undefined, current: MetricValue | undefined, withUtilization: boolean): string {
  if (withUtilization && target?.averageValue === undefined) {
    const cur = current?.averageUtilization !== undefined ? `${current.averageUtilization}%` : '<unknown>';
    const tgt = target?.averageUtilization !== undefined ? `${target.averageUtilization}%` : '<auto>';
    return `${cur}/${tgt}`;
  }
  if (target?.averageValue !== undefined && target.type !== 'Value') return `${current?.averageValue ?? '<unknown>'}/${target.averageValue}${withUtilization ? '' : ' (avg)'}`;
  return `${current?.value ?? '<unknown>'}/${target?.value ?? ''}`;
}

/** formatHPAMetrics: at most three targets, "<none>" when none. */
export function formatHPAMetrics(hpa: HorizontalPodAutoscalerV2): string {
  const specs = listOf(hpa.spec?.metrics);
  const statuses = listOf(hpa.status?.currentMetrics);
  if (!specs.length) return '<none>';
  const max = 3;
  const list = specs.slice(0, max).map((m, i) => {
    const st = statuses[i];
    switch (m.type) {
      case 'Resource':
        return `${m.resource?.name ?? ''}: ${targetText(m.resource?.target, st?.resource?.current, true)}`;
      case 'ContainerResource':
        return `${m.containerResource?.name ?? ''}: ${targetText(m.containerResource?.target, st?.containerResource?.current, true)}`;
      case 'Pods':
        return `${st?.pods?.current?.averageValue ?? '<unknown>'}/${m.pods?.target?.averageValue ?? ''}`;
      case 'Object':
        return targetText(m.object?.target, st?.object?.current, false);
      case 'External':
        return targetText(m.external?.target, st?.external?.current, false);
      default:
        return '<unknown type>';
    }
  });
  return specs.length > max ? `${list.join(', ')} + ${specs.length - max} more...` : list.join(', ');
}

function columnsVia(toV2: (obj: KubeObject) => HorizontalPodAutoscalerV2): TableColumn[] {
  return [
    column('Reference', 'string', 'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.', (o) => {
      const ref = toV2(o).spec?.scaleTargetRef;
      return `${ref?.kind ?? ''}/${ref?.name ?? ''}`;
    }),
    column('Targets', 'string', 'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).', (o) => formatHPAMetrics(toV2(o))),
    column('MinPods', 'string', 'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.', (o) => String(toV2(o).spec?.minReplicas ?? '<unset>')),
    column('MaxPods', 'string', 'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.', (o) => String(toV2(o).spec?.maxReplicas ?? 0)),
    column('Replicas', 'string', 'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.', (o) => String(toV2(o).status?.currentReplicas ?? 0)),
  ];
}

// ---------------------------------------------------------------------------
// The two versions
// ---------------------------------------------------------------------------

const asV2 = (obj: KubeObject): HorizontalPodAutoscalerV2 => obj as HorizontalPodAutoscalerV2;
/** Objects of either version (v1 is converted) in the v2 form. */
const v2Of = (obj: KubeObject): HorizontalPodAutoscalerV2 => (obj.apiVersion === 'autoscaling/v1' ? hpaFromV1(obj as HorizontalPodAutoscalerV1) : asV2(obj));

const v1Conversion: ResourceConversion = {
  toStorage: async (obj) => {
    const v2 = hpaFromV1(obj as HorizontalPodAutoscalerV1);
    defaultHorizontalPodAutoscalerV2(v2);
    return v2;
  },
  fromStorage: async (objs) => objs.map((o) => hpaToV1(asV2(o))),
};

const BASE: Omit<ResourceDefinition, 'version'> = {
  group: 'autoscaling',
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  shortNames: ['hpa'],
  categories: ['all'],
  namespaced: true,
  storageVersion: 'v2',
  subresources: { status: statusSubresource() },
};

export const horizontalPodAutoscalersV2Resource: ResourceDefinition = {
  ...BASE,
  version: 'v2',
  strategy: {
    allowCreateOnUpdate: false,
    default: (obj) => defaultHorizontalPodAutoscalerV2(asV2(obj)),
    validate: (obj) => validateHorizontalPodAutoscaler(asV2(obj)),
  },
  tableColumns: columnsVia(v2Of),
};

export const horizontalPodAutoscalersV1Resource: ResourceDefinition = {
  ...BASE,
  version: 'v1',
  conversion: v1Conversion,
  strategy: {
    allowCreateOnUpdate: false,
    default: (obj) => {
      ((obj as HorizontalPodAutoscalerV1).spec ??= {}).minReplicas ??= 1;
    },
    validate: (obj) => validateHorizontalPodAutoscaler(hpaFromV1(obj as HorizontalPodAutoscalerV1)),
  },
  tableColumns: columnsVia(v2Of),
};

/** v2 first: the preferred version in discovery (kube prefers autoscaling/v2). */
export const autoscalingResources: ResourceDefinition[] = [horizontalPodAutoscalersV2Resource, horizontalPodAutoscalersV1Resource];
