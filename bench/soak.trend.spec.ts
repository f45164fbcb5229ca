import { describe, expect, it } from 'vitest';
import { afterWarmup, fdsTrend, floorPoints, leastSquaresSlope, rssTrend, type SoakSample } from './soak.trend';

const samples = (rss: (t: number) => number, fds: (t: number) => number, seconds = 1800, every = 10): SoakSample[] =>
  Array.from({ length: seconds / every + 1 }, (_, i) => ({ t: i * every, rssMiB: rss(i * every), fds: fds(i * every) }));

describe('soak trend', () => {
  it('fits the least-squares slope', () => {
    expect(leastSquaresSlope([[0, 1], [1, 3], [2, 5]])).toBeCloseTo(2);
    expect(leastSquaresSlope([[0, 1], [1, 0], [2, 1], [3, 0]])).toBeCloseTo(-0.2);
    expect(leastSquaresSlope([[5, 1]])).toBe(0);
    expect(leastSquaresSlope([[5, 1], [5, 9]])).toBe(0);
  });

  it('calls a sawtooth around a level flat, however high its teeth', () => {
    const s = samples((t) => 120 + ((t / 10) % 6) * 8, (t) => 40 + ((t / 10) % 3));
    expect(rssTrend(s).verdict).toBe('FLAT');
    expect(fdsTrend(s).verdict).toBe('FLAT');
  });

  it('fits RSS through its floor: late tall teeth over a level floor are flat, a floor rising under the teeth is growing', () => {
    expect(floorPoints([[0, 5], [60, 3], [119, 4], [120, 9], [200, 8], [239, 12], [240, 1]], 120)).toEqual([[60, 3], [200, 8], [240, 1]]);
    // Collections every 2.5 min back to 250 MiB, with teeth of 60 MiB early and 190 MiB late (core-api in a soak):
    // a line through every sample climbs past the tolerance, the floor does not move.
    const teeth = (t: number): number => 250 + ((t % 150) / 150) * (t < 900 ? 60 : 190);
    expect(leastSquaresSlope(samples(teeth, () => 40).map((s) => [s.t, s.rssMiB] as const)) * 1800).toBeGreaterThan(35);
    expect(rssTrend(samples(teeth, () => 40)).verdict).toBe('FLAT');
    // The same teeth over a floor that gains 1 MiB a minute.
    const r = rssTrend(samples((t) => teeth(t) + t / 60, () => 40));
    expect(r.verdict).toBe('GROWING');
    expect(r.slopePerHour).toBeGreaterThan(50);
  });

  it('calls a steady climb growing, with its slope per hour', () => {
    // 1 MiB a minute: 60 MiB/h, 30 MiB over the half hour, past the larger of 16 MiB and 10% of ~135 MiB.
    const r = rssTrend(samples((t) => 120 + t / 60, () => 40));
    expect(r.slopePerHour).toBeCloseTo(60);
    expect(r.growthOverWindow).toBeCloseTo(30);
    expect(r.verdict).toBe('GROWING');
    // One descriptor every two minutes: 15 over the window.
    const f = fdsTrend(samples(() => 120, (t) => 40 + Math.floor(t / 120)));
    expect(f.verdict).toBe('GROWING');
    expect(f.slopePerHour).toBeCloseTo(30, 0);
  });

  it('scales the RSS tolerance with the process: 10% of a ~415 MiB process is 41.5 MiB', () => {
    const r = rssTrend(samples((t) => 400 + t / 60, () => 40));
    expect(r.tolerance).toBeCloseTo(41.5, 1);
    expect(r.verdict).toBe('FLAT');
  });

  it('leaves the warm-up out', () => {
    const s = samples((t) => (t < 360 ? t : 360), () => 40);
    expect(rssTrend(s).verdict).toBe('GROWING');
    expect(rssTrend(afterWarmup(s, 360)).slopePerHour).toBe(0);
  });
});
