/**
 * Name, label and annotation validation with Kubernetes' exact messages
 * (k8s.io/apimachinery pkg/util/validation and pkg/api/validation, v0.33).
 * Lengths are counted in UTF-8 bytes, as Go's len() does.
 */
import { randomInt } from 'node:crypto';
import { FieldError } from './status.errors';

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_ERR =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_ERR = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

export const DNS1123_LABEL_MAX_LENGTH = 63;
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
export const DNS1035_LABEL_MAX_LENGTH = 63;
export const QUALIFIED_NAME_MAX_LENGTH = 63;
export const LABEL_VALUE_MAX_LENGTH = 63;
/** Total size of all annotation keys and values (apimachinery TotalAnnotationSizeLimitB). */
export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

const anchored = (fmt: string): RegExp => new RegExp(`^${fmt}$`);
const dns1123LabelRe = anchored(DNS1123_LABEL_FMT);
const dns1123SubdomainRe = anchored(DNS1123_SUBDOMAIN_FMT);
const dns1035LabelRe = anchored(DNS1035_LABEL_FMT);
const qualifiedNameRe = anchored(QUALIFIED_NAME_FMT);
const labelValueRe = anchored(LABEL_VALUE_FMT);

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** validation.MaxLenError. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** validation.RegexError: the message, optional examples, then the regex. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!dns1123LabelRe.test(value)) {
    // A valid subdomain that is not a valid label (length already checked) can only have dots.
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1035_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1035_LABEL_MAX_LENGTH));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

/** A "qualified name" ([prefix/]name), the format of label and annotation keys and finalizers. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  switch (parts.length) {
    case 1:
      name = parts[0];
      break;
    case 2: {
      const prefix = parts[0];
      name = parts[1];
      if (prefix.length === 0) errs.push('prefix part must be non-empty');
      else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
      break;
    }
    default:
      return [
        `a qualified name ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (byteLength(name) > QUALIFIED_NAME_MAX_LENGTH) errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`);
  if (!qualifiedNameRe.test(name)) errs.push(`name part ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!labelValueRe.test(value)) errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

/**
 * A ValidateNameFunc: prefix is true when the value is a generateName that will get a suffix appended.
 * Returns kube's messages for an invalid name, [] for a valid one.
 */
export type NameRule = (name: string, prefix: boolean) => string[];

/**
 * kube's maskTrailingDash, bug for bug: a trailing '-' is allowed in a generateName, and Go replaces
 * the LAST TWO characters with "a" before checking (name[:len(name)-2] + "a").
 */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

export const nameIsDNSSubdomain: NameRule = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: NameRule = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: NameRule = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/**
 * metadata.name checks of ValidateObjectMetaAccessor: required (unless generated), then the resource's
 * name rule. fieldPath is the path of the name field itself, e.g. "metadata.name".
 */
export function validateObjectMetaName(name: string | undefined, fieldPath: string, nameRule: NameRule): FieldError[] {
  if (!name) return [FieldError.required(fieldPath, 'name or generateName is required')];
  return nameRule(name, false).map((msg) => FieldError.invalid(fieldPath, name, msg));
}

/** metadata.generateName checks: the rule applied to the prefix (trailing dash allowed). */
export function validateGenerateName(generateName: string | undefined, fieldPath: string, nameRule: NameRule): FieldError[] {
  if (!generateName) return [];
  return nameRule(generateName, true).map((msg) => FieldError.invalid(fieldPath, generateName, msg));
}

/** v1validation.ValidateLabels: errors are reported at the labels path, carrying the bad key or value. */
export function validateLabels(labels: Record<string, string> | undefined, fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    for (const msg of isQualifiedName(key)) errs.push(FieldError.invalid(fieldPath, key, msg));
    for (const msg of isValidLabelValue(value)) errs.push(FieldError.invalid(fieldPath, value, msg));
  }
  return errs;
}

/** ValidateAnnotations: keys are qualified names ignoring case; keys+values together at most 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | undefined, fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [key, value] of Object.entries(annotations ?? {})) {
    for (const msg of isQualifiedName(key.toLowerCase())) errs.push(FieldError.invalid(fieldPath, key, msg));
    total += byteLength(key) + byteLength(String(value));
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) errs.push(FieldError.tooLong(fieldPath, '', TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
  return errs;
}

/** ValidateFinalizerName: a finalizer is a qualified name. */
export function validateFinalizerName(finalizer: string, fieldPath: string): FieldError[] {
  return isQualifiedName(finalizer).map((msg) => FieldError.invalid(fieldPath, finalizer, msg));
}

/** names.SimpleNameGenerator: at most 58 chars of base, then 5 chars from kube's vowel-free alphabet. */
export const MAX_GENERATED_NAME_LENGTH = 58;
const GENERATED_SUFFIX_LENGTH = 5;
const GENERATED_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export function generateName(base: string): string {
  const prefix = base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base;
  let suffix = '';
  for (let i = 0; i < GENERATED_SUFFIX_LENGTH; i++) suffix += GENERATED_ALPHABET[randomInt(GENERATED_ALPHABET.length)];
  return prefix + suffix;
}

/** path.IsValidPathSegmentName: names used as one URL path segment (RBAC objects, CRD-less kinds). */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  if (name.includes('/')) return [`may not contain '/'`];
  if (name.includes('%')) return [`may not contain '%'`];
  return [];
}
