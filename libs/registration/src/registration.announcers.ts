import { Logger } from '@nestjs/common';
import { RegistrationAnnouncer, type RegistrationAnnouncerOptions } from './registration.announcer';
import { receiveMessage } from './registration.receive';
import { validateResyncRequest } from './registration.schema';
import { RegistrationSubjects } from './registration.subjects';
import type { RegistrationBus } from './registration.transport';
import type { RegistrationLogger } from './registration.types';

/**
 * The announcers of one process, on one bus: creates them, and hands every valid resync request (received once
 * by the @EventPattern handler) to each of them.
 */
export class RegistrationAnnouncers {
  private readonly announcers = new Set<RegistrationAnnouncer>();

  constructor(
    private readonly bus: RegistrationBus,
    private readonly logger: RegistrationLogger = new Logger('Registration'),
  ) {}

  create(opts: RegistrationAnnouncerOptions): RegistrationAnnouncer {
    const announcer = new RegistrationAnnouncer(this.bus, opts);
    this.announcers.add(announcer);
    announcer.onClose = () => this.announcers.delete(announcer);
    return announcer;
  }

  /** A payload received on the resync subject. */
  handleResync(data: Uint8Array): void {
    if (!receiveMessage(RegistrationSubjects.resync, data, validateResyncRequest, this.logger)) return;
    for (const announcer of this.announcers) announcer.answerResync();
  }
}
