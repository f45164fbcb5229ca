import type { IncomingMessage } from 'node:http';
import type { Authenticator } from '../authentication';
import type { Authorizer } from '../authorization/authorizer';
import type { AuditLog } from '../logging/audit.log';
import type { FlowControl } from '../flowcontrol/flow-control';
import type { RequestLog } from '../logging/request.log';
import type { Filter, RequestHandler } from './api-request';
import { withAudit, withFailedAuthenticationAudit } from './with-audit';
import { withAuthentication } from './with-authentication';
import { withAuthorization } from './with-authorization';
import { withImpersonation, type Impersonator } from './with-impersonation';
import { withLogging } from './with-logging';
import { withMaxInFlight, type InFlightLimits } from './with-max-in-flight';
import { withMetrics } from './with-metrics';
import { withPanicRecovery } from './with-panic-recovery';
import { withPriorityAndFairness } from './with-priority-and-fairness';
import { withRequestId } from './with-request-id';
import { withRequestInfo } from './with-request-info';
import { withRetryAfter } from './with-retry-after';
import { withTimeout } from './with-timeout';
import { tracked, withTracing, type RequestTracingOptions } from '../tracing/with-tracing';

export interface HandlerChainConfig extends InFlightLimits {
  /** Client certificates and tokens at the front door; the front proxy (requestheader) too at a backend. */
  authenticator: Authenticator;
  /** Decides every authenticated request; default: allow all. */
  authorizer?: Authorizer;
  /** Who a request may act as (Impersonate-*); default: system:masters may impersonate anyone. */
  impersonator?: Impersonator;
  /** Non-long-running requests answer 504 after this long (default 60 s). */
  requestTimeoutMs?: number;
  requestLog: RequestLog;
  /** Audit events, when configured (the front door's KUBE_AUDIT_LOG_PATH). */
  audit?: AuditLog;
  /** Whether a caller's own request id is kept; a backend keeps only the front proxy's. */
  trustRequestId(req: IncomingMessage): boolean;
  /** Pass the request id on in the request's headers (the front door, to its backends). */
  forwardRequestId?: boolean;
  /** True once the server is stopping (new requests get 429 + Retry-After). */
  shuttingDown(): boolean;
  /**
   * API Priority and Fairness in place of max-in-flight (the front door, which follows the FlowSchemas and
   * PriorityLevelConfigurations). Servers without those objects (core-api, extensions, SDK servers behind the
   * front door) keep max-in-flight, as kube's aggregated servers do when APF is off.
   */
  flowControl?: FlowControl;
  /** Tracing (KUBE_TRACING_CONFIG_FILE): a span per request and per stage; absent, the chain has no tracing at all. */
  tracing?: RequestTracingOptions;
}

/**
 * The filters every request passes before `handler`, outermost first: kube's DefaultBuildHandlerChain
 * (k8s.io/apiserver pkg/server/config.go) in its order, shared by the front door and every API server. Built
 * once at start-up; per request it costs only the filters themselves.
 */
export function buildHandlerChain(handler: RequestHandler, c: HandlerChainConfig): RequestHandler {
  const tracer = c.tracing?.tracer;
  // kube's filterlatency spans around the stages, only when tracing is on.
  const stage = (name: string, filter: Filter): Filter => (tracer ? tracked(name, tracer, filter) : filter);
  const filters: Filter[] = [
    withRequestId({ trusted: c.trustRequestId, forward: c.forwardRequestId }),
    withRequestInfo,
    ...(c.tracing ? [withTracing(c.tracing)] : []),
    withLogging(c.requestLog),
    withMetrics,
    withPanicRecovery,
    withRetryAfter(c.shuttingDown),
    withTimeout(c.requestTimeoutMs),
    withFailedAuthenticationAudit(c.audit),
    stage('authentication', withAuthentication(c.authenticator)),
    // After authentication, before impersonation, as kube's: the policy sees who authenticated.
    stage('audit', withAudit(c.audit)),
    stage('impersonation', withImpersonation(c.impersonator)),
    c.flowControl ? stage('priorityandfairness', withPriorityAndFairness(c.flowControl)) : withMaxInFlight(c),
    stage('authorization', withAuthorization(c.authorizer)),
  ];
  return filters.reduceRight<RequestHandler>((next, filter) => filter(next), handler);
}
