import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { collectDefaultMetrics, Gauge, register, Summary, type Registry } from 'prom-client';

/**
 * The Go runtime's series kube's dashboards and alerts read (kube-prometheus' "API server" dashboard plots
 * go_goroutines; others the go_memstats_* heap and go_gc_duration_seconds), computed from Node's own figures.
 * The mapping is in docs/operations.md ("Runtime metrics").
 */
const GO_EQUIVALENTS = ['go_goroutines', 'go_threads', 'go_info', 'go_memstats_alloc_bytes', 'go_memstats_heap_alloc_bytes', 'go_memstats_heap_inuse_bytes', 'go_memstats_sys_bytes', 'go_gc_duration_seconds'] as const;

const installed = new WeakSet<Registry>();

/**
 * prom-client's default metrics (process_*, nodejs_* heap spaces, event-loop lag, GC) and their go_*
 * equivalents, in `registry` once per process however many servers a process holds (the aggregator embeds a
 * generic server; tests run whole stacks in one process). The collectors run at scrape time, except GC
 * durations, which a PerformanceObserver records as V8 reports them.
 */
export function collectRuntimeMetrics(registry: Registry = register): void {
  if (installed.has(registry) || registry.getSingleMetric('process_cpu_seconds_total')) {
    installed.add(registry);
    return;
  }
  installed.add(registry);
  collectDefaultMetrics({ register: registry });
  registerGoEquivalents(registry);
}

/** The names collectRuntimeMetrics adds besides prom-client's defaults (for docs and tests). */
export const GO_EQUIVALENT_METRICS: readonly string[] = GO_EQUIVALENTS;

function registerGoEquivalents(registry: Registry): void {
  const registers = [registry];
  new Gauge({
    name: 'go_goroutines',
    help: 'Number of goroutines that currently exist. Here: the active libuv handles and requests (sockets, timers, file operations), the units of concurrent work of a Node process.',
    registers,
    collect() {
      this.set(activeResources());
    },
  });
  new Gauge({
    name: 'go_threads',
    help: 'Number of OS threads created. Here: the threads of the Node process (main, V8 and libuv workers).',
    registers,
    collect() {
      const threads = osThreads();
      if (threads !== undefined) this.set(threads);
    },
  });
  new Gauge({ name: 'go_info', help: 'Information about the Go environment. Here: the Node.js version.', labelNames: ['version'], registers }).set({ version: process.version }, 1);
  new Gauge({
    name: 'go_memstats_alloc_bytes',
    help: 'Number of bytes allocated and still in use. Here: V8 heap used plus memory held outside it (Buffers).',
    registers,
    collect() {
      const m = process.memoryUsage();
      this.set(m.heapUsed + m.external);
    },
  });
  new Gauge({
    name: 'go_memstats_heap_alloc_bytes',
    help: 'Number of heap bytes allocated and still in use. Here: V8 heap used.',
    registers,
    collect() {
      this.set(process.memoryUsage().heapUsed);
    },
  });
  new Gauge({
    name: 'go_memstats_heap_inuse_bytes',
    help: 'Number of heap bytes that are in use. Here: V8 heap total (committed).',
    registers,
    collect() {
      this.set(process.memoryUsage().heapTotal);
    },
  });
  new Gauge({
    name: 'go_memstats_sys_bytes',
    help: 'Number of bytes obtained from system. Here: resident set size.',
    registers,
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  // Go's is a summary of every GC pause since start, quantiles 0, .25, .5, .75, 1.
  const gc = new Summary({ name: 'go_gc_duration_seconds', help: 'A summary of the pause duration of garbage collection cycles. Here: V8 garbage collections, every kind.', percentiles: [0, 0.25, 0.5, 0.75, 1], registers });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gc.observe(entry.duration / 1000);
  });
  observer.observe({ entryTypes: ['gc'] });
}

function activeResources(): number {
  const info = (process as { getActiveResourcesInfo?: () => string[] }).getActiveResourcesInfo;
  return info ? info.call(process).length : 0;
}

function osThreads(): number | undefined {
  try {
    const m = /^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}
