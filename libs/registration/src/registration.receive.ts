import { countMessage, registrationMessagesDropped } from './registration.metrics';
import { type DecodeResult, decodeMessage } from './registration.schema';
import { subjectPattern } from './registration.subjects';
import type { RegistrationLogger } from './registration.types';

/**
 * A payload as an @EventPattern handler receives it: counted, decoded and validated. Returns the message, or
 * undefined when it is dropped (invalid: warned; another apiVersion: debug), counted by reason under the
 * subject's pattern (one label value per pattern, however many services publish).
 */
export function receiveMessage<T>(subject: string, data: Uint8Array, validate: (value: unknown) => DecodeResult<T>, logger: RegistrationLogger): T | undefined {
  const pattern = subjectPattern(subject) ?? subject;
  countMessage(pattern, 'in');
  const result = decodeMessage(data, validate);
  if (result.kind === 'valid') return result.message;
  registrationMessagesDropped.inc({ subject: pattern, reason: result.kind });
  if (result.kind === 'invalid') logger.warn(`dropped invalid message on ${subject}: ${result.reason}`);
  else logger.debug?.(`ignored message on ${subject}: ${result.reason}`);
  return undefined;
}
