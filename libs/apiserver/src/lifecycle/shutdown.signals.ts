import type { INestApplicationContext } from '@nestjs/common';

/**
 * The signals that stop a server gracefully, as kube-apiserver's (SIGTERM and SIGINT: server.SetupSignalHandler).
 * Nest's enableShutdownHooks() with no argument stops on every "shutdown" signal it knows, SIGHUP, SIGUSR2 and
 * SIGQUIT included: a `kill -HUP` meant to reopen logs, or SIGUSR2 asking Node for a heap snapshot
 * (--heapsnapshot-signal), would take the server down.
 */
export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/** Runs the app's shutdown hooks (and then exits) on SIGTERM or SIGINT only. */
export function stopOnShutdownSignals<T extends INestApplicationContext>(app: T): T {
  return app.enableShutdownHooks([...SHUTDOWN_SIGNALS]) as T;
}
