import { describe, expect, it } from 'vitest';
import { ExpiringCache } from './expiring.cache';

describe('ExpiringCache', () => {
  it('answers until an entry expires, then drops it', () => {
    let now = 0;
    const c = new ExpiringCache<string>(10, () => now);
    c.set('a', 'x', 100);
    now = 99;
    expect(c.get('a')).toBe('x');
    now = 100;
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('keeps at most its capacity, dropping the oldest inserted', () => {
    const c = new ExpiringCache<number>(2);
    c.set('a', 1, 1000);
    c.set('b', 2, 1000);
    c.set('a', 3, 1000);
    expect(c.size).toBe(2);
    c.set('c', 4, 1000);
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([3, undefined, 4]);
  });
});
