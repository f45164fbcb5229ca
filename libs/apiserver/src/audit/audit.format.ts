import type { AuditEvent } from './audit.event';

/** Go's %q for the ASCII text these fields hold (JSON's escaping, which matches it there). */
const q = (s: string): string => JSON.stringify(s);

/** time.RFC3339Nano of a MicroTime: trailing zeros of the fraction dropped, the dot too when nothing is left. */
function rfc3339Nano(ts: string): string {
  return ts.replace(/\.(\d*?)0+Z$/, (_m, digits: string) => (digits ? `.${digits}Z` : 'Z'));
}

/** kube's EventString (pkg/audit/format.go): the `legacy` log format, one line per event. */
export function eventString(ev: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (ev.user.username) {
    username = ev.user.username;
    if (ev.user.groups?.length) groups = ev.user.groups.map(q).join(',');
  }
  let asuser = '<self>';
  let asgroups = '<lookup>';
  if (ev.impersonatedUser) {
    asuser = ev.impersonatedUser.username ?? '';
    if (ev.impersonatedUser.groups) asgroups = ev.impersonatedUser.groups.map(q).join(',');
  }
  const namespace = ev.objectRef?.namespace || '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code) : '<deferred>';
  const ip = ev.sourceIPs?.[0] ?? '<unknown>';
  return `${rfc3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${q(ev.auditID)} stage=${q(ev.stage)} ip=${q(ip)} method=${q(ev.verb)} user=${q(username)} groups=${q(groups)} as=${q(asuser)} asgroups=${q(asgroups)} user-agent=${q(ev.userAgent ?? '')} namespace=${q(namespace)} uri=${q(ev.requestURI)} response="${response}"`;
}

// One encoding per event: the truncate plugin sizes it, the log and the webhook write it, a union shares it.
const encoded = new WeakMap<AuditEvent, string>();

/** The event as audit.k8s.io/v1 JSON (without the newline Go's encoder adds), encoded once per event object. */
export function encodeEvent(ev: AuditEvent): string {
  let json = encoded.get(ev);
  if (json === undefined) {
    json = JSON.stringify(ev);
    encoded.set(ev, json);
  }
  return json;
}

/** An audit.k8s.io/v1 EventList of these events, as kube's webhook posts it. */
export function encodeEventList(events: readonly AuditEvent[]): string {
  return `{"kind":"EventList","apiVersion":"audit.k8s.io/v1","metadata":{},"items":[${events.map(encodeEvent).join(',')}]}`;
}
