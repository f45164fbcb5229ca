import { randomBytes } from 'node:crypto';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Backdating absorbs small clock differences between the machine that issues and the one that verifies. */
const BACKDATE_MS = 60 * 60 * 1000;

export interface Validity {
  readonly notBefore: Date;
  readonly notAfter: Date;
}

export function validityFor(days: number, now: Date = new Date()): Validity {
  return { notBefore: new Date(now.getTime() - BACKDATE_MS), notAfter: new Date(now.getTime() + days * DAY_MS) };
}

/** A random, positive, 128-bit serial number in hex (RFC 5280 wants at most 20 octets, positive). */
export function randomSerialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] & 0x7f) | 0x01;
  return bytes.toString('hex');
}
