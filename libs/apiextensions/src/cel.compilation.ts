/**
 * Compiles x-kubernetes-validations rules the way apiextensions-apiserver's cel.Compile does: each rule is
 * type-checked against the CEL type of the schema node it sits on (self, and oldSelf of the same type),
 * must return bool, and its messageExpression must return string. One compilation per schema object:
 * results are cached by the root schema's identity.
 */
import { Environment, Optional, type ASTNode } from '@marcbachmann/cel-js';
import type { JSONSchemaProps } from '@kube/apimachinery';
import { allowHasOnAnyOperand, comprehensionDepth, locate, referencesVariable, useRe2Matches } from './cel.ast';
import { registerKubeLibrary } from './cel.library';
import { celTypeName, DeclTypeBuilder, type DeclType } from './cel.types';
import { validFieldPath } from './rule-field-path.parser';
import { validations, type ValidationRule } from './schema.props';

/** A compiled program: evaluates with `self` (and `oldSelf`) bound. */
export type CelProgram = (vars: Record<string, unknown>) => unknown;

export interface CompiledRule {
  readonly rule: ValidationRule;
  /** The compile error detail, e.g. "compilation failed: ERROR: <input>:1:6: undefined field 'foo' ...". */
  readonly error?: string;
  readonly program?: CelProgram;
  readonly usesOldSelf: boolean;
  /** optionalOldSelf: the rule also runs without an old value, with oldSelf an optional. */
  readonly optionalOldSelf: boolean;
  readonly messageProgram?: CelProgram;
  readonly messageError?: string;
  /** The rule's fieldPath, normalized ("spec.ports"), or '' when it has none or it is invalid. */
  readonly fieldPath: string;
  /** How deeply comprehensions nest (see cel.ast comprehensionDepth). */
  readonly depth: number;
}

export interface NodeRules {
  /** Why no rule of this node could be compiled (no CEL type for it). */
  readonly initError?: string;
  readonly type?: DeclType;
  readonly rules: readonly CompiledRule[];
}

const MAX_MESSAGE_BYTES = 5000;

/** cel-go's wording for the checker errors rules commonly hit; other messages pass through. */
function celGoMessage(message: string): string {
  const undefinedField = /^No such key: (.*)$/.exec(message);
  if (undefinedField) return `undefined field '${undefinedField[1]}'`;
  const notSelectable = /^Cannot index type '(.*)'$/.exec(message);
  if (notSelectable) return `type '${notSelectable[1]}' does not support field selection`;
  const unknownVar = /^Unknown variable: (.*)$/.exec(message);
  if (unknownVar) return `undeclared reference to '${unknownVar[1]}' (in container '')`;
  const overload = /^found no matching overload for '(?:(.*)\.)?(\w+)\((.*)\)'$/.exec(message);
  if (overload) return `found no matching overload for '${overload[2]}' applied to '${overload[1] ? `${overload[1]}.` : ''}(${overload[3]})'`;
  const operator = /^no such overload: (\S+) (\S+) (\S+)$/.exec(message);
  if (operator) return `found no matching overload for '_${operator[2]}_' applied to '(${operator[1]}, ${operator[3]})'`;
  return message;
}

interface CelJsError {
  summary?: string;
  message: string;
  name?: string;
  range?: { start: number };
  node?: { pos?: number };
}

/** cel-go's issues.String(): "ERROR: <input>:L:C: message\n | source line\n | ....^". */
export function formatIssue(source: string, err: unknown): string {
  const e = err as CelJsError;
  const summary = e.summary ?? e.message.split('\n')[0];
  const text = e.name === 'ParseError' ? `Syntax error: ${summary}` : celGoMessage(summary);
  const offset = Math.min(e.range?.start ?? e.node?.pos ?? 0, source.length);
  const { line, column, text: lineText } = locate(source, offset);
  return `ERROR: <input>:${line}:${column + 1}: ${text}\n | ${lineText}\n | ${'.'.repeat(column)}^`;
}

/** Parses and type-checks; returns the checked program and its type, or the formatted issue. */
function checkExpression(env: Environment, source: string, rewrite: boolean): { program: CelProgram; type: string; ast: ASTNode } | { issue: string } {
  try {
    const parsed = env.parse(source);
    allowHasOnAnyOperand(parsed.ast);
    if (rewrite) useRe2Matches(parsed.ast);
    const checked = parsed.check();
    if (!checked.valid) return { issue: formatIssue(source, checked.error) };
    return { program: parsed, type: checked.type ?? '', ast: parsed.ast };
  } catch (err) {
    return { issue: formatIssue(source, err) };
  }
}

function compileMessageExpression(env: Environment, source: string | undefined): Pick<CompiledRule, 'messageProgram' | 'messageError'> {
  if (!source) return {};
  const checked = checkExpression(env, source, true);
  if ('issue' in checked) return { messageError: `messageExpression compilation failed: ${checked.issue}` };
  if (checked.type !== 'string') return { messageError: 'messageExpression must evaluate to a string' };
  return { messageProgram: checked.program };
}

function compileRule(envs: { plain: Environment; optional: Environment }, node: JSONSchemaProps, rule: ValidationRule): CompiledRule {
  const optionalOldSelf = rule.optionalOldSelf === true;
  const base = { rule, usesOldSelf: false, optionalOldSelf, fieldPath: '', depth: 0 };
  if (!rule.rule || rule.rule.trim() === '') return base;
  const env = optionalOldSelf ? envs.optional : envs.plain;
  // Check the rule as written (so errors name matches(), not its RE2 stand-in), then build the RE2 one.
  const original = checkExpression(env, rule.rule, false);
  if ('issue' in original) return { ...base, error: `compilation failed: ${original.issue}` };
  if (original.type !== 'bool') return { ...base, error: 'cel expression must evaluate to a bool' };
  const compiled = checkExpression(env, rule.rule, true);
  if ('issue' in compiled) return { ...base, error: `compilation failed: ${compiled.issue}` };
  const fieldPath = rule.fieldPath ? validFieldPath(rule.fieldPath, node) : undefined;
  return {
    ...base,
    program: compiled.program,
    usesOldSelf: referencesVariable(compiled.ast, 'oldSelf'),
    depth: comprehensionDepth(compiled.ast),
    fieldPath: fieldPath?.ok ? fieldPath.path : '',
    ...compileMessageExpression(envs.plain, rule.messageExpression),
  };
}

/** The rules of every node of one schema tree, compiled lazily, once. */
export class SchemaRules {
  private readonly types = new DeclTypeBuilder();
  private readonly base: Environment;
  private readonly compiled = new Map<JSONSchemaProps, NodeRules>();

  constructor(readonly root: JSONSchemaProps) {
    this.types.build(root, true);
    this.base = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
    registerKubeLibrary(this.base);
    for (const t of this.types.objects) {
      const fields = Object.fromEntries([...t.fields].map(([name, f]) => [name, celTypeName(f.type)]));
      this.base.registerType(t.name, { ctor: t.ctor, fields });
      this.base.registerOperator(`${t.name} == ${t.name}`, celEquals);
    }
  }

  /** The CEL type rules on `node` see as self, if the node has one. */
  typeOf(node: JSONSchemaProps): DeclType | undefined {
    return this.types.bySchema.get(node);
  }

  forNode(node: JSONSchemaProps): NodeRules {
    let rules = this.compiled.get(node);
    if (!rules) {
      rules = this.compileNode(node);
      this.compiled.set(node, rules);
    }
    return rules;
  }

  private compileNode(node: JSONSchemaProps): NodeRules {
    const list = validations(node);
    if (list.length === 0) return { rules: [] };
    const type = this.typeOf(node);
    if (!type) return { initError: 'failed to convert to declType for CEL validation rules', rules: [] };
    const selfType = celTypeName(type);
    const plain = this.base.clone().registerVariable('self', selfType).registerVariable('oldSelf', selfType);
    const optional = this.base.clone().registerVariable('self', selfType).registerVariable('oldSelf', `optional<${selfType}>`);
    return { type, rules: list.map((r) => compileRule({ plain, optional }, node, r)) };
  }
}

const cache = new WeakMap<JSONSchemaProps, SchemaRules>();

/** The compiled rules of a root schema, shared by every caller holding the same schema object. */
export function schemaRules(root: JSONSchemaProps): SchemaRules {
  let rules = cache.get(root);
  if (!rules) {
    rules = new SchemaRules(root);
    cache.set(root, rules);
  }
  return rules;
}

/** The value oldSelf is bound to for a rule with optionalOldSelf. */
export function optionalOf(value: unknown): unknown {
  return value === null || value === undefined ? Optional.none() : Optional.of(value);
}

/** CEL equality of runtime values (cel-js needs it spelled out for object types). */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) return Number(a) === Number(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => celEquals(x, b[i]));
  if (a instanceof Map && b instanceof Map) return a.size === b.size && [...a].every(([k, v]) => b.has(k) && celEquals(v, b.get(k)));
  if (typeof a === 'object' && typeof b === 'object' && a && b && a.constructor === b.constructor) {
    const ka = Object.keys(a);
    const rb = b as Record<string, unknown>;
    return ka.length === Object.keys(b).length && ka.every((k) => k in rb && celEquals((a as Record<string, unknown>)[k], rb[k]));
  }
  return false;
}

/** Bytes of a message as Go counts them, for the 5000-byte messageExpression limit. */
export function messageTooLong(message: string): boolean {
  return Buffer.byteLength(message, 'utf8') > MAX_MESSAGE_BYTES;
}
