/**
 * The receiving side, for the aggregator: learns every live instance from announcements, forgets instances that
 * withdraw or stop heartbeating, and tells listeners when the set of group/versions or their endpoints changes.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { Msg, NatsConnection, NatsError } from 'nats';
import { type ClaimKey, claimKey, LiveInstanceTable, type RegistrationSnapshot, snapshotFingerprint } from './live-instance.table';
import { countMessage, registrationMessagesDropped } from './registration.metrics';
import { type DecodeResult, decodeMessage, encodeMessage, validateAnnouncement, validateResyncRequest, validateWithdrawal } from './registration.schema';
import { RegistrationSubjects } from './registration.subjects';
import { type Announcement, REGISTRATION_API_VERSION, type RegistrationLogger, type ResyncRequest, type Withdrawal } from './registration.types';
import { connectForever, followStatus } from './nats.connection';

export interface RegistrationRegistryOptions {
  readonly natsUrl: string | readonly string[];
  /** Names this registry in resync requests and NATS monitoring; default a random UUID. */
  readonly name?: string;
  /** Changes within this window are reported once (default 10 ms). */
  readonly debounceMs?: number;
  readonly reconnectTimeWaitMs?: number;
  readonly logger?: RegistrationLogger;
}

export type RegistrationChangeListener = (current: RegistrationSnapshot) => void;

const DEFAULT_DEBOUNCE_MS = 10;

export class RegistrationRegistry {
  readonly name: string;
  private readonly table = new LiveInstanceTable();
  private readonly expiryTimers = new Map<ClaimKey, NodeJS.Timeout>();
  private readonly listeners = new Set<RegistrationChangeListener>();
  private snapshot: RegistrationSnapshot = new Map();
  private dirty = false;
  private lastNotified = snapshotFingerprint(new Map());
  private changeTimer: NodeJS.Timeout | undefined;
  private nc: NatsConnection | undefined;
  private connected = false;
  private closing = false;
  private readonly logger: RegistrationLogger;

  constructor(private readonly opts: RegistrationRegistryOptions) {
    this.name = opts.name ?? randomUUID();
    this.logger = opts.logger ?? new Logger('RegistrationRegistry');
  }

  /** Connects (waiting for nats-server if needed), subscribes and asks every announcer to re-announce. */
  async start(): Promise<void> {
    if (this.nc || this.closing) return;
    const nc = await connectForever({ servers: this.opts.natsUrl, name: `registration-registry/${this.name}`, reconnectTimeWaitMs: this.opts.reconnectTimeWaitMs });
    if (this.closing) return nc.close();
    this.nc = nc;
    this.connected = true;
    nc.subscribe(RegistrationSubjects.announce, { callback: (err, msg) => this.receive(err, msg, validateAnnouncement, (a) => this.onAnnouncement(a)) });
    nc.subscribe(RegistrationSubjects.withdraw, { callback: (err, msg) => this.receive(err, msg, validateWithdrawal, (w) => this.onWithdrawal(w)) });
    followStatus(nc, { onDisconnect: () => this.onDisconnect(), onReconnect: () => this.onReconnect() });
    await nc.flush(); // subscriptions must be live before the answers to our resync arrive
    this.publishResync();
  }

  /** Every live group/version keyed by APIService name ("v1.", "v1.apps"); an immutable snapshot. */
  /** Whether the NATS connection is up (announcements can be heard). */
  get isConnected(): boolean {
    return this.connected;
  }

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

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.pauseExpiry();
    clearTimeout(this.changeTimer);
    this.listeners.clear();
    const nc = this.nc;
    if (!nc) return;
    await (this.connected ? nc.drain() : nc.close()).catch((err: unknown) => this.logger.warn(`closing NATS connection: ${String(err)}`));
  }

  private receive<T>(err: NatsError | null, msg: Msg, validate: (value: unknown) => DecodeResult<T>, handle: (message: T) => void): void {
    if (err) return this.logger.warn(`subscription error: ${err.message}`);
    if (this.closing) return;
    countMessage(msg.subject, 'in');
    const result = decodeMessage(msg.data, validate);
    if (result.kind === 'valid') return handle(result.message);
    registrationMessagesDropped.inc({ subject: msg.subject, reason: result.kind });
    if (result.kind === 'invalid') this.logger.warn(`dropped invalid message on ${msg.subject}: ${result.reason}`);
    else this.logger.debug?.(`ignored message on ${msg.subject}: ${result.reason}`);
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

  private onDisconnect(): void {
    this.connected = false;
    this.pauseExpiry();
    this.logger.warn('disconnected from NATS; keeping the known instances until reconnected');
  }

  private onReconnect(): void {
    this.connected = true;
    this.logger.log('reconnected to NATS; asking every announcer to re-announce');
    this.resumeExpiry();
    this.publishResync();
  }

  private publishResync(): void {
    if (!this.nc || this.closing) return;
    const request: ResyncRequest = { apiVersion: REGISTRATION_API_VERSION, requester: this.name, sentAt: new Date().toISOString() };
    try {
      this.nc.publish(RegistrationSubjects.resync, encodeMessage(request, validateResyncRequest));
      countMessage(RegistrationSubjects.resync, 'out');
    } catch (err) {
      this.logger.warn(`publishing resync: ${String(err)}`);
    }
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
