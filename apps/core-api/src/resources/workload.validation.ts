/**
 * What the workload kinds (apps/v1, batch/v1) validate alike (pkg/apis/apps/validation, pkg/apis/batch/validation):
 * their label selector against the pod template, non-negative counts, int-or-percent fields, and status counters.
 */
import {
  FieldError,
  goLabels,
  goLabelSelector,
  GoLiteral,
  labelSelectorFromMetav1,
  regexError,
  validateLabelSelector,
  type LabelSelector,
  type MetaV1LabelSelector,
} from '@kube/apimachinery';
import type { PodTemplateSpec } from './pod-spec.types';
import { validatePodTemplateSpec } from './pod-spec.validation';
import { child, isRecord, notSupported, type StringMap } from './validation.helpers';

export const NONNEGATIVE = 'must be greater than or equal to 0';
export const SELECTOR_MISMATCH = '`selector` does not match template `labels`';

/** ValidateNonnegativeField, for a value that may be absent. */
export function validateNonnegative(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [FieldError.invalid(path, value, NONNEGATIVE)] : [];
}

/** Several ValidateNonnegativeField checks under one parent (spec or status). */
export function validateNonnegativeFields(obj: Record<string, unknown> | undefined, path: string, fields: readonly string[]): FieldError[] {
  return fields.flatMap((f) => validateNonnegative(obj?.[f], child(path, f)));
}

export const templateLabels = (template: PodTemplateSpec | undefined): StringMap | undefined => template?.metadata?.labels;

/** metav1.LabelSelectorAsSelector, or undefined when it does not convert (validation reports why). */
export function asSelector(sel: MetaV1LabelSelector | undefined | null): LabelSelector | undefined {
  try {
    return labelSelectorFromMetav1(sel);
  } catch {
    return undefined;
  }
}

/** The selector's own rules: required, valid, and not empty ("empty selector is invalid for <kind>"). */
export function validateSpecSelector(sel: MetaV1LabelSelector | undefined, path: string, kind: string): FieldError[] {
  if (!isRecord(sel)) return [FieldError.required(path)];
  const errs = validateLabelSelector(sel, path);
  const size = Object.keys(sel.matchLabels ?? {}).length + (Array.isArray(sel.matchExpressions) ? sel.matchExpressions.length : 0);
  if (size === 0) errs.push(FieldError.invalid(path, goLabelSelector(sel), `empty selector is invalid for ${kind}`));
  return errs;
}

/** The template's labels must be selected by the selector (skipped when the selector is empty or unusable). */
export function validateSelectorMatchesTemplate(selector: LabelSelector | undefined, template: PodTemplateSpec | undefined, templatePath: string): FieldError[] {
  if (!selector || selector.empty || selector.matches(templateLabels(template) ?? {})) return [];
  return [FieldError.invalid(child(child(templatePath, 'metadata'), 'labels'), goLabels(templateLabels(template)), SELECTOR_MISMATCH)];
}

/**
 * ValidatePodTemplateSpecForReplicaSet (deployments, replica sets) and the DaemonSet equivalent: selector match,
 * the pod template, restartPolicy Always and no activeDeadlineSeconds.
 */
export function validateLongRunningTemplate(
  selector: LabelSelector | undefined,
  template: PodTemplateSpec | undefined,
  templatePath: string,
  kind: string,
): FieldError[] {
  const errs = validateSelectorMatchesTemplate(selector, template, templatePath);
  errs.push(...validatePodTemplateSpec(template ?? {}, templatePath));
  errs.push(...validateRestartAlways(template ?? {}, templatePath, kind));
  return errs;
}

/** Long-running workloads' pods restart Always and never time out. */
export function validateRestartAlways(template: PodTemplateSpec, templatePath: string, kind: string): FieldError[] {
  const spec = template.spec ?? {};
  const specPath = child(templatePath, 'spec');
  const errs: FieldError[] = [];
  if (spec.restartPolicy !== 'Always') errs.push(notSupported(child(specPath, 'restartPolicy'), spec.restartPolicy ?? '', ['Always']));
  if (spec.activeDeadlineSeconds != null) errs.push(FieldError.forbidden(child(specPath, 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`));
  return errs;
}

// ---------------------------------------------------------------------------
// intstr.IntOrString fields (maxSurge, maxUnavailable)
// ---------------------------------------------------------------------------

export type IntOrString = number | string;

const PERCENT = /^[0-9]+%$/;
const PERCENT_MESSAGE = regexError("a valid percent string must be a numeric string followed by an ending '%'", '[0-9]+%', '1%', '93%');

/** `%#v` of an intstr.IntOrString (a struct without a value String method). */
export function goIntOrString(v: IntOrString): GoLiteral {
  return typeof v === 'string'
    ? new GoLiteral(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`)
    : new GoLiteral(`intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`);
}

/** ValidatePositiveIntOrPercent. */
export function validatePositiveIntOrPercent(v: IntOrString | undefined, path: string): FieldError[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return PERCENT.test(v) ? [] : [FieldError.invalid(path, goIntOrString(v), PERCENT_MESSAGE)];
  return validateNonnegative(v, path);
}

/** getIntOrPercentValue: the percentage or the integer (0 for anything else). */
export function intOrPercentValue(v: IntOrString | undefined): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && PERCENT.test(v)) return Number(v.slice(0, -1));
  return 0;
}

/** IsNotMoreThan100Percent. */
export function validateAtMost100Percent(v: IntOrString | undefined, path: string): FieldError[] {
  return typeof v === 'string' && PERCENT.test(v) && intOrPercentValue(v) > 100 ? [FieldError.invalid(path, goIntOrString(v), 'must not be greater than 100%')] : [];
}

// ---------------------------------------------------------------------------
// Status counters
// ---------------------------------------------------------------------------

/** Counters that may not exceed status.replicas (and available ≤ ready when both are given). */
export function validateReplicaCounters(status: Record<string, unknown>, path: string, bounded: readonly string[], availableAtMostReady: string | undefined): FieldError[] {
  const replicas = typeof status.replicas === 'number' ? status.replicas : 0;
  const value = (f: string): number => (typeof status[f] === 'number' ? (status[f] as number) : 0);
  const errs = bounded.filter((f) => value(f) > replicas).map((f) => FieldError.invalid(child(path, f), value(f), 'cannot be greater than status.replicas'));
  if (availableAtMostReady && value('availableReplicas') > value('readyReplicas')) {
    errs.push(FieldError.invalid(child(path, 'availableReplicas'), value('availableReplicas'), availableAtMostReady));
  }
  return errs;
}

/** IsDecremented on status.collisionCount. */
export function validateCollisionCount(status: Record<string, unknown> | undefined, old: Record<string, unknown> | undefined): FieldError[] {
  const next = status?.collisionCount;
  const prev = old?.collisionCount;
  if (typeof prev !== 'number') return [];
  if (typeof next === 'number' && next >= prev) return [];
  return [FieldError.invalid('status.collisionCount', typeof next === 'number' ? next : 0, 'cannot be decremented')];
}
