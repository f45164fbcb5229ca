/**
 * CEL for structured authentication (kube's k8s.io/apiserver/pkg/authentication/cel): claim mappings and claim
 * validation rules see `claims` (the token's payload, map(string, dyn)), user validation rules see `user`
 * (username, uid, groups, extra as authentication.k8s.io/v1 UserInfo has them). Compiled once per configuration.
 */
import { Environment } from '@marcbachmann/cel-js';
import { dynValue, formatIssue, registerKubeLibrary } from '@kube/apiextensions';
import type { UserInfo } from '../resource.definition';

export type ClaimsVariable = 'claims' | 'user';

/** A compiled expression: `evaluate` throws an Error with CEL's message when evaluation fails. */
export interface CompiledClaimsExpression {
  readonly source: string;
  evaluate(activation: Record<string, unknown>): unknown;
}

const environments = new Map<ClaimsVariable, Environment>();

function environment(variable: ClaimsVariable): Environment {
  let env = environments.get(variable);
  if (!env) {
    env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
    registerKubeLibrary(env);
    // Only the variable of the expression's kind is declared, as kube's compiler declares one per kind.
    env.registerVariable(variable, variable === 'claims' ? 'map<string, dyn>' : 'dyn');
    environments.set(variable, env);
  }
  return env;
}

/**
 * Compiles `source` over `variable`; `returns` 'bool' for validation rules (kube: must evaluate to bool), else
 * any type. Returns the compiled expression or kube's detail ("compilation failed: ERROR: <input>:…").
 */
export function compileClaimsExpression(source: string, variable: ClaimsVariable, returns: 'bool' | 'any'): CompiledClaimsExpression | { error: string } {
  try {
    const parsed = environment(variable).parse(source);
    const checked = parsed.check();
    if (!checked.valid) return { error: `compilation failed: ${formatIssue(source, checked.error)}` };
    if (returns === 'bool' && checked.type !== 'bool') return { error: 'must evaluate to bool' };
    return {
      source,
      evaluate: (activation) => {
        try {
          return parsed(activation);
        } catch (err) {
          throw new Error((err as { summary?: string; message?: string }).summary ?? (err as Error).message.split('\n')[0]);
        }
      },
    };
  } catch (err) {
    return { error: `compilation failed: ${formatIssue(source, err)}` };
  }
}

/** The token's claims as CEL values (maps, ints as bigint), converted once per token. */
export function claimsActivation(claims: Record<string, unknown>): Record<string, unknown> {
  return { claims: dynValue(claims) };
}

/** The mapped user as CEL sees it (kube's authenticationv1.UserInfo: extra and groups present even when empty). */
export function userActivation(user: UserInfo): Record<string, unknown> {
  return { user: dynValue({ username: user.name, uid: user.uid ?? '', groups: user.groups, extra: user.extra ?? {} }) };
}

/** kube's convertCELValueToStringList: a string, or a list of strings; null, "" and empty strings in a list count as absent. */
export function stringList(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'string') return value ? [value] : [];
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const v of value) {
      if (typeof v !== 'string') throw new Error(`expression must return a string or a list of strings`);
      if (v) out.push(v);
    }
    return out;
  }
  throw new Error(`expression must return a string or a list of strings`);
}
