/**
 * The parts of kube's CEL environment (k8s.io/apiserver/pkg/cel/library and cel-go's strings extension)
 * that cel-js lacks and that CRD rules use in practice: RE2 regexes (matches/find/findAll), the strings
 * extension's replace/charAt/reverse, and the lists library (sum/min/max/isSorted/indexOf/lastIndexOf).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { compileGoRegexp, type GoRegexp } from './go-regexp.engine';

/** cel-js's built-in matches() uses JS regexes; rules are rewritten to call this RE2 one instead. */
export const RE2_MATCHES = 're2Matches';

function regexpOrThrow(pattern: string): GoRegexp {
  const compiled = compileGoRegexp(pattern);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.regexp;
}

type Comparable = bigint | number | string;

function extreme(list: Comparable[], pick: (a: Comparable, b: Comparable) => boolean, name: string): Comparable {
  if (list.length === 0) throw new Error(`${name} called on empty list`);
  return list.reduce((a, b) => (pick(b, a) ? b : a));
}

function isSorted(list: Comparable[]): boolean {
  return list.every((v, i) => i === 0 || list[i - 1] <= v);
}

function replaceN(s: string, from: string, to: string, n: bigint): string {
  if (n < 0n) return s.split(from).join(to);
  let out = s;
  let pos = 0;
  for (let i = 0n; i < n; i++) {
    const at = out.indexOf(from, pos);
    if (at < 0) break;
    out = out.slice(0, at) + to + out.slice(at + from.length);
    pos = at + to.length + (from === '' ? 1 : 0);
  }
  return out;
}

function registerStrings(env: Environment): void {
  env.registerFunction(`string.${RE2_MATCHES}(string): bool`, (s: string, re: string) => regexpOrThrow(re).test(s));
  env.registerFunction('string.find(string): string', (s: string, re: string) => regexpOrThrow(re).find(s) ?? '');
  env.registerFunction('string.findAll(string): list<string>', (s: string, re: string) => regexpOrThrow(re).findAll(s));
  env.registerFunction('string.findAll(string, int): list<string>', (s: string, re: string, n: bigint) => regexpOrThrow(re).findAll(s, Number(n)));
  env.registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) => replaceN(s, a, b, -1n));
  env.registerFunction('string.replace(string, string, int): string', (s: string, a: string, b: string, n: bigint) => replaceN(s, a, b, n));
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const chars = [...s];
    if (i < 0n || i > BigInt(chars.length)) throw new Error(`index out of range: ${i}`);
    return chars[Number(i)] ?? '';
  });
  env.registerFunction('string.reverse(): string', (s: string) => [...s].reverse().join(''));
}

function registerLists(env: Environment): void {
  for (const t of ['int', 'double', 'string']) {
    env.registerFunction(`list<${t}>.min(): ${t}`, (l: Comparable[]) => extreme(l, (a, b) => a < b, 'min'));
    env.registerFunction(`list<${t}>.max(): ${t}`, (l: Comparable[]) => extreme(l, (a, b) => a > b, 'max'));
    env.registerFunction(`list<${t}>.isSorted(): bool`, (l: Comparable[]) => isSorted(l));
  }
  env.registerFunction('list<int>.sum(): int', (l: bigint[]) => l.reduce((a, b) => a + b, 0n));
  env.registerFunction('list<double>.sum(): double', (l: number[]) => l.reduce((a, b) => a + b, 0));
  env.registerFunction('list.indexOf(dyn): int', (l: unknown[], x: unknown) => BigInt(l.indexOf(x)));
  env.registerFunction('list.lastIndexOf(dyn): int', (l: unknown[], x: unknown) => BigInt(l.lastIndexOf(x)));
}

/** Adds kube's extra functions to an environment. */
export function registerKubeLibrary(env: Environment): void {
  registerStrings(env);
  registerLists(env);
}
