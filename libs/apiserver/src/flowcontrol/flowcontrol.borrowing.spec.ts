import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MANDATORY_PRIORITY_LEVELS, SUGGESTED_PRIORITY_LEVELS } from './flowcontrol.bootstrap';
import { computeConcurrencyAllocation, Integrator, MIN_TARGET, type AllocProblemItem } from './flowcontrol.borrowing';
import { FlowControl } from './flow-control';
import type { FlowSchema, PriorityLevelConfiguration } from './flowcontrol.types';
import type { Ticket } from './queue-set';

/** A seeded PRNG (mulberry32) in the role of Go's rand.New(rand.NewSource(1234567890)). */
function rng(seed: number): { float(): number; int(n: number): number } {
  let a = seed >>> 0;
  const float = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { float, int: (n) => Math.floor(float() * n) };
}

const FP_SLACK = 1e-10;
const relDiff = (a: number, b: number): number => {
  const den = Math.max(Math.abs(a), Math.abs(b));
  return den === 0 ? 0 : Math.abs(a - b) / den;
};

/** kube's partition64: n floats summing to x. */
function partition(r: ReturnType<typeof rng>, n: number, x: number, consume: (j: number, v: number) => void): void {
  if (n <= 0) return;
  const divs = Array.from({ length: n - 1 }, () => r.float()).sort((p, q) => p - q);
  let last = 0;
  divs.forEach((d, idx) => {
    consume(idx, (d - last) * x);
    last = d;
  });
  consume(n - 1, (1 - last) * x);
}

describe('computeConcurrencyAllocation (kube TestConcAlloc)', () => {
  it('solves 10,000 random problems: the sum is met, every class is at a bound or proportional to its target', () => {
    const r = rng(1234567890);
    let solved = 0;
    const failures: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      let probLen = [0, 1, 2, 3, 4, 6, 9][r.int(7)];
      const classes: AllocProblemItem[] = Array.from({ length: probLen }, () => ({ target: 0, lowerBound: 0, upperBound: 0 }));
      let lowSum = 0;
      let highSum = 0;
      let requiredSum = 0;
      if (probLen > 0) {
        const style = r.int(20);
        if (style === 0) {
          requiredSum = r.int(probLen * 3);
          partition(r, probLen, requiredSum, (j, x) => {
            classes[j] = { lowerBound: x, target: x + 2 * r.float(), upperBound: x + 3 * r.float() };
            lowSum += classes[j].lowerBound;
            highSum += classes[j].upperBound;
          });
        } else if (style === 1) {
          requiredSum = r.int(probLen * 3) + 1;
          partition(r, probLen, requiredSum, (j, x) => {
            const lowerBound = x * Math.max(0, 1.25 * r.float() - 1);
            classes[j] = { upperBound: x, lowerBound, target: lowerBound + r.float() };
            lowSum += classes[j].lowerBound;
            highSum += classes[j].upperBound;
          });
        } else {
          for (let j = 0; j < probLen; j++) {
            const x = Math.max(0, r.float() * 5 - 1);
            classes[j] = { lowerBound: x, target: x + 2 * r.float(), upperBound: x + 3 * r.float() };
            lowSum += classes[j].lowerBound;
            highSum += classes[j].upperBound;
          }
          requiredSum = Math.round(lowSum + (highSum - lowSum) * r.float());
        }
      }
      while (r.float() < 0.25) {
        // A class with a target of zero.
        classes.push({ target: 0, lowerBound: 0, upperBound: r.float() + 0.00001 });
        highSum += classes[probLen].upperBound;
        if (probLen > 1) {
          const m = r.int(probLen);
          [classes[m], classes[probLen]] = [classes[probLen], classes[m]];
        }
        probLen = classes.length;
      }
      const expectErr = lowSum - requiredSum > FP_SLACK || requiredSum - highSum > FP_SLACK;
      const problem = `requiredSum=${requiredSum} classes=${JSON.stringify(classes)}`;
      let result: { allocs: number[]; fairProp: number };
      try {
        result = computeConcurrencyAllocation(requiredSum, classes);
      } catch (err) {
        if (!expectErr) failures.push(`${problem}: unexpected ${String(err)}`);
        continue;
      }
      if (expectErr) failures.push(`${problem}: expected an error`);
      const { allocs, fairProp } = result;
      if (relDiff(requiredSum, allocs.reduce((s, x) => s + x, 0)) > FP_SLACK) failures.push(`${problem}: sum of ${allocs}`);
      classes.forEach((item, idx) => {
        const alloc = fairProp * Math.max(item.target, MIN_TARGET);
        const ok = alloc <= item.lowerBound ? allocs[idx] === item.lowerBound : alloc >= item.upperBound ? allocs[idx] === item.upperBound : relDiff(alloc, allocs[idx]) <= FP_SLACK;
        if (!ok) failures.push(`${problem}: item ${idx} got ${allocs[idx]} with fair proportion ${fairProp}`);
      });
      solved++;
    }
    expect(failures).toEqual([]);
    expect(solved).toBeGreaterThan(9000);
  });
});

describe('Integrator (kube fairqueuing/integrator)', () => {
  it('integrates a value over time: average, standard deviation, high watermark; reset starts from the current value', () => {
    let now = 0;
    const i = new Integrator(() => now);
    i.set(2);
    now = 1000;
    i.set(4);
    now = 2000;
    const r = i.reset();
    expect(r.duration).toBe(2);
    expect(r.average).toBe(3);
    expect(r.deviation).toBe(1);
    expect(r.max).toBe(4);
    now = 3000;
    expect(i.results()).toMatchObject({ duration: 1, average: 4, max: 4, min: 4 });
  });
});

const level = (name: string): PriorityLevelConfiguration => [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS].find((l) => l.metadata.name === name) as PriorityLevelConfiguration;

describe('updateBorrowing (kube TestUpdateBorrowing, exempt_borrowing_test.go)', () => {
  it('lets exempt take what it uses, then shares the rest by demand between lower and upper limits', () => {
    let now = 0;
    const high = level('workload-high');
    const mid = level('workload-low');
    const low = level('catch-all');
    const shares = (pl: PriorityLevelConfiguration): number => pl.spec.limited?.nominalConcurrencyShares ?? 0;
    const serverCL = (shares(high) + shares(mid) + shares(low)) * 6;
    const fc = new FlowControl({ serverConcurrencyLimit: serverCL, requestWaitLimitMs: 15_000, borrowingPeriodMs: 0, now: () => now });
    fc.configure([], [high, level('exempt'), mid, low]);
    const [exempt, hi, md, lo] = ['exempt', 'workload-high', 'workload-low', 'catch-all'].map((n) => fc.level(n)!);
    expect(hi.nominalCL + md.nominalCL + lo.nominalCL).toBe(serverCL);

    // Scenario 1: everybody wants more than the server has; exempt borrows so much that the others get their lower limits.
    for (const l of [exempt, hi, md, lo]) l.seatDemand.set(serverCL + 100);
    now += 10_000;
    fc.updateBorrowing();
    expect([exempt.currentCL, hi.currentCL, md.currentCL, lo.currentCL]).toEqual([serverCL + 100, hi.minCL, md.minCL, lo.minCL]);

    // Scenario 2: the others get halfway between their lower limits and their demand (capped at nominal).
    let expectedHigh = Math.trunc((hi.nominalCL + hi.minCL) / 2);
    let expectedMid = Math.trunc((md.nominalCL + md.minCL) / 2);
    let expectedLow = Math.trunc((lo.nominalCL + lo.minCL) / 2);
    let expectedExempt = serverCL - (expectedHigh + expectedMid + expectedLow);
    exempt.seatDemand.set(expectedExempt);
    now += 10_000;
    fc.updateBorrowing();
    now += 10_000;
    fc.updateBorrowing();
    expect([exempt.currentCL, hi.currentCL, md.currentCL, lo.currentCL]).toEqual([expectedExempt, expectedHigh, expectedMid, expectedLow]);

    // Scenario 3: only mid is willing to lend, and exempt borrows all of that.
    expectedHigh = hi.nominalCL;
    expectedMid = md.minCL;
    expectedLow = lo.nominalCL;
    expectedExempt = serverCL - (expectedHigh + expectedMid + expectedLow);
    exempt.seatDemand.set(expectedExempt);
    md.seatDemand.set(1);
    now += 10_000;
    fc.updateBorrowing();
    now += 10_000;
    fc.updateBorrowing();
    expect([exempt.currentCL, hi.currentCL, md.currentCL, lo.currentCL]).toEqual([expectedExempt, expectedHigh, expectedMid, expectedLow]);
  });
});

describe('borrowing under load (kube TestBorrowing)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const limited = (name: string, lendablePercent: number, borrowingLimitPercent: number): PriorityLevelConfiguration => ({
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'PriorityLevelConfiguration',
    metadata: { name },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 100, lendablePercent, borrowingLimitPercent, limitResponse: { type: 'Queue', queuing: { queues: 10, handSize: 2, queueLengthLimit: 10 } } } },
  });
  const schema = (flow: number): FlowSchema => ({
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'FlowSchema',
    metadata: { name: `test-fs${flow}` },
    spec: { priorityLevelConfiguration: { name: `test-pl${flow}` }, matchingPrecedence: 100, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'User', user: { name: `test-user${flow}` } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] },
  });

  it.each([
    ['lendable-limited', [50, 67], [33, 50]],
    ['borrowing-limited', [50, 33], [67, 50]],
  ] as const)('%s: 24 clients of one level and 6 of the other get about 16 and 6 seats of 24', async (_name, c0, c1) => {
    const fc = new FlowControl({ serverConcurrencyLimit: 24, requestWaitLimitMs: 60_000, borrowingPeriodMs: 10_000 });
    try {
      fc.configure([schema(0), schema(1)], [limited('test-pl0', c0[0], c0[1]), limited('test-pl1', c1[0], c1[1])]);
      const concurrency = [new Integrator(), new Integrator()];
      let stop = false;
      const info = { isResourceRequest: false, path: '/foobar', verb: 'get', apiPrefix: '', group: '', version: '', namespace: '', resource: '', subresource: '', name: '' } as const;
      const client = async (flow: number): Promise<void> => {
        const user = { name: `test-user${flow}`, groups: ['system:authenticated'] };
        const s = fc.classify(user, info);
        const qs = s.level.queueSet!;
        while (!stop) {
          let a = qs.admit(s.flowHash(user, info), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 }, s.metrics, 60_000);
          if (a instanceof Promise) a = await a;
          if (typeof a === 'string') continue;
          concurrency[flow].add(1);
          await new Promise((r) => setTimeout(r, 250));
          concurrency[flow].add(-1);
          qs.finish(a as Ticket<typeof s.metrics>);
        }
      };
      const clients = [...Array.from({ length: 24 }, () => client(0)), ...Array.from({ length: 6 }, () => client(1))];
      // Time for the controller to sense the load and adjust, then 15 s that count.
      await vi.advanceTimersByTimeAsync(10_000);
      concurrency.forEach((c) => c.reset());
      await vi.advanceTimersByTimeAsync(15_000);
      const [r0, r1] = concurrency.map((c) => c.reset());
      stop = true;
      await vi.advanceTimersByTimeAsync(1_000);
      await Promise.all(clients);
      expect(r0.average).toBeGreaterThanOrEqual(15.5);
      expect(r0.average).toBeLessThanOrEqual(16.1);
      expect(r1.average).toBeGreaterThanOrEqual(5.5);
      expect(r1.average).toBeLessThanOrEqual(6.1);
    } finally {
      fc.stop();
    }
  });
});
