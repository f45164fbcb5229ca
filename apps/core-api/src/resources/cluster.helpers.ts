/** Shared pieces of the cluster groups' resources (issue 16): table columns, label selectors, IntOrString. */
import { FieldError, isValidLabelValue, labelSelectorFromMetav1, validateLabels, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import type { TableColumn, TableColumnDefinition } from '@kube/apiserver';
import { NONE } from './table.helpers';
import { child, index, invalidEach, isRecord, listOf, validateQualifiedName } from './validation.helpers';

/** A printed column (pkg/printers/internalversion) reading its cell from a typed object. */
export function column<T extends KubeObject>(name: string, type: TableColumnDefinition['type'], description: string, cell: (obj: T) => unknown, priority?: number): TableColumn {
  return { name, type, description, ...(priority ? { priority } : {}), cell: (obj: KubeObject) => cell(obj as T) };
}

/** metav1.FormatLabelSelector: "<none>" for an empty selector, "<error>" for a bad one. */
export function formatLabelSelector(sel: MetaV1LabelSelector | null | undefined): string {
  if (!sel) return NONE;
  try {
    const text = labelSelectorFromMetav1(sel).toString();
    return text === '' ? NONE : text;
  } catch {
    return '<error>';
  }
}

/** unversionedvalidation.ValidateLabelSelector (metav1 LabelSelector). */
export function validateLabelSelector(sel: MetaV1LabelSelector | null | undefined, path: string): FieldError[] {
  if (!sel || typeof sel !== 'object') return [];
  const errs: FieldError[] = [];
  listOf(sel.matchExpressions).forEach((expr, i) => {
    const p = index(child(path, 'matchExpressions'), i);
    const values = listOf(expr.values);
    if (expr.operator === 'In' || expr.operator === 'NotIn') {
      if (values.length === 0) errs.push(FieldError.required(child(p, 'values'), 'must be specified when `operator` is \'In\' or \'NotIn\''));
    } else if (expr.operator === 'Exists' || expr.operator === 'DoesNotExist') {
      if (values.length > 0) errs.push(FieldError.forbidden(child(p, 'values'), 'may not be specified when `operator` is \'Exists\' or \'DoesNotExist\''));
    } else {
      errs.push(FieldError.invalid(child(p, 'operator'), expr.operator, 'not a valid selector operator'));
    }
    errs.push(...validateQualifiedName(expr.key ?? '', child(p, 'key')));
    values.forEach((v, j) => errs.push(...invalidEach(index(child(p, 'values'), j), v, isValidLabelValue(v))));
  });
  errs.push(...validateLabels(isRecord(sel.matchLabels) ? sel.matchLabels : undefined, child(path, 'matchLabels')));
  return errs;
}

/** IntOrString: a number, or a string ("50%"). */
export type IntOrString = number | string;

const PERCENT = /^[0-9]+%$/;

/** ValidatePositiveIntOrPercent (pkg/apis/apps/validation, used by policy). */
export function validatePositiveIntOrPercent(value: IntOrString, path: string): FieldError[] {
  if (typeof value === 'string') {
    if (!PERCENT.test(value)) return [FieldError.invalid(path, value, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")];
    return [];
  }
  return value < 0 ? [FieldError.invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** IsNotMoreThan100Percent. */
export function isNotMoreThan100Percent(value: IntOrString, path: string): FieldError[] {
  if (typeof value !== 'string' || !PERCENT.test(value)) return [];
  return Number.parseInt(value, 10) > 100 ? [FieldError.invalid(path, value, 'must not be greater than 100%')] : [];
}

/** Go's %v of a *int32 / *bool / string for a cell: "<unset>"-style fallbacks are the caller's. */
export function orNone(value: unknown): string {
  return value === undefined || value === null || value === '' ? NONE : String(value);
}
