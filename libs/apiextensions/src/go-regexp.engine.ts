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

function wrap(re: RE2JS): GoRegexp {
  return {
    test: (s) => re.matcher(s).find(),
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
    result = { ok: true, regexp: wrap(RE2JS.compile(pattern)) };
  } catch (err) {
    result = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  // Patterns come from a bounded set of schemas and rules; the cap only stops unbounded growth.
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, result);
  return result;
}
