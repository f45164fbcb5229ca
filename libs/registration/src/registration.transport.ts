/**
 * The registration messages on @nestjs/microservices: they are emitted with a NATS ClientProxy (RegistrationNatsClient)
 * and received by @EventPattern handlers of a Nest microservice whose transport strategy is RegistrationNatsServer.
 * Nest's own NATS codec wraps every payload in a `{pattern, data}` envelope; the serializer and deserializer
 * here put the contract's JSON on the wire as it is (docs/registration.md), so any NATS client can speak it.
 */
import { Logger } from '@nestjs/common';
import {
  ClientNats,
  type ConsumerDeserializer,
  type CustomTransportStrategy,
  type IncomingEvent,
  type NatsOptions,
  type OutgoingEvent,
  type ProducerSerializer,
  Server,
  ServerNats,
} from '@nestjs/microservices';
import { lastValueFrom, type Observable } from 'rxjs';
import { countMessage } from './registration.metrics';
import { encodeMessage, validateAnnouncement, validateResyncRequest, validateWithdrawal } from './registration.schema';
import { type RegistrationSubject, RegistrationSubjects, subjectPattern } from './registration.subjects';
import type { RegistrationLogger, RegistrationMessage } from './registration.types';

export interface RegistrationTransportOptions {
  /** nats://host:port, or several for a cluster. */
  readonly natsUrl: string | readonly string[];
  /** Names the connections in the server's monitoring (connz) and resync requests. */
  readonly name: string;
  /** Pause between reconnect attempts (default 500 ms; the client adds jitter). */
  readonly reconnectTimeWaitMs?: number;
  /** TLS to nats-server: the CA that signed its certificate and this service's client certificate (its NATS identity). */
  readonly tls?: RegistrationNatsTls;
}

/** PEM files: caFile verifies nats-server (default: the system's CAs); certFile/keyFile are the client certificate nats-server maps to a user. */
export interface RegistrationNatsTls {
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
}

const DEFAULT_RECONNECT_TIME_WAIT_MS = 500;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the validators differ only in their result type
const VALIDATORS: Readonly<Record<RegistrationSubject, (value: unknown) => any>> = {
  [RegistrationSubjects.announce]: validateAnnouncement,
  [RegistrationSubjects.withdraw]: validateWithdrawal,
  [RegistrationSubjects.resync]: validateResyncRequest,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see VALIDATORS
function validatorFor(subject: string): (value: unknown) => any {
  const pattern = subjectPattern(subject);
  if (!pattern) throw new Error(`not a registration subject: ${subject}`);
  return VALIDATORS[pattern];
}

/** Emits the message itself as UTF-8 JSON, validated for its subject: senders never publish what receivers drop. */
export class RegistrationSerializer implements ProducerSerializer {
  serialize(packet: OutgoingEvent): { data: Uint8Array } {
    return { data: encodeMessage(packet.data as RegistrationMessage, validatorFor(String(packet.pattern))) };
  }
}

/**
 * Hands the raw payload to the @EventPattern handler of its subject: validating (and counting, and logging what
 * is dropped) is the receiver's job, and a message that is not JSON must reach it too.
 */
export class RegistrationDeserializer implements ConsumerDeserializer {
  deserialize(value: Uint8Array, options?: { channel?: string }): IncomingEvent {
    return { pattern: options?.channel ?? '', data: value };
  }
}

/**
 * Reconnects forever, also before the first connection succeeds (waitOnFirstConnect): a service may start before
 * nats-server does, and registration must never be the reason a service dies.
 */
function natsOptions(opts: RegistrationTransportOptions): Required<NatsOptions>['options'] {
  return {
    servers: typeof opts.natsUrl === 'string' ? opts.natsUrl : [...opts.natsUrl],
    name: opts.name,
    maxReconnectAttempts: -1,
    waitOnFirstConnect: true,
    reconnectTimeWait: opts.reconnectTimeWaitMs ?? DEFAULT_RECONNECT_TIME_WAIT_MS,
    serializer: new RegistrationSerializer(),
    deserializer: new RegistrationDeserializer(),
    ...(opts.tls ? { tls: { ...opts.tls } } : {}),
  };
}

type Closable = { close(): Promise<void> };

/** A connection that completes after close() (nats-server came up late) is closed at once. */
async function unlessClosed(connecting: Promise<unknown>, closed: () => boolean): Promise<Closable> {
  const nc = (await connecting) as Closable;
  if (!closed()) return nc;
  await nc.close();
  throw new Error('registration connection closed before NATS was reachable');
}

/** Emits registration messages: a ClientNats speaking the contract's wire format. */
export class RegistrationNatsClient extends ClientNats {
  private closing = false;

  constructor(opts: RegistrationTransportOptions) {
    super(natsOptions({ ...opts, name: `${opts.name}/client` }));
  }

  override createClient(): Promise<Closable> {
    return unlessClosed(super.createClient(), () => this.closing);
  }

  override async close(): Promise<void> {
    this.closing = true;
    await super.close();
  }
}

/** Receives registration messages for the @EventPattern handlers: the Nest transport strategy over NATS. */
export class RegistrationNatsServer extends ServerNats {
  private closing = false;

  constructor(opts: RegistrationTransportOptions) {
    super(natsOptions({ ...opts, name: `${opts.name}/server` }));
  }

  override createNatsClient(): Promise<Closable> {
    return unlessClosed(super.createNatsClient(), () => this.closing);
  }

  override async close(): Promise<void> {
    this.closing = true;
    await super.close();
  }
}

/** The transport strategy of a server that has no NATS to listen to: no connection, no handlers called. */
export class NoRegistrationTransport extends Server implements CustomTransportStrategy {
  listen(callback: () => void): void {
    callback();
  }
  close(): void {}
  on(): void {}
  unwrap<T>(): T {
    throw new Error('registration over NATS is not configured');
  }
}

/** Whether a status stream of a ClientProxy or transport strategy reports a live connection. */
export function followConnection(status: Observable<string>, onChange: (connected: boolean) => void): () => void {
  let connected: boolean | undefined;
  const subscription = status.subscribe((s) => {
    const now = s === 'connected';
    if (now === connected) return;
    connected = now;
    onChange(now);
  });
  return () => subscription.unsubscribe();
}

/**
 * What announcers and registries share in one process: the client that emits and the strategy that receives,
 * with their connection state. Emits only while connected: core NATS is at-most-once, and what is missed while
 * away is repaired by the full state published on reconnect, so stale heartbeats are not queued.
 */
export class RegistrationBus {
  readonly client: RegistrationNatsClient;
  readonly server: RegistrationNatsServer;
  private clientUp = false;
  private serverUp = false;
  private readonly unfollow: Array<() => void> = [];
  private readonly listeners = new Set<(state: { client: boolean; server: boolean }) => void>();
  private pending = new Set<Promise<unknown>>();
  private closed = false;
  private readonly logger: RegistrationLogger;

  constructor(readonly options: RegistrationTransportOptions & { readonly logger?: RegistrationLogger }) {
    this.client = new RegistrationNatsClient(options);
    this.server = new RegistrationNatsServer(options);
    this.logger = options.logger ?? new Logger('Registration');
    if (!options.tls) this.logger.warn('registration over NATS without TLS client certificates: whoever reaches nats-server can announce (docs/registration.md, threat model)');
    this.unfollow.push(followConnection(this.client.status, (up) => this.set('client', up)));
    this.unfollow.push(followConnection(this.server.status, (up) => this.serverConnection(up)));
  }

  /** The client can emit. */
  get canEmit(): boolean {
    return this.clientUp && !this.closed;
  }

  /** The strategy's subscriptions are live: messages can be heard. */
  get canHear(): boolean {
    return this.serverUp;
  }

  /** Connects the emitting side (waits for nats-server if needed); the receiving side connects with the app. */
  async connect(): Promise<void> {
    if (this.closed) return;
    await this.client.connect();
  }

  /** Called with the state of both connections whenever one of them changes. */
  onConnectionChange(listener: (state: { client: boolean; server: boolean }) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Emits `message` on `subject` (resync, or announce/withdraw of one service) if connected; returns whether it
   * was handed to NATS. Throws for an invalid message.
   */
  emit(subject: string, message: RegistrationMessage): boolean {
    encodeMessage(message, validatorFor(subject)); // refuse before anything is sent, synchronously
    if (!this.canEmit) return false;
    const pattern = subjectPattern(subject) as RegistrationSubject;
    const sent = lastValueFrom(this.client.emit(subject, message), { defaultValue: undefined }).then(
      () => countMessage(pattern, 'out'),
      (err: unknown) => this.logger.warn(`publishing ${subject}: ${String(err)}`),
    );
    this.pending.add(sent);
    void sent.finally(() => this.pending.delete(sent));
    return true;
  }

  /** Resolves once everything emitted so far was handed to the NATS client. */
  async flushed(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /** Lets what was emitted go out, then closes the client (the app closes the strategy). */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.flushed();
    this.closed = true;
    for (const unfollow of this.unfollow.splice(0)) unfollow();
    this.listeners.clear();
    if (this.clientUp) await this.drainClient();
    await this.client.close().catch((err: unknown) => this.logger.warn(`closing NATS client: ${String(err)}`));
  }

  /** drain() flushes what the NATS client still buffers; ClientNats.close() alone would drop it. */
  private async drainClient(): Promise<void> {
    try {
      await this.client.unwrap<{ drain(): Promise<void> }>().drain();
    } catch (err) {
      this.logger.warn(`draining NATS client: ${String(err)}`);
    }
  }

  private serverGeneration = 0;

  /**
   * The strategy reports "connected" just before it subscribes: it counts as up once a round trip on its
   * connection confirms the subscriptions are live, so nothing sent in answer to a resync can be missed.
   */
  private serverConnection(up: boolean): void {
    const generation = ++this.serverGeneration;
    if (!up) return this.set('server', false);
    void (async () => {
      await Promise.resolve(); // let the strategy subscribe first
      try {
        await this.server.unwrap<{ flush(): Promise<void> }>().flush();
      } catch {
        return; // disconnected meanwhile: the reconnect reports again
      }
      if (generation === this.serverGeneration && !this.closed) this.set('server', true);
    })();
  }

  private set(side: 'client' | 'server', up: boolean): void {
    if (side === 'client') this.clientUp = up;
    else this.serverUp = up;
    const state = { client: this.clientUp, server: this.serverUp };
    for (const listener of this.listeners) listener(state);
  }
}
