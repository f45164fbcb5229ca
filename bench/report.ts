/**
 * Every figure of a benchmark run: printed with its target and a mark when missed, and kept for the run's
 * JSON and markdown report (`writeReport`). A target is "≥ N…" or "≤ N…"; the number is compared with the
 * figure's value in its own unit; a target without a leading comparison ("report") is only reported.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import type { LoadResult } from './load.generator';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** What the value is compared with, as printed: "≤ 50 ms", "≥ 70% of direct", "report". */
  target: string;
  /** Undefined when the target is only reported (no comparison). */
  met?: boolean;
  detail: string;
  /** Seconds since the run started when the figure was taken (to keep `--quick` under two minutes). */
  atSeconds: number;
  /** Why the figure is no measurement (requests errored): it counts as missed, and never as a regression's baseline. */
  failure?: string;
}

const figures: Figure[] = [];

/** "≥ 70% of direct" → { op: '≥', limit: 70 }; undefined for a target that only reports. */
function parseTarget(target: string): { op: '≥' | '≤'; limit: number } | undefined {
  const m = /([≥≤])\s*\+?([\d.,]+)/.exec(target);
  return m ? { op: m[1] as '≥' | '≤', limit: Number(m[2].replace(/,/g, '')) } : undefined;
}

/**
 * Records one figure and returns its printed line: name, detail, target and ✗ MISSED when the value misses it.
 * `failure` (why the figure is not a measurement, e.g. requests that errored) marks it ✗ FAILED whatever its target.
 */
export function figure(name: string, value: number, unit: string, detail: string, target = 'report', failure?: string): string {
  const t = parseTarget(target);
  const met = failure ? false : t === undefined || Number.isNaN(value) ? (t ? false : undefined) : t.op === '≥' ? value >= t.limit : value <= t.limit;
  figures.push({ name, value, unit, target, met, detail, atSeconds: Math.round(performance.now() / 100) / 10, ...(failure ? { failure } : {}) });
  const mark = failure ? `  ✗ FAILED: ${failure}` : met === undefined ? '' : met ? '  ✓' : '  ✗ MISSED';
  return `${name.padEnd(36)} ${detail}  (target ${target})${mark}`;
}

/**
 * A throughput figure against a baseline measured in the same run; the value is ours as a % of the baseline. A
 * request that errored on either side makes the figure FAILED: a refused request is fast, and would count as throughput.
 */
export function line(name: string, ours: LoadResult & { cpuUsPerRequest?: number }, base: LoadResult, target: string): string {
  const ratio = (ours.rps / base.rps) * 100;
  // The server's CPU per request depends far less on what else runs on the machine than throughput does.
  const cpu = ours.cpuUsPerRequest !== undefined && !Number.isNaN(ours.cpuUsPerRequest) ? `; server CPU ${ours.cpuUsPerRequest.toFixed(0)} µs/req` : '';
  const detail = `${ours.rps.toFixed(0).padStart(7)} req/s (p50 ${ours.p50ms.toFixed(2)} ms, p99 ${ours.p99ms.toFixed(2)} ms, errors ${ours.errors}${cpu})  vs baseline ${base.rps.toFixed(0).padStart(7)} req/s  → ${ratio.toFixed(0)}%`;
  const errored = [ours.errors && `${ours.errors} of ${ours.requests} requests errored`, base.errors && `${base.errors} of ${base.requests} baseline requests errored`].filter(Boolean).join(', ');
  return figure(name, ratio, '%', detail, target, errored || undefined);
}

export function recordedFigures(): readonly Figure[] {
  return figures;
}

/**
 * Writes `<path>.json` and `<path>.md` with every figure of the run, and prints the missed ones. Figures that
 * moved more than 10% the wrong way against the previous `<path>.json` (same name, same target) are listed
 * as regressions: the issue wants a note for each.
 */
export function writeReport(path: string, run: { quick: boolean; seconds: number; args: string[] }): void {
  let previous: Figure[] = [];
  try {
    previous = (JSON.parse(readFileSync(`${path}.json`, 'utf8')) as { figures: Figure[] }).figures;
  } catch {
    // the first run
  }
  const regressions = figures.flatMap((f) => {
    const before = previous.find((p) => p.name === f.name && p.unit === f.unit && !p.failure);
    const t = parseTarget(f.target) ?? { op: f.unit === '%' ? '≥' : '≤' };
    if (!before || !before.value || Number.isNaN(f.value) || f.failure) return [];
    const change = (f.value - before.value) / Math.abs(before.value);
    return (t.op === '≥' ? change < -0.1 : change > 0.1) ? [`${f.name}: ${before.value.toFixed(2)} → ${f.value.toFixed(2)} ${f.unit}`] : [];
  });
  const meta = { date: new Date().toISOString(), args: run.args, quick: run.quick, secondsPerRun: run.seconds, cores: cpus().length, loadAverage: loadavg() };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.json`, `${JSON.stringify({ ...meta, figures, regressions }, null, 2)}\n`);
  const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
  const md = [
    `# Benchmark ${meta.date}`,
    '',
    `\`${['bench', ...run.args].join(' ')}\`, ${run.seconds} s per run, ${meta.cores} cores, load average ${meta.loadAverage.map((l) => l.toFixed(2)).join(' ')}`,
    '',
    '| figure | value | target | | detail | at |',
    '|---|---|---|---|---|---|',
    ...figures.map((f) => `| ${cell(f.name)} | ${Number.isNaN(f.value) ? 'n/a' : `${+f.value.toFixed(2)} ${f.unit}`} | ${cell(f.target)} | ${f.failure ? `✗ failed: ${cell(f.failure)}` : f.met === undefined ? '' : f.met ? '✓' : '✗ missed'} | ${cell(f.detail)} | ${f.atSeconds} s |`),
    '',
    ...(regressions.length ? ['## More than 10% worse than the previous run', '', ...regressions.map((r) => `- ${r}`), ''] : []),
  ].join('\n');
  writeFileSync(`${path}.md`, md);
  const missed = figures.filter((f) => f.met === false);
  console.log(`\n${figures.length} figures in ${(performance.now() / 1000).toFixed(0)} s, ${missed.length} missed${missed.length ? `: ${missed.map((f) => f.name.trim()).join('; ')}` : ''}`);
  if (regressions.length) console.log(`more than 10% worse than the previous run: ${regressions.join('; ')}`);
  console.log(`report: ${path}.json, ${path}.md`);
}
