/**
 * The soak's judgement: a least-squares line through a process's samples after the warm-up, and whether the
 * growth it projects over the measured window stays within a tolerance. A leak is a steady climb; garbage
 * collection and socket churn are noise around a flat line, which a fitted slope averages out.
 */

export interface SoakSample {
  /** Seconds since the churn started. */
  readonly t: number;
  readonly rssMiB: number;
  readonly fds: number;
}

export type Verdict = 'FLAT' | 'GROWING';

export interface Trend {
  /** Fitted growth per hour (MiB for RSS, descriptors for fds). */
  readonly slopePerHour: number;
  /** What the line grows over the measured window (slope × window). */
  readonly growthOverWindow: number;
  readonly tolerance: number;
  readonly verdict: Verdict;
}

/** RSS may grow by this many MiB over the window, or by RSS_TOLERANCE_FRACTION of its median, whichever is larger. */
export const RSS_TOLERANCE_MIB = 16;
export const RSS_TOLERANCE_FRACTION = 0.1;
/** Open file descriptors may grow by this many over the window (sockets of in-flight requests come and go). */
export const FDS_TOLERANCE = 8;

/** Slope of the least-squares line through (x, y), per unit of x; 0 with fewer than two distinct x. */
export function leastSquaresSlope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  let sx = 0;
  let sy = 0;
  for (const [x, y] of points) {
    sx += x;
    sy += y;
  }
  const mx = sx / n;
  const my = sy / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) * (x - mx);
  }
  return sxx === 0 ? 0 : sxy / sxx;
}

function median(values: readonly number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function trend(points: ReadonlyArray<readonly [number, number]>, tolerance: number): Trend {
  const slopePerSecond = leastSquaresSlope(points);
  const window = points.length ? points[points.length - 1][0] - points[0][0] : 0;
  const growthOverWindow = slopePerSecond * window;
  return { slopePerHour: slopePerSecond * 3600, growthOverWindow, tolerance, verdict: growthOverWindow > tolerance ? 'GROWING' : 'FLAT' };
}

/** The samples taken after `warmupSeconds`: start-up, cache fills and JIT settle before a leak can be told from them. */
export function afterWarmup(samples: readonly SoakSample[], warmupSeconds: number): SoakSample[] {
  return samples.filter((s) => s.t >= warmupSeconds);
}

export function rssTrend(samples: readonly SoakSample[]): Trend {
  const tolerance = Math.max(RSS_TOLERANCE_MIB, RSS_TOLERANCE_FRACTION * median(samples.map((s) => s.rssMiB)));
  return trend(samples.map((s) => [s.t, s.rssMiB] as const), tolerance);
}

export function fdsTrend(samples: readonly SoakSample[]): Trend {
  return trend(samples.map((s) => [s.t, s.fds] as const), FDS_TOLERANCE);
}
