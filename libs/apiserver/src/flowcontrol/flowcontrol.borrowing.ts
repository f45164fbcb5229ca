/**
 * Seat borrowing between priority levels (kube ≥ 1.26, apf_controller.go updateBorrowing and conc_alloc.go): every
 * adjustment period each level's seat demand (seats in use + waiting, integrated over time) is smoothed, and the
 * server's seats are shared again in proportion to those targets, each level between its lower limit (nominal
 * less lendable, raised to its recent demand) and its upper limit (nominal plus what it may borrow).
 */

/** kube's borrowingAdjustmentPeriod. */
export const BORROWING_ADJUSTMENT_PERIOD_MS = 10_000;
/** kube's seatDemandSmoothingCoefficient (a half-life of five minutes at one adjustment per 10 s). */
export const SEAT_DEMAND_SMOOTHING = 0.977;

export interface IntegratorResults {
  /** Seconds integrated. */
  duration: number;
  /** Time-weighted average and standard deviation (NaN when nothing was integrated). */
  average: number;
  deviation: number;
  min: number;
  max: number;
}

/** kube's fairqueuing Integrator: the time-weighted moments of a value that is set now and then. */
export class Integrator {
  private x = 0;
  private lastTime: number;
  private elapsed = 0;
  private integralX = 0;
  private integralXX = 0;
  private min = 0;
  private max = 0;

  constructor(private readonly now: () => number = Date.now) {
    this.lastTime = now();
  }

  set(x: number): void {
    this.update();
    this.x = x;
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
  }

  add(dx: number): void {
    this.set(this.x + dx);
  }

  get value(): number {
    return this.x;
  }

  results(): IntegratorResults {
    this.update();
    let average = NaN;
    let deviation = NaN;
    if (this.elapsed > 0) {
      average = this.integralX / this.elapsed;
      const variance = this.integralXX / this.elapsed - average * average;
      deviation = variance >= 0 ? Math.sqrt(variance) : NaN;
    }
    return { duration: this.elapsed, average, deviation, min: this.min, max: this.max };
  }

  /** The results so far; a new period starts from the current value. */
  reset(): IntegratorResults {
    const r = this.results();
    this.elapsed = 0;
    this.integralX = 0;
    this.integralXX = 0;
    this.min = this.x;
    this.max = this.x;
    return r;
  }

  private update(): void {
    const now = this.now();
    const dt = (now - this.lastTime) / 1000;
    this.lastTime = now;
    if (dt <= 0) return;
    this.elapsed += dt;
    this.integralX += this.x * dt;
    this.integralXX += this.x * this.x * dt;
  }
}

/** kube's seatDemandStats, updated from one period's integrator results. */
export class SeatDemandStats {
  avg = 0;
  stdDev = 0;
  highWatermark = 0;
  smoothed = 0;

  update(obs: IntegratorResults): void {
    this.highWatermark = Math.round(obs.max);
    if (obs.duration <= 0) return;
    const deviation = Number.isNaN(obs.deviation) ? 0 : obs.deviation;
    this.avg = obs.average;
    this.stdDev = deviation;
    const envelope = obs.average + deviation;
    this.smoothed = Math.max(envelope, SEAT_DEMAND_SMOOTHING * this.smoothed + (1 - SEAT_DEMAND_SMOOTHING) * envelope);
  }
}

export interface AllocProblemItem {
  target: number;
  lowerBound: number;
  upperBound: number;
}

/** kube's MinTarget: a zero target is treated as this. */
export const MIN_TARGET = 0.001;
const EPSILON = 0.0000001;
const MAX_FLOAT32 = 3.4028234663852886e38;

/**
 * kube's computeConcurrencyAllocation: allocations summing to `requiredSum`, each within its bounds and otherwise
 * proportional to its target (the same fair proportion for every class not held at a bound). Returns the
 * allocations and that proportion; throws when the bounds make the sum impossible.
 */
export function computeConcurrencyAllocation(requiredSum: number, classes: readonly AllocProblemItem[]): { allocs: number[]; fairProp: number } {
  if (requiredSum < 0) throw new Error('negative sums are not supported');
  let lowSum = 0;
  let highSum = 0;
  let targetSum = 0;
  // Go's minMax starts at MaxFloat32 for the minimum and 0 for the maximum.
  let ubMin = MAX_FLOAT32;
  let ubMax = 0;
  let lbMin = MAX_FLOAT32;
  let lbMax = 0;
  const relative = classes.map((item, idx) => {
    let target = item.target;
    if (item.lowerBound < 0) throw new Error(`lower bound ${idx} is ${item.lowerBound} but negative lower bounds are not allowed`);
    if (target < item.lowerBound) throw new Error(`target ${idx} is ${target}, which is below its lower bound of ${item.lowerBound}`);
    if (item.upperBound < item.lowerBound) throw new Error(`upper bound ${idx} is ${item.upperBound} but should not be less than the lower bound ${item.lowerBound}`);
    if (target < MIN_TARGET) target = MIN_TARGET;
    lowSum += item.lowerBound;
    highSum += item.upperBound;
    targetSum += target;
    const r = { target, lower: item.lowerBound / target, upper: item.upperBound / target };
    ubMin = Math.min(ubMin, r.upper);
    ubMax = Math.max(ubMax, r.upper);
    lbMin = Math.min(lbMin, r.lower);
    lbMax = Math.max(lbMax, r.lower);
    return r;
  });
  if (lbMax > 1) throw new Error(`lbRange.max-1=${lbMax - 1}, which is impossible because lbRange.max can not be greater than 1`);
  if (lowSum - requiredSum > EPSILON) throw new Error(`lower bounds sum to ${lowSum}, which is higher than the required sum of ${requiredSum}`);
  if (requiredSum - highSum > EPSILON) throw new Error(`upper bounds sum to ${highSum}, which is lower than the required sum of ${requiredSum}`);
  const allocs = new Array<number>(classes.length).fill(0);
  if (requiredSum === 0) return { allocs, fairProp: 0 };
  if (lowSum - requiredSum > -EPSILON) return { allocs: classes.map((c) => c.lowerBound), fairProp: lbMin };
  if (requiredSum - highSum > -EPSILON) return { allocs: classes.map((c) => c.upperBound), fairProp: ubMax };
  let fairProp = requiredSum / targetSum;
  if (lbMax <= fairProp && fairProp <= ubMin) return { allocs: relative.map((r) => r.target * fairProp), fairProp };
  // Walk the relative bounds in ascending order, tracking which classes are not held at a bound.
  const bounds: Array<{ value: number; item: number; lower: boolean }> = [];
  relative.forEach((r, i) => bounds.push({ value: r.lower, item: i, lower: true }, { value: r.upper, item: i, lower: false }));
  // Go's sort.Sort is not stable; a stable sort by value (lower bounds of an index first) gives the same sums.
  bounds.sort((a, b) => a.value - b.value);
  let sumSoFar = lowSum;
  fairProp = lbMin;
  let sensitiveTargetSum = 0;
  let deltaSensitiveTargetSum = 0;
  let numSensitive = 0;
  let deltaSensitive = 0;
  let next = 0;
  while (sumSoFar < requiredSum) {
    let nextBound: number;
    for (;;) {
      sensitiveTargetSum += deltaSensitiveTargetSum;
      numSensitive += deltaSensitive;
      if (next >= bounds.length) throw new Error('impossible: ran out of bounds to consider in bound-constrained problem');
      const b = bounds[next];
      nextBound = b.value;
      if (b.lower) {
        deltaSensitive = 1;
        deltaSensitiveTargetSum = relative[b.item].target;
      } else {
        deltaSensitive = -1;
        deltaSensitiveTargetSum = -relative[b.item].target;
      }
      next++;
      if (nextBound > fairProp) break;
    }
    if (numSensitive === 0) {
      fairProp = nextBound;
      continue;
    }
    const nextProp = fairProp + (requiredSum - sumSoFar) / sensitiveTargetSum;
    if (nextProp <= nextBound) {
      fairProp = nextProp;
      break;
    }
    sumSoFar += (nextBound - fairProp) * sensitiveTargetSum;
    fairProp = nextBound;
  }
  return { allocs: classes.map((c, i) => Math.max(c.lowerBound, Math.min(c.upperBound, fairProp * relative[i].target))), fairProp };
}

/** What updateBorrowing needs of a priority level. */
export interface BorrowingLevel {
  readonly exempt: boolean;
  readonly nominalCL: number;
  readonly minCL: number;
  readonly maxCL: number;
  currentCL: number;
  readonly seatDemand: Integrator;
  readonly seatDemandStats: SeatDemandStats;
  /** updateBorrowing's target for the level (target_seats), for the metrics and the dump. */
  target: number;
}

/**
 * kube's updateBorrowingLocked: new current concurrency limits from the levels' seat demand over the period that
 * ends now. `nominalCLSum` is the sum of the nominal limits (what is shared). Returns the fair fraction.
 */
export function updateBorrowing(levels: readonly BorrowingLevel[], nominalCLSum: number): number {
  const items: AllocProblemItem[] = [];
  const nonExempt: BorrowingLevel[] = [];
  let minCLSum = 0;
  let minCurrentCLSum = 0;
  let remaining = nominalCLSum;
  const minCurrentOf = (l: BorrowingLevel): number => Math.max(l.minCL, Math.min(l.nominalCL, l.seatDemandStats.highWatermark));
  for (const l of levels) {
    l.seatDemandStats.update(l.seatDemand.reset());
    if (l.exempt) {
      // The exempt level is never held back; what it uses is not there for the others.
      const minCurrentCL = Math.max(l.minCL, l.seatDemandStats.highWatermark);
      l.currentCL = minCurrentCL;
      l.target = minCurrentCL;
      remaining -= minCurrentCL;
      continue;
    }
    const minCurrentCL = minCurrentOf(l);
    nonExempt.push(l);
    items.push({ lowerBound: minCurrentCL, upperBound: l.maxCL, target: Math.max(minCurrentCL, l.seatDemandStats.smoothed) });
    minCLSum += l.minCL;
    minCurrentCLSum += minCurrentCL;
  }
  let fairFrac = 0;
  if (remaining <= minCLSum) {
    for (const l of nonExempt) l.currentCL = l.minCL;
  } else if (remaining <= minCurrentCLSum) {
    const shareFrac = (remaining - minCLSum) / (minCurrentCLSum - minCLSum);
    for (const l of nonExempt) l.currentCL = l.minCL + Math.round((minCurrentOf(l) - l.minCL) * shareFrac);
  } else {
    let allocs: number[];
    try {
      const solved = computeConcurrencyAllocation(nominalCLSum, items);
      allocs = solved.allocs;
      fairFrac = solved.fairProp;
    } catch {
      // kube's backstop: the limits stay as they were.
      allocs = nonExempt.map((l) => l.currentCL);
    }
    nonExempt.forEach((l, i) => (l.currentCL = goRound(allocs[i])));
  }
  nonExempt.forEach((l, i) => (l.target = items[i].target));
  return fairFrac;
}

/** Go's math.Round: half away from zero. */
export function goRound(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}
