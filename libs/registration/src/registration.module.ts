/**
 * Registration as a Nest module. A server process is a Nest microservice (see createServerApp in
 * @kube/apiserver): its transport strategy, REGISTRATION_TRANSPORT, delivers the registration subjects to the
 * @EventPattern handlers below; its HTTPS server is its own, started by a lifecycle provider.
 */
import { Controller, type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Ctx, EventPattern, NatsContext, Payload } from '@nestjs/microservices';
import { RegistrationAnnouncers } from './registration.announcers';
import { RegistrationRegistry, type RegistrationRegistryOptions } from './registration.registry';
import { RegistrationSubjects } from './registration.subjects';
import { NoRegistrationTransport, RegistrationBus, type RegistrationTransportOptions } from './registration.transport';

/** The transport strategy of the process: RegistrationNatsServer with NATS, NoRegistrationTransport without. */
export const REGISTRATION_TRANSPORT = Symbol('REGISTRATION_TRANSPORT');

export interface RegistrationModuleOptions extends Omit<RegistrationTransportOptions, 'natsUrl'> {
  /** Without it there is no registration: no connection, and no announcers or registry to inject. */
  readonly natsUrl?: string | readonly string[];
  /** Serving instances: announce what they serve and answer resync requests. */
  readonly announce?: boolean;
  /** The aggregator: keep a registry of every live instance (name defaults to the module's name). */
  readonly registry?: boolean | RegistrationRegistryOptions;
}

@Controller()
export class AnnouncerEventsController {
  constructor(@Inject(RegistrationAnnouncers) private readonly announcers: RegistrationAnnouncers) {}

  @EventPattern(RegistrationSubjects.resync)
  resync(@Payload() data: Uint8Array): void {
    this.announcers.handleResync(data);
  }
}

@Controller()
export class RegistryEventsController {
  constructor(@Inject(RegistrationRegistry) private readonly registry: RegistrationRegistry) {}

  // The subscriptions are wildcards (one subject per service): the context has the subject the message came on.
  @EventPattern(RegistrationSubjects.announce)
  announce(@Payload() data: Uint8Array, @Ctx() context: NatsContext): void {
    this.registry.handleAnnouncement(data, context.getSubject());
  }

  @EventPattern(RegistrationSubjects.withdraw)
  withdraw(@Payload() data: Uint8Array, @Ctx() context: NatsContext): void {
    this.registry.handleWithdrawal(data, context.getSubject());
  }
}

/** Closes the emitting side last, after every announcer withdrew (the app closes the strategy itself). */
@Injectable()
class RegistrationBusLifecycle implements OnApplicationShutdown {
  constructor(@Inject(RegistrationBus) private readonly bus: RegistrationBus) {}

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}

@Module({})
export class RegistrationModule {
  static forRoot(options: RegistrationModuleOptions): DynamicModule {
    const { natsUrl } = options;
    if (!natsUrl) {
      return { module: RegistrationModule, global: true, providers: [{ provide: REGISTRATION_TRANSPORT, useValue: new NoRegistrationTransport() }], exports: [REGISTRATION_TRANSPORT] };
    }
    const registry = options.registry === true ? {} : options.registry || undefined;
    return {
      module: RegistrationModule,
      global: true,
      controllers: [...(options.announce ? [AnnouncerEventsController] : []), ...(registry ? [RegistryEventsController] : [])],
      providers: [
        { provide: RegistrationBus, useFactory: () => new RegistrationBus({ ...options, natsUrl }) },
        { provide: REGISTRATION_TRANSPORT, useFactory: (bus: RegistrationBus) => bus.server, inject: [RegistrationBus] },
        { provide: RegistrationAnnouncers, useFactory: (bus: RegistrationBus) => new RegistrationAnnouncers(bus), inject: [RegistrationBus] },
        ...(registry ? [{ provide: RegistrationRegistry, useFactory: (bus: RegistrationBus) => new RegistrationRegistry(bus, { name: options.name, ...registry }), inject: [RegistrationBus] }] : []),
        RegistrationBusLifecycle,
      ],
      exports: [REGISTRATION_TRANSPORT, RegistrationBus, RegistrationAnnouncers, ...(registry ? [RegistrationRegistry] : [])],
    };
  }
}
