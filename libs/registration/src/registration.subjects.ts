/**
 * NATS subjects of the registration contract. The version is part of the subject so that a future v2 can run
 * side by side with v1 during a rolling upgrade (each side subscribes to the versions it understands).
 *
 * Announcements and withdrawals travel on one subject per service (`…announce.<service>`): nats-server lets each
 * service publish on its own subjects only (registration.nats-auth.ts), and receivers drop a message whose
 * `service` is not the one of its subject, so a service cannot speak for another.
 */
export const REGISTRATION_SUBJECT_PREFIX = 'kube.registration.v1.';

export const RegistrationSubjects = {
  /** A service instance says which group/versions it serves (full state, repeated as a heartbeat): `announce.<service>`. */
  announce: `${REGISTRATION_SUBJECT_PREFIX}announce.*`,
  /** An instance stops serving some or all of what it announced: `withdraw.<service>`. */
  withdraw: `${REGISTRATION_SUBJECT_PREFIX}withdraw.*`,
  /** An aggregator (re)started or reconnected: every announcer re-announces at once. */
  resync: `${REGISTRATION_SUBJECT_PREFIX}resync`,
} as const;

/** A subscription pattern of the contract; also the `subject` label of the metrics (bounded, whatever services exist). */
export type RegistrationSubject = (typeof RegistrationSubjects)[keyof typeof RegistrationSubjects];

/** The subject `service` publishes on for `pattern` (announce or withdraw). */
export function serviceSubject(pattern: typeof RegistrationSubjects.announce | typeof RegistrationSubjects.withdraw, service: string): string {
  return `${pattern.slice(0, -1)}${service}`;
}

/** The pattern a concrete subject belongs to, or undefined when it is not one of the contract's. */
export function subjectPattern(subject: string): RegistrationSubject | undefined {
  if (subject === RegistrationSubjects.resync) return RegistrationSubjects.resync;
  for (const pattern of [RegistrationSubjects.announce, RegistrationSubjects.withdraw]) {
    const prefix = pattern.slice(0, -1);
    if (subject.startsWith(prefix) && SERVICE_TOKEN.test(subject.slice(prefix.length))) return pattern;
  }
  return undefined;
}

/** A service name is a DNS-1123 label (as the messages' `service`): never a wildcard, never several tokens. */
const SERVICE_TOKEN = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** The service token of an announce or withdraw subject (`kube.registration.v1.announce.core-api` → `core-api`). */
export function subjectService(subject: string): string | undefined {
  const pattern = subjectPattern(subject);
  return pattern && pattern !== RegistrationSubjects.resync ? subject.slice(pattern.length - 1) : undefined;
}
