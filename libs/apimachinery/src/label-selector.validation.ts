/** v1validation.ValidateLabelSelector: a metav1.LabelSelector in an object's spec (workloads, PDBs, …). */
import type { MetaV1LabelSelector, MetaV1LabelSelectorRequirement } from './label-selector';
import { isQualifiedName, isValidLabelValue, validateLabels } from './names.validation';
import { FieldError } from './status.errors';

function validateRequirement(r: MetaV1LabelSelectorRequirement, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = Array.isArray(r.values) ? r.values : [];
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(FieldError.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(FieldError.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      errs.push(FieldError.invalid(`${path}.operator`, r.operator ?? '', 'not a valid selector operator'));
  }
  for (const msg of isQualifiedName(r.key ?? '')) errs.push(FieldError.invalid(`${path}.key`, r.key ?? '', msg));
  values.forEach((v, i) => {
    for (const msg of isValidLabelValue(v)) errs.push(FieldError.invalid(`${path}.values[${i}]`, v, msg));
  });
  return errs;
}

/** Label keys and values, and each expression's operator, key and values (values strictly checked). */
export function validateLabelSelector(sel: MetaV1LabelSelector | undefined | null, path: string): FieldError[] {
  if (!sel) return [];
  const errs = validateLabels(sel.matchLabels, `${path}.matchLabels`);
  (Array.isArray(sel.matchExpressions) ? sel.matchExpressions : []).forEach((r, i) => errs.push(...validateRequirement(r, `${path}.matchExpressions[${i}]`)));
  return errs;
}
