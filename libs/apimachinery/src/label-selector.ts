/**
 * Label selectors as k8s.io/apimachinery/pkg/labels parses and matches them: the string syntax of
 * ?labelSelector= (=, ==, !=, in, notin, exists, !exists, >, <; comma is AND) and metav1.LabelSelector.
 * Parse errors carry kube's exact messages, so clients see the same 400 text as from kube-apiserver.
 */
import { Errors } from './status.errors';
import { isQualifiedName, isValidLabelValue } from './names.validation';

/** selection.Operator values. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Sorted and de-duplicated when parsed from a string; as given when built from metav1. */
  readonly values: readonly string[];
}

/** metav1.LabelSelectorRequirement. */
export interface MetaV1LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
  values?: string[];
}

/** metav1.LabelSelector, as found in Deployment/Service/PDB specs. */
export interface MetaV1LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: MetaV1LabelSelectorRequirement[];
}

export class LabelSelector {
  private constructor(
    readonly requirements: readonly LabelRequirement[],
    private readonly selectsNothing = false,
  ) {}

  /** Requirements are kept sorted by key, as kube does for a deterministic String(). */
  static of(requirements: readonly LabelRequirement[]): LabelSelector {
    return new LabelSelector([...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)));
  }

  static everything(): LabelSelector {
    return new LabelSelector([]);
  }

  /** labels.Nothing(): what a nil metav1.LabelSelector converts to. */
  static nothing(): LabelSelector {
    return new LabelSelector([], true);
  }

  /** True when the selector does not restrict anything (Nothing() is not empty). */
  get empty(): boolean {
    return !this.selectsNothing && this.requirements.length === 0;
  }

  matches(labels: Record<string, string> | undefined): boolean {
    if (this.selectsNothing) return false;
    const set = labels ?? {};
    return this.requirements.every((r) => requirementMatches(r, set));
  }

  /** The single value the selector pins `key` to (=, == or a one-value in), if any. */
  requiresExactMatch(key: string): string | undefined {
    const r = this.requirements.find((x) => x.key === key);
    if (!r || !['=', '==', 'in'].includes(r.operator) || r.values.length !== 1) return undefined;
    return r.values[0];
  }

  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
}

const has = (labels: Record<string, string>, key: string): boolean => Object.prototype.hasOwnProperty.call(labels, key);

function requirementMatches(r: LabelRequirement, labels: Record<string, string>): boolean {
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has(labels, r.key) && r.values.includes(labels[r.key]);
    case 'notin':
    case '!=':
      return !has(labels, r.key) || !r.values.includes(labels[r.key]);
    case 'exists':
      return has(labels, r.key);
    case '!':
      return !has(labels, r.key);
    case 'gt':
    case 'lt': {
      if (!has(labels, r.key) || r.values.length !== 1) return false;
      const actual = parseInt64(labels[r.key]);
      const bound = parseInt64(r.values[0]);
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64). */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

function requirementString(r: LabelRequirement): string {
  const op: Record<LabelOperator, string> = { '=': '=', '==': '==', '!=': '!=', in: ' in ', notin: ' notin ', gt: '>', lt: '<', exists: '', '!': '' };
  if (r.operator === 'exists') return r.key;
  if (r.operator === '!') return `!${r.key}`;
  const values = r.values.length === 1 ? r.values[0] : [...r.values].sort().join(',');
  return r.operator === 'in' || r.operator === 'notin' ? `${r.key}${op[r.operator]}(${values})` : `${r.key}${op[r.operator]}${values}`;
}

// ---- requirement validation (labels.NewRequirement) ----

/** field.Invalid(...).Error() text; Go's nil *field.Path prints as "<nil>". */
const invalid = (path: string, value: string, detail: string): string => `${path}: Invalid value: ${value}: ${detail}`;
const quote = (s: string): string => JSON.stringify(s);
const goStringSlice = (v: readonly string[] | undefined): string => (v ? `[]string{${v.map(quote).join(', ')}}` : '[]string(nil)');

function labelKeyError(key: string, path: string): string | undefined {
  const errs = isQualifiedName(key);
  return errs.length ? invalid(path, quote(key), errs.join('; ')) : undefined;
}

/** labels.NewRequirement: the error messages for an invalid requirement ([] when valid). */
function requirementErrors(key: string, op: LabelOperator, values: readonly string[] | undefined): string[] {
  const errs: string[] = [];
  const keyErr = labelKeyError(key, 'key');
  if (keyErr) errs.push(keyErr);
  const vals = values ?? [];
  switch (op) {
    case 'in':
    case 'notin':
      if (vals.length === 0) errs.push(invalid('values', goStringSlice(values), "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1) errs.push(invalid('values', goStringSlice(values), 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0) errs.push(invalid('values', goStringSlice(values), 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1) errs.push(invalid('values', goStringSlice(values), "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(invalid(`values[${i}]`, quote(v), "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  vals.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length) errs.push(invalid(`values[${i}][${key}]`, quote(v), msgs.join('; ')));
  });
  return errs;
}

/** utilerrors.NewAggregate(...).Error(). */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

class SelectorSyntaxError extends Error {}

function newRequirement(key: string, operator: LabelOperator, values: readonly string[] | undefined): LabelRequirement {
  const errs = requirementErrors(key, operator, values);
  if (errs.length) throw new SelectorSyntaxError(aggregate(errs));
  return { key, operator, values: values ?? [] };
}

// ---- lexer ----

type Token = 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'in' | '<' | '!=' | 'notin' | '(' | 'id';

interface ScannedItem {
  tok: Token;
  literal: string;
}

const KEYWORDS: ReadonlyMap<string, Token> = new Map<string, Token>([
  [')', ')'],
  [',', ','],
  ['!', '!'],
  ['==', '=='],
  ['=', '='],
  ['>', '>'],
  ['in', 'in'],
  ['<', '<'],
  ['!=', '!='],
  ['notin', 'notin'],
  ['(', '('],
]);

const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string): boolean => '=!(),><'.includes(ch) && ch !== '';

/** labels.Lexer, character for character. */
function lex(input: string): ScannedItem[] {
  const items: ScannedItem[] = [];
  let pos = 0;
  const read = (): string => (pos < input.length ? input[pos++] : '');

  const scanIdOrKeyword = (): ScannedItem => {
    let buf = '';
    for (let ch = read(); ch !== ''; ch = read()) {
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        pos--;
        break;
      }
      buf += ch;
    }
    return { tok: KEYWORDS.get(buf) ?? 'id', literal: buf };
  };

  // Longest run of special symbols that still forms an operator ("!=", "==", "=", ...).
  const scanSpecialSymbol = (): ScannedItem => {
    let buf = '';
    let last: ScannedItem | undefined;
    for (let ch = read(); ch !== ''; ch = read()) {
      if (!isSpecialSymbol(ch)) {
        pos--;
        break;
      }
      buf += ch;
      const tok = KEYWORDS.get(buf);
      if (tok) last = { tok, literal: buf };
      else if (last) {
        pos--;
        break;
      }
    }
    return last ?? { tok: 'error', literal: `error expected: keyword found '${buf}'` };
  };

  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    if (ch === '') {
      items.push({ tok: 'eos', literal: '' });
      return items;
    }
    pos--;
    items.push(isSpecialSymbol(ch) ? scanSpecialSymbol() : scanIdOrKeyword());
  }
}

// ---- parser (labels.Parser) ----

type Context = 'keyAndOperator' | 'values';

class Parser {
  private position = 0;

  constructor(private readonly items: ScannedItem[]) {}

  /** In a values context the keywords in/notin are plain identifiers ("x in (in)"). */
  private at(index: number, context: Context): ScannedItem {
    const item = this.items[index];
    if (context === 'values' && (item.tok === 'in' || item.tok === 'notin')) return { tok: 'id', literal: item.literal };
    return item;
  }

  private lookahead(context: Context): ScannedItem {
    return this.at(this.position, context);
  }

  private consume(context: Context): ScannedItem {
    return this.at(this.position++, context);
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const { tok, literal } = this.lookahead('values');
      if (tok === 'eos') return requirements;
      if (tok !== 'id' && tok !== '!') throw new SelectorSyntaxError(`found '${literal}', expected: !, identifier, or 'end of string'`);
      try {
        requirements.push(this.parseRequirement());
      } catch (err) {
        if (err instanceof SelectorSyntaxError) throw new SelectorSyntaxError(`unable to parse requirement: ${err.message}`);
        throw err;
      }
      const next = this.consume('values');
      if (next.tok === 'eos') return requirements;
      if (next.tok !== ',') throw new SelectorSyntaxError(`found '${next.literal}', expected: ',' or 'end of string'`);
      const after = this.lookahead('values');
      if (after.tok !== 'id' && after.tok !== '!') throw new SelectorSyntaxError(`found '${after.literal}', expected: identifier after ','`);
    }
  }

  private parseRequirement(): LabelRequirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, []);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, op, [...values].sort());
  }

  private parseKeyAndInferOperator(): { key: string; operator?: LabelOperator } {
    let operator: LabelOperator | undefined;
    let item = this.consume('values');
    if (item.tok === '!') {
      operator = '!';
      item = this.consume('values');
    }
    if (item.tok !== 'id') throw new SelectorSyntaxError(`found '${item.literal}', expected: identifier`);
    // Parse passes a nil field path here, which Go prints as "<nil>".
    const keyErr = labelKeyError(item.literal, '<nil>');
    if (keyErr) throw new SelectorSyntaxError(keyErr);
    const next = this.lookahead('values').tok;
    if ((next === 'eos' || next === ',') && operator !== '!') operator = 'exists';
    return { key: item.literal, operator };
  }

  private parseOperator(): LabelOperator {
    const { tok, literal } = this.consume('keyAndOperator');
    const ops: Partial<Record<Token, LabelOperator>> = { in: 'in', '=': '=', '==': '==', '>': 'gt', '<': 'lt', notin: 'notin', '!=': '!=' };
    const op = ops[tok];
    if (!op) throw new SelectorSyntaxError(`found '${literal}', expected: in, notin, =, ==, !=, gt, lt`);
    return op;
  }

  private parseValues(): Set<string> {
    const open = this.consume('values');
    if (open.tok !== '(') throw new SelectorSyntaxError(`found '${open.literal}' expected: '('`);
    const { tok, literal } = this.lookahead('values');
    if (tok === ')') {
      this.consume('values');
      return new Set(['']); // "()" is the set holding the empty value
    }
    if (tok !== 'id' && tok !== ',') throw new SelectorSyntaxError(`found '${literal}', expected: ',', ')' or identifier`);
    const values = this.parseIdentifiersList();
    if (this.consume('values').tok !== ')') throw new SelectorSyntaxError(`found '${literal}', expected: ')'`);
    return values;
  }

  /** A comma-separated list where empty entries ("(,a)", "(a,,b)", "(a,)") mean the empty value. */
  private parseIdentifiersList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const { tok, literal } = this.consume('values');
      if (tok === 'id') {
        values.add(literal);
        const next = this.lookahead('values');
        if (next.tok === ',') continue;
        if (next.tok === ')') return values;
        throw new SelectorSyntaxError(`found '${next.literal}', expected: ',' or ')'`);
      }
      if (tok !== ',') throw new SelectorSyntaxError(`found '${literal}', expected: ',', or identifier`);
      if (values.size === 0) values.add('');
      const next = this.lookahead('values').tok;
      if (next === ')') {
        values.add('');
        return values;
      }
      if (next === ',') values.add('');
    }
  }

  private parseExactValue(): Set<string> {
    const next = this.lookahead('values').tok;
    if (next === 'eos' || next === ',') return new Set(['']);
    const { tok, literal } = this.consume('values');
    if (tok === 'id') return new Set([literal]);
    throw new SelectorSyntaxError(`found '${literal}', expected: identifier`);
  }
}

/**
 * labels.Parse. An empty string selects everything. Syntax or validation errors throw a 400 BadRequest
 * whose message is what kube-apiserver answers, e.g. "unable to parse requirement: found '', expected: identifier".
 */
export function parseLabelSelector(selector: string): LabelSelector {
  try {
    return LabelSelector.of(new Parser(lex(selector)).parse());
  } catch (err) {
    if (err instanceof SelectorSyntaxError) throw Errors.badRequest(err.message);
    throw err;
  }
}

/** labels.SelectorFromSet: every key must equal its value; an empty set selects everything. */
export function labelSelectorFromSet(set: Record<string, string> | undefined): LabelSelector {
  return LabelSelector.of(Object.entries(set ?? {}).map(([key, value]) => ({ key, operator: '=' as const, values: [value] })));
}

const METAV1_OPERATORS: Readonly<Record<string, LabelOperator>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * metav1.LabelSelectorAsSelector: nil selects nothing, an empty selector everything. Invalid keys, values
 * or operators throw a 400 BadRequest with kube's message.
 */
export function labelSelectorFromMetav1(sel: MetaV1LabelSelector | null | undefined): LabelSelector {
  if (!sel) return LabelSelector.nothing();
  const requirements: LabelRequirement[] = [];
  try {
    for (const [key, value] of Object.entries(sel.matchLabels ?? {})) requirements.push(newRequirement(key, '=', [value]));
    for (const expr of sel.matchExpressions ?? []) {
      const op = METAV1_OPERATORS[expr.operator];
      if (!op) throw new SelectorSyntaxError(`${JSON.stringify(expr.operator)} is not a valid label selector operator`);
      // Go copies values with append([]string(nil), ...): an empty list becomes nil.
      requirements.push(newRequirement(expr.key, op, expr.values?.length ? [...expr.values] : undefined));
    }
  } catch (err) {
    if (err instanceof SelectorSyntaxError) throw Errors.badRequest(err.message);
    throw err;
  }
  return LabelSelector.of(requirements);
}
