/** CRD group, scope and names rules (validation.go ValidateCustomResourceDefinitionNames and the spec checks). */
import { FieldError, isDNS1035Label, isDNS1123Subdomain } from '@kube/apimachinery';
import type { CustomResourceDefinitionNames } from './crd.types';
import { list, str } from './plain-json.helpers';

export function validateGroup(group: string): FieldError[] {
  const path = 'spec.group';
  if (!group) return [FieldError.required(path)];
  const errs = isDNS1123Subdomain(group);
  if (errs.length > 0) return [FieldError.invalid(path, group, errs.join(','))];
  return group.split('.').length < 2 ? [FieldError.invalid(path, group, 'should be a domain with at least one dot')] : [];
}

/** validateEnumStrings: Required when empty, NotSupported when not one of `accepted`. */
export function validateEnum(path: string, value: string, accepted: string[]): FieldError[] {
  if (!value) return [FieldError.required(path)];
  return accepted.includes(value) ? [] : [FieldError.notSupported(path, value, accepted)];
}

export function dns1035(path: string, value: string): FieldError[] {
  const errs = isDNS1035Label(value);
  return errs.length > 0 ? [FieldError.invalid(path, value, errs.join(','))] : [];
}

/** Kinds may be mixed case but must otherwise be DNS-1035 labels. */
function mixedCaseDNS1035(path: string, value: string): FieldError[] {
  const errs = isDNS1035Label(value.toLowerCase());
  return value && errs.length > 0 ? [FieldError.invalid(path, value, `may have mixed case, but should otherwise match: ${errs.join(',')}`)] : [];
}

/** ValidateCustomResourceDefinitionNames: format only (spec adds the required checks, status does not). */
export function validateNames(names: CustomResourceDefinitionNames | undefined, path: string): FieldError[] {
  const plural = str(names?.plural);
  const singular = str(names?.singular);
  const kind = str(names?.kind);
  const listKind = str(names?.listKind);
  const errs: FieldError[] = [];
  if (plural) errs.push(...dns1035(`${path}.plural`, plural));
  if (singular) errs.push(...dns1035(`${path}.singular`, singular));
  errs.push(...mixedCaseDNS1035(`${path}.kind`, kind), ...mixedCaseDNS1035(`${path}.listKind`, listKind));
  list(names?.shortNames).forEach((s, i) => errs.push(...dns1035(`${path}.shortNames[${i}]`, str(s))));
  // Equal kind and listKind would make list and item ambiguous when decoding.
  if (kind && kind === listKind) errs.push(FieldError.invalid(`${path}.listKind`, listKind, 'kind and listKind may not be the same'));
  list(names?.categories).forEach((c, i) => errs.push(...dns1035(`${path}.categories[${i}]`, str(c))));
  return errs;
}

export function validateRequiredNames(names: CustomResourceDefinitionNames | undefined): FieldError[] {
  const required: Array<keyof CustomResourceDefinitionNames> = ['plural', 'singular', 'kind', 'listKind'];
  return required.filter((k) => !str(names?.[k])).map((k) => FieldError.required(`spec.names.${k}`));
}
