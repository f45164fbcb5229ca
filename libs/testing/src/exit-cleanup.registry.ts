/**
 * Synchronous clean-up run when the test process goes away — normal exit, or a SIGINT/SIGTERM/SIGHUP (vitest
 * ends its workers with a signal) — so no etcd or nats-server outlives the tests that started it.
 */
export type ExitCleanup = () => void;

const cleanups = new Set<ExitCleanup>();
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let installed = false;

/** Registers `fn`; returns a function that unregisters it (call it once the resource is gone). */
export function onProcessExit(fn: ExitCleanup): () => void {
  installHooks();
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/** Runs every registered clean-up now, newest first (processes before the directories they use). */
export function runExitCleanups(): void {
  for (const fn of [...cleanups].reverse()) {
    cleanups.delete(fn);
    try {
      fn();
    } catch {
      // Best effort: one failed clean-up must not stop the others.
    }
  }
}

function installHooks(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runExitCleanups);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function onSignal(signal: NodeJS.Signals): void {
  runExitCleanups();
  // Restore the default behaviour our listener suppressed: die from the same signal unless someone else handles it.
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}
