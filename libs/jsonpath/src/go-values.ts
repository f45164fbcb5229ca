/**
 * How Go sees decoded JSON, for the parts of kube's JSONPath that depend on it: kinds for comparisons
 * (text/template's eq/lt), fmt.Fprint for text output and encoding/json for objects and arrays.
 * Numbers follow unstructured decoding: integral values are int64, others float64.
 */

type Kind = 'bool' | 'int' | 'float' | 'string';

/** A number a template wrote as a float literal (`2.0`): compares as float64, not int. */
export class FloatLiteral {
  constructor(readonly value: number) {}
}

function basicKind(v: unknown): Kind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (v instanceof FloatLiteral) return 'float';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  throw new Error('invalid type for comparison');
}

function num(v: unknown): number {
  return v instanceof FloatLiteral ? v.value : (v as number);
}

/** text/template's eq, with the single right operand the JSONPath filter gives it. */
export function goEqual(a: unknown, b: unknown): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 !== k2) throw new Error('incompatible types for comparison');
  return k1 === 'int' || k1 === 'float' ? num(a) === num(b) : a === b;
}

/** text/template's lt. */
export function goLess(a: unknown, b: unknown): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 !== k2) throw new Error('incompatible types for comparison');
  if (k1 === 'bool') throw new Error('invalid type for comparison');
  if (k1 === 'string') return (a as string) < (b as string);
  return num(a) < num(b);
}

/** fmt.Fprint of a scalar (what PrintResults writes for anything but maps and slices). */
export function goPrint(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (v instanceof FloatLiteral) return goFloat(v.value);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  return goMarshal(v);
}

/** strconv.FormatFloat(v, 'g', -1, 64), which fmt uses for %v. */
export function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mantissa, e] = v.toExponential().split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  // Shortest round-trip digits in fixed notation: JS's own formatting is that for this exponent range.
  return String(v);
}

/** encoding/json: map keys sorted, HTML characters escaped, as kubectl prints objects inside templates. */
export function goMarshal(v: unknown): string {
  return JSON.stringify(sortKeys(v)).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function sortKeys(v: unknown): unknown {
  if (v instanceof FloatLiteral) return v.value;
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
  return out;
}

/** The Go type name kube's errors mention ("map[string]interface {} is not array or slice"). */
export function goTypeName(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object' && v !== null && !(v instanceof FloatLiteral)) return 'map[string]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || v instanceof FloatLiteral) return basicKind(v) === 'int' ? 'int64' : 'float64';
  return 'interface {}';
}

/** fmt's %v of a value, for the filter error message. */
export function goSprintV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goSprintV).join(' ')}]`;
  if (typeof v === 'object' && !(v instanceof FloatLiteral)) {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o)
      .sort()
      .map((k) => `${k}:${goSprintV(o[k])}`)
      .join(' ')}]`;
  }
  return goPrint(v);
}
