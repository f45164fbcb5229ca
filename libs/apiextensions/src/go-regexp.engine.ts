/**
 * Go's regexp (RE2 syntax, linear-time matching) via re2js, a port of RE2/J: CRD `pattern`s and CEL's
 * matches() must accept exactly what Go accepts, report Go's parse errors, and never backtrack.
 */
import { RE2JS } from 're2js';

export interface GoRegexp {
  /** Whether the pattern matches anywhere in s (regexp.MatchString). */
  test(s: string): boolean;
  /** The leftmost match (regexp.FindString), or undefined. */
  find(s: string): string | undefined;
  /** All non-overlapping matches, at most `limit` when limit >= 0 (regexp.FindAllString). */
  findAll(s: string, limit?: number): string[];
}

export type CompileResult = { ok: true; regexp: GoRegexp } | { ok: false; error: string };

const MAX_CACHED = 512;
const cache = new Map<string, CompileResult>();

/** Backtracking work a native match may do at most (its worst case is polynomial in the input, see below). */
const NATIVE_STEP_BUDGET = 1e6;

/**
 * The pattern as an equivalent JavaScript RegExp, when it is in a small subset where both engines agree on
 * what matches (ASCII literals, bracket classes of ASCII, `.` as [^\n], \d and \w, anchors, `|`, groups,
 * quantifiers on single atoms only): re2js interprets, V8 compiles to machine code, and CRD `pattern`s are
 * checked on every write. No quantified group means no nested repetition, so V8's backtracking is bounded
 * by n^q (q quantifiers, one more for an unanchored start): `test` goes native only for inputs short enough
 * to keep that under NATIVE_STEP_BUDGET, and to re2js's linear-time matcher otherwise.
 */
export function nativeEquivalent(pattern: string): { re: RegExp; maxInput: number } | undefined {
  let out = '';
  let quantifiers = 0;
  let inClass = false;
  let afterAtom = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c.charCodeAt(0) > 0x7e || c.charCodeAt(0) < 0x20) return undefined;
    if (c === '\\') {
      const e = pattern[i + 1] ?? '';
      // Escapes JS (u flag) reads as Go does; \s, \b, \pN, octal and friends differ or are not worth it.
      if (!(/^[dw]$/.test(e) || '^$\\.*+?()[]{}|/'.includes(e) || (inClass && e === '-')) || e === '') return undefined;
      out += c + e;
      i++;
      afterAtom = !inClass;
      continue;
    }
    if (inClass) {
      if (c === '[') return undefined; // [[:alpha:]] and nested classes
      if (c === ']' && pattern[i - 1] !== '[' && !(pattern[i - 1] === '^' && pattern[i - 2] === '[')) {
        inClass = false;
        afterAtom = true;
      } else if (c === ']') return undefined; // a leading ] is a literal in Go, an empty class in JS
      out += c;
      continue;
    }
    switch (c) {
      case '[':
        inClass = true;
        afterAtom = false;
        out += c;
        continue;
      case '(':
        if (pattern[i + 1] === '?') {
          if (pattern[i + 2] !== ':') return undefined; // flags, named groups
          out += '(?:';
          i += 2;
        } else out += c;
        afterAtom = false;
        continue;
      case ')':
        out += c;
        afterAtom = false; // a quantifier after a group is refused below
        continue;
      case '*':
      case '+':
      case '?':
      case '{': {
        if (!afterAtom) return undefined;
        let q: string = c;
        if (c === '{') {
          const m = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(pattern.slice(i));
          if (!m) return undefined;
          q = m[0];
          i += q.length - 1;
        }
        if (pattern[i + 1] === '?') {
          q += '?';
          i++;
        }
        out += q;
        quantifiers++;
        afterAtom = false;
        continue;
      }
      case '.':
        out += '[^\\n]';
        afterAtom = true;
        continue;
      case '^':
      case '$':
      case '|':
        out += c;
        afterAtom = false;
        continue;
      case '}':
      case ']':
        return undefined;
      default:
        out += c;
        afterAtom = true;
    }
  }
  if (inClass) return undefined;
  let re: RegExp;
  try {
    re = new RegExp(out, 'u');
  } catch {
    return undefined;
  }
  // A search tries every start position unless every alternative is anchored (counted conservatively).
  const degree = quantifiers + (pattern.startsWith('^') && !pattern.includes('|') ? 0 : 1);
  return { re, maxInput: degree === 0 ? Infinity : Math.floor(NATIVE_STEP_BUDGET ** (1 / degree)) };
}

function wrap(re: RE2JS, pattern: string): GoRegexp {
  const native = nativeEquivalent(pattern);
  return {
    test: native ? (s) => (s.length <= native.maxInput ? native.re.test(s) : re.matcher(s).find()) : (s) => re.matcher(s).find(),
    find: (s) => {
      const m = re.matcher(s);
      return m.find() ? m.group() ?? '' : undefined;
    },
    findAll: (s, limit = -1) => {
      const out: string[] = [];
      const m = re.matcher(s);
      while ((limit < 0 || out.length < limit) && m.find()) out.push(m.group() ?? '');
      return out;
    },
  };
}

/** regexp.Compile; the error text is Go's, e.g. "error parsing regexp: missing closing ): `(a`". */
export function compileGoRegexp(pattern: string): CompileResult {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let result: CompileResult;
  try {
    result = { ok: true, regexp: wrap(RE2JS.compile(pattern), pattern) };
  } catch (err) {
    result = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  // Patterns come from a bounded set of schemas and rules; the cap only stops unbounded growth.
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, result);
  return result;
}
