/**
 * CEL for admission (kube's k8s.io/apiserver/pkg/admission/plugin/cel): matchConditions, policy validations,
 * messageExpressions, variables and audit annotations, over the variables kube declares (`object`, `oldObject`,
 * `request`, `params`, `namespaceObject`, `variables`), all dynamically typed here. Compiled once per
 * configuration change, never per request.
 */
import { Environment } from '@marcbachmann/cel-js';
import { dynValue, formatIssue, registerKubeLibrary } from '@kube/apiextensions';

export type CelReturnType = 'bool' | 'string' | 'dyn';

/** A compiled expression, or why it did not compile (kube's "compilation failed: ERROR: <input>:…"). */
export type CompiledExpression = { ok: true; source: string; evaluate(activation: Activation): unknown } | { ok: false; source: string; error: string };

/** The variables an expression sees, as CEL values (see `celActivation`). */
export type Activation = Record<string, unknown>;

const VARIABLES = ['object', 'oldObject', 'request', 'params', 'namespaceObject', 'variables', 'authorizer'];

let shared: Environment | undefined;

/** One environment for every admission expression, built at first use (not when the module loads). */
function environment(): Environment {
  if (!shared) {
    shared = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
    registerKubeLibrary(shared);
    for (const name of VARIABLES) shared.registerVariable(name, 'dyn');
  }
  return shared;
}

export function compileExpression(source: string, returns: CelReturnType): CompiledExpression {
  try {
    const parsed = environment().parse(source);
    const checked = parsed.check();
    if (!checked.valid) return { ok: false, source, error: `compilation failed: ${formatIssue(source, checked.error)}` };
    const type = checked.type ?? 'dyn';
    if (returns !== 'dyn' && type !== returns && type !== 'dyn') return { ok: false, source, error: `must evaluate to ${returns}` };
    return { ok: true, source, evaluate: (activation) => parsed(activation) };
  } catch (err) {
    return { ok: false, source, error: `compilation failed: ${formatIssue(source, err)}` };
  }
}

/** JSON values as CEL sees them (maps, ints as bigint); null stays null. */
export function celValue(json: unknown): unknown {
  return dynValue(json);
}

/** The first line of an evaluation error, as kube reports it. */
export function evaluationError(err: unknown): string {
  const e = err as { summary?: string; message?: string };
  return (e.summary ?? e.message ?? String(err)).split('\n')[0];
}
