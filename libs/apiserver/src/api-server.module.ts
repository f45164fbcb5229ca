import { Inject, Injectable, Logger, Module, Optional, type BeforeApplicationShutdown, type DynamicModule, type FactoryProvider, type OnApplicationBootstrap, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { AdmissionSources, MutatingWebhookAdmission, type AdmissionBackend, ValidatingAdmissionPolicyAdmission, ValidatingWebhookAdmission } from '@kube/admission';
import { SharedInformerFactory } from '@kube/client';
import { Storage } from '@kube/storage';
import { RegistrationAnnouncers, RegistrationModule } from '@kube/registration';
import { GenericApiServer } from './api-server';
import type { Authorizer } from './authorization/authorizer';
import { AUTHORIZER } from './authorization/authorizer.token';
import type { AdmissionPlugin, ResourceDefinition } from './resource.definition';
import { type ServerConfig, storageFor } from './server.config';
import { ServedGroupVersionsAnnouncer } from './registration.announce';
import { HealthChecks } from './health.checks';
import { informerProviders } from './informers.providers';
import { resolveServiceEndpoint, serviceStores } from './service.resolver';

export const SERVER_CONFIG = Symbol('SERVER_CONFIG');
/** The served ResourceDefinitions, a provider (from the module's `resources` option). */
export const API_SERVER_RESOURCES = Symbol('API_SERVER_RESOURCES');
/** The admission plugins, a provider (from the module's `admission` option). */
export const ADMISSION_PLUGINS = Symbol('ADMISSION_PLUGINS');

/** A list built by Nest from other providers (`forRootAsync` style): `{ inject: [Storage, X], useFactory: (storage, x) => [...] }`. */
export type ListProvider<T> = Omit<FactoryProvider<T[] | Promise<T[]>>, 'provide'>;

/** A fixed list, a list built from the Storage, or a list built from any providers. */
export type ListOption<T> = T[] | ((storage: Storage) => T[]) | ListProvider<T>;

export interface ApiServerModuleOptions {
  config: ServerConfig;
  /** The served resources; a factory or provider when they need the storage or other providers (allocators, lookups). */
  resources: ListOption<ResourceDefinition>;
  admission?: ListOption<AdmissionPlugin>;
  /** The app's providers the resource and admission factories inject (built and exported by this module). */
  providers?: Provider[];
  /**
   * Where admission webhooks and policies are configured from: default, this server's storage (the etcd core-api
   * writes them to); aggregated servers read them through the control plane's API.
   */
  admissionBackend?: (storage: Storage) => AdmissionBackend;
}

function listProvider<T>(provide: symbol, value: ListOption<T> | undefined): Provider {
  if (!value) return { provide, useValue: [] };
  if (Array.isArray(value)) return { provide, useValue: value };
  if (typeof value === 'function') return { provide, useFactory: value, inject: [Storage] };
  return { ...value, provide };
}

/**
 * The admission every server runs after its own plugins, in kube's order: mutating webhooks, then
 * ValidatingAdmissionPolicies, then validating webhooks (all configured through admissionregistration.k8s.io).
 */
function configuredAdmission(sources: AdmissionSources): AdmissionPlugin[] {
  return [new MutatingWebhookAdmission(sources), new ValidatingAdmissionPolicyAdmission(sources), new ValidatingWebhookAdmission(sources)];
}

/** The server's plugins, then the configured ones, with ResourceQuota kept last as in kube's plugin order. */
export function withConfiguredAdmission(own: readonly AdmissionPlugin[], sources: AdmissionSources): AdmissionPlugin[] {
  const last = own.filter((p) => p.name === 'ResourceQuota');
  return [...own.filter((p) => p.name !== 'ResourceQuota'), ...configuredAdmission(sources), ...last];
}

/** Starts the HTTPS listener once every module is initialised, and drains it on shutdown. */
@Injectable()
export class ApiServerLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('ApiServer');
  port = 0;

  private readonly announcer: ServedGroupVersionsAnnouncer;

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(Storage) private readonly storage: Storage,
    @Inject(SERVER_CONFIG) config: ServerConfig,
    @Inject(AdmissionSources) private readonly admissionSources: AdmissionSources,
    @Optional() @Inject(RegistrationAnnouncers) announcers?: RegistrationAnnouncers,
  ) {
    this.announcer = new ServedGroupVersionsAnnouncer(server, config, announcers);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.port = await this.server.listen();
    this.logger.log(`${this.server.options.component} serving on https://${this.server.options.bindAddress}:${this.port}`);
    // NATS may come up later: announcing must never hold back serving.
    this.announcer.start(this.port).catch((err: Error) => this.logger.warn(`NATS registration failed: ${err.message}`));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.announcer.close();
    await this.server.close();
    this.admissionSources.stop();
  }

  /** Last: Nest runs onModuleDestroy before beforeApplicationShutdown, and the steps above still need etcd. */
  async onApplicationShutdown(): Promise<void> {
    await this.storage.close();
  }
}

/**
 * The generic API server as a NestJS module: Storage (etcd), the GenericApiServer with the given resources
 * and admission plugins (providers), its health checks, the process's shared informers, and its lifecycle.
 * Apps import it and add their controllers.
 */
@Module({})
export class ApiServerModule {
  static forRoot(options: ApiServerModuleOptions): DynamicModule {
    return {
      module: ApiServerModule,
      global: true,
      imports: [RegistrationModule.forRoot({ natsUrl: options.config.natsUrl, tls: options.config.natsTls, name: options.config.server.component, announce: true })],
      providers: [
        { provide: SERVER_CONFIG, useValue: options.config },
        { provide: Storage, useFactory: () => storageFor(options.config) },
        listProvider(API_SERVER_RESOURCES, options.resources),
        listProvider(ADMISSION_PLUGINS, options.admission),
        ...(options.providers ?? []),
        {
          provide: AdmissionSources,
          useFactory: (storage: Storage) => {
            if (options.admissionBackend) return new AdmissionSources(options.admissionBackend(storage));
            const services = serviceStores(storage);
            return AdmissionSources.forStorage(storage, (ref) => resolveServiceEndpoint(services, ref));
          },
          inject: [Storage],
        },
        {
          provide: GenericApiServer,
          useFactory: (storage: Storage, resources: ResourceDefinition[], admission: AdmissionPlugin[], sources: AdmissionSources, authorizer?: Authorizer) => {
            const server = new GenericApiServer({ ...options.config.server, authorizer: authorizer ?? options.config.server.authorizer }, storage);
            server.install(resources, withConfiguredAdmission(admission, sources));
            return server;
          },
          inject: [Storage, API_SERVER_RESOURCES, ADMISSION_PLUGINS, AdmissionSources, { token: AUTHORIZER, optional: true }],
        },
        // Controllers register their readiness (post-start hooks) here themselves.
        { provide: HealthChecks, useFactory: (server: GenericApiServer) => server.health, inject: [GenericApiServer] },
        ...informerProviders(),
        ApiServerLifecycle,
      ],
      exports: [SERVER_CONFIG, Storage, GenericApiServer, HealthChecks, AdmissionSources, SharedInformerFactory, ApiServerLifecycle, ...(options.providers ?? [])],
    };
  }
}
