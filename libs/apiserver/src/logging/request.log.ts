/**
 * The request id and the per-request log line. The front door gives every request an id (a valid one the
 * client sent as Audit-ID or X-Request-Id, else a new UUID, as kube's audit filter does), returns it as the
 * `Audit-Id` response header and passes it to the backend in the same header, so one id names a request in
 * the aggregator's and the backend's logs. Hot paths stay quiet: only failures (5xx) and slow requests are
 * logged, unless KUBE_LOG_REQUESTS=true.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Logger } from '@nestjs/common';

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Probes poll these; an unready answer is their job, not an incident. */
const HEALTH_PATH = /^\/(healthz|livez|readyz)(\/|\?|$)/;

/**
 * The id of a request: the one it carries (Audit-Id, then X-Request-Id) when well-formed and `trusted`, else a
 * new one. The front door trusts its clients' ids, as kube-apiserver does; a backend only the front proxy's.
 */
export function requestIdOf(headers: IncomingHttpHeaders, trusted = true): string {
  if (!trusted) return randomUUID();
  const given = headers['audit-id'] ?? headers['x-request-id'];
  return typeof given === 'string' && VALID_ID.test(given) ? given : randomUUID();
}

export interface RequestLogOptions {
  /** The server writing the lines ("aggregator", "core-api"); set by the server. */
  server?: string;
  /** Log every request (debugging); default only 5xx and slow ones. */
  all?: boolean;
  /** Requests slower than this are logged (watches and other long-running requests excepted). Default 1000. */
  slowMs?: number;
}

export interface RequestLogEntry {
  requestId: string;
  /** The HTTP method, as kube-apiserver's httplog writes it. */
  verb: string;
  uri: string;
  user: string;
  code: number;
  latencyMs: number;
  /** Watches and upgrades: their latency is their lifetime, never "slow". */
  longRunning: boolean;
  /** The request's trace, when tracing is on (the line then leads to the trace in the collector). */
  traceID?: string;
}

/** Where request lines go: Nest's logger (the app's JsonLogger) by default. */
export type RequestLineSink = Pick<Logger, 'log' | 'warn' | 'error'>;

export class RequestLog {
  private readonly all: boolean;
  private readonly slowMs: number;
  private readonly server?: string;

  constructor(
    options: RequestLogOptions = {},
    private readonly logger: RequestLineSink = new Logger('Request'),
  ) {
    this.all = options.all ?? false;
    this.slowMs = options.slowMs ?? 1000;
    this.server = options.server;
  }

  done(entry: RequestLogEntry): void {
    const health = HEALTH_PATH.test(entry.uri);
    if (!this.all && health) return;
    const failed = entry.code >= 500 && !health;
    const slow = !entry.longRunning && entry.latencyMs > this.slowMs;
    if (!failed && !slow && !this.all) return;
    const { longRunning: _longRunning, ...fields } = entry;
    const line = { msg: failed ? 'request failed' : slow ? 'slow request' : 'request', ...(this.server ? { server: this.server } : {}), ...fields };
    if (failed) this.logger.error(line);
    else if (slow) this.logger.warn(line);
    else this.logger.log(line);
  }
}

/** KUBE_LOG_REQUESTS (true: every request) and KUBE_LOG_SLOW_REQUEST_MS (default 1000). */
export function requestLogOptionsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): RequestLogOptions {
  const slow = env.KUBE_LOG_SLOW_REQUEST_MS;
  const slowMs = slow === undefined || slow === '' ? undefined : Number(slow);
  if (slowMs !== undefined && !(Number.isFinite(slowMs) && slowMs >= 0)) throw new Error(`KUBE_LOG_SLOW_REQUEST_MS=${slow}: must be a number of milliseconds`);
  return { all: env.KUBE_LOG_REQUESTS === 'true', slowMs };
}
