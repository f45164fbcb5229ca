/**
 * Self-registration as a NestJS module: once the server listens, create or update its Service, Endpoints and
 * APIService through the aggregator. /readyz reports `poststarthook/apiservice-registration` failed until then,
 * so a launcher that waits for readiness knows the API is routed. A failed registration fails the start.
 */
import { Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import { GenericApiServer } from '../api-server';
import { ApiServerLifecycle, SERVER_CONFIG } from '../api-server.module';
import type { ServerConfig } from '../server.config';
import { apiServiceName, registrationObjects, type ApiServiceRegistration } from './apiservice.objects';
import { RegistrationClient, type RegistrationTarget } from './registration.client';

export interface SelfRegistrationOptions {
  target: RegistrationTarget;
  /** Everything but where the server listens, which is known only once it does. */
  apiService: Omit<ApiServiceRegistration, 'address' | 'port'>;
  /** Endpoints address; defaults to the bind address (which must then be a concrete IP). */
  address?: string;
  /** The ports of every replica at `address` (this one's among them): each replica writes the same Endpoints. */
  replicaPorts?: number[];
  /** How long to keep trying while the aggregator is not up yet. */
  deadlineMs?: number;
}

/** An APIService as an app declares it: everything but where the server runs and its CA. */
export type ApiServiceIdentity = Omit<ApiServiceRegistration, 'address' | 'port' | 'caBundlePem'>;

/** Where and as whom to register, and the caBundle of the serving certificate (from the environment). */
export interface RegistrationOptions extends Omit<SelfRegistrationOptions, 'apiService'> {
  caBundlePem: string;
}

export const SELF_REGISTRATION = Symbol('SELF_REGISTRATION');
const HEALTH_CHECK = 'poststarthook/apiservice-registration';
const UNSPECIFIED_ADDRESSES = new Set(['0.0.0.0', '::', '']);

/** The Endpoints address: explicit, else the bind address unless that means "every interface". */
export function endpointAddress(options: Pick<SelfRegistrationOptions, 'address'>, bindAddress: string): string {
  const address = options.address ?? bindAddress;
  if (UNSPECIFIED_ADDRESSES.has(address)) {
    throw new Error(`cannot register ${bindAddress || 'an unspecified address'} as an Endpoints address: set KUBE_REGISTER_ADDRESS to this server's IP`);
  }
  return address;
}

@Injectable()
export class ApiServiceRegistrar implements OnApplicationBootstrap {
  private readonly logger = new Logger('ApiServiceRegistrar');
  private registered = false;

  constructor(
    @Inject(SELF_REGISTRATION) private readonly options: SelfRegistrationOptions,
    @Inject(SERVER_CONFIG) private readonly config: ServerConfig,
    @Inject(ApiServerLifecycle) private readonly lifecycle: ApiServerLifecycle,
    @Inject(GenericApiServer) server: GenericApiServer,
  ) {
    server.health.add(HEALTH_CHECK, () => {
      if (!this.registered) throw new Error('APIService not registered yet');
    }, ['readyz']);
  }

  async onApplicationBootstrap(): Promise<void> {
    const registration: ApiServiceRegistration = {
      ...this.options.apiService,
      address: endpointAddress(this.options, this.config.server.bindAddress),
      port: this.lifecycle.port,
      replicaPorts: this.options.replicaPorts,
    };
    const client = new RegistrationClient(this.options.target, this.options.deadlineMs);
    await client.apply(registrationObjects(registration));
    this.registered = true;
    this.logger.log(`registered APIService ${apiServiceName(registration)} → ${registration.address}:${registration.port} through ${this.options.target.url}`);
  }
}

@Module({})
export class SelfRegistrationModule {
  static forRoot(options: SelfRegistrationOptions): DynamicModule {
    return { module: SelfRegistrationModule, providers: [{ provide: SELF_REGISTRATION, useValue: options }, ApiServiceRegistrar] };
  }

  /** What an app module imports: registration of its APIService when asked to, nothing otherwise. */
  static when(apiService: ApiServiceIdentity, registration: RegistrationOptions | undefined): DynamicModule[] {
    if (!registration) return [];
    const { caBundlePem, ...rest } = registration;
    return [SelfRegistrationModule.forRoot({ ...rest, apiService: { ...apiService, caBundlePem } })];
  }
}
