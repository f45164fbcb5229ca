/**
 * Walks over cel-js ASTs: whether a rule reads oldSelf (a transition rule), how deeply its comprehensions
 * nest (for the runaway guard), and the rewrite of matches() to the RE2 implementation.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import { RE2_MATCHES } from './cel.library';

const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

function isNode(x: unknown): x is ASTNode {
  return typeof x === 'object' && x !== null && 'op' in x && 'args' in x;
}

/** The AST nodes directly below n, whatever shape the operator keeps its operands in. */
function children(n: ASTNode): ASTNode[] {
  const out: ASTNode[] = [];
  const collect = (x: unknown): void => {
    if (isNode(x)) out.push(x);
    else if (Array.isArray(x)) x.forEach(collect);
  };
  collect(n.args);
  return out;
}

export function someNode(n: ASTNode, pred: (n: ASTNode) => boolean): boolean {
  return pred(n) || children(n).some((c) => someNode(c, pred));
}

export function referencesVariable(ast: ASTNode, name: string): boolean {
  return someNode(ast, (n) => n.op === 'id' && n.args === name);
}

/**
 * How many comprehensions run inside one another: a rule of depth d over collections of at most n
 * elements does about n^d steps (the receiver of a macro runs once, its predicate once per element).
 */
export function comprehensionDepth(n: ASTNode): number {
  if (n.op === 'rcall' && MACROS.has(n.args[0])) {
    const [, receiver, args] = n.args;
    return Math.max(comprehensionDepth(receiver), 1 + Math.max(0, ...args.map(comprehensionDepth)));
  }
  return Math.max(0, ...children(n).map(comprehensionDepth));
}

/** Points every `x.matches(re)` at the RE2 implementation (in place; the AST must not be checked yet). */
export function useRe2Matches(ast: ASTNode): boolean {
  let changed = false;
  const visit = (n: ASTNode): void => {
    if (n.op === 'rcall' && n.args[0] === 'matches' && n.args[2].length === 1) {
      (n.args as unknown[])[0] = RE2_MATCHES;
      changed = true;
    }
    children(n).forEach(visit);
  };
  visit(ast);
  return changed;
}

interface HasMacroChecker {
  check(node: ASTNode, ctx: unknown): unknown;
  getType(name: string): unknown;
}
interface HasMacroEvaluator {
  run(node: ASTNode, ctx: unknown): unknown;
  debugType(value: unknown): { fieldLazy(obj: unknown, field: unknown, node: ASTNode, ev: HasMacroEvaluator): unknown };
}

/**
 * cel-go's has() takes any field selection (`has(self[0].matches)`, as Gateway API's rules write it);
 * cel-js only one rooted in an identifier. Such calls get a has() that checks the selection's type and tests
 * the field on whatever the operand evaluates to (in place; the AST must not be checked yet).
 */
export function allowHasOnAnyOperand(ast: ASTNode): void {
  const visit = (n: ASTNode): void => {
    const [name, args] = n.op === 'call' && Array.isArray(n.args) ? (n.args as unknown[]) : [];
    if (name === 'has' && Array.isArray(args) && args.length === 1 && isNode(args[0]) && args[0].op === '.' && !rootedInIdentifier(args[0])) {
      const selection = args[0];
      const macro = {
        args,
        async: false,
        typeCheck: (checker: HasMacroChecker, _m: unknown, ctx: unknown) => (checker.check(selection, ctx), checker.getType('bool')),
        evaluate: (ev: HasMacroEvaluator, _m: unknown, ctx: unknown) => {
          const [operand, field] = selection.args as [ASTNode, unknown];
          const obj = ev.run(operand, ctx);
          return ev.debugType(obj).fieldLazy(obj, field, selection, ev) !== undefined;
        },
      };
      (n as unknown as { setMeta(key: string, value: unknown): void }).setMeta('macro', macro);
    }
    children(n).forEach(visit);
  };
  visit(ast);
}

function rootedInIdentifier(n: ASTNode): boolean {
  let node = n;
  while (node.op === '.' || node.op === '.?') node = (node.args as unknown as [ASTNode])[0];
  return node.op === 'id';
}

/** 1-based line and 0-based column of an offset, as cel-go's source locations count them. */
export function locate(source: string, offset: number): { line: number; column: number; text: string } {
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = source.indexOf('\n', lineStart);
  return { line, column: offset - lineStart, text: source.slice(lineStart, lineEnd < 0 ? undefined : lineEnd) };
}
