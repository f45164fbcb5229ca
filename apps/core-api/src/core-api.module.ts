import { Module, type DynamicModule } from '@nestjs/common';
import { ApiServerModule, NamespaceLifecycleAdmission, type ServerConfig } from '@kube/apiserver';
import { Storage } from '@kube/storage';
import { ServiceAllocator, type PortRange } from './allocation/service.allocator';
import { BootstrapController } from './controllers/bootstrap.controller';
import { NamespaceController } from './controllers/namespace.controller';
import { buildCoreResources } from './core.resources';
import { endpointsPolicy } from './resources/endpoints.resource';

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
    endpointsPolicy.allowLoopback = options.allowLoopbackEndpoints ?? false;
    const allocators = new WeakMap<Storage, ServiceAllocator>();
    const allocatorFor = (storage: Storage): ServiceAllocator => {
      let a = allocators.get(storage);
      if (!a) {
        a = new ServiceAllocator(storage.client, options.serviceClusterIPRange, options.serviceNodePortRange);
        allocators.set(storage, a);
      }
      return a;
    };
    return {
      module: CoreApiModule,
      imports: [
        ApiServerModule.forRoot({
          config: options.config,
          resources: (storage) => buildCoreResources(allocatorFor(storage)),
          admission: (storage) => [new NamespaceLifecycleAdmission(storage.resource({ group: '', resource: 'namespaces' }, 'namespaces'))],
        }),
      ],
      providers: [{ provide: ServiceAllocator, useFactory: allocatorFor, inject: [Storage] }, BootstrapController, NamespaceController],
    };
  }
}
