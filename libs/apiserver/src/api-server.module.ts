import { Inject, Injectable, Logger, Module, type BeforeApplicationShutdown, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Storage } from '@kube/storage';
import { GenericApiServer } from './api-server';
import type { AdmissionPlugin, ResourceDefinition } from './resource.definition';
import type { ServerConfig } from './server.config';
import { ServedGroupVersionsAnnouncer } from './registration.announce';

export const SERVER_CONFIG = Symbol('SERVER_CONFIG');
export const API_SERVER_RESOURCES = Symbol('API_SERVER_RESOURCES');

export interface ApiServerModuleOptions {
  config: ServerConfig;
  /** The served resources, or a factory when they need the storage (allocators, lookups). */
  resources: ResourceDefinition[] | ((storage: Storage) => ResourceDefinition[]);
  admission?: AdmissionPlugin[] | ((storage: Storage) => AdmissionPlugin[]);
}

function resolve<T>(value: T[] | ((storage: Storage) => T[]) | undefined, storage: Storage): T[] {
  if (!value) return [];
  return typeof value === 'function' ? value(storage) : value;
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
  ) {
    this.announcer = new ServedGroupVersionsAnnouncer(server, config);
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
  }

  /** Last: Nest runs onModuleDestroy before beforeApplicationShutdown, and the steps above still need etcd. */
  async onApplicationShutdown(): Promise<void> {
    await this.storage.close();
  }
}

/**
 * The generic API server as a NestJS module: Storage (etcd), the GenericApiServer with the given resources
 * and admission plugins, and its lifecycle. Apps import it and add their controllers.
 */
@Module({})
export class ApiServerModule {
  static forRoot(options: ApiServerModuleOptions): DynamicModule {
    return {
      module: ApiServerModule,
      global: true,
      providers: [
        { provide: SERVER_CONFIG, useValue: options.config },
        { provide: Storage, useFactory: () => new Storage({ endpoints: options.config.etcdEndpoints, tls: options.config.etcdTls }) },
        {
          provide: GenericApiServer,
          useFactory: (storage: Storage) => {
            const server = new GenericApiServer(options.config.server, storage);
            server.install(resolve(options.resources, storage), resolve(options.admission, storage));
            return server;
          },
          inject: [Storage],
        },
        ApiServerLifecycle,
      ],
      exports: [SERVER_CONFIG, Storage, GenericApiServer, ApiServerLifecycle],
    };
  }
}
