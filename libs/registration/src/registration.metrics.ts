import { Counter, register } from 'prom-client';

/** Registered once in prom-client's default registry, however many announcers/registries a process creates. */
function counter(name: string, help: string, labelNames: string[]): Counter<string> {
  return (register.getSingleMetric(name) as Counter<string> | undefined) ?? new Counter({ name, help, labelNames });
}

export type MessageDirection = 'in' | 'out';

export const registrationMessages = counter(
  'registration_messages_total',
  'Registration messages sent (direction="out") and received (direction="in") over NATS, by subject.',
  ['subject', 'direction'],
);

export const registrationMessagesDropped = counter(
  'registration_messages_dropped_total',
  'Registration messages received and dropped, by subject and reason ("invalid", "ignored" for an unknown apiVersion, "forged" when the message claims another service than its subject, "ownership" when an announcement claims group/versions its service may not serve: those are dropped, the rest applied).',
  ['subject', 'reason'],
);

export function countMessage(subject: string, direction: MessageDirection): void {
  registrationMessages.inc({ subject, direction });
}
