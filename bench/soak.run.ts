/**
 * One soak run: `npm start`'s stack on free ports, churned (bench/soak.churn.ts) for `minutes`, every process's
 * RSS and open descriptors sampled from /proc, and a trend fitted per process after the warm-up
 * (bench/soak.trend.ts). Written as JSON with every sample.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StackChurn, type ChurnReport } from './soak.churn';
import { processUsage } from './soak.sampler';
import { launchStack } from './soak.stack';
import { afterWarmup, fdsTrend, rssTrend, type SoakSample, type Trend } from './soak.trend';

export interface SoakOptions {
  readonly minutes: number;
  readonly sampleSeconds: number;
  /** The first part of the run left out of the trends. */
  readonly warmupFraction: number;
  /** Where the JSON and the stack's log go. */
  readonly outDir: string;
  /** How many names the churn cycles reuse (SOAK_NAMES by default). */
  readonly names?: number;
  readonly log?: (line: string) => void;
}

export interface ProcessReport {
  readonly name: string;
  readonly pid: number;
  /** Every sample, the warm-up's included. */
  readonly samples: readonly SoakSample[];
  /** Still running when the churn ended. */
  readonly alive: boolean;
  readonly rss: Trend;
  readonly fds: Trend;
}

export interface SoakResult {
  readonly startedAt: string;
  readonly minutes: number;
  readonly sampleSeconds: number;
  readonly warmupSeconds: number;
  readonly processes: readonly ProcessReport[];
  readonly churn: ChurnReport;
  /** The JSON written, and the stack's output. */
  readonly file: string;
  readonly logFile: string;
}

export async function runSoak(opts: SoakOptions): Promise<SoakResult> {
  const log = opts.log ?? ((line: string) => console.log(`[soak] ${line}`));
  const startedAt = new Date().toISOString();
  const stamp = startedAt.replace(/[:.]/g, '-');
  mkdirSync(opts.outDir, { recursive: true });
  const logFile = join(opts.outDir, `soak-${stamp}.log`);
  const dir = mkdtempSync(join(tmpdir(), 'kube-soak-'));
  log(`starting the stack in ${dir} (output in ${logFile})`);
  const stack = await launchStack(dir, logFile);
  const churn = new StackChurn(stack.url, dir, opts.names);
  const samples = new Map<number, SoakSample[]>(stack.processes.map((p) => [p.pid, []]));
  const dead = new Set<number>();
  let t0 = Date.now();
  const sample = (): void => {
    const t = (Date.now() - t0) / 1000;
    for (const p of stack.processes) {
      const usage = processUsage(p.pid);
      if (usage) samples.get(p.pid)?.push({ t, ...usage });
      else dead.add(p.pid);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    log(`processes: ${stack.processes.map((p) => `${p.name} (${p.pid})`).join(', ')}`);
    await churn.prepare();
    log(`churning for ${opts.minutes} min, sampling every ${opts.sampleSeconds} s`);
    t0 = Date.now();
    sample();
    timer = setInterval(sample, opts.sampleSeconds * 1000);
    await churn.run(opts.minutes * 60_000);
    clearInterval(timer);
    sample();
  } finally {
    clearInterval(timer);
    churn.close();
    if (!stack.running) log('the launcher stopped: a process died (see the log)');
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const warmupSeconds = opts.minutes * 60 * opts.warmupFraction;
  const processes = stack.processes.map((p): ProcessReport => {
    const all = samples.get(p.pid) ?? [];
    const measured = afterWarmup(all, warmupSeconds);
    return { name: p.name, pid: p.pid, samples: all, alive: !dead.has(p.pid), rss: rssTrend(measured), fds: fdsTrend(measured) };
  });
  const file = join(opts.outDir, `soak-${stamp}.json`);
  const result: SoakResult = { startedAt, minutes: opts.minutes, sampleSeconds: opts.sampleSeconds, warmupSeconds, processes, churn: churn.report(), file, logFile };
  writeFileSync(file, `${JSON.stringify(result, null, 1)}\n`);
  return result;
}

/** The table the soak prints: one row per process, RSS and descriptors with their fitted slopes and verdicts. */
export function formatSoak(result: SoakResult): string {
  const f = (n: number, digits = 1): string => n.toFixed(digits);
  const rows = result.processes.map((p) => {
    const measured = afterWarmup(p.samples, result.warmupSeconds);
    const first = measured[0];
    const last = measured[measured.length - 1];
    return [
      p.name,
      String(p.pid),
      first && last ? `${f(first.rssMiB)} → ${f(last.rssMiB)}` : '-',
      f(p.rss.slopePerHour),
      `${f(p.rss.growthOverWindow)} / ${f(p.rss.tolerance)}`,
      p.rss.verdict,
      first && last ? `${first.fds} → ${last.fds}` : '-',
      f(p.fds.slopePerHour),
      `${f(p.fds.growthOverWindow)} / ${p.fds.tolerance}`,
      p.fds.verdict,
      p.alive ? 'yes' : 'NO',
    ];
  });
  const header = ['process', 'pid', 'RSS MiB', 'MiB/h', 'growth/tol', 'RSS', 'fds', 'fds/h', 'growth/tol', 'fds', 'alive'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  const c = result.churn;
  const churn = `churn: ${(['crd', 'apiservice', 'namespace', 'watch'] as const).map((k) => `${k} ${c.completed[k]} ok / ${c.failed[k]} failed`).join(', ')}; ${c.watchEvents} watch events, ${c.watchRelists} relists after 410, ${c.watchesOutlivingTheirCrd} watches outliving their CRD`;
  return [line(header), ...rows.map(line), churn, ...c.errors.map((e) => `  ${e}`)].join('\n');
}

/** Whether the run passed: every process alive and flat, every churn operation done. */
export function soakPassed(result: SoakResult): boolean {
  const c = result.churn;
  return (
    result.processes.every((p) => p.alive && p.rss.verdict === 'FLAT' && p.fds.verdict === 'FLAT') &&
    Object.values(c.failed).every((n) => n === 0) &&
    c.watchesOutlivingTheirCrd === 0
  );
}
