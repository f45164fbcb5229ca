/**
 * Structured logs: one JSON object per line (time, level, component, context, msg and any fields), the format
 * log shippers parse without rules, as kube-apiserver's `--logging-format=json`. KUBE_LOG_FORMAT=text keeps
 * Nest's coloured console lines for a terminal.
 */
import type { LoggerService, LogLevel } from '@nestjs/common';

export type LogFormat = 'json' | 'text';

type Level = 'error' | 'warn' | 'info' | 'debug' | 'verbose' | 'fatal';

const NEST_TO_LEVEL: Record<LogLevel, Level> = { log: 'info', error: 'error', warn: 'warn', debug: 'debug', verbose: 'verbose', fatal: 'fatal' };
const DEFAULT_LEVELS: LogLevel[] = ['log', 'warn', 'error', 'fatal'];

export interface LogSink {
  write(line: string): unknown;
}

export class JsonLogger implements LoggerService {
  private levels: Set<LogLevel>;

  constructor(
    private readonly component: string,
    levels: LogLevel[] = DEFAULT_LEVELS,
    private readonly sink: LogSink = process.stdout,
  ) {
    this.levels = new Set(levels);
  }

  log(message: unknown, ...optional: unknown[]): void {
    this.write('log', message, optional);
  }

  error(message: unknown, ...optional: unknown[]): void {
    this.write('error', message, optional);
  }

  warn(message: unknown, ...optional: unknown[]): void {
    this.write('warn', message, optional);
  }

  debug(message: unknown, ...optional: unknown[]): void {
    this.write('debug', message, optional);
  }

  verbose(message: unknown, ...optional: unknown[]): void {
    this.write('verbose', message, optional);
  }

  fatal(message: unknown, ...optional: unknown[]): void {
    this.write('fatal', message, optional);
  }

  setLogLevels(levels: LogLevel[]): void {
    this.levels = new Set(levels);
  }

  /**
   * Nest passes (message, context) or, for errors, (message, stack, context); an object message is merged
   * into the line as fields (`{ msg, requestId, code, … }`).
   */
  private write(nestLevel: LogLevel, message: unknown, optional: unknown[]): void {
    if (!this.levels.has(nestLevel)) return;
    const strings = optional.filter((o): o is string => typeof o === 'string');
    const context = strings.length > 0 ? strings[strings.length - 1] : undefined;
    const stack = nestLevel === 'error' && strings.length > 1 ? strings[0] : message instanceof Error ? message.stack : undefined;
    const fields = message instanceof Error ? { msg: message.message } : typeof message === 'object' && message !== null ? (message as Record<string, unknown>) : { msg: String(message) };
    const entry = { time: new Date().toISOString(), level: NEST_TO_LEVEL[nestLevel], component: this.component, ...(context ? { context } : {}), ...fields, ...(stack ? { stack } : {}) };
    this.sink.write(`${JSON.stringify(entry)}\n`);
  }
}

/** KUBE_LOG_FORMAT (json, the default, or text); anything else is a start-up error. */
export function logFormatFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): LogFormat {
  const format = env.KUBE_LOG_FORMAT || 'json';
  if (format !== 'json' && format !== 'text') throw new Error(`KUBE_LOG_FORMAT=${format}: must be json or text`);
  return format;
}

/** The `logger` option for NestFactory: a JsonLogger, or Nest's console logger at the same levels. */
export function appLogger(component: string, env: Readonly<Record<string, string | undefined>> = process.env): LoggerService | LogLevel[] {
  return logFormatFromEnv(env) === 'json' ? new JsonLogger(component) : DEFAULT_LEVELS;
}

/**
 * A start-up failure, as the last line a service prints before exiting: a JSON `fatal` line (with the stack)
 * in json format, the plain error otherwise (and when KUBE_LOG_FORMAT itself is what is wrong).
 */
export function logStartupFailure(component: string, err: unknown, env: Readonly<Record<string, string | undefined>> = process.env, sink: LogSink = process.stderr): void {
  let format: LogFormat = 'text';
  try {
    format = logFormatFromEnv(env);
  } catch {
    // Reported as text below.
  }
  if (format === 'json') new JsonLogger(component, ['fatal'], sink).fatal(err instanceof Error ? err : String(err), 'Bootstrap');
  else console.error(err);
}
