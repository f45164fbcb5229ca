/**
 * JSON values as structured-merge-diff's value package sees them: a total order (numbers < strings <
 * booleans < lists < maps < null), equality, Go's `%v`-style printing used in path strings, and the
 * JSON text kube writes inside `k:` / `v:` path elements (json-iterator, standard-library compatible).
 */
import type { JsonValue } from '@kube/apimachinery';

export type Value = JsonValue;

/** Byte-wise (UTF-8) string order, as Go's strings.Compare; UTF-16 order differs only around surrogates. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (U+10000 and up) sort after U+E000..U+FFFF in code point (and UTF-8) order.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function rank(v: Value): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v === null) return 5;
  return 4;
}

export function isMapValue(v: Value | undefined): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** value.Compare: a total order over values. */
export function compareValues(a: Value, b: Value): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as Value[];
      const lb = b as Value[];
      for (let i = 0; ; i++) {
        if (i >= la.length && i >= lb.length) return 0;
        if (i >= la.length) return -1;
        if (i >= lb.length) return 1;
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
    }
    case 4:
      return compareMaps(a as Record<string, Value>, b as Record<string, Value>);
    default:
      return 0;
  }
}

/** value.MapCompare: sorted keys compared pairwise, then values, then length. */
function compareMaps(a: Record<string, Value>, b: Record<string, Value>): number {
  const ka = Object.keys(a).sort(compareStrings);
  const kb = Object.keys(b).sort(compareStrings);
  for (let i = 0; ; i++) {
    if (i >= ka.length && i >= kb.length) return 0;
    if (i >= ka.length) return -1;
    if (i >= kb.length) return 1;
    const c = compareStrings(ka[i], kb[i]);
    if (c !== 0) return c;
    const cv = compareValues(a[ka[i]], b[kb[i]]);
    if (cv !== 0) return cv;
  }
}

/** value.Equals: deep equality (numbers numerically, maps regardless of key order). */
export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    const bv = (b as Record<string, Value>)[k];
    if (bv === undefined || !valuesEqual((a as Record<string, Value>)[k], bv)) return false;
  }
  return true;
}

/** Go's strconv.Quote (the `%q` verb) for the strings kube prints in conflict paths. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c >= 0x80 && c <= 0x9f) out += `\\u00${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Go's `%v` for a float64 (strconv 'g' with the shortest precision): 1e+06, 0.0001, 1.5e-05. */
function goFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e6) return String(n);
  const [mantissa, expText] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

/**
 * value.ToString, used by PathElement.String(): integers in decimal (JSON integers are int64 in Go),
 * other numbers as Go prints a float64, strings Go-quoted.
 */
export function valueToString(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isSafeInteger(v) ? String(v) : goFloat(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(',')}]`;
  return Object.keys(v)
    .sort(compareStrings)
    .map((k) => `${k}=${valueToString(v[k])}`)
    .join('');
}

const SAFE_RUN = /^[^"\\\u0000-\u001f<>&\u2028\u2029]*$/;

/**
 * A JSON string as json-iterator writes it with HTML escaping (what kube puts inside `k:`/`v:` keys):
 * `\n`, `\r`, `\t` short forms, every other control character and `<`, `>`, `&`, U+2028, U+2029 as `\u00XX`.
 */
export function goJsonString(s: string): string {
  if (SAFE_RUN.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    const c = s.charCodeAt(i);
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** JSON text of a value with sorted map keys and Go's string escaping. */
export function goJson(v: Value): string {
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  return `{${Object.keys(v)
    .sort(compareStrings)
    .map((k) => `${goJsonString(k)}:${goJson(v[k])}`)
    .join(',')}}`;
}
