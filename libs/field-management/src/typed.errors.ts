/** typed.ValidationErrors: errors found walking a value against its type, each at a path. */
import { pathElementString, type PathElement } from './fieldpath.path';
import { isMapValue, type Value } from './value.order';

export interface ValidationError {
  path: string;
  message: string;
}

function one(e: ValidationError): string {
  return e.path ? `${e.path}: ${e.message}` : e.message;
}

export class TypedValueError extends Error {
  constructor(readonly errors: ValidationError[]) {
    super(errors.length === 1 ? one(errors[0]) : ['errors:', ...errors.map((e) => `  ${one(e)}`)].join('\n'));
    this.name = 'TypedValueError';
  }
}

export function errorf(message: string): ValidationError[] {
  return [{ path: '', message }];
}

/** Prefixes every error's path (ValidationErrors.WithLazyPrefix). */
export function withPrefix(errs: ValidationError[], prefix: string): ValidationError[] {
  for (const e of errs) e.path = prefix + e.path;
  return errs;
}

/** withPrefix with the path element's text, made only when there are errors (walks visit every node). */
export function atElement(errs: ValidationError[], pe: PathElement): ValidationError[] {
  return errs.length ? withPrefix(errs, pathElementString(pe)) : errs;
}

/** Go's `%v` of an unstructured value (map[a:1 b:x], [1 2], <nil>), used in a few error texts. */
export function goFormat(v: Value | undefined): string {
  if (v === undefined || v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goFormat).join(' ')}]`;
  if (isMapValue(v)) {
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goFormat(v[k])}`)
      .join(' ')}]`;
  }
  return String(v);
}

/** Go's `%T` of an unstructured value. */
export function goType(v: Value): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}
