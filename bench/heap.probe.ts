/**
 * Preloaded into a server the scale benchmark measures (`node --expose-gc -r dist/bench/heap.probe.js …`): on
 * SIGWINCH (NestJS's shutdown hooks own SIGUSR2; SIGWINCH is otherwise ignored) it collects garbage and writes process.memoryUsage() as JSON to BENCH_HEAP_PROBE_FILE, so heap
 * figures are of live objects, not of whatever the collector has not reached yet.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_HEAP_PROBE_FILE;
if (file) {
  process.on('SIGWINCH', () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    writeFileSync(file, JSON.stringify({ ...process.memoryUsage(), collected: gc !== undefined, at: Date.now() }));
  });
}
