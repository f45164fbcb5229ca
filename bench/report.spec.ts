import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { figure, line, recordedFigures, writeReport } from './report';

const load = (rps: number, errors = 0) => ({ requests: rps, errors, seconds: 1, rps, p50ms: 1, p99ms: 2 });

describe('benchmark report', () => {
  it('marks a figure that misses its target, wherever the comparison stands in the target text', () => {
    expect(figure('watch', 25, 'ms', 'p99 25 ms', 'p99 ≤ 30 ms')).toMatch(/\(target p99 ≤ 30 ms\)  ✓$/);
    expect(figure('watch', 31, 'ms', 'p99 31 ms', 'p99 ≤ 30 ms')).toMatch(/✗ MISSED$/);
    expect(figure('added', 0.31, 'ms', '', '≤ +0.3 ms')).toMatch(/✗ MISSED$/);
    expect(line('proxy', load(69), load(100), '≥ 70% of direct')).toMatch(/→ 69%.*✗ MISSED$/);
    expect(line('rbac', load(95), load(100), '≥ 90% of system:masters, 1,000 roles')).toMatch(/✓$/);
    expect(figure('gc', NaN, 's', 'not done after 15 s', '≤ 5 s')).toMatch(/✗ MISSED$/);
    expect(figure('list', 10, 'ms', '', 'report')).not.toMatch(/✓|MISSED/);
    expect(recordedFigures().map((f) => f.met)).toEqual([true, false, false, false, true, false, undefined]);
  });

  it('marks a throughput figure FAILED when requests errored on either side, whatever its ratio or target', () => {
    expect(line('refused', load(500, 3), load(100), '≥ 70% of direct')).toMatch(/→ 500%.*✗ FAILED: 3 of 500 requests errored$/);
    expect(line('base refused', load(100), load(100, 1), 'report')).toMatch(/✗ FAILED: 1 of 100 baseline requests errored$/);
    const [refused, baseRefused] = recordedFigures().slice(-2);
    expect([refused.met, baseRefused.met]).toEqual([false, false]);
    expect(refused.failure).toBe('3 of 500 requests errored');
  });

  it('writes JSON and markdown, and lists figures more than 10% worse than the previous report', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'bench-report-')), 'results');
    const previous = recordedFigures().filter((f) => !f.failure).map((f) => ({ ...f, value: f.name === 'watch' ? 20 : f.name === 'proxy' ? 80 : f.value }));
    writeFileSync(`${path}.json`, JSON.stringify({ figures: previous }));
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      writeReport(path, { quick: true, seconds: 1.5, args: ['--quick'] });
    } finally {
      log.mockRestore();
    }
    const json = JSON.parse(readFileSync(`${path}.json`, 'utf8')) as { figures: unknown[]; regressions: string[]; quick: boolean };
    expect(json.figures).toHaveLength(recordedFigures().length);
    expect(json.quick).toBe(true);
    // watch: lower is better, 20 → 25 and 31 ms; proxy: higher is better, 80 → 69%. list (report, ms) did not move.
    expect(json.regressions.map((r) => r.split(':')[0])).toEqual(['watch', 'watch', 'proxy']);
    const md = readFileSync(`${path}.md`, 'utf8');
    expect(md).toContain('| proxy | 69 % | ≥ 70% of direct | ✗ missed |');
    expect(md).toContain('## More than 10% worse than the previous run');
    expect(md).toContain('| refused | 500 % | ≥ 70% of direct | ✗ failed: 3 of 500 requests errored |');
  });
});
