/** The instances (replicas) of a replicated backend service: which ones are left out of the rotation, and for how long. */
import type { BackendTarget } from './backend.target';

/**
 * How long an instance that refused a connection is left out of the rotation: a replica killed with -9 stays
 * announced until its registration expires (15 s), and must not take every other request meanwhile. A replica
 * that comes back announces itself again, and the fresh target carries no mark.
 */
export const INSTANCE_DOWN_MS = 5_000;

export function isDown(t: BackendTarget, now: number): boolean {
  return t.downUntil !== undefined && t.downUntil > now;
}

/**
 * `refused` (an instance of `service`) could not be connected to, so nothing of the request was sent: marks it
 * down and answers another instance that is not, if any, for the request to try instead.
 */
export function failoverInstance(service: BackendTarget, refused: BackendTarget): BackendTarget | undefined {
  const now = Date.now();
  refused.downUntil = now + INSTANCE_DOWN_MS;
  return service.instances?.find((i) => i !== refused && !isDown(i, now));
}
