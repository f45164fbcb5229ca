import { countMessage, registrationMessagesDropped } from './registration.metrics';
import { type DecodeResult, decodeMessage } from './registration.schema';
import type { RegistrationLogger } from './registration.types';

/**
 * A payload as an @EventPattern handler receives it: counted, decoded and validated. Returns the message, or
 * undefined when it is dropped (invalid: warned; another apiVersion: debug), counted by reason.
 */
export function receiveMessage<T>(subject: string, data: Uint8Array, validate: (value: unknown) => DecodeResult<T>, logger: RegistrationLogger): T | undefined {
  countMessage(subject, 'in');
  const result = decodeMessage(data, validate);
  if (result.kind === 'valid') return result.message;
  registrationMessagesDropped.inc({ subject, reason: result.kind });
  if (result.kind === 'invalid') logger.warn(`dropped invalid message on ${subject}: ${result.reason}`);
  else logger.debug?.(`ignored message on ${subject}: ${result.reason}`);
  return undefined;
}
