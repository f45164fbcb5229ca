/**
 * The receiving side, for the aggregator: learns every live instance from announcements, forgets instances that
 * withdraw or stop heartbeating, and tells listeners when the set of group/versions or their endpoints changes.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { admitClaims, DEFAULT_GROUP_OWNERSHIP, type GroupOwnership } from './group-ownership.policy';
import { type ClaimKey, claimKey, LiveInstanceTable, type RegistrationSnapshot, snapshotFingerprint } from './live-instance.table';
import { receiveMessage } from './registration.receive';
import { validateAnnouncement, validateWithdrawal } from './registration.schema';
import { RegistrationSubjects, subjectPattern, subjectService } from './registration.subjects';
import { registrationMessagesDropped } from './registration.metrics';
import type { RegistrationBus } from './registration.transport';
import { type Announcement, REGISTRATION_API_VERSION, type RegistrationLogger, type ResyncRequest, type Withdrawal } from './registration.types';

export interface RegistrationRegistryOptions {
  /** Names this registry in resync requests; default a random UUID. */
  readonly name?: string;
  /** Changes within this window are reported once (default 10 ms). */
  readonly debounceMs?: number;
  readonly logger?: RegistrationLogger;
  /** Which service may announce which group/version (default: DEFAULT_GROUP_OWNERSHIP). */
  readonly ownership?: GroupOwnership;
}

export type RegistrationChangeListener = (current: RegistrationSnapshot) => void;

const DEFAULT_DEBOUNCE_MS = 10;
/** Bounds the memory of which refusals were already logged (a claim refused entirely is never stored). */
const MAX_REFUSALS_REMEMBERED = 1024;

export class RegistrationRegistry {
  readonly name: string;
  private readonly table = new LiveInstanceTable();
  private readonly expiryTimers = new Map<ClaimKey, NodeJS.Timeout>();
  private readonly listeners = new Set<RegistrationChangeListener>();
  private snapshot: RegistrationSnapshot = new Map();
  private dirty = false;
  private lastNotified = snapshotFingerprint(new Map());
  private changeTimer: NodeJS.Timeout | undefined;
  private started = false;
  private hearing = false;
  /** Set on every (re)connect of the receiving side: announcers are asked to re-announce once we can emit. */
  private resyncDue = true;
  private unfollow?: () => void;
  private firstResync?: () => void;
  private closing = false;
  private readonly logger: RegistrationLogger;
  private readonly ownership: GroupOwnership;
  /** The refusals last logged per claim, so a refused claim's heartbeats do not repeat the warning. */
  private readonly refusalsLogged = new Map<ClaimKey, string>();

  /** Hears announcements through the @EventPattern handlers that call handleAnnouncement/handleWithdrawal. */
  constructor(
    private readonly bus: RegistrationBus,
    private readonly opts: RegistrationRegistryOptions = {},
  ) {
    this.name = opts.name ?? randomUUID();
    this.logger = opts.logger ?? new Logger('RegistrationRegistry');
    this.ownership = opts.ownership ?? DEFAULT_GROUP_OWNERSHIP;
  }

  /**
   * Follows the bus and asks every announcer to re-announce as soon as our subscriptions are live and we can
   * emit; again after every reconnect of the receiving side. Resolves once the first resync request is out
   * (waiting for nats-server as long as it takes).
   */
  async start(): Promise<void> {
    if (this.started || this.closing) return;
    this.started = true;
    const resynced = new Promise<void>((resolve) => (this.firstResync = resolve));
    this.unfollow = this.bus.onConnectionChange((state) => this.onConnectionChange(state.server, state.client));
    this.onConnectionChange(this.bus.canHear, this.bus.canEmit);
    await this.bus.connect();
    await resynced;
  }

  /** Whether announcements can be heard (the receiving side's subscriptions are live). */
  get isConnected(): boolean {
    return this.hearing;
  }

  /** Every live group/version keyed by APIService name ("v1.", "v1.apps"); an immutable snapshot. */
  current(): RegistrationSnapshot {
    if (this.dirty) {
      this.snapshot = this.table.snapshot();
      this.dirty = false;
    }
    return this.snapshot;
  }

  /** Calls `listener` with the new snapshot after each change (debounced). Returns an unsubscribe function. */
  onChange(listener: RegistrationChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops hearing and reporting; the bus is closed by its owner. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.firstResync?.();
    this.unfollow?.();
    this.pauseExpiry();
    clearTimeout(this.changeTimer);
    this.listeners.clear();
  }

  /** A payload received on `subject`, the announce subject of one service. */
  handleAnnouncement(data: Uint8Array, subject: string): void {
    if (!this.started || this.closing) return;
    const announcement = receiveMessage(subject, data, validateAnnouncement, this.logger);
    if (announcement && this.sentByItsService(announcement, subject)) this.onAnnouncement(this.owned(announcement, subject));
  }

  /** A payload received on `subject`, the withdraw subject of one service. */
  handleWithdrawal(data: Uint8Array, subject: string): void {
    if (!this.started || this.closing) return;
    const withdrawal = receiveMessage(subject, data, validateWithdrawal, this.logger);
    if (withdrawal && this.sentByItsService(withdrawal, subject)) this.onWithdrawal(withdrawal);
  }

  /**
   * nats-server lets a service publish on its own subjects only (its client certificate is its identity), so
   * the subject names the sender: a message that claims another service is forged and dropped.
   */
  private sentByItsService(message: Announcement | Withdrawal, subject: string): boolean {
    const sender = subjectService(subject);
    if (sender === message.service) return true;
    const pattern = subjectPattern(subject) ?? subject;
    registrationMessagesDropped.inc({ subject: pattern, reason: 'forged' });
    this.logger.warn(`dropped message on ${subject}: it claims service "${message.service}" but was sent as "${sender ?? '?'}"`);
    return false;
  }

  /**
   * Keeps only the group/versions the announcing service may claim (group-ownership.policy.ts); the others are
   * dropped with a warning (once per change of what is refused) and counted.
   */
  private owned(announcement: Announcement, subject: string): Announcement {
    const snapshot = this.current();
    const verdict = admitClaims(announcement, this.ownership, (key) => snapshot.get(key)?.endpoints.map((e) => e.service) ?? []);
    const key = claimKey(announcement);
    if (verdict.refused.length === 0) {
      this.refusalsLogged.delete(key);
      return announcement;
    }
    registrationMessagesDropped.inc({ subject: subjectPattern(subject) ?? subject, reason: 'ownership' });
    const refusals = verdict.refused.map((r) => `${r.key} (${r.reason})`).join(', ');
    if (this.refusalsLogged.get(key) !== refusals) {
      if (this.refusalsLogged.size >= MAX_REFUSALS_REMEMBERED) this.refusalsLogged.clear();
      this.refusalsLogged.set(key, refusals);
      this.logger.warn(`refused group/versions announced by ${announcement.service} (instance ${announcement.instance}): ${refusals}`);
    }
    return verdict.admitted;
  }

  private onAnnouncement(announcement: Announcement): void {
    const changed = this.table.apply(announcement);
    const key = claimKey(announcement);
    if (this.table.get(key)) this.armExpiry(key, announcement.ttlSeconds);
    else this.disarmExpiry(key);
    if (changed) this.changed();
  }

  private onWithdrawal(withdrawal: Withdrawal): void {
    const changed = this.table.withdraw(withdrawal);
    const key = claimKey(withdrawal);
    if (!this.table.get(key)) this.disarmExpiry(key);
    if (changed) this.changed();
  }

  private armExpiry(key: ClaimKey, ttlSeconds: number): void {
    this.disarmExpiry(key);
    const timer = setTimeout(() => this.expire(key, ttlSeconds), ttlSeconds * 1000);
    timer.unref();
    this.expiryTimers.set(key, timer);
  }

  private disarmExpiry(key: ClaimKey): void {
    clearTimeout(this.expiryTimers.get(key));
    this.expiryTimers.delete(key);
  }

  private expire(key: ClaimKey, ttlSeconds: number): void {
    this.expiryTimers.delete(key);
    if (!this.table.remove(key)) return;
    this.logger.log(`${key} expired: no announcement within ${ttlSeconds}s`);
    this.changed();
  }

  /** Nothing can be heard while disconnected, so silence then proves nothing: expiry waits for the reconnect. */
  private pauseExpiry(): void {
    for (const timer of this.expiryTimers.values()) clearTimeout(timer);
    this.expiryTimers.clear();
  }

  /** After a reconnect every instance gets a full ttl to answer our resync before it is dropped. */
  private resumeExpiry(): void {
    for (const key of this.table.keys()) this.armExpiry(key, this.table.get(key)?.ttlSeconds ?? 0);
  }

  private onConnectionChange(hearing: boolean, emitting: boolean): void {
    if (this.closing) return;
    if (hearing !== this.hearing) {
      this.hearing = hearing;
      if (hearing) {
        this.resumeExpiry();
        this.resyncDue = true;
      } else {
        this.pauseExpiry();
        this.logger.warn('disconnected from NATS; keeping the known instances until reconnected');
      }
    }
    if (hearing && emitting && this.resyncDue) this.publishResync();
  }

  private publishResync(): void {
    const request: ResyncRequest = { apiVersion: REGISTRATION_API_VERSION, requester: this.name, sentAt: new Date().toISOString() };
    if (!this.bus.emit(RegistrationSubjects.resync, request)) return;
    this.resyncDue = false;
    this.firstResync?.();
  }

  /** Marks the snapshot stale and schedules one notification for everything that changes within debounceMs. */
  private changed(): void {
    this.dirty = true;
    if (this.changeTimer || this.closing) return;
    this.changeTimer = setTimeout(() => this.notify(), this.opts.debounceMs ?? DEFAULT_DEBOUNCE_MS);
  }

  /** Notifies only if the view really differs from the last one reported (a change may have been undone). */
  private notify(): void {
    this.changeTimer = undefined;
    const snapshot = this.current();
    const fingerprint = snapshotFingerprint(snapshot);
    if (fingerprint === this.lastNotified) return;
    this.lastNotified = fingerprint;
    for (const listener of this.listeners) {
      try {
        listener(snapshot);
      } catch (err) {
        this.logger.warn(`registration change listener failed: ${String(err)}`);
      }
    }
  }
}
