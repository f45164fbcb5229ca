import type { ServerResponse } from 'node:http';
import { decodeKubeProtobuf, StatusError } from '@kube/apimachinery';
import { auditUser, microTime, objectRef, responseStatus, sourceIPs, withoutManagedFields, type AuditEvent } from '../audit/audit.event';
import { auditLevelTotal, auditRequestsRejectedTotal } from '../audit/audit.metrics';
import { AUDIT_LEVELS, type AuditDecision, type AuditLevel, type AuditStage } from '../audit/audit.policy';
import type { AuditLog } from '../logging/audit.log';
import type { UserInfo } from '../resource.definition';
import { respondWithError, whenAnswered, type ApiRequest, type Filter } from './api-request';

/** apiserver_audit_level_total's children, bound once. */
const levelCounters = Object.fromEntries(AUDIT_LEVELS.map((l) => [l, auditLevelTotal.labels(l)])) as Record<AuditLevel, { inc(): void }>;

/** Bodies larger than this are not copied into an event (kube has no cap; a log line of many MiB helps nobody). */
const MAX_BODY_BYTES = 1 << 20;
const PROTOBUF_MAGIC = Buffer.from('k8s\0', 'latin1');
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Copies of the chunks a stream passes, up to MAX_BODY_BYTES (undefined once over it). */
class BodyCopy {
  private chunks: Buffer[] | undefined = [];
  private size = 0;

  add(chunk: unknown, encoding?: unknown): void {
    if (!this.chunks || chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const b = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
    this.size += b.length;
    if (this.size > MAX_BODY_BYTES) this.chunks = undefined;
    else this.chunks.push(b);
  }

  /** The body as an object (JSON, or Kubernetes protobuf as kubectl sends it), or undefined (YAML, too large, other). */
  json(): unknown {
    if (!this.chunks?.length) return undefined;
    const body = Buffer.concat(this.chunks);
    try {
      return body.subarray(0, 4).equals(PROTOBUF_MAGIC) ? decodeKubeProtobuf(body).object : JSON.parse(body.toString('utf8'));
    } catch {
      return undefined;
    }
  }
}

/** One audited request: the event's fixed fields, written again at each stage the policy keeps. */
class AuditedRequest {
  private readonly received: string;
  private readonly requestBody?: BodyCopy;
  private responseBody?: BodyCopy;

  constructor(
    private readonly audit: AuditLog,
    private readonly r: ApiRequest,
    private readonly decision: AuditDecision,
    private readonly user: UserInfo | undefined,
  ) {
    this.received = microTime(r.started);
    const { level } = decision;
    const info = r.info;
    // Secrets' bodies only at RequestResponse, whatever a rule says for Request.
    const secret = info.isResourceRequest && info.group === '' && info.resource === 'secrets';
    if (!r.longRunning && BODY_METHODS.has(r.req.method ?? '') && (level === 'RequestResponse' || (level === 'Request' && !secret))) {
      const copy = (this.requestBody = new BodyCopy());
      // Watching 'data' as it is emitted neither reads the body nor changes its flow: whoever consumes it
      // (a handler, the proxy's pipe) still does, and we see each chunk as it passes.
      const req = r.req;
      const emit = req.emit;
      req.emit = function (this: typeof req, event: string | symbol, ...args: unknown[]): boolean {
        if (event === 'data') copy.add(args[0]);
        return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
      } as typeof req.emit;
    }
    this.watchResponse(level === 'RequestResponse' && !r.longRunning);
  }

  /** Copies the response body when the level wants it, and a failure's Status for responseStatus at any level. */
  private watchResponse(bodies: boolean): void {
    const res = this.r.res;
    const { write, end, writeHead } = res;
    const take = (chunk: unknown, encoding: unknown): void => {
      if (!this.responseBody) {
        if (!bodies && res.statusCode < 400) return;
        this.responseBody = new BodyCopy();
      }
      this.responseBody.add(chunk, encoding);
    };
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]): boolean {
      take(chunk, rest[0]);
      return write.apply(this, [chunk, ...rest] as Parameters<typeof write>);
    } as typeof res.write;
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]): ServerResponse {
      take(chunk, rest[0]);
      return end.apply(this, [chunk, ...rest] as Parameters<typeof end>);
    } as typeof res.end;
    if (this.r.longRunning) {
      // kube's ResponseStarted: a watch (or other long-running request) has its headers out.
      let started = false;
      res.writeHead = ((...args: Parameters<typeof writeHead>) => {
        const out = writeHead.apply(res, args);
        if (!started) {
          started = true;
          // A stream that started well has nothing more to copy (no body at its level, no failure Status): its
          // writes go unwrapped again, so a watch's events may go straight to the socket (chunkedSocket).
          if (!bodies && res.statusCode < 400) {
            res.write = write;
            res.end = end;
          }
          this.emit('ResponseStarted', res.statusCode);
        }
        return out;
      }) as typeof res.writeHead;
    }
  }

  requestReceived(): boolean | Promise<boolean> {
    return this.emit('RequestReceived', 0);
  }

  complete(code: number): boolean | Promise<boolean> {
    return this.emit('ResponseComplete', code);
  }

  panic(err: unknown): void {
    void this.emit('Panic', 500, { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${err instanceof Error ? err.message : String(err)}`, reason: 'InternalError', code: 500 });
  }

  /** The backend's answer: a promise only when a blocking backend makes the request wait (kube's ProcessEventStage). */
  private emit(stage: AuditStage, code: number, status?: AuditEvent['responseStatus']): boolean | Promise<boolean> {
    const { decision, r } = this;
    if (decision.omitStages.has(stage)) return true;
    const final = stage === 'ResponseComplete' || stage === 'Panic';
    const trim = decision.omitManagedFields ? withoutManagedFields : (o: unknown): unknown => o;
    const requestObject = final ? this.requestBody?.json() : undefined;
    const response = final && code ? this.responseBody?.json() : undefined;
    const event: AuditEvent = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: decision.level,
      auditID: r.requestId,
      stage,
      requestURI: r.req.url ?? '/',
      verb: r.info.verb,
      user: this.user ? auditUser(this.user) : {},
      // with-impersonation runs after us: a different user by now is whom the request impersonates.
      impersonatedUser: r.user && r.user !== this.user ? auditUser(r.user) : undefined,
      sourceIPs: sourceIPs(r.req),
      userAgent: r.req.headers['user-agent'],
      objectRef: objectRef(r.info, requestObject),
      responseStatus: status ?? (code ? responseStatus(code, response) : undefined),
      requestObject: requestObject === undefined ? undefined : trim(requestObject),
      responseObject: response !== undefined && decision.level === 'RequestResponse' ? trim(response) : undefined,
      requestReceivedTimestamp: this.received,
      stageTimestamp: microTime(),
      annotations: r.auditAnnotations && Object.keys(r.auditAnnotations).length ? { ...r.auditAnnotations } : undefined,
    };
    return this.audit.write(event);
  }
}

/**
 * kube's WithAudit, after authentication: the policy decides the request's level from who asks and what for;
 * at None the request passes untouched, else it gets an audit.k8s.io/v1 Event at each stage the policy keeps,
 * with its request and response bodies only when the level asks for them.
 */
export function withAudit(audit: AuditLog | undefined): Filter {
  if (!audit?.enabled) return (next) => next;
  return (next) => async (r) => {
    const user = r.user;
    const decision = audit.policy.decide({ user, info: r.info });
    levelCounters[decision.level].inc();
    if (decision.level === 'None') return next(r);
    r.auditAnnotations = {};
    const audited = new AuditedRequest(audit, r, decision, user);
    let received = audited.requestReceived();
    if (received !== true) {
      received = await received;
      // blocking-strict: a request whose RequestReceived event was not stored is refused (kube's words, as a Status).
      if (!received) {
        auditRequestsRejectedTotal.inc();
        return respondWithError(r.res, new StatusError(500, 'InternalError', `Internal Server Error: ${JSON.stringify(r.req.url ?? '/')}: failed to store audit event`));
      }
    }
    let code: number;
    try {
      code = await next(r);
    } catch (err) {
      audited.panic(err);
      throw err;
    }
    const completed = audited.complete(code || r.res.statusCode);
    // A blocking backend holds the request until its last event is handled, as kube's does.
    if (completed !== true && completed !== false) await completed;
    return code;
  };
}

/**
 * kube's WithFailedAuthenticationAudit, before authentication: a request refused there never reaches withAudit,
 * so it is audited here (no user, stage ResponseStarted, as kube writes it).
 */
export function withFailedAuthenticationAudit(audit: AuditLog | undefined): Filter {
  if (!audit?.enabled) return (next) => next;
  return (next) =>
    whenAnswered(next, (r, code) => {
      if (r.user) return;
      const decision = audit.policy.decide({ user: undefined, info: r.info });
      if (decision.level === 'None' || decision.omitStages.has('ResponseStarted')) return;
      void audit.write({
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: decision.level,
        auditID: r.requestId,
        stage: 'ResponseStarted',
        requestURI: r.req.url ?? '/',
        verb: r.info.verb,
        user: {},
        sourceIPs: sourceIPs(r.req),
        userAgent: r.req.headers['user-agent'],
        objectRef: objectRef(r.info),
        responseStatus: { metadata: {}, message: 'Authentication failed, attempted: certificate, token', code },
        requestReceivedTimestamp: microTime(r.started),
        stageTimestamp: microTime(),
      });
    });
}
