import { describe, expect, it } from 'vitest';
import { compileGoRegexp } from './go-regexp.engine';

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
