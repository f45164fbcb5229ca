/** matchConditions (kube's k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions): CEL guards, all must hold. */
import { compileExpression, evaluationError, type Activation, type CompiledExpression } from '../cel/admission.cel';
import type { MatchCondition } from '../registration/admissionregistration.types';

export interface CompiledMatchCondition {
  name: string;
  expression: CompiledExpression;
}

export function compileMatchConditions(conditions: readonly MatchCondition[] | undefined): CompiledMatchCondition[] {
  return (conditions ?? []).map((c) => ({ name: c.name, expression: compileExpression(c.expression, 'bool') }));
}

/** false when any condition is false (that wins over errors), else the errors if any, else true. */
export function evaluateMatchConditions(conditions: readonly CompiledMatchCondition[], activation: () => Activation): { matches: boolean; error?: string } {
  const errors: string[] = [];
  const vars = activation();
  for (const c of conditions) {
    const compiled = c.expression;
    if (!compiled.ok) {
      errors.push(`compilation failed for matchCondition '${c.name}': ${compiled.error}`);
      continue;
    }
    try {
      const result = compiled.evaluate(vars);
      if (result === false) return { matches: false };
      if (result !== true) errors.push(`matchCondition '${c.name}' did not evaluate to a bool`);
    } catch (err) {
      errors.push(`matchCondition '${c.name}' evaluation failed: ${evaluationError(err)}`);
    }
  }
  return errors.length ? { matches: false, error: errors.join(', ') } : { matches: true };
}
