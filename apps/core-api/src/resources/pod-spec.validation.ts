/**
 * ValidatePodSpec and friends (pkg/apis/core/validation) for the fields stored pods commonly use, rooted at any
 * field path: pods validate `spec`, workloads their `spec.template.spec` (ValidatePodTemplateSpec).
 */
import { FieldError, isDNS1123Subdomain, isValidLabelValue, validateAnnotations, validateLabels } from '@kube/apimachinery';
import { PORT_PROTOCOLS } from './endpoints.resource';
import type { Container, ContainerPort, PodSpec, PodTemplateSpec, Toleration } from './pod-spec.types';
import {
  child,
  inclusiveRangeError,
  index,
  invalidEach,
  isValidPortName,
  isValidPortNum,
  listOf,
  notSupported,
  validateDNS1123Label,
  validateEnum,
  validateQualifiedName,
} from './validation.helpers';

export const MAX_INT32 = 2147483647;
export const RESTART_POLICIES: readonly string[] = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES: readonly string[] = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PULL_POLICIES: readonly string[] = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES: readonly string[] = ['File', 'FallbackToLogsOnError'];
const TOLERATION_OPERATORS: readonly string[] = ['Equal', 'Exists'];
const TAINT_EFFECTS: readonly string[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

function validateContainerPorts(ports: readonly ContainerPort[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const p = index(path, i);
    if (port.name) {
      const msgs = isValidPortName(port.name);
      if (msgs.length > 0) errs.push(...invalidEach(child(p, 'name'), port.name, msgs));
      else if (names.has(port.name)) errs.push(FieldError.duplicate(child(p, 'name'), port.name));
      names.add(port.name);
    }
    if (!port.containerPort) errs.push(FieldError.required(child(p, 'containerPort')));
    else errs.push(...invalidEach(child(p, 'containerPort'), port.containerPort, isValidPortNum(port.containerPort)));
    if (port.hostPort) errs.push(...invalidEach(child(p, 'hostPort'), port.hostPort, isValidPortNum(port.hostPort)));
    errs.push(...validateEnum(port.protocol, child(p, 'protocol'), PORT_PROTOCOLS));
  });
  return errs;
}

/** validateContainerCommon: name, image, termination message policy, ports, pull policy. */
function validateContainerCommon(c: Container, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.name) errs.push(FieldError.required(child(path, 'name')));
  else errs.push(...validateDNS1123Label(c.name, child(path, 'name')));
  if (!c.image) errs.push(FieldError.required(child(path, 'image')));
  errs.push(...validateEnum(c.terminationMessagePolicy, child(path, 'terminationMessagePolicy'), TERMINATION_MESSAGE_POLICIES));
  errs.push(...validateContainerPorts(listOf(c.ports), child(path, 'ports')));
  errs.push(...validateEnum(c.imagePullPolicy, child(path, 'imagePullPolicy'), PULL_POLICIES));
  return errs;
}

function validateContainers(containers: readonly Container[], path: string): FieldError[] {
  if (containers.length === 0) return [FieldError.required(path)];
  const names = new Set<string>();
  return containers.flatMap((c, i) => {
    const p = index(path, i);
    const errs = validateContainerCommon(c, p);
    if (names.has(c.name ?? '')) errs.push(FieldError.duplicate(child(p, 'name'), c.name ?? ''));
    names.add(c.name ?? '');
    if (c.restartPolicy !== undefined) errs.push(FieldError.forbidden(child(p, 'restartPolicy'), 'may not be set for non-init containers'));
    return errs;
  });
}

const INIT_ONLY_WITH_ALWAYS: readonly string[] = ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'];

function validateInitContainers(inits: readonly Container[], regular: readonly Container[], path: string): FieldError[] {
  const names = new Set(regular.map((c) => c.name ?? ''));
  return inits.flatMap((c, i) => {
    const p = index(path, i);
    const errs = validateContainerCommon(c, p);
    if (c.restartPolicy !== undefined && c.restartPolicy !== 'Always') errs.push(notSupported(child(p, 'restartPolicy'), c.restartPolicy, ['Always']));
    if (names.has(c.name ?? '')) errs.push(FieldError.duplicate(child(p, 'name'), c.name ?? ''));
    else if (c.name) names.add(c.name);
    if (c.restartPolicy !== 'Always') {
      for (const f of INIT_ONLY_WITH_ALWAYS.filter((name) => c[name] != null)) {
        errs.push(FieldError.forbidden(child(p, f), 'may not be set for init containers without restartPolicy=Always'));
      }
    }
    return errs;
  });
}

/** The fields of EphemeralContainerCommon kube's allow list leaves out (set, even empty, they are forbidden). */
const EPHEMERAL_FORBIDDEN: readonly string[] = ['ports', 'resources', 'resizePolicy', 'restartPolicy', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'];
const EPHEMERAL_FORBIDDEN_MESSAGE = 'cannot be set for an Ephemeral Container';

/** Set in Go's sense (validateFieldAllowList compares with the zero value): a decoded empty struct is its zero value. */
function isSetField(name: string, value: unknown): boolean {
  if (value == null) return false;
  if (name === 'resources') return typeof value !== 'object' || Object.values(value as Record<string, unknown>).some((v) => v != null);
  return true;
}

/** validateEphemeralContainers: unique names across every container, an existing target, no pod-service fields. */
function validateEphemeralContainers(spec: PodSpec, path: string): FieldError[] {
  const ephemeral = listOf(spec.ephemeralContainers);
  if (ephemeral.length === 0) return [];
  const others = new Set([...listOf(spec.containers), ...listOf(spec.initContainers)].map((c) => c.name ?? ''));
  const names = new Set(others);
  return ephemeral.flatMap((c, i) => {
    const p = index(path, i);
    const errs = validateContainerCommon(c, p);
    const image = String(c.image ?? '');
    if (image !== image.trim()) errs.push(FieldError.invalid(child(p, 'image'), image, 'must not have leading or trailing whitespace'));
    if (names.has(c.name ?? '')) errs.push(FieldError.duplicate(child(p, 'name'), c.name ?? ''));
    else names.add(c.name ?? '');
    const target = typeof c.targetContainerName === 'string' ? c.targetContainerName : '';
    if (target && !others.has(target)) errs.push(FieldError.notFound(child(p, 'targetContainerName'), target));
    for (const f of EPHEMERAL_FORBIDDEN) if (isSetField(f, c[f])) errs.push(FieldError.forbidden(child(p, f), EPHEMERAL_FORBIDDEN_MESSAGE));
    listOf(c.volumeMounts as Array<{ subPath?: string; subPathExpr?: string }> | undefined).forEach((m, j) => {
      for (const f of ['subPath', 'subPathExpr'] as const) if (m[f]) errs.push(FieldError.forbidden(child(index(child(p, 'volumeMounts'), j), f), EPHEMERAL_FORBIDDEN_MESSAGE));
    });
    return errs;
  });
}

function validateTolerationOperator(t: Toleration, path: string): FieldError[] {
  const opPath = child(path, 'operator');
  switch (t.operator ?? '') {
    case 'Equal':
    case '': {
      const msgs = isValidLabelValue(t.value ?? '');
      return msgs.length > 0 ? [FieldError.invalid(opPath, t.value ?? '', msgs.join(';'))] : [];
    }
    case 'Exists':
      return t.value ? [FieldError.invalid(opPath, t.value, "value must be empty when `operator` is 'Exists'")] : [];
    default:
      return [notSupported(opPath, t.operator, TOLERATION_OPERATORS)];
  }
}

/** ValidateTolerations. */
export function validateTolerations(tolerations: readonly Toleration[], path: string): FieldError[] {
  return tolerations.flatMap((t, i) => {
    const p = index(path, i);
    const errs: FieldError[] = [];
    if (t.key) errs.push(...validateQualifiedName(t.key, child(p, 'key')));
    if (!t.key && t.operator !== 'Exists') {
      errs.push(FieldError.invalid(child(p, 'operator'), t.operator ?? '', 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds != null && t.effect !== 'NoExecute') {
      errs.push(FieldError.invalid(child(p, 'effect'), t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    errs.push(...validateTolerationOperator(t, p));
    if (t.effect && !TAINT_EFFECTS.includes(t.effect)) errs.push(notSupported(child(p, 'effect'), t.effect, TAINT_EFFECTS));
    return errs;
  });
}

function validateGates(spec: PodSpec, path: string): FieldError[] {
  const seen = new Set<string>();
  const scheduling = listOf(spec.schedulingGates).flatMap((g, i) => {
    const p = index(child(path, 'schedulingGates'), i);
    const errs = validateQualifiedName(g.name ?? '', p);
    if (seen.has(g.name ?? '')) errs.push(FieldError.duplicate(p, g.name ?? ''));
    seen.add(g.name ?? '');
    return errs;
  });
  const readiness = listOf(spec.readinessGates).flatMap((g, i) =>
    validateQualifiedName(g.conditionType ?? '', child(index(child(path, 'readinessGates'), i), 'conditionType')),
  );
  return [...readiness, ...scheduling];
}

function validateNamesAndDeadlines(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.serviceAccountName) errs.push(...invalidEach(child(path, 'serviceAccountName'), spec.serviceAccountName, isDNS1123Subdomain(spec.serviceAccountName)));
  if (spec.nodeName) errs.push(...invalidEach(child(path, 'nodeName'), spec.nodeName, isDNS1123Subdomain(spec.nodeName)));
  const deadline = spec.activeDeadlineSeconds;
  if (deadline != null && (deadline < 1 || deadline > MAX_INT32)) {
    errs.push(FieldError.invalid(child(path, 'activeDeadlineSeconds'), deadline, inclusiveRangeError(1, MAX_INT32)));
  }
  if (spec.hostname) errs.push(...validateDNS1123Label(spec.hostname, child(path, 'hostname')));
  if (spec.subdomain) errs.push(...validateDNS1123Label(spec.subdomain, child(path, 'subdomain')));
  return errs;
}

/** ValidatePodSpec, with field paths under `path` ("spec" for pods, "spec.template.spec" for workloads). */
export function validatePodSpec(spec: PodSpec, path: string = 'spec'): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.terminationGracePeriodSeconds == null) errs.push(FieldError.required(child(path, 'terminationGracePeriodSeconds')));
  errs.push(...validateContainers(listOf(spec.containers), child(path, 'containers')));
  errs.push(...validateInitContainers(listOf(spec.initContainers), listOf(spec.containers), child(path, 'initContainers')));
  errs.push(...validateEphemeralContainers(spec, child(path, 'ephemeralContainers')));
  errs.push(...validateEnum(spec.restartPolicy, child(path, 'restartPolicy'), RESTART_POLICIES));
  errs.push(...validateEnum(spec.dnsPolicy, child(path, 'dnsPolicy'), DNS_POLICIES));
  errs.push(...validateLabels(spec.nodeSelector, child(path, 'nodeSelector')));
  errs.push(...validateGates(spec, path));
  errs.push(...validateNamesAndDeadlines(spec, path));
  errs.push(...validateTolerations(listOf(spec.tolerations), child(path, 'tolerations')));
  return errs;
}

/**
 * ValidatePodTemplateSpec: a workload's embedded pod template (labels and annotations at `<path>.labels`,
 * `<path>.annotations`, as kube reports them, and the pod spec under `<path>.spec`).
 */
export function validatePodTemplateSpec(template: PodTemplateSpec, path: string): FieldError[] {
  const spec = template.spec ?? {};
  const errs = validatePodTemplateMeta(template, path);
  errs.push(...validatePodSpec(spec, child(path, 'spec')));
  if (listOf(spec.ephemeralContainers).length > 0) {
    errs.push(FieldError.forbidden(child(child(path, 'spec'), 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

/** The template's labels and annotations (reported at `<path>.labels` and `<path>.annotations`, as kube does). */
export function validatePodTemplateMeta(template: PodTemplateSpec, path: string): FieldError[] {
  const meta = template.metadata ?? {};
  return [...validateLabels(meta.labels, child(path, 'labels')), ...validateAnnotations(meta.annotations, child(path, 'annotations'))];
}
