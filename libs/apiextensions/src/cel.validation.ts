/**
 * Runs x-kubernetes-validations over an object like apiextensions-apiserver's cel.Validator: rules of
 * every schema node are evaluated against the value there (`self`) and, for transition rules, the
 * correlated old value (`oldSelf`: same map key, or same list-map keys); errors carry kube's messages.
 * Cost limits are not modelled; a coarse bound on comprehension work stops runaway rules instead.
 */
import { FieldError, type JSONSchemaProps } from '@kube/apimachinery';
import { optionalOf, schemaRules, messageTooLong, type CompiledRule, type SchemaRules } from './cel.compilation';
import { toCelValue, type CelValueCache } from './cel.values';
import { childPath, indexPath, keyPath, reportedPath } from './field-path.format';
import { goJsonMarshal, isJsonMap, type JsonMap } from './json.values';
import { additionalPropertiesSchema, itemsSchema, properties, validations } from './schema.props';

/** kube's per-call cost limit, used here as a bound on comprehension steps (n^depth). */
export const RULE_STEP_LIMIT = 1_000_000;

function ruleErrorString(rule: CompiledRule['rule']): string {
  return rule.message ? rule.message.trim() : rule.rule.trim();
}

function ruleMessageOrDefault(rule: CompiledRule['rule']): string {
  return rule.message ? rule.message.trim() : `failed rule: ${ruleErrorString(rule)}`;
}

/** fieldErrorForReason; objects and arrays are not echoed back (field.OmitValueType). */
function ruleError(path: string, value: unknown, omitValue: boolean, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return FieldError.forbidden(path, detail);
    case 'FieldValueRequired':
      return FieldError.required(path, detail);
    case 'FieldValueDuplicate':
      return new FieldError('FieldValueDuplicate', path, '', value, !omitValue);
    default:
      return new FieldError('FieldValueInvalid', path, detail, value, !omitValue);
  }
}

function errorText(err: unknown): string {
  const e = err as { summary?: string; message?: string };
  return e.summary ?? (e.message ?? String(err)).split('\n')[0];
}

const hasRulesCache = new WeakMap<JSONSchemaProps, boolean>();

/** Whether any x-kubernetes-validations rule sits at or below this node. */
export function hasRules(s: JSONSchemaProps): boolean {
  let has = hasRulesCache.get(s);
  if (has === undefined) {
    const items = itemsSchema(s);
    const ap = additionalPropertiesSchema(s);
    has = validations(s).length > 0 || (!!items && hasRules(items)) || (!!ap && hasRules(ap)) || properties(s).some(([, p]) => hasRules(p));
    hasRulesCache.set(s, has);
  }
  return has;
}

/** One validation pass: shares converted values and stops after a runaway rule. */
export class CelRuleValidator {
  readonly errors: FieldError[] = [];
  private readonly values: CelValueCache = new WeakMap();
  private readonly sizes = new WeakMap<object, number>();
  private stopped = false;

  constructor(private readonly rules: SchemaRules) {}

  static forRoot(root: JSONSchemaProps): CelRuleValidator {
    return new CelRuleValidator(schemaRules(root));
  }

  /** Validates `obj` (at `path`, '' for the root) against node `s` of the rules' schema. */
  validate(path: string, s: JSONSchemaProps | undefined, obj: unknown, old: unknown): this {
    if (!s || obj === null || obj === undefined || this.stopped || !hasRules(s)) return this;
    this.validateExpressions(path, s, obj, old ?? undefined);
    if (Array.isArray(obj)) this.validateArray(path, s, obj, Array.isArray(old) ? old : undefined);
    else if (isJsonMap(obj)) this.validateMap(path, s, obj, isJsonMap(old) ? old : undefined);
    return this;
  }

  private validateMap(path: string, s: JSONSchemaProps, obj: JsonMap, old: JsonMap | undefined): void {
    const mapType = s['x-kubernetes-map-type'];
    const correlatable = mapType === undefined || mapType === 'granular' || mapType === 'atomic';
    const oldOf = (k: string): unknown => (correlatable ? old?.[k] : undefined);
    const ap = additionalPropertiesSchema(s);
    for (const [k, v] of Object.entries(obj)) {
      const prop = s.properties?.[k];
      if (ap) this.validate(keyPath(path, k), ap, v, oldOf(k));
      if (prop) this.validate(childPath(path, k), prop, v, oldOf(k));
    }
  }

  private validateArray(path: string, s: JSONSchemaProps, arr: unknown[], old: unknown[] | undefined): void {
    const items = itemsSchema(s);
    if (!items) return;
    const oldItem = correlateMapList(s, old);
    arr.forEach((v, i) => this.validate(indexPath(path, i), items, v, oldItem(v)));
  }

  private validateExpressions(path: string, s: JSONSchemaProps, obj: unknown, old: unknown): void {
    const node = this.rules.forNode(s);
    const type = s.type ?? '';
    const at = reportedPath(path);
    if (node.initError) {
      this.errors.push(FieldError.invalid(at, type, `rule compiler initialization error: ${node.initError}`));
      return;
    }
    if (!node.type || node.rules.length === 0) return;
    const self = toCelValue(obj, node.type, this.values);
    const oldSelf = old === undefined ? undefined : toCelValue(old, node.type, this.values);
    for (const cr of node.rules) {
      if (cr.error) {
        this.errors.push(FieldError.invalid(at, type, `rule compile error: ${cr.error}`));
        continue;
      }
      if (!cr.program || (cr.usesOldSelf && oldSelf === undefined && !cr.optionalOldSelf)) continue;
      if (this.exceedsStepLimit(cr, obj, old)) {
        const msg = `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(cr.rule)}`;
        this.errors.push(FieldError.invalid(at, type, msg));
        this.stopped = true;
        return;
      }
      const vars: Record<string, unknown> = { self };
      if (cr.optionalOldSelf) vars.oldSelf = optionalOf(oldSelf);
      else if (oldSelf !== undefined) vars.oldSelf = oldSelf;
      this.evaluate(cr, vars, path, type, obj, oldSelf);
    }
  }

  private evaluate(cr: CompiledRule, vars: Record<string, unknown>, path: string, type: string, obj: unknown, oldSelf: unknown): void {
    let result: unknown;
    try {
      result = cr.program?.(vars);
    } catch (err) {
      this.errors.push(FieldError.invalid(reportedPath(path), type, runtimeErrorDetail(err, cr)));
      return;
    }
    if (result === true) return;
    const errPath = reportedPath(cr.fieldPath ? childPath(path, cr.fieldPath) : path);
    const detail = evaluateMessage(cr, { self: vars.self, ...(oldSelf !== undefined ? { oldSelf } : {}) }) ?? ruleMessageOrDefault(cr.rule);
    this.errors.push(ruleError(errPath, obj, type === 'object' || type === 'array', detail, cr.rule.reason));
  }

  /** A rule nesting d comprehensions over collections of up to n elements takes about n^d steps. */
  private exceedsStepLimit(cr: CompiledRule, obj: unknown, old: unknown): boolean {
    if (cr.depth === 0) return false;
    const n = Math.max(this.largestCollection(obj), this.largestCollection(old), 1);
    return n ** cr.depth > RULE_STEP_LIMIT;
  }

  private largestCollection(v: unknown): number {
    if (typeof v !== 'object' || v === null) return 0;
    const cached = this.sizes.get(v);
    if (cached !== undefined) return cached;
    const children = Array.isArray(v) ? v : Object.values(v);
    const size = Math.max(children.length, ...children.map((c) => this.largestCollection(c)));
    this.sizes.set(v, size);
    return size;
  }
}

/** The old item each new item of a list-type=map list corresponds to (same key values); none otherwise. */
function correlateMapList(s: JSONSchemaProps, old: unknown[] | undefined): (item: unknown) => unknown {
  const keys = s['x-kubernetes-list-map-keys'];
  if (s['x-kubernetes-list-type'] !== 'map' || !keys?.length || !old) return () => undefined;
  const keyOf = (item: unknown): string | undefined => {
    if (!isJsonMap(item)) return undefined;
    return goJsonMarshal(keys.map((k) => (k in item ? item[k] : null)));
  };
  const byKey = new Map<string, unknown>();
  for (const item of old) {
    const k = keyOf(item);
    if (k !== undefined && !byKey.has(k)) byKey.set(k, item);
  }
  return (item) => {
    const k = keyOf(item);
    return k === undefined ? undefined : byKey.get(k);
  };
}

function runtimeErrorDetail(err: unknown, cr: CompiledRule): string {
  const text = errorText(err);
  if (/no such overload|no matching overload/i.test(text)) {
    return `'no such overload': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(cr.rule)}`;
  }
  const celGo = text.replace(/^No such key: /, 'no such key: ');
  return `${celGo} evaluating rule: ${ruleErrorString(cr.rule)}`;
}

/** The messageExpression's text, or undefined when it fails (kube then falls back to the message). */
function evaluateMessage(cr: CompiledRule, vars: Record<string, unknown>): string | undefined {
  if (!cr.messageProgram) return undefined;
  let message: unknown;
  try {
    message = cr.messageProgram(vars);
  } catch {
    return undefined;
  }
  if (typeof message !== 'string') return undefined;
  const trimmed = message.trim();
  if (trimmed === '' || messageTooLong(trimmed) || /\n/.test(trimmed)) return undefined;
  return trimmed;
}

/**
 * Evaluates every x-kubernetes-validations rule of a CRD schema against obj (and old, on update).
 * Transition rules (using oldSelf) only run where a correlated old value exists.
 */
export function validateCelRules(obj: unknown, schema: JSONSchemaProps, old?: unknown): FieldError[] {
  return CelRuleValidator.forRoot(schema).validate('', schema, obj, old).errors;
}
