import { describe, expect, it } from 'vitest';
import { until } from './until';

describe('until', () => {
  it('keeps polling through a condition that throws (a server restarting), and holds once it does', async () => {
    let tries = 0;
    expect(
      await until(async () => {
        if (++tries < 3) throw new Error('connect ECONNREFUSED');
        return true;
      }, 10_000),
    ).toBe(true);
    expect(tries).toBe(3);
  });

  it('resolves false at the deadline, or throws the last error when the last try threw', async () => {
    expect(await until(async () => false, 500)).toBe(false);
    await expect(until(async () => Promise.reject(new Error('still refused')), 500)).rejects.toThrow('still refused');
  });
});
