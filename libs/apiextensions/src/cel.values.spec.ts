import { describe, expect, it } from 'vitest';
import { DeclTypeBuilder } from './cel.types';
import { dynValue, parseDurationNanos, toCelValue } from './cel.values';

describe('toCelValue', () => {
  const b = new DeclTypeBuilder();
  const t = b.build(
    {
      type: 'object',
      properties: {
        n: { type: 'integer' },
        d: { type: 'number' },
        m: { type: 'object', additionalProperties: { type: 'integer' } },
        raw: { type: 'string', format: 'byte' },
        when: { type: 'string', format: 'date' },
      },
    },
    false,
  );

  it('converts integers to bigint and objects to instances holding the fields present', () => {
    if (!t) throw new Error('no type');
    const v = toCelValue({ n: 2, d: 2, m: { a: 1 }, raw: 'aGk=', when: '2024-01-02', other: 1 }, t) as Record<string, unknown>;
    expect(v.n).toBe(2n);
    expect(v.d).toBe(2);
    expect(v.m).toEqual(new Map([['a', 1n]]));
    expect(v.raw).toEqual(Uint8Array.from([104, 105]));
    expect(v.when).toEqual(new Date('2024-01-02T00:00:00Z'));
    expect(Object.keys(v)).toEqual(['n', 'd', 'm', 'raw', 'when']);
    expect(Object.keys(toCelValue({}, t) as object)).toEqual([]);
  });

  it('converts untyped values dynamically', () => {
    expect(dynValue([1, 1.5, 'x', { a: null }])).toEqual([1n, 1.5, 'x', new Map([['a', null]])]);
  });
});

describe('parseDurationNanos', () => {
  it('parses Go durations and strfmt long forms', () => {
    expect(parseDurationNanos('1h30m')).toBe(5_400_000_000_000n);
    expect(parseDurationNanos('-1.5s')).toBe(-1_500_000_000n);
    expect(parseDurationNanos('2 days')).toBe(172_800_000_000_000n);
    expect(parseDurationNanos('soon')).toBeUndefined();
  });
});
