/**
 * The soak's judgement: a least-squares line after the warm-up, and whether the growth it projects over the
 * measured window stays within a tolerance. For descriptors the line goes through every sample. RSS of a
 * garbage-collected process is a sawtooth whose teeth come at irregular times and heights (a major collection
 * every few minutes under churn), which can tilt a line through every sample by more than the tolerance in
 * either direction; what a leak lifts is the floor the collector gets back to, so RSS is fitted through the
 * lowest sample of each FLOOR_WINDOW_SECONDS.
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
/** RSS is fitted through the minimum of each window this long (several collections of a busy process). */
export const FLOOR_WINDOW_SECONDS = 120;

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

function trend(points: ReadonlyArray<readonly [number, number]>, tolerance: number, window = span(points)): Trend {
  const slopePerSecond = leastSquaresSlope(points);
  const growthOverWindow = slopePerSecond * window;
  return { slopePerHour: slopePerSecond * 3600, growthOverWindow, tolerance, verdict: growthOverWindow > tolerance ? 'GROWING' : 'FLAT' };
}

function span(points: ReadonlyArray<readonly [number, number]>): number {
  return points.length ? points[points.length - 1][0] - points[0][0] : 0;
}

/** The lowest point of each `windowSeconds`, counted from the first point. */
export function floorPoints(points: ReadonlyArray<readonly [number, number]>, windowSeconds: number): Array<readonly [number, number]> {
  const lowest = new Map<number, readonly [number, number]>();
  const start = points.length ? points[0][0] : 0;
  for (const p of points) {
    const w = Math.floor((p[0] - start) / windowSeconds);
    const low = lowest.get(w);
    if (!low || p[1] < low[1]) lowest.set(w, p);
  }
  return [...lowest.values()];
}

/** The samples taken after `warmupSeconds`: start-up, cache fills and JIT settle before a leak can be told from them. */
export function afterWarmup(samples: readonly SoakSample[], warmupSeconds: number): SoakSample[] {
  return samples.filter((s) => s.t >= warmupSeconds);
}

export function rssTrend(samples: readonly SoakSample[]): Trend {
  const tolerance = Math.max(RSS_TOLERANCE_MIB, RSS_TOLERANCE_FRACTION * median(samples.map((s) => s.rssMiB)));
  const points = samples.map((s) => [s.t, s.rssMiB] as const);
  return trend(floorPoints(points, FLOOR_WINDOW_SECONDS), tolerance, span(points));
}

export function fdsTrend(samples: readonly SoakSample[]): Trend {
  return trend(samples.map((s) => [s.t, s.fds] as const), FDS_TOLERANCE);
}
