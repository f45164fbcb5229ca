/**
 * An authorization webhook's matchConditions (k8s.io/apiserver/pkg/authorization/cel): CEL over one variable,
 * `request`, the SubjectAccessReviewSpec the webhook would be sent. Compiled once when the configuration is
 * loaded, evaluated per request that reaches the webhook (never for requests an earlier authorizer decided).
 */
import { Environment } from '@marcbachmann/cel-js';
import { dynValue, formatIssue, registerKubeLibrary } from '@kube/apiextensions';

export interface CompiledMatchCondition {
  expression: string;
  evaluate(activation: { request: unknown }): unknown;
}

let shared: Environment | undefined;

/** One environment for every match condition: kube's library and `request` alone (any other name fails to compile). */
function environment(): Environment {
  if (!shared) {
    shared = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
    registerKubeLibrary(shared);
    shared.registerVariable('request', 'dyn');
  }
  return shared;
}

/** kube's compile: "compilation failed: ERROR: <input>:…", or "must evaluate to bool". */
export function compileMatchCondition(expression: string): CompiledMatchCondition | { error: string } {
  try {
    const parsed = environment().parse(expression);
    const checked = parsed.check();
    if (!checked.valid) return { error: `compilation failed: ${formatIssue(expression, checked.error)}` };
    const type = checked.type ?? 'dyn';
    if (type !== 'bool' && type !== 'dyn') return { error: 'must evaluate to bool' };
    return { expression, evaluate: (activation) => parsed(activation) };
  } catch (err) {
    return { error: `compilation failed: ${formatIssue(expression, err)}` };
  }
}

export type MatchResult = { matches: true } | { matches: false; error?: string };

/**
 * CELMatcher.Eval: false as soon as one condition is false; errors of the others gathered (each as kube words
 * it) and returned when no condition was false, so the failure policy decides.
 */
export function evaluateMatchConditions(conditions: readonly CompiledMatchCondition[], spec: object): MatchResult {
  // The spec holds strings, string lists and maps of them only: converted as is, no JSON round trip.
  const request = dynValue(spec);
  const errors: string[] = [];
  for (const c of conditions) {
    let value: unknown;
    try {
      value = c.evaluate({ request });
    } catch (err) {
      const e = err as { summary?: string; message?: string };
      errors.push(`cel evaluation error: expression '${c.expression}' resulted in error: ${(e.summary ?? e.message ?? String(err)).split('\n')[0]}`);
      continue;
    }
    if (typeof value !== 'boolean') {
      errors.push(`cel evaluation error: expression '${c.expression}' eval result type should be bool but got ${typeof value === 'bigint' ? 'int' : typeof value}`);
      continue;
    }
    if (!value) return { matches: false };
  }
  if (errors.length) return { matches: false, error: errors.length === 1 ? errors[0] : `[${errors.join(', ')}]` };
  return { matches: true };
}
