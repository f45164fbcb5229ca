import { JsonLogger, logFormatFromEnv, type LogSink } from './json.logger';

/** The part of `process` the handlers attach to (a parameter so a spec can drive it). */
export interface ProcessEvents {
  on(event: 'uncaughtException', listener: (err: Error) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
}

/**
 * The last line of defence, as kube's panic recovery: an exception nobody caught (an event handler that threw,
 * a rejected promise nobody awaited) is logged with its stack and the process keeps serving every other request
 * instead of dying with them. Installed once by each service's main.
 */
export function installLastResortHandlers(component: string, proc: ProcessEvents = process, sink: LogSink = process.stderr, env: Readonly<Record<string, string | undefined>> = process.env): void {
  let json = true;
  try {
    json = logFormatFromEnv(env) === 'json';
  } catch {
    json = false;
  }
  const logger = new JsonLogger(component, ['error'], sink);
  const report = (kind: string, err: unknown): void => {
    if (json) logger.error({ msg: `${kind}: ${err instanceof Error ? err.message : String(err)}` }, err instanceof Error ? (err.stack ?? '') : '', 'LastResort');
    else sink.write(`[${component}] ${kind}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  };
  proc.on('uncaughtException', (err) => report('uncaught exception', err));
  proc.on('unhandledRejection', (reason) => report('unhandled rejection', reason));
}
