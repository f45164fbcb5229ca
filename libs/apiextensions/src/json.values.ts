/**
 * Helpers for decoded JSON values (what kube calls "unstructured" content) with Go's semantics where the
 * schema machinery depends on them: integers vs floats, json.Marshal's sorted map keys, fmt's %v for floats.
 */

/** A decoded JSON object. */
export type JsonMap = Record<string, unknown>;

export function isJsonMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Go decodes a JSON number without a fraction into int64, anything else into float64. */
export function isJsonInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** runtime.DeepCopyJSONValue. */
export function deepCopyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => deepCopyJson(v)) as T;
  if (isJsonMap(value)) {
    const out: JsonMap = {};
    for (const [k, v] of Object.entries(value)) out[k] = deepCopyJson(v);
    return out as T;
  }
  return value;
}

/** reflect.DeepEqual on decoded JSON (key order does not matter, array order does). */
export function deepEqualJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqualJson(v, b[i]));
  if (isJsonMap(a) && isJsonMap(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqualJson(a[k], b[k]));
  }
  return false;
}

/** json.Marshal as Go does it for decoded JSON: map keys sorted, so equal maps give equal strings. */
export function goJsonMarshal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => goJsonMarshal(v)).join(',')}]`;
  if (isJsonMap(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${goJsonMarshal(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** A copy of a map with its keys sorted, so FieldError prints it the way Go's json.Marshal would. */
export function sortedKeys(value: JsonMap): JsonMap {
  const out: JsonMap = {};
  for (const k of Object.keys(value).sort()) out[k] = value[k];
  return out;
}

/** fmt's %v for a float64: shortest representation, exponent form below 1e-4 and from 1e21 on. */
export function goFloatString(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const exp = Math.floor(Math.log10(Math.abs(f)));
  if (exp < -4 || exp >= 21) {
    const [mantissa, e] = f.toExponential().split('e');
    const sign = e.startsWith('-') ? '-' : '+';
    const digits = e.replace(/^[+-]/, '');
    return `${mantissa}e${sign}${digits.padStart(2, '0')}`;
  }
  return String(f);
}

/** %v of a decoded JSON number: int64 prints as an integer, float64 as goFloatString. */
export function goNumberString(n: number): string {
  return isJsonInteger(n) ? String(n) : goFloatString(n);
}

/** The number of Unicode code points, which is what utf8.RuneCountInString counts. */
export function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Go's len() of a string: its UTF-8 byte length. */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
