/**
 * NATS subjects of the registration contract. The version is part of the subject so that a future v2 can run
 * side by side with v1 during a rolling upgrade (each side subscribes to the versions it understands).
 */
export const REGISTRATION_SUBJECT_PREFIX = 'kube.registration.v1.';

export const RegistrationSubjects = {
  /** A service instance says which group/versions it serves (full state, repeated as a heartbeat). */
  announce: `${REGISTRATION_SUBJECT_PREFIX}announce`,
  /** An instance stops serving some or all of what it announced. */
  withdraw: `${REGISTRATION_SUBJECT_PREFIX}withdraw`,
  /** An aggregator (re)started or reconnected: every announcer re-announces at once. */
  resync: `${REGISTRATION_SUBJECT_PREFIX}resync`,
} as const;

export type RegistrationSubject = (typeof RegistrationSubjects)[keyof typeof RegistrationSubjects];
