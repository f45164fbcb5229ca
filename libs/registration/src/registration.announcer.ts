/**
 * The sending side: a service instance announces the group/versions it serves, repeats the announcement as a
 * heartbeat, answers resync requests and withdraws on close. Announcements are full state, so a lost message
 * is repaired by the next heartbeat, resync or reconnect (NATS is at-most-once).
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { priorityFor } from './group-priority.table';
import { encodeMessage, validateAnnouncement } from './registration.schema';
import { RegistrationSubjects, serviceSubject } from './registration.subjects';
import {
  type AnnouncedGroupVersion,
  type Announcement,
  type GroupVersionPriority,
  REGISTRATION_API_VERSION,
  type RegistrationGroupVersionRef,
  type RegistrationLogger,
  type RegistrationSource,
  type Withdrawal,
} from './registration.types';
import { groupVersionKey } from './live-instance.table';
import type { RegistrationBus } from './registration.transport';

/** One UUID per process: every announcer in this process shares it unless told otherwise. */
export const PROCESS_INSTANCE_ID: string = randomUUID();
export const DEFAULT_TTL_SECONDS = 15;

export interface RegistrationAnnouncerOptions {
  /** Service name, a DNS-1123 label such as "core-api". */
  readonly service: string;
  /** https://host:port the aggregator should proxy to. */
  readonly endpoint: string;
  /** base64 of the PEM CA that signed the serving certificate (see encodeCaBundle). */
  readonly caBundle: string;
  /** Default "onstart"; the CRD-registration controller uses "crd". */
  readonly source?: RegistrationSource;
  /** Default PROCESS_INSTANCE_ID. */
  readonly instance?: string;
  /** Default 15; heartbeats go out every ttlSeconds/3. */
  readonly ttlSeconds?: number;
  readonly logger?: RegistrationLogger;
}

/** A group/version to announce; missing priorities come from priorityFor(group, version, source). */
export type GroupVersionToAnnounce = RegistrationGroupVersionRef & Partial<GroupVersionPriority>;

/** base64 of PEM text, the caBundle encoding of the contract. */
export function encodeCaBundle(pem: string): string {
  return Buffer.from(pem, 'utf8').toString('base64');
}

const sameGroupVersion = (a: RegistrationGroupVersionRef, b: RegistrationGroupVersionRef): boolean => a.group === b.group && a.version === b.version;

export class RegistrationAnnouncer {
  readonly service: string;
  readonly instance: string;
  readonly source: RegistrationSource;
  readonly ttlSeconds: number;
  private groupVersions: readonly AnnouncedGroupVersion[] = [];
  /** Whether receivers may know about us: then an empty set is published as a withdrawal. */
  private announcedOnce = false;
  private started = false;
  private closing = false;
  private unfollow?: () => void;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly logger: RegistrationLogger;

  /** Emits over `bus`; RegistrationAnnouncers.create() builds announcers and routes resync requests to them. */
  constructor(
    private readonly bus: RegistrationBus,
    private readonly opts: RegistrationAnnouncerOptions,
  ) {
    this.service = opts.service;
    this.instance = opts.instance ?? PROCESS_INSTANCE_ID;
    this.source = opts.source ?? 'onstart';
    this.ttlSeconds = opts.ttlSeconds ?? DEFAULT_TTL_SECONDS;
    this.logger = opts.logger ?? new Logger(`RegistrationAnnouncer(${opts.service})`);
    encodeMessage(this.announcement([]), validateAnnouncement); // a bad endpoint or caBundle fails here, not at the first heartbeat
  }

  /** The set currently announced. */
  get announced(): readonly AnnouncedGroupVersion[] {
    return this.groupVersions;
  }

  /**
   * Connects (waiting for nats-server if it is not up yet) and publishes the current set. Resolves once
   * connected; the bus reconnects forever afterwards, and every reconnect re-announces.
   */
  async start(): Promise<void> {
    if (this.started || this.closing) return;
    this.started = true;
    await this.bus.connect();
    if (this.closing) return;
    // Our client back: what was published while away may be lost. Our subscriptions back: a resync may have been missed.
    this.unfollow = this.bus.onConnectionChange((state) => {
      if (!state.client) this.logger.warn('disconnected from NATS; reconnecting');
      else this.publishState();
    });
    this.heartbeat = setInterval(() => this.publishHeartbeat(), (this.ttlSeconds * 1000) / 3);
    this.heartbeat.unref(); // registration alone must not keep a process alive
    this.publishState();
  }

  /** Answers a registry's resync request (RegistrationAnnouncers calls it for every announcer of the process). */
  answerResync(): void {
    if (this.started && !this.closing) this.publishState();
  }

  /** Replaces the announced set and publishes it at once (an empty set withdraws everything). */
  announce(groupVersions: readonly GroupVersionToAnnounce[]): void {
    const resolved = groupVersions.map((gv) => this.withPriority(gv));
    if (resolved.length > 0) encodeMessage(this.announcement(resolved), validateAnnouncement); // throw before changing state
    this.groupVersions = resolved;
    this.publishState();
  }

  /** Stops serving some group/versions, or all when none are given. */
  withdraw(groupVersions?: readonly RegistrationGroupVersionRef[]): void {
    this.groupVersions = groupVersions === undefined ? [] : this.groupVersions.filter((gv) => !groupVersions.some((g) => sameGroupVersion(g, gv)));
    if (!this.announcedOnce) return;
    const sent = this.publish(RegistrationSubjects.withdraw, this.withdrawal(groupVersions));
    // if it was not sent, the state published on reconnect carries the withdrawal
    if (sent && this.groupVersions.length === 0) this.announcedOnce = false;
  }

  /**
   * Withdraws everything and waits until the withdrawal is handed to NATS. When NATS is unreachable, the
   * registry's heartbeat expiry does the withdrawing.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    clearInterval(this.heartbeat);
    this.unfollow?.();
    if (this.bus.canEmit && this.announcedOnce) this.withdraw();
    this.closing = true;
    this.onClose?.();
    await this.bus.flushed();
  }

  /** Set by RegistrationAnnouncers: stop routing resync requests here. */
  onClose?: () => void;

  private withPriority(gv: GroupVersionToAnnounce): AnnouncedGroupVersion {
    const known = priorityFor(gv.group, gv.version, this.source);
    const groupPriorityMinimum = gv.groupPriorityMinimum ?? known?.groupPriorityMinimum;
    const versionPriority = gv.versionPriority ?? known?.versionPriority;
    if (groupPriorityMinimum === undefined || versionPriority === undefined) {
      throw new Error(`no built-in priority for ${groupVersionKey(gv)}: pass groupPriorityMinimum and versionPriority`);
    }
    return { group: gv.group, version: gv.version, groupPriorityMinimum, versionPriority };
  }

  private announcement(groupVersions: readonly AnnouncedGroupVersion[]): Announcement {
    return {
      apiVersion: REGISTRATION_API_VERSION,
      service: this.service,
      instance: this.instance,
      endpoint: this.opts.endpoint,
      caBundle: this.opts.caBundle,
      groupVersions,
      source: this.source,
      ttlSeconds: this.ttlSeconds,
      sentAt: new Date().toISOString(),
    };
  }

  private withdrawal(groupVersions?: readonly RegistrationGroupVersionRef[]): Withdrawal {
    const base: Withdrawal = { apiVersion: REGISTRATION_API_VERSION, service: this.service, instance: this.instance, source: this.source, sentAt: new Date().toISOString() };
    return groupVersions === undefined ? base : { ...base, groupVersions: groupVersions.map(({ group, version }) => ({ group, version })) };
  }

  /** Publishes the whole current state: the set, or a withdrawal of everything once the set became empty. */
  private publishState(): void {
    if (this.groupVersions.length > 0) {
      this.announcedOnce = this.publish(RegistrationSubjects.announce, this.announcement(this.groupVersions)) || this.announcedOnce;
    } else if (this.announcedOnce) {
      this.withdraw();
    }
  }

  private publishHeartbeat(): void {
    if (this.groupVersions.length > 0) this.publishState();
  }

  /** Emits on this service's own subject, only while connected (see RegistrationBus.emit); returns whether it was sent. */
  private publish(pattern: typeof RegistrationSubjects.announce | typeof RegistrationSubjects.withdraw, message: Announcement | Withdrawal): boolean {
    if (!this.started || this.closing) return false;
    return this.bus.emit(serviceSubject(pattern, this.service), message);
  }
}
