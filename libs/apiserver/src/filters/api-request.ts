import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Span } from '@opentelemetry/api';
import type { Socket } from 'node:net';
import { toStatus } from '@kube/apimachinery';
import type { RequestInfo } from '../request-info';
import type { UserInfo } from '../resource.definition';
import { writeStatus } from '../response.writer';

const NO_QUERY = new URLSearchParams();
const NO_INFO: RequestInfo = { isResourceRequest: false, path: '', verb: '', apiPrefix: '', group: '', version: '', namespace: '', resource: '', subresource: '', name: '' };

/** The socket and first bytes of an upgrade request (exec, attach, port-forward), which has no ServerResponse of its own. */
export interface UpgradeConnection {
  socket: Socket;
  head: Buffer;
}

/**
 * One request as it passes the handler chain (kube keeps these in the request's context): filled in by the
 * filters (request id, request info, user) and read by the ones after them. One object per request, with every
 * field set in the constructor so all requests share one shape.
 */
export class ApiRequest {
  readonly started = process.hrtime.bigint();
  /** Audit-Id of the request (with-request-id). */
  requestId = '';
  /** The URL's path and query (with-request-info). */
  path = '/';
  query: URLSearchParams = NO_QUERY;
  info: RequestInfo = NO_INFO;
  /** Watches, exec/attach/port-forward/proxy/log (by verb and subresource, never headers): exempt from max-in-flight and the timeout; their latency is their lifetime. */
  longRunning = false;
  /** Who is asking (with-authentication, then with-impersonation). */
  user: UserInfo | undefined = undefined;
  /** Annotations for the request's audit events (kube's audit.AddAuditAnnotations); set by withAudit only when the request is audited. */
  auditAnnotations: Record<string, string> | undefined = undefined;
  /** The request's server span, when tracing is on (KUBE_TRACING_CONFIG_FILE), and the filter stage span open in it. */
  span: Span | undefined = undefined;
  stage: Span | undefined = undefined;
  /** Set by a handler that passed the request on to another server, which counts it in its own metrics. */
  proxied = false;
  /** Set by the server when the request reached one of its installed resources: only then do its path's group,
   *  version and resource label metrics (a random path must not make a new series). */
  resolved = false;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly upgrade: UpgradeConnection | undefined = undefined,
  ) {}
}

/** Serves a request and resolves with the HTTP status it answered (0 when it wrote nothing, e.g. an aborted stream). */
export type RequestHandler = (r: ApiRequest) => Promise<number>;

/** One step of the handler chain, composed once at start-up (kube's `func(http.Handler) http.Handler`). */
export type Filter = (next: RequestHandler) => RequestHandler;

/**
 * `next`, then `done` with the status it answered (also when it threw): for filters that record a finished
 * request (logging, metrics, audit). `done` is made once with the filter, not per request.
 */
export function whenAnswered(next: RequestHandler, done: (r: ApiRequest, code: number) => void): RequestHandler {
  return async (r) => {
    let code = 0;
    try {
      code = await next(r);
      return code;
    } finally {
      done(r, code || r.res.statusCode);
    }
  };
}

/**
 * Answers a request with the Status of an error; a response that already started streaming is cut instead, so
 * the client sees a broken response rather than a wrong one.
 */
export function respondWithError(res: ServerResponse, err: unknown): number {
  if (res.headersSent) {
    if (!res.writableEnded) res.destroy();
    return toStatus(err).code;
  }
  return writeStatus(res, err).code;
}
