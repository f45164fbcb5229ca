import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { compileGoRegexp, nativeEquivalent } from './go-regexp.engine';

describe('compileGoRegexp', () => {
  it('has RE2 syntax: inline flags work, lookaheads do not', () => {
    const ci = compileGoRegexp('(?i)^abc$');
    expect(ci.ok && ci.regexp.test('ABC')).toBe(true);
    expect(compileGoRegexp('(?=a)')).toEqual({ ok: false, error: 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`' });
    expect(compileGoRegexp('(a')).toEqual({ ok: false, error: 'error parsing regexp: missing closing ): `(a`' });
  });

  it('matches anywhere, finds the leftmost match and all matches', () => {
    const re = compileGoRegexp('[0-9]+');
    if (!re.ok) throw new Error(re.error);
    expect(re.regexp.test('abc123')).toBe(true);
    expect(re.regexp.find('a1b22c333')).toBe('1');
    expect(re.regexp.findAll('a1b22c333')).toEqual(['1', '22', '333']);
    expect(re.regexp.findAll('a1b22c333', 2)).toEqual(['1', '22']);
    expect(re.regexp.find('abc')).toBeUndefined();
  });

  it('runs in linear time on patterns that make backtracking engines explode', () => {
    const re = compileGoRegexp('^(a+)+$');
    if (!re.ok) throw new Error(re.error);
    const started = Date.now();
    expect(re.regexp.test(`${'a'.repeat(5000)}!`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('the native fast path of test()', () => {
  const patterns = [
    '^[a-z0-9-]*$',
    '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
    '^[A-Za-z_][A-Za-z0-9_]*$',
    '^\\d{1,3}(\\.\\d{1,3}){3}$',
    '^\\d{1,3}\\.\\d{1,3}$',
    'abc',
    '^a.c$',
    '^[^a-z]+$',
    '^(foo|bar)-\\w+$',
    'x{2,}',
    '^a+?b$',
    '',
    '^[a-z]{2,4}$',
    '^[.]+$',
    '^[a\\-z]$',
  ];
  const inputs = ['', 'abc', 'a\nc', 'a\rc', 'a\u2028c', 'abcabc', 'foo-bar', 'bar-', 'ABC', '1.2.3.4', '12.34', 'a-b', 'xx', 'x', 'aab', 'ab', 'a-', 'z', '...', 'é', '\ud800', 'abcd', 'abcde', 'A1', '_x', '1x'];

  it('answers exactly what the RE2 engine answers', () => {
    for (const p of patterns) {
      const compiled = compileGoRegexp(p);
      if (!compiled.ok) throw new Error(compiled.error);
      const re2 = RE2JS.compile(p);
      for (const s of inputs) expect([p, s, compiled.regexp.test(s)]).toEqual([p, s, re2.matcher(s).find()]);
    }
  });

  it('is taken for simple patterns and never for what JavaScript reads differently or may backtrack on', () => {
    expect(nativeEquivalent('^[a-z0-9-]*$')?.re.source).toBe('^[a-z0-9-]*$');
    expect(nativeEquivalent('^a.c$')?.re.source).toBe('^a[^\\n]c$');
    for (const p of ['^(a+)+$', '(?i)abc', '\\s+', '[[:alpha:]]', '[]a]', 'é', '(a|b)*', 'a{', '\\bx', '\\pL']) expect(nativeEquivalent(p)).toBeUndefined();
    // Polynomial backtracking stays bounded: longer inputs go to the linear-time engine.
    expect(nativeEquivalent('^a*a*a*$')?.maxInput).toBe(99);
    expect(nativeEquivalent('[a-z]+x')?.maxInput).toBe(1000);
  });
});
