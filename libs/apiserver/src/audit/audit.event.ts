import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../resource.definition';
import type { RequestInfo } from '../request-info';
import type { AuditLevel, AuditStage } from './audit.policy';

/** authentication.k8s.io/v1 UserInfo as an audit event carries it. */
export interface AuditUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface AuditObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  apiGroup?: string;
  apiVersion?: string;
  subresource?: string;
}

export interface AuditResponseStatus {
  metadata: Record<string, unknown>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code: number;
}

/** audit.k8s.io/v1 Event (k8s.io/apiserver pkg/apis/audit/v1 types.go), fields in kube's order. */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: AuditLevel;
  auditID: string;
  stage: AuditStage;
  requestURI: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: AuditObjectReference;
  responseStatus?: AuditResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

// Wall-clock nanoseconds = this offset + the monotonic clock: microsecond timestamps without a syscall per event.
const EPOCH_OFFSET_NS = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

/** Now, as kube's metav1.MicroTime (RFC 3339 with six fractional digits). */
export function microTime(ns: bigint = process.hrtime.bigint()): string {
  const wall = EPOCH_OFFSET_NS + ns;
  const iso = new Date(Number(wall / 1_000_000n)).toISOString(); // ...:SS.mmmZ
  const micros = ((wall / 1_000n) % 1_000_000n).toString().padStart(6, '0');
  return `${iso.slice(0, 19)}.${micros}Z`;
}

export function auditUser(user: UserInfo): AuditUser {
  const u: AuditUser = { username: user.name };
  if (user.uid) u.uid = user.uid;
  if (user.groups.length) u.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length) u.extra = user.extra;
  return u;
}

/** kube's utilnet.SourceIPs: X-Forwarded-For, then X-Real-Ip, then the peer, without repeats. */
export function sourceIPs(req: IncomingMessage): string[] {
  const ips: string[] = [];
  const xff = req.headers['x-forwarded-for'];
  if (typeof xff === 'string') for (const ip of xff.split(',')) if (ip.trim()) ips.push(ip.trim());
  const real = req.headers['x-real-ip'];
  if (typeof real === 'string' && real.trim() && !ips.includes(real.trim())) ips.push(real.trim());
  let peer = req.socket.remoteAddress ?? '';
  if (peer.startsWith('::ffff:')) peer = peer.slice(7);
  if (peer && !ips.includes(peer)) ips.push(peer);
  return ips;
}

/** kube's objectRef for a resource request; `name`/`namespace` from the body for a create that has none in its path. */
export function objectRef(info: RequestInfo, body?: unknown): AuditObjectReference | undefined {
  if (!info.isResourceRequest) return undefined;
  const ref: AuditObjectReference = { resource: info.resource };
  const meta = (body as { metadata?: { name?: unknown; namespace?: unknown } } | undefined)?.metadata;
  const namespace = info.namespace || (typeof meta?.namespace === 'string' ? meta.namespace : '');
  const name = info.name || (info.verb === 'create' && typeof meta?.name === 'string' ? meta.name : '');
  if (namespace) ref.namespace = namespace;
  if (name) ref.name = name;
  if (info.group) ref.apiGroup = info.group;
  if (info.version) ref.apiVersion = info.version;
  if (info.subresource) ref.subresource = info.subresource;
  return ref;
}

/** kube's responseStatus: the Status a failed request answered, else just its code. */
export function responseStatus(code: number, body: unknown): AuditResponseStatus {
  const s = body as Partial<AuditResponseStatus> & { kind?: string } | undefined;
  if (s && s.kind === 'Status') {
    const out: AuditResponseStatus = { metadata: s.metadata ?? {}, code: s.code ?? code };
    if (s.status) out.status = s.status;
    if (s.message) out.message = s.message;
    if (s.reason) out.reason = s.reason;
    if (s.details) out.details = s.details;
    return out;
  }
  return { metadata: {}, code };
}

/** omitManagedFields: the object (or each item of a list) without metadata.managedFields. */
export function withoutManagedFields(obj: unknown): unknown {
  if (!obj || typeof obj !== 'object') return obj;
  const o = obj as { metadata?: Record<string, unknown>; items?: unknown[] };
  let out: Record<string, unknown> = o as Record<string, unknown>;
  if (o.metadata && 'managedFields' in o.metadata) {
    const { managedFields: _dropped, ...metadata } = o.metadata;
    out = { ...out, metadata };
  }
  if (Array.isArray(o.items)) out = { ...out, items: o.items.map(withoutManagedFields) };
  return out;
}
