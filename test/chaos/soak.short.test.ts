/**
 * The soak harness (`npm run soak`, bench/soak.ts) in short: `npm start`'s stack as separate processes (run
 * `npm run build` first), a minute of CRD, APIService and namespace churn with watches, and every process
 * sampled. Whether memory is flat is the soak's judgement over half an hour, not this test's: here the harness
 * itself must work — samples taken of every process, trends fitted, nothing dead, every churn operation done.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '@kube/testing';
import { runSoak, type SoakResult } from '../../bench/soak.run';

const ROOT = join(__dirname, '..', '..');
const MINUTES = 1.25;
const SAMPLE_SECONDS = 3;

describe('the soak harness, for a minute', () => {
  it('churns the stack of separate processes, samples every one of them and fits its trends', async () => {
    expect(existsSync(join(ROOT, 'dist/scripts/start.js')), 'run `npm run build` first').toBe(true);
    const outDir = tempDir('soak');
    // The soak's own names: every CRD is deleted and re-created at once under the same name, its watch must see the new resources.
    const result = await runSoak({ minutes: MINUTES, sampleSeconds: SAMPLE_SECONDS, warmupFraction: 0.2, outDir, log: () => undefined });

    // Every process `npm start` runs, each its own pid.
    const names = result.processes.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['etcd', 'nats', 'core-api', 'extensions', 'aggregator', 'sample-apiserver', 'controller-manager']));
    expect(new Set(result.processes.map((p) => p.pid)).size).toBe(result.processes.length);

    for (const p of result.processes) {
      expect(p.alive, `${p.name} died; see ${result.logFile}`).toBe(true);
      // One sample at the start, one at the end, and the periodic ones in between (however late under load).
      expect(p.samples.length, p.name).toBeGreaterThanOrEqual(3);
      expect(p.samples.every((s) => s.rssMiB > 0 && s.fds > 0), p.name).toBe(true);
      expect(p.samples.at(-1)!.t, p.name).toBeGreaterThanOrEqual(MINUTES * 60);
      for (const trend of [p.rss, p.fds]) {
        expect(Number.isFinite(trend.slopePerHour), p.name).toBe(true);
        expect(['FLAT', 'GROWING']).toContain(trend.verdict);
      }
    }

    // Every kind of churn ran, and nothing failed.
    const { churn } = result;
    expect(churn.errors.join('\n'), `see ${result.logFile}`).toBe('');
    for (const kind of ['crd', 'apiservice', 'namespace', 'watch'] as const) {
      expect(churn.completed[kind], kind).toBeGreaterThan(0);
      expect(churn.failed[kind], kind).toBe(0);
    }
    expect(churn.watchEvents).toBeGreaterThan(0);
    expect(churn.watchesOutlivingTheirCrd).toBe(0);

    // The JSON on disk is the result, samples included.
    const written = JSON.parse(readFileSync(result.file, 'utf8')) as SoakResult;
    expect(written.processes.map((p) => [p.name, p.samples.length])).toEqual(result.processes.map((p) => [p.name, p.samples.length]));
    expect(written.churn.completed).toEqual(churn.completed);
  }, 600_000);
});
