import { Module, type DynamicModule } from '@nestjs/common';
import { ApiServerModule, NamespaceLifecycleAdmission, type ServerConfig } from '@kube/apiserver';
import { Storage } from '@kube/storage';
import { ServiceAllocator, type PortRange } from './allocation/service.allocator';
import { BootstrapController } from './reconcilers/bootstrap.reconciler';
import { NamespaceController } from './reconcilers/namespace.reconciler';
import { buildCoreResources } from './core.resources';

export interface CoreApiOptions {
  config: ServerConfig;
  serviceClusterIPRange: string;
  serviceNodePortRange: PortRange;
  /** Accept 127.0.0.0/8 in Endpoints (local stacks, where aggregated servers listen on loopback). */
  allowLoopbackEndpoints?: boolean;
}

/**
 * core-api: the built-in resources on the generic API server, plus kube's bootstrap and namespace
 * controllers and the Service IP/port allocator.
 */
@Module({})
export class CoreApiModule {
  static forRoot(options: CoreApiOptions): DynamicModule {
    return {
      module: CoreApiModule,
      imports: [
        ApiServerModule.forRoot({
          config: options.config,
          providers: [
            {
              provide: ServiceAllocator,
              useFactory: (storage: Storage) => new ServiceAllocator(storage.client, options.serviceClusterIPRange, options.serviceNodePortRange),
              inject: [Storage],
            },
            { provide: NamespaceLifecycleAdmission, useFactory: (storage: Storage) => new NamespaceLifecycleAdmission(storage.resource({ group: '', resource: 'namespaces' }, 'namespaces')), inject: [Storage] },
          ],
          resources: { inject: [ServiceAllocator], useFactory: (allocator: ServiceAllocator) => buildCoreResources(allocator, { allowLoopback: options.allowLoopbackEndpoints ?? false }) },
          admission: { inject: [NamespaceLifecycleAdmission], useFactory: (namespaces: NamespaceLifecycleAdmission) => [namespaces] },
        }),
      ],
      providers: [BootstrapController, NamespaceController],
    };
  }
}
