import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { collectRuntimeMetrics, GO_EQUIVALENT_METRICS } from './runtime.metrics';

describe('collectRuntimeMetrics', () => {
  it("exposes prom-client's process and Node series and the go_* names kube's dashboards read, once however often it is called", async () => {
    const registry = new Registry();
    collectRuntimeMetrics(registry);
    collectRuntimeMetrics(registry);
    const text = await registry.metrics();
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_open_fds', 'process_start_time_seconds', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_space_size_used_bytes', 'nodejs_gc_duration_seconds', ...GO_EQUIVALENT_METRICS]) {
      expect(text, name).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
    }
    expect(text.match(/^# TYPE go_goroutines /gm)).toHaveLength(1);
    expect(Number(/^go_goroutines (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
    expect(Number(/^go_memstats_heap_alloc_bytes (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(1_000_000);
    expect(Number(/^go_threads (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(1);
    expect(text).toContain(`go_info{version="${process.version}"} 1`);
  });

  it('records garbage collections in go_gc_duration_seconds', async () => {
    const registry = new Registry();
    collectRuntimeMetrics(registry);
    // Allocate until V8 collects: the observer reports asynchronously.
    let keep: unknown[] = [];
    for (let i = 0; i < 50 && !/^go_gc_duration_seconds_count [1-9]/m.test(await registry.metrics()); i++) {
      keep = Array.from({ length: 200_000 }, (_, j) => ({ j }));
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(keep.length).toBeGreaterThan(0);
    expect(await registry.metrics()).toMatch(/^go_gc_duration_seconds_count [1-9]/m);
  });
});
