/**
 * Field selectors as k8s.io/apimachinery/pkg/fields parses them: terms "field=value", "field==value" or
 * "field!=value" joined by commas (AND). In values, "\\", "\," and "\=" escape the special characters.
 */
import { Errors, type StatusError } from './status.errors';

export type FieldOperator = '=' | '!=';

export interface FieldRequirement {
  readonly field: string;
  /** "==" parses to "=", as kube's hasTerm does. */
  readonly operator: FieldOperator;
  readonly value: string;
}

/** Maps a (field, value) pair to another, e.g. for field label conversion; empty field and value drop the term. */
export type FieldTransform = (field: string, value: string) => { field: string; value: string };

export class FieldSelector {
  constructor(readonly requirements: readonly FieldRequirement[]) {}

  static everything(): FieldSelector {
    return new FieldSelector([]);
  }

  get empty(): boolean {
    return this.requirements.length === 0;
  }

  /** A missing field reads as "", so "spec.nodeName=" selects objects without one (fields.Set.Get). */
  matches(fields: Record<string, string>): boolean {
    return this.requirements.every((r) => {
      const actual = Object.prototype.hasOwnProperty.call(fields, r.field) ? fields[r.field] : '';
      return r.operator === '=' ? actual === r.value : actual !== r.value;
    });
  }

  /** The value an "=" term pins `field` to, if any. */
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }

  /** Selector.Transform: maps every term; a term mapped to an empty field and value is dropped. */
  transform(fn: FieldTransform): FieldSelector {
    const next: FieldRequirement[] = [];
    for (const r of this.requirements) {
      const { field, value } = fn(r.field, r.value);
      if (field !== '' || value !== '') next.push({ field, operator: r.operator, value });
    }
    return new FieldSelector(next);
  }

  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeFieldSelectorValue(r.value)}`).join(',');
  }
}

/** fields.EscapeValue: backslash-escape "\", "," and "=" so a value survives parsing. */
export function escapeFieldSelectorValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** fields.UnescapeValue; errors carry kube's messages. */
export function unescapeFieldSelectorValue(value: string): string {
  if (!/[\\,=]/.test(value)) return value;
  let out = '';
  let inSlash = false;
  for (const c of value) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') throw Errors.badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // Go prints the rune with %v, i.e. as its code point number.
      throw Errors.badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw Errors.badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Splits on commas that are not backslash-escaped; the escapes stay in the terms. */
function splitTerms(selector: string): string[] {
  if (selector === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** "!=" and "==" are tried before "=" at each position, so "a==b" does not leave "=b" as the value. */
const TERM_OPERATORS = ['!=', '==', '='] as const;

function splitTerm(term: string): { lhs: string; op: (typeof TERM_OPERATORS)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/**
 * fields.ParseSelector. Terms are sorted (as kube does) and empty terms skipped; an empty string selects
 * everything. Bad syntax throws a 400 BadRequest with kube's message.
 */
export function parseFieldSelector(selector: string): FieldSelector {
  const parts = splitTerms(selector).sort();
  const requirements: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const term = splitTerm(part);
    if (!term) throw Errors.badRequest(`invalid selector: '${selector}'; can't understand '${part}'`);
    requirements.push({ field: term.lhs, operator: term.op === '!=' ? '!=' : '=', value: unescapeFieldSelectorValue(term.rhs) });
  }
  return new FieldSelector(requirements);
}

/** The 400 kube answers for a field a resource cannot select on (runtime.DefaultMetaV1FieldSelectorConversion). */
export function fieldSelectorNotKnownError(field: string, allowed: readonly string[]): StatusError {
  return Errors.badRequest(`${JSON.stringify(field)} is not a known field selector: only ${allowed.map((f) => JSON.stringify(f)).join(', ')}`);
}

/** Throws fieldSelectorNotKnownError for the first term (in kube's sorted order) whose field is not allowed. */
export function checkFieldSelectorFields(selector: FieldSelector, allowed: readonly string[]): void {
  const known = new Set(allowed);
  const unknown = selector.requirements.find((r) => !known.has(r.field));
  if (unknown) throw fieldSelectorNotKnownError(unknown.field, allowed);
}
